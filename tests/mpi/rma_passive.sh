# Truly passive target at 2, 3 and 8 ranks (tests/progs/rma_passive.c):
# while rank 0 computes outside MPI, every other rank's put, get, the
# accumulate family, lock, unlock, lock_all, flush and sync on its window,
# and start/complete after its post, finish in under a tenth of the
# target's compute budget.  Under weak and strong progress.
. "$SHMPI_TOP/tests/lib.sh"

# Each test on its own job, so one failure does not hide the others.
tests="passive pscw"
bad=
for mode in weak strong; do
	for n in 2 3 8; do
		for t in $tests; do
			run_case "$t/$n/$mode" "ok $t" -- -n $n --progress=$mode \
				--timeout 40 "$PROGS/rma_passive" $t
		done
	done
done
[ -z "$bad" ] || fail "rma_passive:$bad"
exit 0
