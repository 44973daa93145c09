# The MPI_T events at 1, 2 and 8 ranks under weak and strong progress: the
# event types and their source, handles bound to communicators and windows,
# callbacks at each safety level receiving each event with its data (an
# unexpected message, the way of a rendezvous message, a passive-target
# lock wait), the dropped handler when a handle's buffer overflows, freeing
# handles, and the error classes (tests/progs/mpit_events.c); at 2 ranks
# under MPI_THREAD_MULTIPLE too.
. "$SHMPI_TOP/tests/lib.sh"

bad=
for mode in weak strong; do
	for n in 1 2 8; do
		want="ok enumerate
ok unexpected
ok rndv"
		[ "$n" -ge 2 ] && want="$want
ok locks
ok dropped"
		want="$want
ok free
ok errors"
		run_case "$n/$mode" "$want" -- -n $n --progress=$mode \
			--timeout 120 "$PROGS/mpit_events"
	done
done
# the same under MPI_THREAD_MULTIPLE, where every call holds the library's
# lock and the end of each outermost one delivers
for mode in weak strong; do
	run_case "2/$mode/multiple" "ok enumerate
ok unexpected
ok rndv
ok locks
ok dropped
ok free
ok errors" -- -n 2 --progress=$mode --timeout 120 "$PROGS/mpit_events" multiple
done
[ -z "$bad" ] || fail "mpit_events:$bad"
exit 0
