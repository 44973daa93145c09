# An 8-rank ring of 1 MiB messages on this 2-core machine finishes in a few
# seconds at most (a sanity bound; tools/bench measures the real figure).
. "$SHMPI_TOP/tests/lib.sh"

start=$(date +%s.%N)
run_job "$TMP/out" "$TMP/err" -- -n 8 --timeout 60 "$PROGS/p2p_ring" 20
end=$(date +%s.%N)
expect_eq "p2p_ring exit ($(cat "$TMP/err"))" "$rc" 0
expect_match "p2p_ring" "$(cat "$TMP/out")" "^8 ranks, 20 rounds of 1 MiB"
awk -v a="$start" -v b="$end" 'BEGIN { exit !(b - a < 5) }' ||
	fail "8-rank ring took $(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }') s"
# glibc's memcpy storing non-temporally from its lowest threshold on: the
# ring's records are published only after those stores
run_job "$TMP/out" "$TMP/err" -- -n 8 --timeout 60 \
	-x GLIBC_TUNABLES=glibc.cpu.x86_non_temporal_threshold=0x4040 "$PROGS/p2p_ring" 20
expect_eq "p2p_ring, low non-temporal threshold, exit ($(cat "$TMP/err"))" "$rc" 0
expect_match "p2p_ring, low non-temporal threshold" "$(cat "$TMP/out")" \
	"^8 ranks, 20 rounds of 1 MiB"
exit 0
