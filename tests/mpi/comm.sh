# Groups, communicators, attributes, info and MPI_Alloc_mem at 1, 2, 3, 5
# and 8 ranks.
. "$SHMPI_TOP/tests/lib.sh"

for n in 1 2 3 5 8; do
	run_job "$TMP/out" "$TMP/err" -- -n $n --timeout 120 "$PROGS/comm_group"
	expect_eq "comm_group -n $n exit ($(cat "$TMP/err"))" "$rc" 0
	expect_eq "comm_group -n $n" "$(tr '\n' ' ' <"$TMP/out" | sed 's/ $//')" \
		"ok groups ok comms ok attributes ok info ok alloc_mem"
done
exit 0
