# Signals to shmrun: the first is passed on to every rank, the job ends with
# 128 + the signal and leaves nothing in /dev/shm; a second one kills the
# ranks at once.
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/shmrun/common"

# start_job CMD...: run CMD (shmrun) in the background, its pid in $pid
start_job() {
	"$@" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
}

ranks_up() {
	has_files "$TMP" "$1." "$2"
}

# the ranks catch SIGTERM and say so, once each: the trap takes a while,
# so that a second delivery would run it again
start=$(now)
start_job "$SHMRUN" -n 3 sh -c "trap 'echo term \$SHMPI_RANK; sleep 0.3; exit 0' TERM; touch '$TMP/up.'\$SHMPI_RANK; sleep 60 & wait"
wait_until "the ranks to start" 10 ranks_up up 3
kill -TERM $pid
wait $pid
rc=$?
expect_eq "SIGTERM: status" "$rc" 143
expect_faster "SIGTERM" "$start" 10
expect_eq "SIGTERM: forwarded" "$(sort "$TMP/out" | tr '\n' ' ')" "term 0 term 1 term 2 "
expect_eq "SIGTERM: message" "$(cat "$TMP/err")" "shmrun: got SIGTERM; passing it on to the ranks"
expect_no_shm_left "SIGTERM to shmrun"

# the ranks ignore SIGTERM, the grace period is long: a second signal ends it
start=$(now)
start_job "$SHMRUN" -n 2 --kill-grace 60 sh -c "trap '' TERM HUP; touch '$TMP/deaf.'\$SHMPI_RANK; exec sleep 60"
wait_until "the ranks to start" 10 ranks_up deaf 2
kill -TERM $pid
wait_until "shmrun to see the first signal" 10 grep -q "got SIGTERM" "$TMP/err"
kill -HUP $pid
wait $pid
rc=$?
expect_eq "second signal: status" "$rc" 143
expect_faster "second signal" "$start" 10
expect_match "second signal: message" "$(cat "$TMP/err")" "got SIGHUP; killing the ranks now"
expect_no_shm_left "two signals to shmrun"

# SIGTSTP stops the ranks and shmrun, SIGCONT lets them go on (the ranks
# exec sleep: a shell that forks could wait in vfork for a stopped child)
is_state() {
	[ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" = "$2" ]
}
ranks_state() {
	is_state "$(cat "$TMP/pid.0")" "$1" && is_state "$(cat "$TMP/pid.1")" "$1" &&
		is_state "$pid" "$1"
}
start_job "$SHMRUN" -n 2 sh -c \
	"echo \$\$ >'$TMP/tmp'\$SHMPI_RANK; mv '$TMP/tmp'\$SHMPI_RANK '$TMP/pid.'\$SHMPI_RANK; exec sleep 60"
wait_until "the ranks to start" 10 ranks_up pid 2
kill -TSTP $pid
wait_until "the job to stop" 10 ranks_state T
kill -CONT $pid
wait_until "the job to go on" 10 ranks_state S
kill -TERM $pid
wait $pid
rc=$?
expect_eq "SIGTSTP, SIGCONT, SIGTERM: status" "$rc" 143
expect_no_shm_left "SIGTSTP to shmrun"

# SIGINT (a terminal's Ctrl-C): shells start background jobs with SIGINT
# ignored, and shmrun leaves an ignored signal ignored; env restores it
if env --default-signal=INT true 2>/dev/null; then
	start_job env --default-signal=INT "$SHMRUN" -n 2 sh -c \
		"touch '$TMP/int.'\$SHMPI_RANK; exec sleep 60"
	wait_until "the ranks to start" 10 ranks_up int 2
	kill -INT $pid
	wait $pid
	rc=$?
	expect_eq "SIGINT: status" "$rc" 130
	expect_eq "SIGINT: message" "$(cat "$TMP/err")" "shmrun: got SIGINT; passing it on to the ranks"
	expect_no_shm_left "SIGINT to shmrun"
fi
exit 0
