# Output: whole lines, stdout to stdout and stderr to stderr, --tag-output,
# partial last lines, lines longer than the buffer, many lines of two ranks
# written in pieces at once, a closed stdout, and pipes a rank's child holds
# open.
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/shmrun/common"

run_job "$TMP/out" "$TMP/err" -- -n 1 sh -c 'echo out; echo err >&2'
expect_eq "streams: stdout" "$(cat "$TMP/out")" "out"
expect_eq "streams: stderr" "$(cat "$TMP/err")" "err"

# a partial last line: as is, or tagged and marked
run_job "$TMP/out" "$TMP/err" -- -n 1 printf 'no newline'
printf 'no newline' >"$TMP/want"
cmp -s "$TMP/out" "$TMP/want" || fail "partial line: got '$(cat "$TMP/out")'"
run_job "$TMP/out" "$TMP/err" -- -n 2 --tag-output sh -c \
	'echo "line $SHMPI_RANK"; printf "tail $SHMPI_RANK"; printf "e$SHMPI_RANK\n" >&2'
expect_eq "tagged: status" "$rc" 0
expect_eq "tagged: rank 0" "$(grep '^\[0\] ' "$TMP/out")" "[0] line 0
[0] tail 0 [no newline]"
expect_eq "tagged: rank 1" "$(grep '^\[1\] ' "$TMP/out")" "[1] line 1
[1] tail 1 [no newline]"
expect_eq "tagged: lines" "$(wc -l <"$TMP/out")" 4
expect_eq "tagged: stderr" "$(sort "$TMP/err" | tr '\n' ' ')" "[0] e0 [1] e1 "

# untagged, a partial line shows up before its rank's end (progress dots),
# and is not written again when the line ends
rm -f "$TMP/out"
"$SHMRUN" -n 1 sh -c "printf .; while [ ! -e '$TMP/go' ]; do sleep 0.02; done; echo done" \
	>"$TMP/out" 2>"$TMP/err" &
pid=$!
wait_until "the partial line" 5 test -s "$TMP/out"
touch "$TMP/go"
wait $pid
expect_eq "dots: status" "$?" 0
printf '.done\n' >"$TMP/want"
cmp -s "$TMP/out" "$TMP/want" || fail "dots: got '$(cat "$TMP/out")'"
expect_no_shm_left "the dots job"

# a line longer than the buffer (64 KiB) comes through whole
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "0123456789"; printf "\n" }' >"$TMP/long"
run_job "$TMP/out" "$TMP/err" -- -n 1 cat "$TMP/long"
cmp -s "$TMP/out" "$TMP/long" || fail "a 200000-byte line changed"
run_job "$TMP/out" "$TMP/err" -- -n 1 --tag-output cat "$TMP/long"
expect_eq "long tagged: untagged pieces" "$(grep -vc '^\[0\] ' "$TMP/out")" 0
expect_eq "long tagged: content" "$(sed 's/^\[0\] //' "$TMP/out" | tr -d '\n' | wc -c)" 200000

# two ranks each write 3000 lines, every line in two writes: no line is
# split or mixed with another
writer='BEGIN {
	r = ENVIRON["SHMPI_RANK"]
	for (i = 0; i < 3000; i++) {
		printf "rank %d line %d ", r, i; fflush()
		printf "abcdefghijklmnopqrstuvwxyz0123456789\n"; fflush()
	}
}'
SHMPI_RANK=0 awk "$writer" >"$TMP/want"
SHMPI_RANK=1 awk "$writer" >>"$TMP/want"
sort "$TMP/want" >"$TMP/want.sorted"
run_job "$TMP/out" "$TMP/err" -- -n 2 awk "$writer"
sort "$TMP/out" | cmp -s - "$TMP/want.sorted" || fail "untagged lines were split or mixed"
run_job "$TMP/out" "$TMP/err" -- -n 2 --tag-output awk "$writer"
sed -n 's/^\[\([01]\)\] \(rank \1 \)/\2/p' "$TMP/out" | sort | cmp -s - "$TMP/want.sorted" ||
	fail "tagged lines were split, mixed or mistagged"

# a reader that goes away: the ranks get SIGPIPE as if they wrote there
{ timeout 20 "$SHMRUN" -n 2 yes 2>"$TMP/err"; echo $? >"$TMP/rc"; } | head -n 1 >"$TMP/out"
expect_eq "closed stdout: status" "$(cat "$TMP/rc")" 141
expect_eq "closed stdout: output" "$(cat "$TMP/out")" "y"
expect_match "closed stdout: message" "$(cat "$TMP/err")" "killed by signal 13"
expect_no_shm_left "the job with a closed stdout"

# a child that left the ranks' process group keeps the rank's pipes open
# after the rank is gone: shmrun ends after a second of silence on them,
# with what came before, not when the child does
start=$(now)
run_job "$TMP/out" "$TMP/err" -- -n 1 sh -c \
	"echo before; setsid sh -c 'echo \$\$ >\"$TMP/child\"; exec sleep 30' & echo after"
took_ok=$(awk -v a="$start" -v b="$(now)" 'BEGIN { print (b - a < 10) }')
[ -s "$TMP/child" ] && kill "$(cat "$TMP/child")" 2>/dev/null
expect_eq "pipes held open: status" "$rc" 0
expect_eq "pipes held open: ended before the child" "$took_ok" 1
expect_eq "pipes held open: output" "$(cat "$TMP/out")" "before
after"
exit 0
