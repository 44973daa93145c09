# The nonblocking collectives on intercommunicators of 1+1, 1+2, 2+3 and
# 3+5 processes (and 2+1, 5+3) under weak and strong progress: every call
# (the v- and w-variants, reduce-scatter and MPI_Comm_idup among them)
# byte-exact with roots on either side (MPI_ROOT / MPI_PROC_NULL), derived
# types and a non-commutative op, several outstanding on several
# communicators and completed in different orders, mixed with blocking
# collectives and point-to-point across, progress while the others are
# outside MPI, and the error classes.
. "$SHMPI_TOP/tests/lib.sh"

want="ok barrier ok bcast ok reduce ok allreduce ok gather_scatter ok allgather"
want="$want ok alltoall ok gatherv_scatterv ok alltoallw ok reduce_scatter ok idup"
want="$want ok overlap ok mixed ok outside ok errors"
# Under weak progress the "outside" case checks that a large message waits
# for its sender's engine: that is so of the data the channels carry
# (SHMPI_SINGLE_COPY=pipeline), not of data the receiver copies once
# itself (README, "Large messages"; tests/mpi/p2p_copy.sh).
for mode in weak strong; do
	pin=$([ $mode = weak ] && echo "-x SHMPI_SINGLE_COPY=pipeline")
	for split in 2:1 3:1 3:2 5:2 8:3 8:5; do
		n=${split%:*} a=${split#*:}
		what="inter_nb -n $n ($a+$((n - a))) $mode"
		run_job "$TMP/out" "$TMP/err" -- -n $n --progress=$mode --timeout 120 $pin \
			"$PROGS/inter_nb" $a all $mode
		expect_eq "$what exit ($(cat "$TMP/err"))" "$rc" 0
		expect_eq "$what" "$(tr '\n' ' ' <"$TMP/out" | sed 's/ $//')" "$want"
	done
done

# A bad root under MPI_ERRORS_ARE_FATAL: the message names the call, the
# argument and the class, and the job ends with the class as exit status.
run_job "$TMP/out" "$TMP/err" -- -n 3 --timeout 60 "$PROGS/inter_nb" 1 fatal
expect_eq "inter_nb fatal exit ($(cat "$TMP/err"))" "$rc" 8
expect_match "inter_nb fatal message" "$(cat "$TMP/err")" \
	"MPI_Ibcast.*root.*MPI_ERR_ROOT"
exit 0
