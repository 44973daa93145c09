# The neighbourhood collectives, blocking and nonblocking, at 1, 2, 3 and 8
# ranks under weak and strong progress: Cartesian grids (periodic or not,
# neighbours repeated in dimensions of size 1 and 2, MPI_PROC_NULL blocks
# left alone), graphs (repeated and self edges, on fewer processes than
# the communicator) and distributed graphs (weighted or not, repeated and
# self edges), every block byte-exact, the nonblocking ones all outstanding
# at once; and the error classes (a graph whose adjacency is not symmetric
# is MPI_ERR_TOPOLOGY for every call).
. "$SHMPI_TOP/tests/lib.sh"

want=$(printf 'ok %s\n' cart graph graph_create errors)
bad=
for mode in weak strong; do
	for n in 1 2 3 8; do
		run_case "neighbor -n $n $mode" "$want" -- -n $n --progress=$mode \
			--timeout 120 "$PROGS/neighbor"
	done
done
[ -z "$bad" ] || fail "failed:$bad"
exit 0
