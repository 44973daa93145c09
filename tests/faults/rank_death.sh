# A rank that segfaults, is killed, exits without MPI_Finalize or calls
# MPI_Abort while holding a window lock, inside a fence, in a PSCW epoch,
# while the others wait for its message, or while another rank copies a
# large message out of its memory (process_vm_readv, src/p2p_copy.c), or
# while it helps another rank copy one (SHMPI_SINGLE_COPY_SHARE): the job ends within seconds,
# shmrun names the rank and how it ended, no process of the job survives,
# and /dev/shm holds nothing of it.
. "$SHMPI_TOP/tests/lib.sh"
# under the sanitizers a SIGSEGV must still kill the rank, not be reported
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
export TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS:}handle_segv=0"

n=0
for where in lock fence epoch recv send shared; do
	for how in segv kill exit abort; do
		[ "$where.$how" != shared.abort ] || continue
		start=$(date +%s)
		run_job "$TMP/out" "$TMP/err" -- -n 4 --timeout 30 "$PROGS/fault" $how $where
		took=$(( $(date +%s) - start ))
		case $how in
		segv) want=139 msg="rank 1 was killed by signal 11" ;;
		kill) want=137 msg="rank 1 was killed by signal 9" ;;
		exit) want=1 msg="rank 1 exited before MPI_Finalize" ;;
		abort) want=9 msg="rank 1 called MPI_Abort" ;;
		esac
		expect_eq "$how in $where: exit status ($(cat "$TMP/err"))" "$rc" "$want"
		expect_match "$how in $where: report" "$(cat "$TMP/err")" "$msg"
		grep -q "got through" "$TMP/out" && fail "$how in $where: a rank got through"
		[ "$took" -lt 10 ] || fail "$how in $where: the job took $took s to end"
		# nothing of the job survives
		left=$(pgrep -f "$PROGS/fault" || true)
		[ -z "$left" ] || fail "$how in $where: processes survive: $left"
		n=$((n + 1))
	done
done
echo "$n fault scenarios"
exit 0
