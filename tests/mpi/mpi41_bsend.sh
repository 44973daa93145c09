# The buffers of buffered sends of MPI 4.1 (section 3.6.1: the process's,
# a communicator's, a session's, MPI_BUFFER_AUTOMATIC, flush and iflush),
# checked by their results at 1, 2, 3 and 8 ranks under weak and strong
# progress, and an error that the fatal handler reports naming the call
# and the argument.
. "$SHMPI_TOP/tests/lib.sh"

bad=
for n in 1 2 3 8; do
	for p in weak strong; do
		run_case "mpi41_bsend -n $n $p" "ok comm_buffer
ok automatic
ok session_buffer" -- -n $n --progress=$p --timeout 120 "$PROGS/mpi41_bsend"
	done
done

run_job "$TMP/out" "$TMP/err" -- -n 2 --timeout 120 "$PROGS/mpi41_bsend" fatal
[ "$rc" -eq 1 ] || bad="$bad fatal(exit $rc)"
grep -q 'MPI_Comm_attach_buffer: argument buffer: a buffer is already attached \[MPI_ERR_BUFFER' \
	"$TMP/err" || { sed 's/^/    /' "$TMP/err"; bad="$bad fatal"; }

[ -z "$bad" ] || fail "failed:$bad"
exit 0
