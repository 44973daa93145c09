# The nonblocking collectives at 2, 3 and 8 ranks under weak and strong
# progress: every call byte-exact (roots, sizes, derived types, in place,
# a non-commutative op), several outstanding and completed in different
# orders, mixed with blocking collectives and point-to-point, progress
# while the other ranks are outside MPI, and the error classes.
. "$SHMPI_TOP/tests/lib.sh"

want="ok barrier ok bcast ok reduce ok allreduce ok gather_scatter ok allgather"
want="$want ok alltoall ok overlap ok mixed ok outside ok errors"
# Under weak progress the "outside" case checks that a large message waits
# for its sender's engine: that is so of the data the channels carry
# (SHMPI_SINGLE_COPY=pipeline), not of data the receiver copies once
# itself (README, "Large messages"; tests/mpi/p2p_copy.sh).
for mode in weak strong; do
	pin=$([ $mode = weak ] && echo "-x SHMPI_SINGLE_COPY=pipeline")
	for n in 2 3 8; do
		run_job "$TMP/out" "$TMP/err" -- -n $n --progress=$mode --timeout 120 $pin \
			"$PROGS/coll_nb" all $mode
		expect_eq "coll_nb -n $n $mode exit ($(cat "$TMP/err"))" "$rc" 0
		expect_eq "coll_nb -n $n $mode" "$(tr '\n' ' ' <"$TMP/out" | sed 's/ $//')" \
			"$want"
	done
done
exit 0
