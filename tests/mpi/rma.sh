# RMA on shared memory at 1, 2, 3 and 8 ranks: every window flavor, every
# communication call under every synchronization, atomicity under
# contention, locks, epoch and range errors.
. "$SHMPI_TOP/tests/lib.sh"

want="ok modes ok large ok atomicity ok exclusive ok shared ok create ok derived ok errors"
for n in 1 2 3 8; do
	run_job "$TMP/out" "$TMP/err" -- -n $n --timeout 120 "$PROGS/rma_basic"
	expect_eq "rma_basic -n $n exit ($(cat "$TMP/err"))" "$rc" 0
	expect_eq "rma_basic -n $n" "$(tr '\n' ' ' <"$TMP/out" | sed 's/ $//')" "$want"
done
exit 0
