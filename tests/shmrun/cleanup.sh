# Every /dev/shm object named after the job (the ranks' window segments
# too) is gone after the job, however it ends; other jobs' objects are not
# touched while they live.
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/shmrun/common"

uid=$(id -u)
make_obj=': >"/dev/shm/shmpi-$(id -u)-$SHMPI_JOB-win$SHMPI_RANK"'

run_job "$TMP/out" "$TMP/err" -- -n 3 sh -c "$make_obj"
expect_eq "success: status" "$rc" 0
run_job "$TMP/out" "$TMP/err" -- -n 3 sh -c "$make_obj; exit 2"
expect_eq "failure: status" "$rc" 2
run_job "$TMP/out" "$TMP/err" -- -n 2 sh -c "$make_obj; kill -KILL \$\$"
expect_eq "killed rank: status" "$rc" 137
run_job "$TMP/out" "$TMP/err" -- -n 2 --timeout 0.2 sh -c "$make_obj; exec sleep 30"
expect_eq "timeout: status" "$rc" 124

# a job running next to another keeps the other's objects
"$SHMRUN" -n 1 sh -c "echo \$SHMPI_JOB >'$TMP/first.tmp'; mv '$TMP/first.tmp' '$TMP/first'; exec sleep 30" \
	>/dev/null 2>&1 &
first=$!
wait_until "the first job" 10 test -e "$TMP/first"
first_objects() {
	shm_objects | grep -- "-$(cat "$TMP/first")-" || true
}
before=$(first_objects)
[ -n "$before" ] || fail "the first job has no control segment"
"$SHMRUN" -n 2 true || fail "the second job failed"
expect_eq "the first job's objects" "$(first_objects)" "$before"
kill -TERM $first
wait $first
expect_eq "the first job's objects after it" "$(first_objects)" ""
expect_no_shm_left "both jobs"
exit 0
