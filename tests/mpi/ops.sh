# Reduction ops through MPI_Reduce_local: every predefined op on every
# predefined type, derived types, user ops and the error classes, at 1 and
# 2 ranks (local checks on every rank).
. "$SHMPI_TOP/tests/lib.sh"

want="ok pairs ok values ok derived ok user ok errors"
for n in 1 2; do
	run_job "$TMP/out" "$TMP/err" -- -n $n --timeout 120 "$PROGS/op_reduce"
	expect_eq "op_reduce -n $n exit ($(cat "$TMP/err"))" "$rc" 0
	expect_eq "op_reduce -n $n" "$(tr '\n' ' ' <"$TMP/out" | sed 's/ $//')" "$want"
done
exit 0
