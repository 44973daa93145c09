# shmrun killed with SIGKILL: its ranks die with it (PR_SET_PDEATHSIG), the
# control segment stays, and `shmrun --cleanup` (or the next job) removes it.
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/shmrun/common"

# kill_shmrun_mid_job: start a job of 2 ranks, SIGKILL shmrun, wait for the
# ranks to die
kill_shmrun_mid_job() {
	rm -f "$TMP"/pid.*
	"$SHMRUN" -n 2 sh -c "echo \$SHMPI_JOB >'$TMP/job'; echo \$\$ >'$TMP/pid.'\$SHMPI_RANK.tmp; mv '$TMP/pid.'\$SHMPI_RANK.tmp '$TMP/pid.'\$SHMPI_RANK; exec sleep 60" \
		>"$TMP/out" 2>"$TMP/err" &
	pid=$!
	wait_until "the ranks to start" 10 has_files "$TMP" "pid.[01]$" 2
	kill -KILL $pid
	wait $pid
	for f in "$TMP"/pid.0 "$TMP"/pid.1; do
		wait_until "rank $(cat "$f") to die with shmrun" 10 gone "$(cat "$f")"
	done
}

# the objects of the job started last
job_objects() {
	shm_objects | grep -- "-$(cat "$TMP/job")-" || true
}

expect_no_shm_left "before the test"
kill_shmrun_mid_job
expect_eq "the killed job's objects" "$(job_objects)" "shmpi-$(id -u)-$(cat "$TMP/job")-ctl"
"$SHMRUN" --cleanup >"$TMP/out" 2>"$TMP/err"
expect_eq "--cleanup: status" "$?" 0
expect_match "--cleanup: output" "$(cat "$TMP/out")" "^removed [1-9][0-9]* objects of dead jobs$"
expect_eq "--cleanup: the killed job's objects" "$(job_objects)" ""
expect_no_shm_left "shmrun --cleanup"

# the next job removes the leftovers by itself, silently
kill_shmrun_mid_job
[ -n "$(job_objects)" ] || fail "the second killed job left nothing (test assumption)"
run_job "$TMP/out" "$TMP/err" -- -n 1 true
expect_eq "next job: status" "$rc" 0
expect_eq "next job: stderr" "$(cat "$TMP/err")" ""
exit 0
