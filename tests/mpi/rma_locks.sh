# Passive-target locks at 2, 3 and 8 ranks, under weak and strong progress
# (tests/progs/rma_locks.c):
# exclusive locks exclude (a counter written in two halves never tears,
# thousands of rounds), shared locks and lock_all admit each other, a
# writer behind a stream of readers gets in, lock_all and exclusive locks
# exclude each other, one lock per target, MPI_MODE_NOCHECK.  Bounded
# waits: a serializing or starving lock fails, it does not hang.
. "$SHMPI_TOP/tests/lib.sh"

# Each test on its own job, so one failure does not hide the others.
tests="exclusive mixed shared writer reader lock_all wakeup nocheck"
bad=
for mode in weak strong; do
	for n in 2 3 8; do
		for t in $tests; do
			run_case "$t/$n/$mode" "ok $t" -- -n $n --progress=$mode \
				--timeout 40 "$PROGS/rma_locks" $t
		done
	done
done
[ -z "$bad" ] || fail "rma_locks:$bad"
exit 0
