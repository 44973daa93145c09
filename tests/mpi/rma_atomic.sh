# Accumulate atomicity under contention at 2, 3 and 8 ranks
# (tests/progs/rma_atomic.c): every fetched value accounted for
# (Fetch_and_op, Get_accumulate, Compare_and_swap on int, long, double;
# compare-and-swap on double, long double and an unaligned double complex),
# MAXLOC/MINLOC on pair types, mixed ops on one element form one history,
# derived datatypes, MPI_SUM on MPI_CHAR, zero-count operations, long
# accumulates (plain kernels behind the gate) racing with short ones, and
# the gate changing modes under them.
. "$SHMPI_TOP/tests/lib.sh"

# Each test on its own job, so one failure does not hide the others.
tests="fetch_and_op accumulate bulk gate compare_and_swap cas_widths loc widths ordering types mixed derived char zero"
bad=
for mode in weak; do
	for n in 2 3 8; do
		for t in $tests; do
			run_case "$t/$n/$mode" "ok $t" -- -n $n --progress=$mode \
				--timeout 40 "$PROGS/rma_atomic" $t
		done
	done
done
# the gate's other side: both sides fence (no membarrier)
for n in 2 8; do
	run_case "bulk/$n/fenced" "ok bulk" -- -n $n --timeout 40 \
		-x SHMPI_MEMBARRIER=0 "$PROGS/rma_atomic" bulk
done
[ -z "$bad" ] || fail "rma_atomic:$bad"
exit 0
