# The memory hints of MPI 4.1 (mpi_memory_alloc_kinds on communicators,
# windows and sessions; mpi_assert_memory_alloc_kinds and
# mpi_accumulate_granularity on windows), checked at 1, 2, 3 and 8 ranks
# under weak and strong progress.
. "$SHMPI_TOP/tests/lib.sh"

bad=
for n in 1 2 3 8; do
	for p in weak strong; do
		run_case "mpi41_memkinds -n $n $p" "ok memkinds" -- -n $n \
			--progress=$p --timeout 120 "$PROGS/mpi41_memkinds"
	done
done
[ -z "$bad" ] || fail "failed:$bad"
exit 0
