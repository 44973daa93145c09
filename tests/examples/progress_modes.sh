# The standard's progress scenarios under weak and strong progress, each with its
# expected outcome, several times: the completing ones must complete every
# time, the deadlocking ones must deadlock every time and the stalling one
# stall every time, each ended by shmrun's watchdog (exit status 123, with
# its verdict) after --deadlock-timeout 1; --timeout only bounds a hang.
. "$SHMPI_TOP/tests/lib.sh"
EX="$SHMPI_BUILD/examples"

# expect_outcome WHAT WANT(ok|deadlock|stall) shmrun-args...
expect_outcome() {
	what=$1 want=$2
	shift 2
	run_job "$TMP/out" "$TMP/err" -- --deadlock-timeout 1 "$@"
	case $want in
	ok) [ "$rc" -eq 0 ] || fail "$what: exit $rc, want completion: $(cat "$TMP/err")" ;;
	deadlock|stall)
		verdict=$([ $want = stall ] && echo "weak-progress stall" || echo deadlock)
		[ "$rc" -eq 123 ] && grep -q "^shmrun: $verdict: " "$TMP/err" ||
			fail "$what: exit $rc, want the watchdog's $verdict: $(cat "$TMP/err")" ;;
	esac
}

for mode in weak strong; do
	for i in 1 2 3; do
		for bytes in 8 65536 67108864; do
			expect_outcome "figure 32, $bytes bytes, $mode" ok \
				-n 2 --progress=$mode --timeout 60 "$EX/pscw_exchange" post-start $bytes
		done
		expect_outcome "post and start swapped, $mode" deadlock \
			-n 2 --progress=$mode --timeout 30 "$EX/pscw_exchange" start-post 8
		expect_outcome "complete and wait swapped, $mode" deadlock \
			-n 2 --progress=$mode --timeout 30 "$EX/pscw_exchange" wait-complete 8
		expect_outcome "figure 33, $mode" deadlock \
			-n 2 --progress=$mode --timeout 30 "$EX/pscw_send_recv" deadlock 8
		expect_outcome "figure 34 with a large put, $mode" ok \
			-n 2 --progress=$mode --timeout 60 "$EX/pscw_send_recv" ok 16777216
		expect_outcome "MPI_Win_test drives progress, $mode" ok \
			-n 2 --progress=$mode --timeout 60 "$EX/win_test_progress" 16
	done
done

# AckInRank0: a weak-progress stall under weak, completion under strong,
# every time
for i in 1 2 3; do
	expect_outcome "AckInRank0, weak" stall \
		-n 2 --progress=weak --timeout 30 "$EX/ack_in_rank0" 64 0.1
	expect_match "AckInRank0 weak output" "$(cat "$TMP/out")" "polling AckInRank0"
	grep -q "stored 222" "$TMP/out" && fail "AckInRank0 under weak progress got through"
	expect_outcome "AckInRank0, strong" ok \
		-n 2 --progress=strong --timeout 60 "$EX/ack_in_rank0" 64 0.1
	expect_match "AckInRank0 strong output" "$(cat "$TMP/out")" "MPI_Buffer_detach returned"
done
# the standard's rationale on passive target (MPI 3.1, section 11.7.3; passive_compute): the unlock to a
# computing target returns once it is back in MPI (weak), or while it still
# computes (strong); either way the put lands
for mode in weak strong; do
	expect_outcome "passive_compute, $mode" ok \
		-n 2 --progress=$mode --timeout 60 "$EX/passive_compute" 0.8
	out=$(cat "$TMP/out")
	expect_match "passive_compute $mode: the value" "$out" "window holds 42"
	if [ $mode = weak ]; then
		expect_match "passive_compute weak" "$out" "once rank 0 was back in MPI"
	else
		expect_match "passive_compute strong" "$out" "while rank 0 was computing"
	fi
done
exit 0
