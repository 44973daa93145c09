# SHMPI_CHANNEL_BYTES: the size of every point-to-point ring, from the knob
# table: point-to-point works at the smallest and the largest, MPI_T shows
# the value, a malformed one is refused, and -x cannot give the ranks another
# value than the one the job was laid out with.
. "$SHMPI_TOP/tests/lib.sh"

for bytes in 4k 1m; do
	SHMPI_CHANNEL_BYTES=$bytes run_job "$TMP/out" "$TMP/err" -- -n 3 --timeout 120 \
		"$PROGS/p2p_calls" huge
	expect_eq "$bytes rings: 64 MiB messages ($(cat "$TMP/err"))" "$rc" 0
	expect_eq "$bytes rings: output" "$(cat "$TMP/out")" "ok huge"
	SHMPI_CHANNEL_BYTES=$bytes run_job "$TMP/out" "$TMP/err" -- -n 2 --timeout 60 \
		"$PROGS/mpit_cvars"
	expect_eq "$bytes rings: mpit_cvars ($(cat "$TMP/err"))" "$rc" 0
	grep -q "^cvar SHMPI_CHANNEL_BYTES enum ro $bytes\$" "$TMP/out" ||
		fail "MPI_T does not show SHMPI_CHANNEL_BYTES=$bytes: $(cat "$TMP/out")"
done
SHMPI_CHANNEL_BYTES=3k run_job "$TMP/out" "$TMP/err" -- -n 2 "$PROGS/run_mpi"
expect_eq "SHMPI_CHANNEL_BYTES=3k: status" "$rc" 125
expect_match "SHMPI_CHANNEL_BYTES=3k: message" "$(head -n 1 "$TMP/err")" \
	"^shmrun: SHMPI_CHANNEL_BYTES=3k is malformed \\(it takes auto\\|4k\\|"
run_job "$TMP/out" "$TMP/err" -- -n 2 -x SHMPI_CHANNEL_BYTES=8k "$PROGS/run_mpi"
expect_eq "-x SHMPI_CHANNEL_BYTES: status" "$rc" 125
expect_match "-x SHMPI_CHANNEL_BYTES: message" "$(head -n 1 "$TMP/err")" \
	"^shmrun: -x SHMPI_CHANNEL_BYTES=8k: shmrun sets this variable"
exit 0
