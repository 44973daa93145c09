# The watchdog's options: --deadlock-timeout 0 turns it off, --timeout with
# --report-on-timeout prints the same table, bad values are usage errors,
# and --help documents them and exit status 123.
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/watch/common"

# off: the deadlock is ended by --timeout (124) without a report
run_job "$TMP/out" "$TMP/err" -- --deadlock-timeout 0 --timeout 2 -n 2 \
	"$EX/pscw_exchange" start-post 8
expect_eq "watchdog off: status" "$rc" 124
expect_eq "watchdog off: stderr" "$(cat "$TMP/err")" \
	"shmrun: timeout after 2 s; still running: ranks 0-1"

# --report-on-timeout: the table and the cycle before the ranks are stopped
run_job "$TMP/out" "$TMP/err" -- --deadlock-timeout 0 --timeout 2 --report-on-timeout \
	-n 2 "$EX/pscw_exchange" wait-complete 8
err=$(cat "$TMP/err")
expect_eq "report on timeout: status" "$rc" 124
has_line "timeout" '^shmrun: timeout after 2 s; still running: ranks 0-1$'
has_line "rank 0" '^shmrun: rank 0: in MPI_Win_wait for [0-9.]+ s, waiting for the MPI_Win_complete of rank 1'
has_line "rank 1" '^shmrun: rank 1: in MPI_Win_wait for [0-9.]+ s, waiting for the MPI_Win_complete of rank 0'
has_line "cycle" '^shmrun: wait-for cycle: rank 0 waits in MPI_Win_wait'
expect_eq "no verdict" "$(count_lines 'deadlock:')" 0

# a longer --deadlock-timeout waits longer
start=$(now)
run_job "$TMP/out" "$TMP/err" -- --deadlock-timeout 2.5 --timeout 60 -n 2 \
	"$EX/pscw_send_recv" deadlock 8
expect_eq "timeout 2.5: status" "$rc" 123
awk -v a="$start" -v b="$(now)" 'BEGIN { exit !(b - a >= 2.5) }' ||
	fail "--deadlock-timeout 2.5 fired early"
expect_match "timeout 2.5" "$(cat "$TMP/err")" "nothing has moved for 2.5 s"

# a job without MPI is never judged
run_job "$TMP/out" "$TMP/err" -- --deadlock-timeout 0.5 --timeout 60 -n 2 sleep 1.5
expect_eq "no MPI: status" "$rc" 0

# usage
for bad in "--deadlock-timeout -1" "--deadlock-timeout x" "--stall-action maybe" \
	   "--stall-action="; do
	# shellcheck disable=SC2086
	"$SHMRUN" $bad -n 1 true >"$TMP/out" 2>"$TMP/err"
	expect_eq "$bad: status" "$?" 125
done
"$SHMRUN" --stall-action maybe -n 1 true 2>"$TMP/err"
expect_match "bad action" "$(head -n 1 "$TMP/err")" "'maybe' is not auto, report or kill"
"$SHMRUN" --help >"$TMP/out"
help=$(cat "$TMP/out")
for want in "--deadlock-timeout S" "--stall-action ACTION" "--report-on-timeout" \
	    "(default: 3)" "(default: auto)" "  123 "; do
	printf '%s\n' "$help" | grep -qF -- "$want" || fail "--help lacks '$want'"
done
exit 0
