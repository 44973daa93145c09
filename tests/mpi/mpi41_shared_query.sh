# MPI_Win_shared_query on every kind of window (MPI 4.1, section 12.2.3):
# pointers where the memory is shared, size 0 and NULL where it is not,
# MPI_ERR_RMA_FLAVOR on a dynamic window; at 1, 2, 3 and 8 ranks under
# weak and strong progress.
. "$SHMPI_TOP/tests/lib.sh"

bad=
for n in 1 2 3 8; do
	for p in weak strong; do
		run_case "mpi41_shared_query -n $n $p" "ok shared_query" -- -n $n \
			--progress=$p --timeout 120 "$PROGS/mpi41_shared_query"
	done
done
[ -z "$bad" ] || fail "failed:$bad"
exit 0
