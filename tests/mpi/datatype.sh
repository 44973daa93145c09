# Derived datatypes: every constructor's layout, bounds and decoding at 1
# and 2 ranks (local checks on every rank), and derived types in messages
# around a ring at 1, 2 and 3 ranks (contiguous data at a displacement too).
. "$SHMPI_TOP/tests/lib.sh"

want="ok predefined ok contiguous ok vector ok indexed ok struct ok resized ok subarray ok dup ok nested ok merge ok contents ok names ok pack ok address ok errors"
for n in 1 2; do
	run_job "$TMP/out" "$TMP/err" -- -n $n --timeout 120 "$PROGS/dt_types"
	expect_eq "dt_types -n $n exit ($(cat "$TMP/err"))" "$rc" 0
	expect_eq "dt_types -n $n" "$(tr '\n' ' ' <"$TMP/out" | sed 's/ $//')" "$want"
done

want="ok vector ok struct ok subarray ok elements ok packed ok displaced ok free_pending"
for n in 1 2 3; do
	run_job "$TMP/out" "$TMP/err" -- -n $n --timeout 120 "$PROGS/dt_comm"
	expect_eq "dt_comm -n $n exit ($(cat "$TMP/err"))" "$rc" 0
	expect_eq "dt_comm -n $n" "$(tr '\n' ' ' <"$TMP/out" | sed 's/ $//')" "$want"
done
exit 0
