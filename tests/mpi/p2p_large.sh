# The large-count point-to-point calls and MPI_Isendrecv(_replace)
# (tests/progs/p2p_large.c) at 1, 2, 3 and 8 ranks under weak and strong
# progress, and a negative count that the fatal handler reports naming the
# large-count call and its argument.
. "$SHMPI_TOP/tests/lib.sh"

bad=
for n in 1 2 3 8; do
	for p in weak strong; do
		run_case "p2p_large -n $n $p" "ok p2p_c
ok counts
ok isendrecv" -- -n $n --progress=$p --timeout 120 "$PROGS/p2p_large"
	done
done

run_job "$TMP/out" "$TMP/err" -- -n 2 --timeout 120 "$PROGS/p2p_large" fatal
[ "$rc" -ne 0 ] || bad="$bad fatal(exit 0)"
grep -q 'MPI_Send_c: argument count: -3 is negative \[MPI_ERR_COUNT' "$TMP/err" ||
	{ sed 's/^/    /' "$TMP/err"; bad="$bad fatal"; }

[ -z "$bad" ] || fail "failed:$bad"
exit 0
