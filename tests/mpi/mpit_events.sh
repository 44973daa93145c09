# The MPI_T events at 1, 2 and 8 ranks under weak and strong progress: the
# event types and their source, handles bound to communicators and windows,
# callbacks at each safety level receiving each event with its data (an
# unexpected message, the way of a rendezvous message, a passive-target
# lock wait on a direct and on a private target), the dropped handler when
# a handle's buffer overflows, freeing handles, and the error classes
# (tests/progs/mpit_events.c); at 2 ranks under MPI_THREAD_MULTIPLE too.
. "$SHMPI_TOP/tests/lib.sh"

# want N: what the program prints at N ranks
want() {
	echo "ok enumerate"
	echo "ok unexpected"
	echo "ok rndv"
	if [ "$1" -ge 2 ]; then
		echo "ok locks"
		echo "ok locks private"
		echo "ok dropped"
	fi
	echo "ok free"
	echo "ok errors"
}

bad=
for mode in weak strong; do
	for n in 1 2 8; do
		run_case "$n/$mode" "$(want $n)" -- -n $n --progress=$mode --timeout 120 \
			"$PROGS/mpit_events"
	done
	# MPI_THREAD_MULTIPLE: every call holds the library's lock, and the end
	# of each outermost one delivers
	run_case "2/$mode/multiple" "$(want 2)" -- -n 2 --progress=$mode --timeout 120 \
		"$PROGS/mpit_events" multiple
done
[ -z "$bad" ] || fail "mpit_events:$bad"
exit 0
