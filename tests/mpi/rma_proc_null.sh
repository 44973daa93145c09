# MPI_PROC_NULL in passive-target synchronization (tests/progs/rma_proc_null.c):
# lock, unlock, flush and flush_local of MPI_PROC_NULL succeed and do
# nothing, with the communication calls on MPI_PROC_NULL inside every kind
# of epoch, and ranks out of range are still MPI_ERR_RANK.  On both paths
# (MPI_Win_allocate; MPI_Win_create on malloc memory), at 2 and 4 ranks,
# weak and strong progress, with and without the adversarial mode.
. "$SHMPI_TOP/tests/lib.sh"

bad=
for priv in 0 1; do
	for n in 2 4; do
		for mode in weak strong; do
			for adv in 0 3; do
				run_case "private=$priv/$n/$mode/adversarial=$adv" "ok proc_null" -- \
					-n $n --progress=$mode -x SHMPI_ADVERSARIAL=$adv --timeout 40 \
					-x TU_PRIVATE=$priv "$PROGS/rma_proc_null"
			done
		done
	done
done
[ -z "$bad" ] || fail "rma_proc_null:$bad"
exit 0
