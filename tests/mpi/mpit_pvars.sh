# The MPI_T performance variables at 1, 2, 3, 4 and 8 ranks under weak and
# strong progress: each rank's counts are exactly what a known program did
# (RMA by kind and path, with derived datatypes; locks, their waits and
# time; flushes; messages and the unexpected queue), the sessions' start,
# stop, write, reset and readreset, the categories, and the error classes
# (tests/progs/mpit_pvars.c); and the example examples/mpit_pvars.c.
. "$SHMPI_TOP/tests/lib.sh"

bad=
for mode in weak strong; do
	for n in 1 2 3 4 8; do
		want="ok rma ok private"
		[ "$n" -ge 2 ] && want="$want ok locks"
		want="$want ok p2p ok sessions ok categories ok errors"
		run_job "$TMP/out" "$TMP/err" -- -n $n --progress=$mode --timeout 120 \
			"$PROGS/mpit_pvars"
		got=$(tr '\n' ' ' <"$TMP/out" | sed 's/ $//')
		if [ "$rc" -ne 0 ] || [ "$got" != "$want" ]; then
			echo "mpit_pvars -n $n $mode: exit $rc, '$got'"
			sed 's/^/    /' "$TMP/err"
			bad="$bad $n/$mode"
		fi
	done
done
[ -z "$bad" ] || fail "mpit_pvars:$bad"

# the example prints what an RMA run did: 10 puts and a turn at the lock
# per rank, 8 bytes each
for mode in weak strong; do
	run_job "$TMP/out" "$TMP/err" -- -n 4 --progress=$mode --timeout 60 \
		"$SHMPI_BUILD/examples/mpit_pvars" 10
	expect_eq "example $mode: exit ($(cat "$TMP/err"))" "$rc" 0
	expect_match "example $mode: puts" "$(cat "$TMP/out")" \
		"rma_put_direct +14 +14 +14 +14"
	expect_match "example $mode: bytes" "$(cat "$TMP/out")" \
		"rma_put_direct_bytes +112 +112 +112 +112"
	expect_match "example $mode: locks" "$(cat "$TMP/out")" "rma_lock_direct +8 +8 +8 +8"
	if grep -q "not in this MPI" "$TMP/out"; then
		fail "example $mode: variables missing: $(cat "$TMP/out")"
	fi
done
exit 0
