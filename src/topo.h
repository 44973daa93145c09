/*
 * Process topologies attached to communicators: Cartesian grids and
 * distributed graphs, and the neighbourhood collectives over them.
 */
#ifndef SRC_TOPO_H
#define SRC_TOPO_H

struct topo {
	int kind;		/* MPI_CART or MPI_DIST_GRAPH */
	/* Cartesian */
	int ndims;
	int *dims;
	int *periods;
	int *coords;		/* this rank's */
	/* distributed graph: neighbours as ranks of the communicator */
	int indegree, outdegree;
	int *sources, *sourceweights;
	int *destinations, *destweights;
	int weighted;
};

void topo_free(struct topo *t);

#endif
