# A rank killed by a signal: 128 + the signal, one line naming rank and
# signal, and the other ranks (sleeping a minute) are ended at once.
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/shmrun/common"

start=$(now)
run_job "$TMP/out" "$TMP/err" -- -n 4 sh -c \
	'[ "$SHMPI_RANK" = 1 ] && kill -SEGV $$; exec sleep 60'
expect_eq "SIGSEGV: status" "$rc" 139
expect_faster "ending the other ranks" "$start" 10
expect_eq "SIGSEGV: stderr" "$(cat "$TMP/err")" \
	"shmrun: rank 1 was killed by signal 11 (Segmentation fault)"

# a rank that ignores SIGTERM gets SIGKILL after the grace period; rank 0
# aborts once ranks 1 and 2 are ready (ignoring SIGTERM)
start=$(now)
run_job "$TMP/out" "$TMP/err" -- -n 3 --kill-grace 0.5 sh -c "
	if [ \$SHMPI_RANK = 0 ]; then
		i=0
		while [ \$(ls '$TMP' | grep -c '^ready') -lt 2 ] && [ \$i -lt 500 ]; do
			sleep 0.02; i=\$((i + 1))
		done
		kill -ABRT \$\$
	fi
	trap '' TERM; touch '$TMP/ready.'\$SHMPI_RANK; exec sleep 60"
expect_eq "SIGABRT: status" "$rc" 134
expect_faster "SIGKILL after the grace period" "$start" 10
expect_match "SIGABRT: message" "$(cat "$TMP/err")" \
	"^shmrun: rank 0 was killed by signal 6 \(Aborted\)"
expect_match "SIGKILL message" "$(cat "$TMP/err")" \
	"shmrun: ranks 1-2 still running after 0.5 s; killing them"
exit 0
