# What each rank gets from the child that starts it (spawn.c): the process
# group led by rank 0, the signal dispositions and fd limit shmrun started
# with, an empty signal mask; and an exec that fails in the child after shmrun
# resolved the program is reported by each rank, with nothing left behind.
. "$SHMPI_TOP/tests/lib.sh"

# Each rank prints: rank pid pgid sigblk sigign nofile
cat >"$TMP/probe" <<'EOF'
#!/bin/sh
set -- $(cut -d' ' -f1,5 /proc/$$/stat)
blk=$(sed -n 's/^SigBlk:[[:space:]]*//p' /proc/$$/status)
ign=$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/$$/status)
echo "$SHMPI_RANK $1 $2 $blk $ign $(ulimit -n)"
EOF
chmod 755 "$TMP/probe"

# SIGUSR1 ignored and a low fd limit when shmrun starts: shmrun raises its
# own limit for 8 ranks and ignores SIGPIPE, the ranks must not see either
# (what shmrun starts with is the wrapper's: exec keeps what is ignored)
# (SIGPIPE at its default whatever the caller ignores, so that one ignored
# by shmrun would show; a soft limit only, so that shmrun can raise it)
env --default-signal=PIPE sh -c 'trap "" USR1; ulimit -Sn 40
	sed -n "s/^SigIgn:[[:space:]]*//p" /proc/$$/status >"$2"
	exec "$0" -n 8 "$1"' "$SHMRUN" "$TMP/probe" "$TMP/entry_ign" >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_eq "probe: status ($(cat "$TMP/err"))" "$rc" 0
expect_no_shm_left "the probe job"
sort -n "$TMP/out" >"$TMP/rep"
expect_eq "probe: lines" "$(wc -l <"$TMP/rep")" 8
mypgid=$(cut -d' ' -f5 /proc/$$/stat)
entry_ign=$(cat "$TMP/entry_ign")
# bit 9 is SIGUSR1: ignored at entry, so it must stay ignored
case $entry_ign in *[2367abefABEF]??) ;; *) fail "SIGUSR1 not ignored at entry: $entry_ign" ;; esac
# bit 12 is SIGPIPE: at its default at entry, so the ranks must not ignore it
case $entry_ign in *[13579bdfBDF]???) fail "SIGPIPE ignored at entry: $entry_ign" ;; esac
leader=$(awk '$1 == 0 { print $2 }' "$TMP/rep")
while read -r rank pid pgid blk ign nofile; do
	expect_eq "rank $rank: process group" "$pgid" "$leader"
	expect_eq "rank $rank: blocked signals" "$blk" 0000000000000000
	# exactly what shmrun started with: not the SIGPIPE shmrun ignores
	expect_eq "rank $rank: ignored signals" "$ign" "$entry_ign"
	expect_eq "rank $rank: fd limit" "$nofile" 40
done <"$TMP/rep"
[ "$leader" != "$mypgid" ] || fail "the ranks are in the caller's process group"

# the program exists and is executable, but its interpreter does not: each
# child's execve fails with ENOENT, says so, and the job ends with 127
printf '#!/nonexistent/interpreter\n' >"$TMP/badinterp"
chmod 755 "$TMP/badinterp"
run_job "$TMP/out" "$TMP/err" -- -n 4 "$TMP/badinterp"
expect_eq "exec fails in the child: status" "$rc" 127
expect_match "exec fails in the child: message" "$(cat "$TMP/err")" \
	"^shmrun: $TMP/badinterp: No such file or directory$"
expect_match "exec fails in the child: the rank" "$(cat "$TMP/err")" \
	"^shmrun: rank [0-3] exited with status 127$"
expect_eq "exec fails in the child: stdout" "$(cat "$TMP/out")" ""

# and shmrun starts the next job normally
run_job "$TMP/out" "$TMP/err" -- -n 8 true
expect_eq "after a failed exec: status" "$rc" 0
exit 0
