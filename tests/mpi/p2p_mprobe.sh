# Matched probe and receive (MPI_Mprobe, MPI_Improbe, MPI_Mrecv,
# MPI_Imrecv) at 1, 2, 3 and 8 ranks under weak and strong progress: a
# matched message leaves the matching queue at once (probes and receives
# competing for it, ANY_SOURCE and ANY_TAG, eager and rendezvous sizes,
# messages that arrive later, the order with the other receives of the
# communicator, random traffic), derived datatypes, intercommunicators,
# MPI_MESSAGE_NO_PROC and the error classes; the fatal error's message; the
# watchdog naming MPI_Mprobe in a deadlock and MPI_Mrecv in a stall.
. "$SHMPI_TOP/tests/lib.sh"

bad=
want=$(printf 'ok %s\n' basic order compete sizes later dtype inter storm errors)
for mode in weak strong; do
	for n in 1 2 3 8; do
		run_case "-n $n $mode" "$want" -- -n $n --progress=$mode --timeout 120 \
			"$PROGS/p2p_mprobe"
	done
	for seed in 2 3; do
		run_job "$TMP/out" "$TMP/err" -- -n 8 --progress=$mode --timeout 120 \
			"$PROGS/p2p_mprobe" storm $seed
		expect_eq "storm seed $seed $mode ($(cat "$TMP/err"))" "$rc" 0
		expect_eq "storm seed $seed $mode" "$(cat "$TMP/out")" "ok storm"
	done
done
[ -z "$bad" ] || fail "failed:$bad"

# MPI_ERRORS_ARE_FATAL names the call, the argument and the class
run_job "$TMP/out" "$TMP/err" -- -n 3 "$PROGS/p2p_mprobe" fatal
expect_eq "fatal: exit status (MPI_ERR_REQUEST)" "$rc" 7
expect_match "fatal: message" "$(cat "$TMP/err")" \
	'shmpi: rank 2: MPI_Mrecv: argument message: is MPI_MESSAGE_NULL \[MPI_ERR_REQUEST: '
grep -q survived "$TMP/out" && fail "fatal: the erroneous rank went on"

# the watchdog: a deadlock in MPI_Mprobe, a weak-progress stall in MPI_Mrecv
# (of a message whose data comes through the channels: copied once by the
# receiver, it needs nothing of the sender's engine)
run_job "$TMP/out" "$TMP/err" -- -n 2 --deadlock-timeout 1 --timeout 60 \
	"$PROGS/p2p_mprobe" deadlock
expect_eq "deadlock: exit status" "$rc" 123
expect_match "deadlock: rank 0" "$(cat "$TMP/err")" \
	'shmrun: rank 0: in MPI_Mprobe for [0-9.]+ s, waiting for a message to probe from rank 1 \(tag 99, context [0-9]+\)'
for mode in weak strong; do
	run_job "$TMP/out" "$TMP/err" -- -n 2 --progress=$mode --deadlock-timeout 1 \
		--timeout 60 -x SHMPI_SINGLE_COPY=pipeline "$PROGS/p2p_mprobe" stall 2500
	if [ $mode = weak ]; then
		expect_eq "stall: exit status" "$rc" 123
		expect_match "stall: rank 0" "$(cat "$TMP/err")" \
			'shmrun: rank 0: in MPI_Mrecv for [0-9.]+ s, waiting for the rest of a matched message from rank 1 \(tag 5, context [0-9]+\)'
	else
		expect_eq "no stall under strong progress ($(cat "$TMP/err"))" "$rc" 0
		expect_eq "strong: received" "$(cat "$TMP/out")" "received"
		expect_eq "strong: nothing reported" "$(cat "$TMP/err")" ""
	fi
done
# copied once, the same message is no stall (not under qemu-user, which
# has no process_vm_readv: the message goes through the channels there)
mechs="cma auto"
[ -z "${SHMPI_EMULATED:-}" ] || mechs=
for mech in $mechs; do
	run_job "$TMP/out" "$TMP/err" -- -n 2 --deadlock-timeout 1 --timeout 60 \
		-x SHMPI_SINGLE_COPY=$mech "$PROGS/p2p_mprobe" stall 2500
	expect_eq "no stall with $mech ($(cat "$TMP/err"))" "$rc" 0
	expect_eq "$mech: received" "$(cat "$TMP/out")" "received"
done
exit 0
