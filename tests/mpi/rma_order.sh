# Active-target ordering at 2, 3 and 8 ranks, under weak and strong
# progress (tests/progs/rma_order.c):
# stores before MPI_Win_post are what the origins get, puts are visible
# after MPI_Win_wait / MPI_Win_test, epochs match one to one with each rank
# posting to its two neighbours (and MPI_MODE_NOCHECK), MPI_Win_test is
# false until complete, fence with and without assertions.
. "$SHMPI_TOP/tests/lib.sh"

# Each test on its own job, so one failure does not hide the others.
tests="pscw win_test star fence"
bad=
for mode in weak strong; do
	for n in 2 3 8; do
		for t in $tests; do
			run_case "$t/$n/$mode" "ok $t" -- -n $n --progress=$mode \
				--timeout 40 "$PROGS/rma_order" $t
		done
	done
done
[ -z "$bad" ] || fail "rma_order:$bad"
exit 0
