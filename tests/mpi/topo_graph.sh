# Graph topologies (MPI_Graph_create and its queries), MPI_Cart_map and
# MPI_Graph_map, and the neighbourhood collectives on graphs, at 1, 2, 3, 4
# and 8 ranks under weak and strong progress: rings, stars, the standard's
# example, self-loops and multiple edges, graphs on fewer processes than
# the communicator, derived datatypes, rendezvous sizes, the error classes.
. "$SHMPI_TOP/tests/lib.sh"

bad=
want=$(printf 'ok %s\n' create neighbor map errors)
for mode in weak strong; do
	for n in 1 2 3 4 8; do
		run_case "-n $n $mode" "$want" -- -n $n --progress=$mode --timeout 120 \
			"$PROGS/topo_graph"
	done
done
[ -z "$bad" ] || fail "failed:$bad"
exit 0
