# Exit statuses: every rank succeeds; one rank fails with a code and the
# others, sleeping, are ended at once; ranks stopped by shmrun decide nothing;
# stdout carries only the ranks' output; stdin reaches rank 0 only.
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/shmrun/common"

run_job "$TMP/out" "$TMP/err" -- -n 4 true
expect_eq "all succeed: status" "$rc" 0
expect_eq "all succeed: stdout" "$(cat "$TMP/out")" ""
expect_eq "all succeed: stderr" "$(cat "$TMP/err")" ""

# rank 2 of 4 exits 3; the others would sleep a minute
start=$(now)
run_job "$TMP/out" "$TMP/err" -- -n 4 sh -c \
	'if [ "$SHMPI_RANK" = 2 ]; then echo "rank 2 fails" >&2; exit 3; fi; exec sleep 60'
expect_eq "rank 2 fails: status" "$rc" 3
expect_faster "ending the other ranks" "$start" 10
# one line about it, after what the rank said last
expect_eq "rank 2 fails: stderr" "$(cat "$TMP/err")" \
	"rank 2 fails
shmrun: rank 2 exited with status 3"

# the others exit 9 when shmrun stops them: still rank 0's status
run_job "$TMP/out" "$TMP/err" -- -n 3 sh -c \
	'[ "$SHMPI_RANK" = 0 ] && exit 4; trap "exit 9" TERM; sleep 60 & wait'
expect_eq "stopped ranks decide nothing" "$rc" 4
expect_eq "stopped ranks: stderr" "$(cat "$TMP/err")" "shmrun: rank 0 exited with status 4"

# a program that never calls MPI and exits 0 is fine
run_job "$TMP/out" "$TMP/err" -- -n 2 hostname
expect_eq "hostname: status" "$rc" 0
expect_eq "hostname: lines" "$(wc -l <"$TMP/out")" 2

# shmrun's own words go to stderr, never to stdout
run_job "$TMP/out" "$TMP/err" -- --verbose -n 2 echo hi
expect_eq "verbose: status" "$rc" 0
expect_eq "verbose: stdout" "$(cat "$TMP/out")" "hi
hi"
expect_match "verbose: stderr" "$(cat "$TMP/err")" "^shmrun: job [0-9a-f]{16}"

# stdin goes to rank 0; the others read /dev/null
printf 'one\ntwo\n' >"$TMP/in"
run_job "$TMP/out" "$TMP/err" -- -n 3 --tag-output cat <"$TMP/in"
expect_eq "stdin: status" "$rc" 0
expect_eq "stdin: output" "$(cat "$TMP/out")" "[0] one
[0] two"

# started with SIGCHLD ignored (children reap themselves): shmrun still
# gets its ranks' statuses
if command -v perl >/dev/null 2>&1; then
	perl -e '$SIG{CHLD} = "IGNORE"; exec @ARGV' "$SHMRUN" -n 2 sh -c \
		'exit $((SHMPI_RANK * 5))' >"$TMP/out" 2>"$TMP/err"
	expect_eq "SIGCHLD ignored: status" "$?" 5
	expect_no_shm_left "the job with SIGCHLD ignored"
fi
# a closed stdin is /dev/null
run_job "$TMP/out" "$TMP/err" -- -n 2 cat <&-
expect_eq "closed stdin: status" "$rc" 0
expect_eq "closed stdin: output" "$(cat "$TMP/out")" ""
exit 0
