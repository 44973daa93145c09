# Every collective at 1, 2, 3, 5 and 8 ranks, on MPI_COMM_WORLD, on split
# and on duplicated communicators.
. "$SHMPI_TOP/tests/lib.sh"

for n in 1 2 3 5 8; do
	run_job "$TMP/out" "$TMP/err" -- -n $n --timeout 120 "$PROGS/coll_all"
	expect_eq "coll_all -n $n exit ($(cat "$TMP/err"))" "$rc" 0
	expect_eq "coll_all -n $n" "$(tr '\n' ' ' <"$TMP/out" | sed 's/ $//')" \
		"ok world ok split ok dup"
done
exit 0
