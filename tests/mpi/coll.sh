# Every collective at 1, 2, 3, 5 and 8 ranks, on MPI_COMM_WORLD, on split
# and on duplicated communicators.
. "$SHMPI_TOP/tests/lib.sh"

for n in 1 2 3 5 8; do
	run_job "$TMP/out" "$TMP/err" -- -n $n --timeout 120 "$PROGS/coll_all"
	expect_eq "coll_all -n $n exit ($(cat "$TMP/err"))" "$rc" 0
	expect_eq "coll_all -n $n" "$(tr '\n' ' ' <"$TMP/out" | sed 's/ $//')" \
		"ok world ok split ok dup"
done
# glibc's memcpy storing non-temporally from its lowest threshold on: the
# slots are published only after those stores
run_job "$TMP/out" "$TMP/err" -- -n 3 --timeout 120 \
	-x GLIBC_TUNABLES=glibc.cpu.x86_non_temporal_threshold=0x4040 "$PROGS/coll_all"
expect_eq "coll_all -n 3, low non-temporal threshold, exit ($(cat "$TMP/err"))" "$rc" 0
expect_eq "coll_all -n 3, low non-temporal threshold" \
	"$(tr '\n' ' ' <"$TMP/out" | sed 's/ $//')" "ok world ok split ok dup"
exit 0
