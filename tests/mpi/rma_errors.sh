# RMA error classes through MPI_ERRORS_RETURN at 2, 3 and 8 ranks, under
# weak and strong progress
# (tests/progs/rma_errors.c); after each error the windows are unchanged
# and fence, lock, PSCW and lock_all epochs still work.
. "$SHMPI_TOP/tests/lib.sh"

# Each test on its own job, so one failure does not hide the others.
tests="sync_no_epoch sync_locks sync_active rank range type_op locktype_assert win_flavor_nolocks user_handler"
bad=
for mode in weak strong; do
	for n in 2 3 8; do
		for t in $tests; do
			run_case "$t/$n/$mode" "ok $t" -- -n $n --progress=$mode \
				--timeout 40 "$PROGS/rma_errors" $t
		done
	done
done
[ -z "$bad" ] || fail "rma_errors:$bad"
exit 0
