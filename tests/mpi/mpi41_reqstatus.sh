# MPI_Request_get_status_all, _any and _some (MPI 4.1, section 3.7.5),
# checked by their results at 1, 2, 3 and 8 ranks under weak and strong
# progress, and an error that the fatal handler reports naming the call
# and the argument.
. "$SHMPI_TOP/tests/lib.sh"

bad=
for n in 1 2 3 8; do
	for p in weak strong; do
		run_case "mpi41_reqstatus -n $n $p" "ok get_status_all
ok get_status_any_some
ok get_status_greq
ok get_status_errors" -- -n $n --progress=$p --timeout 120 "$PROGS/mpi41_reqstatus"
	done
done

run_job "$TMP/out" "$TMP/err" -- -n 2 --timeout 120 "$PROGS/mpi41_reqstatus" fatal
[ "$rc" -eq 7 ] || bad="$bad fatal(exit $rc)"
grep -q 'MPI_Request_get_status_all: argument request: 0x5a5a5a5a is not a valid request \[MPI_ERR_REQUEST' \
	"$TMP/err" || { sed 's/^/    /' "$TMP/err"; bad="$bad fatal"; }

[ -z "$bad" ] || fail "failed:$bad"
exit 0
