/*
 * Process topologies attached to communicators: Cartesian grids, graphs
 * and distributed graphs, and the neighbours the neighbourhood collectives
 * (coll_neighbor.c) exchange with.
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

/*
 * The neighbours of a topology, in the standard's order (MPI 3.1, 7.6):
 * for a Cartesian grid, per dimension the one at -1 then the one at +1
 * (MPI_PROC_NULL past a non-periodic edge), as sources and as
 * destinations; for a graph, its neighbours as MPI_Graph_neighbors gives
 * them, as sources and as destinations; for a distributed graph, the
 * lists.  send_tag[k]: the tag of the message destination k receives from
 * us -- which of its own in-neighbours we are -- and recv_tag[k] the tag
 * of the message from source k, so that two neighbours that are one
 * process (a periodic dimension of size 1 or 2) cannot mix up; NULL where
 * the order of the lists says it (the edges between two processes keep
 * their order).  Only a Cartesian grid's lists are allocated; a graph's
 * point into the topology.
 */
struct neighbors {
	int nin, nout;
	int *in, *out;
	int *send_tag, *recv_tag;
};

struct comm;

/* The neighbours of c (which has a topology); 0, -ENOMEM (neighbors_free
 * it all the same), or -EINVAL for a graph whose adjacency matrix is not
 * symmetric, on which MPI 3.1, section 7.6 allows no neighbourhood
 * collective. */
int neighbors_of(const struct comm *c, struct neighbors *nb);
void neighbors_free(const struct comm *c, struct neighbors *nb);

#endif
