# On a terminal (a pty from script(1)): rank 0 reads the terminal through
# shmrun, since the ranks are not in its foreground process group; the
# others read /dev/null; Ctrl-C reaches shmrun alone, which passes it on.
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/shmrun/common"

command -v script >/dev/null 2>&1 || skip "no script(1) to make a terminal"

# typed input, then ^D
printf 'typed line\n\004' | timeout 20 script -qec \
	"exec '$SHMRUN' -n 2 --tag-output sh -c 'read x; echo got \$x; read y || echo eof'" \
	/dev/null >"$TMP/out" 2>&1
rc=$?
expect_eq "terminal stdin: status ($(cat "$TMP/out"))" "$rc" 0
expect_eq "terminal stdin: rank 0" "$(tr -d '\r' <"$TMP/out" | grep '^\[0\]')" "[0] got typed line
[0] eof"
expect_eq "terminal stdin: rank 1" "$(tr -d '\r' <"$TMP/out" | grep '^\[1\]')" "[1] got
[1] eof"
expect_no_shm_left "the terminal job"

# ^C once every rank runs
{
	wait_until "the ranks to start" 10 has_files "$TMP" ready 2
	printf '\003'
} | timeout 20 script -qec \
	"exec '$SHMRUN' -n 2 sh -c 'touch \"$TMP/ready.\$SHMPI_RANK\"; exec sleep 60'" \
	/dev/null >"$TMP/out" 2>&1
rc=$?
expect_eq "Ctrl-C: status ($(cat "$TMP/out"))" "$rc" 130
expect_match "Ctrl-C: message" "$(cat "$TMP/out")" "shmrun: got SIGINT; passing it on to the ranks"
expect_no_shm_left "the Ctrl-C job"
exit 0
