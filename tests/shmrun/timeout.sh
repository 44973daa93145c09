# --timeout: the job ends after S seconds plus the grace period with 124,
# and shmrun names the ranks still running.
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/shmrun/common"

start=$(now)
run_job "$TMP/out" "$TMP/err" -- --timeout 1 -n 4 sleep 30
expect_eq "timeout: status" "$rc" 124
expect_faster "timeout 1" "$start" 4
expect_eq "timeout: stderr" "$(cat "$TMP/err")" \
	"shmrun: timeout after 1 s; still running: ranks 0-3"

# two ranks are done already; rank 3 ignores SIGTERM and needs SIGKILL
start=$(now)
run_job "$TMP/out" "$TMP/err" -- --timeout 0.5 --kill-grace 0.5 -n 4 sh -c \
	'case $SHMPI_RANK in 0|2) exit 0 ;; 3) trap "" TERM ;; esac; exec sleep 30'
expect_eq "partial timeout: status" "$rc" 124
expect_faster "timeout 0.5 and grace 0.5" "$start" 4
expect_eq "partial timeout: stderr" "$(cat "$TMP/err")" \
	"shmrun: timeout after 0.5 s; still running: ranks 1, 3
shmrun: rank 3 still running after 0.5 s; killing it"

# a job that ends in time is not touched
run_job "$TMP/out" "$TMP/err" -- --timeout 30 -n 2 echo fine
expect_eq "in time: status" "$rc" 0
expect_eq "in time: output" "$(cat "$TMP/out")" "fine
fine"
exit 0
