# More of MPI 4.1, checked by the results of one program per family at 1,
# 2, 3 and 8 ranks under weak and strong progress: the memory hints
# (mpi41_memkinds), MPI_Win_shared_query on every kind of window
# (mpi41_shared_query), MPI_Type_get_value_index, the Fortran status
# conversions and MPI_Intercomm_create_from_groups (mpi41_more), and the
# calls allowed before MPI_Init and after MPI_Finalize (mpi41_always).
. "$SHMPI_TOP/tests/lib.sh"

bad=
for n in 1 2 3 8; do
	for p in weak strong; do
		run_case "mpi41_memkinds -n $n $p" "ok memkinds" -- -n $n \
			--progress=$p --timeout 120 "$PROGS/mpi41_memkinds"
		run_case "mpi41_shared_query -n $n $p" "ok shared_query" -- -n $n \
			--progress=$p --timeout 120 "$PROGS/mpi41_shared_query"
		run_case "mpi41_more -n $n $p" "ok value_index
ok status_f08f
ok intercomm_from_groups" -- -n $n --progress=$p --timeout 120 "$PROGS/mpi41_more"
		run_case "mpi41_always -n $n $p" "ok always" -- -n $n \
			--progress=$p --timeout 120 "$PROGS/mpi41_always"
	done
done
[ -z "$bad" ] || fail "failed:$bad"
exit 0
