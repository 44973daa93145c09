# Buffered sends at 1, 2, 3 and 8 ranks.
. "$SHMPI_TOP/tests/lib.sh"

for n in 1 2 3 8; do
	run_job "$TMP/out" "$TMP/err" -- -n $n --timeout 120 "$PROGS/p2p_bsend"
	expect_eq "p2p_bsend -n $n exit ($(cat "$TMP/err"))" "$rc" 0
	expect_eq "p2p_bsend -n $n" "$(tr '\n' ' ' <"$TMP/out" | sed 's/ $//')" \
		"ok attach ok full ok large ok ibsend ok reuse ok finalize"
done
exit 0
