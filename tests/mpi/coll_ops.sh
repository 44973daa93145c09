# Every predefined op on every predefined type it applies to, through
# MPI_Allreduce, MPI_Reduce and MPI_Scan, at 1, 2, 3, 5 and 8 ranks.
. "$SHMPI_TOP/tests/lib.sh"

for n in 1 2 3 5 8; do
	run_job "$TMP/out" "$TMP/err" -- -n $n --timeout 120 "$PROGS/coll_ops"
	expect_eq "coll_ops -n $n exit ($(cat "$TMP/err"))" "$rc" 0
	expect_match "coll_ops -n $n" "$(cat "$TMP/out")" "^ok [0-9]+ \(op, type, count\)"
done
exit 0
