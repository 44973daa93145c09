# The Sessions Model (MPI 4.1, section 11.3; tests/progs/sessions.c) at 1,
# 2, 3 and 8 ranks under weak and strong progress: sessions alone, beside
# MPI_Init (before and inside a session), two sessions at once, two
# threads making communicators with their own string tags; also as a
# singleton.  Then the errors: erroneous calls under MPI_ERRORS_RETURN
# return their classes, a bad process set name under the default handler
# ends the job naming the call and the argument, a call after the last
# session ends the process, sessions may follow each other and MPI_Init
# follow them, and the library does not start again after MPI_Finalize.
. "$SHMPI_TOP/tests/lib.sh"

bad=
for mode in weak strong; do
	for n in 1 2 3 8; do
		for t in alone world world_last two threads errors; do
			run_case "$t/$n/$mode" "ok $t" -- -n $n --progress=$mode --timeout 60 \
				"$PROGS/sessions" $t
		done
	done
done
for mode in weak strong; do
	for n in 1 3; do
		run_case "reinit/$n/$mode" "ok reinit" -- -n $n --progress=$mode --timeout 60 \
			"$PROGS/sessions" reinit
	done
done
[ -z "$bad" ] || fail "sessions:$bad"

# without shmrun, a job of one rank brought up by its session
"$PROGS/sessions" alone >"$TMP/out" 2>"$TMP/err" || fail "singleton: $(cat "$TMP/err")"
expect_eq "singleton output" "$(cat "$TMP/out")" "ok alone"
expect_no_shm_left "a singleton"

# MPI_ERR_ARG (class 13) through the session's MPI_ERRORS_ARE_FATAL
run_job "$TMP/out" "$TMP/err" -- -n 3 --timeout 60 "$PROGS/sessions" fatal
expect_eq "fatal exit ($(cat "$TMP/err"))" "$rc" 13
expect_match "fatal message" "$(cat "$TMP/err")" \
	'MPI_Group_from_session_pset: argument pset_name: "mpi://NOWHERE" names no process set \[MPI_ERR_ARG'

run_job "$TMP/out" "$TMP/err" -- -n 2 --timeout 60 "$PROGS/sessions" after
[ "$rc" -ne 0 ] || fail "a call after the last session succeeded"
expect_match "after message" "$(cat "$TMP/err")" \
	"MPI_Comm_rank called after the last MPI_Session_finalize"
exit 0
