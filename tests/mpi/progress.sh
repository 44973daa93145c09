# Weak progress: data moves while its sender is blocked in any MPI call or
# calls a test procedure, and not while it computes outside MPI.  Run three
# times each: a progress bug shows as an occasional hang (bounded here by
# --timeout).
. "$SHMPI_TOP/tests/lib.sh"

want="ok blocked ok bsend_barrier ok test ok testany ok testall ok testsome ok iprobe ok get_status ok outside"
# Under weak progress the "outside" case (p2p_progress.c) checks that a large message waits
# for its sender's engine: that is so of the data the channels carry
# (SHMPI_SINGLE_COPY=pipeline), not of data the receiver copies once
# itself (README, "Large messages"; tests/mpi/p2p_copy.sh).
for mode in weak strong; do
	pin=$([ $mode = weak ] && echo "-x SHMPI_SINGLE_COPY=pipeline")
	for n in 2 3 8; do
		for i in 1 2 3; do
			run_job "$TMP/out" "$TMP/err" -- -n $n --progress=$mode --timeout 60 $pin \
				"$PROGS/p2p_progress"
			expect_eq "p2p_progress -n $n $mode exit ($(cat "$TMP/err"))" "$rc" 0
			expect_eq "p2p_progress -n $n $mode" \
				"$(tr '\n' ' ' <"$TMP/out" | sed 's/ $//')" "$want"
		done
	done
done
# Under strong progress, many messages while the sender computes: a lost
# wake-up of its progress thread, waiting for room in the ring, leaves one
# behind (it used to, about one run in two).
for i in 1 2; do
	run_job "$TMP/out" "$TMP/err" -- -n 2 --progress=strong --timeout 120 \
		"$PROGS/p2p_progress" outside_many
	expect_eq "p2p_progress outside_many exit ($(cat "$TMP/err"))" "$rc" 0
	expect_eq "p2p_progress outside_many" "$(cat "$TMP/out")" "ok outside_many"
done
exit 0
