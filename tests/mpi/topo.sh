# Process topologies at 1, 2, 3, 4, 6 and 8 ranks against hand-computed
# results.
. "$SHMPI_TOP/tests/lib.sh"

for n in 1 2 3 4 6 8; do
	run_job "$TMP/out" "$TMP/err" -- -n $n --timeout 60 "$PROGS/topo"
	expect_eq "topo -n $n exit ($(cat "$TMP/err"))" "$rc" 0
	expect_eq "topo -n $n" "$(tr '\n' ' ' <"$TMP/out" | sed 's/ $//')" \
		"ok dims ok cart ok graph"
done
exit 0
