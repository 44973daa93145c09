# Accumulate atomicity under contention at 2, 3 and 8 ranks, under weak
# and strong progress
# (tests/progs/rma_atomic.c): every fetched value accounted for
# (Fetch_and_op, Get_accumulate, Compare_and_swap on int, long, double;
# compare-and-swap on double, long double and an unaligned double complex),
# MAXLOC/MINLOC on pair types, mixed ops on one element form one history,
# derived datatypes, MPI_SUM on MPI_CHAR, zero-count operations, long
# accumulates (up to hundreds of KiB) racing with short ones, and runs of short ones alternating
# with long ones.
. "$SHMPI_TOP/tests/lib.sh"

# Each test on its own job, so one failure does not hide the others.
tests="fetch_and_op accumulate bulk alternating large few compare_and_swap cas_widths loc widths ordering types mixed derived char zero"
bad=
for mode in weak strong; do
	for n in 2 3 8; do
		for t in $tests; do
			run_case "$t/$n/$mode" "ok $t" -- -n $n --progress=$mode \
				--timeout 40 "$PROGS/rma_atomic" $t
		done
	done
done
[ -z "$bad" ] || fail "rma_atomic:$bad"
exit 0
