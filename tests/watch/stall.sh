# A weak-progress stall: AckInRank0 under weak progress.  Rank 1 waits in
# MPI_Recv for data that only rank 0's engine can push, rank 0 polls shared
# memory outside MPI: the report names both, the chain, the verdict and the
# hint, and (nothing else can move) the job ends with 123 soon after the
# timeout.  Under strong progress there is no stall: nothing is reported.
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/watch/common"

for i in 1 2 3; do
	watch_job "AckInRank0, weak" 123 -n 2 --progress=weak "$EX/ack_in_rank0" 64 0.1
	# rank 0's engine has the CTS unread, or (when its MPI_Bsend ran the
	# engine after the CTS came) has the data queued
	has_line "rank 0's line" '^shmrun: rank 0: outside MPI for [0-9.]+ s since MPI_Bsend; (records from rank 1 unread|its engine owes records to 1 rank)$'
	has_line "rank 1's line" '^shmrun: rank 1: in MPI_Recv for [0-9.]+ s, waiting for the rest of a matched message from rank 0 \(tag 0, context [0-9]+\)$'
	has_line "the chain" '^shmrun: wait-for chain: rank 1 waits in MPI_Recv for the rest of a matched message from rank 0; rank 0 has been outside MPI for [0-9.]+ s since MPI_Bsend$'
	has_line "the verdict" '^shmrun: weak-progress stall: rank 1 waits for work that only the MPI engine of rank 0 can do, and rank 0 has been outside MPI for [0-9.]+ s; nothing else can move: ending the job \(exit status 123\)$'
	has_line "the hint" '^shmrun: hint: under weak progress .* rank 0 must call MPI .* --progress=strong removes the stall$'
	expect_eq "reported once" "$(count_lines 'weak-progress stall')" 1
	expect_match "rank 0 got to its polling loop" "$(cat "$TMP/out")" "polling AckInRank0"

	watch_job "AckInRank0, strong" 0 -n 2 --progress=strong "$EX/ack_in_rank0" 64 0.1
	expect_eq "AckInRank0, strong: stderr" "$err" ""
	expect_match "AckInRank0, strong" "$(cat "$TMP/out")" "MPI_Buffer_detach returned"
done

# a rank outside MPI that a receive depends on, while a third rank computes:
# reported, but others can still move, so the job goes on and completes.
# The receive depends on rank 0's engine when the data comes through the
# channels (SHMPI_SINGLE_COPY=pipeline); copied once by the receiver it
# does not, and nothing is reported (the end of this file).
P="-x SHMPI_SINGLE_COPY=pipeline"
watch_job "isend and compute, 3 ranks" 0 -n 3 $P "$PROGS/watch_compute" isend 2500
has_line "stall reported" '^shmrun: weak-progress stall: rank 1 waits for work that only the MPI engine of rank 0 can do'
has_line "named after its MPI_Isend" 'rank 0 has been outside MPI for [0-9.]+ s since MPI_Isend$'
has_line "the job went on" 'other ranks can still move, so the job goes on$'
expect_eq "reported once" "$(count_lines 'weak-progress stall')" 1
expect_match "completed" "$(cat "$TMP/out")" "^done$"

# --stall-action=kill ends it all the same
watch_job "isend and compute, kill" 123 -n 3 --stall-action=kill $P "$PROGS/watch_compute" isend 2500
has_line "killed" 'weak-progress stall: rank 1 .*; ending the job \(exit status 123\)$'

# --stall-action=report: reported once, and the job completes when rank 0
# comes back to MPI
watch_job "isend and compute, report" 0 -n 2 --stall-action=report $P "$PROGS/watch_compute" isend 2500
has_line "reported" 'weak-progress stall: rank 1 .*; nothing else can move: the job goes on \(--stall-action=report\)$'
expect_eq "reported once" "$(count_lines 'weak-progress stall')" 1
expect_match "completed" "$(cat "$TMP/out")" "^done$"

# behind MPI_Waitall too: the wait names its pending receive
watch_job "waitall and compute, report" 0 -n 2 --stall-action=report $P "$PROGS/watch_compute" waitall 2500
has_line "reported behind MPI_Waitall" 'weak-progress stall: rank 1 waits for work that only the MPI engine of rank 0 can do'
has_line "rank 1 in MPI_Waitall" '^shmrun: rank 1: in MPI_Waitall for [0-9.]+ s, waiting for the rest of a matched message from rank 0'
expect_match "completed" "$(cat "$TMP/out")" "^done$"

# under strong progress the same program is not a stall
watch_job "isend and compute, strong" 0 -n 2 --progress=strong $P "$PROGS/watch_compute" isend 2500
expect_eq "isend and compute, strong: stderr" "$err" ""

# the receiver copies the data once (process_vm_readv): no stall to report
# (not under qemu-user, which has no process_vm_readv)
mechs="cma auto"
[ -z "${SHMPI_EMULATED:-}" ] || mechs=
for mech in $mechs; do
	watch_job "isend and compute, $mech" 0 -n 2 -x SHMPI_SINGLE_COPY=$mech \
		"$PROGS/watch_compute" isend 2500
	expect_eq "isend and compute, $mech: stderr" "$err" ""
	expect_match "isend and compute, $mech" "$(cat "$TMP/out")" "^done$"
done

# RMA on private memory: rank 1's unlock needs rank 0's engine to apply the
# put, rank 0 computes: a stall naming rank 0; the job completes (report)
# or ends (auto: nothing else can move)
watch_job "private RMA, report" 0 -n 2 --stall-action=report "$PROGS/rma_private" weak 2500
has_line "rank 1 in MPI_Win_unlock" '^shmrun: rank 1: in MPI_Win_unlock for [0-9.]+ s, waiting for its RMA operations to be applied by rank 0$'
# (the call named is the last one rank 0 waited in, src/state.h: the
# barrier before it computes when rank 1 was late there, else the
# allreduce of MPI_Win_create before it)
has_line "the chain" '^shmrun: wait-for chain: rank 1 waits in MPI_Win_unlock for its RMA operations to be applied by rank 0; rank 0 has been outside MPI for [0-9.]+ s since MPI_(Barrier|Win_create/allocate|Allreduce)$'
has_line "the stall" 'weak-progress stall: rank 1 waits for work that only the MPI engine of rank 0 can do'
expect_match "completed" "$(cat "$TMP/out")" "^ok weak$"
watch_job "private RMA, auto" 123 -n 2 "$PROGS/rma_private" weak 2500
has_line "ended" 'weak-progress stall: rank 1 .*; nothing else can move: ending the job \(exit status 123\)$'
watch_job "private RMA, strong" 0 -n 2 --progress=strong "$PROGS/rma_private" strong 2500
expect_eq "private RMA, strong: stderr" "$err" ""
