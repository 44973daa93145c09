/*
 * Process topologies attached to communicators: Cartesian grids, graphs
 * and distributed graphs, and the neighbourhood collectives over them.
 */
#ifndef SRC_TOPO_H
#define SRC_TOPO_H

struct topo {
	int kind;		/* MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH */
	/* Cartesian */
	int ndims;
	int *dims;
	int *periods;
	int *coords;		/* this rank's */
	/* graph: the whole graph as MPI_Graph_create took it (MPI 3.1,
	 * section 7.5.3): node i's neighbours are edges[index[i - 1]] up to
	 * edges[index[i] - 1] (from edges[0] for node 0) */
	int nnodes;
	int *index, *edges;
	int symmetric;		/* every edge (u, v) has its (v, u), as often */
	/* distributed graph: neighbours as ranks of the communicator */
	int indegree, outdegree;
	int *sources, *sourceweights;
	int *destinations, *destweights;
	int weighted;
};

void topo_free(struct topo *t);

/* A copy of t, for a duplicate of its communicator (MPI 3.1, section 6.4.2:
 * MPI_Comm_dup keeps the topology); NULL without memory. */
struct topo *topo_dup(const struct topo *t);

#endif
