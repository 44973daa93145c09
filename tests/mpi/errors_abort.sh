# MPI_ERRORS_ABORT (MPI 4.1, section 9.3) on a communicator, on
# MPI_COMM_SELF, through MPI_Comm_call_errhandler, on a window and on a
# session: the failing call ends the whole job (the other ranks wait in a
# barrier rank 0 never reaches) with the error class as its status, the
# error named (call, argument, class) and shmrun saying rank 0 aborted.
. "$SHMPI_TOP/tests/lib.sh"

bad=
# case WHAT STATUS MESSAGE (a grep -E regex of the error line)
case_abort() {
	run_job "$TMP/out" "$TMP/err" -- -n 3 --timeout 60 "$PROGS/errors_abort" "$1"
	if [ "$rc" -ne "$2" ] ||
	   ! grep -Eq "^shmpi: rank 0: $3" "$TMP/err" ||
	   ! grep -q "^shmrun: rank 0 called MPI_Abort (error code $2)" "$TMP/err"; then
		echo "$1: exit $rc, want $2"
		sed 's/^/    /' "$TMP/out" "$TMP/err"
		bad="$bad $1"
	fi
}

case_abort comm 6 'MPI_Send: argument dest: 8 is not a rank of .* \[MPI_ERR_RANK'
case_abort self 6 'MPI_Send: argument dest: 3 is not a rank of MPI_COMM_SELF .*\[MPI_ERR_RANK'
case_abort call 16 'MPI_Comm_call_errhandler: raised by the program \[MPI_ERR_OTHER'
case_abort win 35 'MPI_Win_fence: argument assert: 0x5 .*\[MPI_ERR_ASSERT'
case_abort session 13 'MPI_Session_get_nth_pset: argument n: 99 .*\[MPI_ERR_ARG'

[ -z "$bad" ] || fail "failed:$bad"
exit 0
