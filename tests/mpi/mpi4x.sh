# The calls of MPI 4.0 and 4.1 that shmpi has (README, "What is implemented"),
# checked by their results at 1, 2, 3 and 8 ranks under weak and strong
# progress, and an error that the fatal handler reports naming the call and
# the argument.
. "$SHMPI_TOP/tests/lib.sh"

bad=
for n in 1 2 3 8; do
	for p in weak strong; do
		run_case "mpi40_calls -n $n $p" "ok info_get_string
ok info_create_env
ok dup_with_info" -- -n $n --progress=$p --timeout 120 "$PROGS/mpi40_calls" one two
		run_case "mpi41_calls -n $n $p" "ok status
ok remove_error" -- -n $n --progress=$p --timeout 120 "$PROGS/mpi41_calls"
	done
done

run_job "$TMP/out" "$TMP/err" -- -n 2 --timeout 120 "$PROGS/mpi41_calls" fatal
[ "$rc" -ne 0 ] || bad="$bad fatal(exit 0)"
grep -q 'MPI_Remove_error_code: argument errorcode: .* not an error code the program added \[MPI_ERR_ARG' \
	"$TMP/err" || { sed 's/^/    /' "$TMP/err"; bad="$bad fatal"; }

[ -z "$bad" ] || fail "failed:$bad"
exit 0
