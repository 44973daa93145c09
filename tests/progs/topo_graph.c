/*
 * Graph topologies (MPI 3.1, sections 7.5.3 and 7.5.4), the mapping calls
 * (section 7.5.8) and the neighbourhood collectives on graphs (section
 * 7.6) at any number of ranks: the standard's example graph, rings, stars,
 * self-loops and multiple edges, graphs on fewer processes than the
 * communicator, derived datatypes and rendezvous sizes, and the error
 * classes.  The checks of what MPI leaves to the implementation (that the
 * mappings keep each rank, classes MPICH and Open MPI differ on) are for
 * shmpi only.  (Open MPI 4.1.4 fails the mapping test: its MPI_Cart_map
 * gives the processes outside the grid a rank too.)
 *   topo_graph [test]      (default: all)
 */
#include "testutil.h"

static int rank, size;

/* A graph as MPI_Graph_create takes it. */
struct graph {
	int nnodes;
	int index[64];
	int edges[512];
};

static void graph_add_node(struct graph *g, const int *nbrs, int n)
{
	int first = g->nnodes ? g->index[g->nnodes - 1] : 0;

	CHECK(g->nnodes < 64 && first + n <= 512);
	memcpy(g->edges + first, nbrs, sizeof(int) * (size_t)n);
	g->index[g->nnodes++] = first + n;
}

/* Node u's neighbours: how many, from g->edges + *first. */
static int graph_nbrs(const struct graph *g, int u, int *first)
{
	*first = u ? g->index[u - 1] : 0;
	return g->index[u] - *first;
}

/* A ring of n nodes: left, right. */
static void ring(struct graph *g, int n)
{
	g->nnodes = 0;
	for (int u = 0; u < n; u++) {
		int nb[2] = { (u + n - 1) % n, (u + 1) % n };

		graph_add_node(g, nb, 2);
	}
}

/* A star of n nodes around node 0. */
static void star(struct graph *g, int n)
{
	int spokes[64], hub = 0;

	g->nnodes = 0;
	for (int u = 1; u < n; u++)
		spokes[u - 1] = u;
	graph_add_node(g, spokes, n - 1);
	for (int u = 1; u < n; u++)
		graph_add_node(g, &hub, 1);
}

/* Each node: itself, right twice, left twice (self-loops and multiple edges). */
static void multi(struct graph *g, int n)
{
	g->nnodes = 0;
	for (int u = 0; u < n; u++) {
		int r = (u + 1) % n, l = (u + n - 1) % n, nb[5] = { u, r, r, l, l };

		graph_add_node(g, nb, 5);
	}
}

/* The graph of the standard's example (MPI 3.1, section 7.5.3). */
static void example(struct graph *g)
{
	static const int n0[] = { 1, 3 }, n1[] = { 0 }, n2[] = { 3 }, n3[] = { 0, 2 };

	g->nnodes = 0;
	graph_add_node(g, n0, 2);
	graph_add_node(g, n1, 1);
	graph_add_node(g, n2, 1);
	graph_add_node(g, n3, 2);
}

/* Create g over MPI_COMM_WORLD and check every query against it. */
static MPI_Comm create_checked(const struct graph *g, int reorder)
{
	int status, n, nn, ne, idx[64], edg[512], nb[512], first;
	MPI_Comm c;

	CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, g->nnodes, g->index, g->edges, reorder,
				   &c));
	CHECK((rank < g->nnodes) == (c != MPI_COMM_NULL));
	if (c == MPI_COMM_NULL)
		return c;
	CHECK_MPI(MPI_Comm_size(c, &n));
	CHECK(n == g->nnodes);
	CHECK_MPI(MPI_Topo_test(c, &status));
	CHECK(status == MPI_GRAPH);
	CHECK_MPI(MPI_Graphdims_get(c, &nn, &ne));
	CHECK(nn == g->nnodes && ne == g->index[g->nnodes - 1]);
	for (int i = 0; i < 64; i++)
		idx[i] = -9;
	CHECK_MPI(MPI_Graph_get(c, nn, ne, idx, edg));
	CHECK(!memcmp(idx, g->index, sizeof(int) * (size_t)nn) &&
	      !memcmp(edg, g->edges, sizeof(int) * (size_t)ne) && idx[nn] == -9);
	for (int u = 0; u < nn; u++) {
		int want = graph_nbrs(g, u, &first);

		CHECK_MPI(MPI_Graph_neighbors_count(c, u, &n));
		CHECK(n == want);
		CHECK_MPI(MPI_Graph_neighbors(c, u, n, nb));
		CHECK(!memcmp(nb, g->edges + first, sizeof(int) * (size_t)n));
	}
	return c;
}

static void test_create(void)
{
	struct graph g;
	MPI_Comm c;
	int r;

	/* a ring of every process, reorder 0 and 1: ranks stay or move, the
	 * graph is the same */
	ring(&g, size);
	for (int reorder = 0; reorder < 2; reorder++) {
		c = create_checked(&g, reorder);
		CHECK_MPI(MPI_Comm_rank(c, &r));
#ifdef SHMPI
		CHECK(r == rank);
#endif
		CHECK_MPI(MPI_Comm_free(&c));
	}
	/* a star of all but the last process: that one gets MPI_COMM_NULL */
	if (size > 2) {
		star(&g, size - 1);
		c = create_checked(&g, 1);
		if (c != MPI_COMM_NULL)
			CHECK_MPI(MPI_Comm_free(&c));
	}
	/* the standard's example (4 nodes) */
	if (size >= 4) {
		example(&g);
		c = create_checked(&g, 0);
		if (c != MPI_COMM_NULL)
			CHECK_MPI(MPI_Comm_free(&c));
	}
	/* self-loops and multiple edges */
	multi(&g, size);
	c = create_checked(&g, 0);
	CHECK_MPI(MPI_Comm_free(&c));
	/* no nodes: MPI_COMM_NULL everywhere */
	CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, 0, g.index, g.edges, 0, &c));
	CHECK(c == MPI_COMM_NULL);
}

/*
 * Whether block j of neighbour k (v) of node u is what u may find in its
 * block k after a neighbourhood alltoall: u must be v's neighbour j.
 * Where v and u have several edges between them, shmpi pairs them in order
 * (the m-th time u appears in v's list with the m-th time v appears in
 * u's), as Open MPI does; MPICH pairs them the other way round, and MPI
 * 3.1 leaves it open, so elsewhere any of them is right.
 */
static int block_ok(const struct graph *g, int u, int k, int j)
{
	int fu, fv, v, m = 0, nv;

	graph_nbrs(g, u, &fu);
	v = g->edges[fu + k];
	nv = graph_nbrs(g, v, &fv);
	if (j < 0 || j >= nv || g->edges[fv + j] != u)
		return 0;
#ifdef SHMPI
	for (int i = 0; i < k; i++)
		m += g->edges[fu + i] == v;
	for (int i = 0; i < j; i++)
		m -= g->edges[fv + i] == u;
#endif
	return m == 0;
}

/* Neighbour allgather and alltoall on g: ints, then a strided send type
 * into pairs, then blocks of n bytes (rendezvous when large). */
static void neighbor_checked(const struct graph *g, int reorder)
{
	MPI_Comm c = create_checked(g, reorder);
	int me, deg, first, *sbuf, *rbuf;
	MPI_Datatype stride3, pair;

	if (c == MPI_COMM_NULL)
		return;
	CHECK_MPI(MPI_Comm_rank(c, &me));
	deg = graph_nbrs(g, me, &first);
	sbuf = malloc(sizeof(int) * (size_t)(6 * deg + 6));
	rbuf = malloc(sizeof(int) * (size_t)(2 * deg + 2));
	CHECK(sbuf && rbuf);

	/* allgather: block k is neighbour k's rank */
	for (int k = 0; k < deg; k++)
		rbuf[k] = -1;
	CHECK_MPI(MPI_Neighbor_allgather(&me, 1, MPI_INT, rbuf, 1, MPI_INT, c));
	for (int k = 0; k < deg; k++)
		CHECK(rbuf[k] == g->edges[first + k]);

	/* alltoall: block k of the sender is meant for its neighbour k */
	for (int k = 0; k < deg; k++) {
		sbuf[k] = 1000 * me + k;
		rbuf[k] = -1;
	}
	CHECK_MPI(MPI_Neighbor_alltoall(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, c));
	for (int k = 0; k < deg; k++)
		CHECK(block_ok(g, me, k, rbuf[k] - 1000 * g->edges[first + k]));

	/* derived: elements 0 and 3 of each 6-int block out, as a pair in */
	CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_INT, &stride3));
	CHECK_MPI(MPI_Type_create_resized(stride3, 0, 6 * sizeof(int), &pair));
	CHECK_MPI(MPI_Type_commit(&pair));
	for (int k = 0; k < 6 * deg; k++)
		sbuf[k] = k % 3 ? -5 : 100 * me + k / 3;
	for (int k = 0; k < 2 * deg + 2; k++)
		rbuf[k] = -1;
	CHECK_MPI(MPI_Neighbor_alltoall(sbuf, 1, pair, rbuf, 2, MPI_INT, c));
	for (int k = 0; k < deg; k++) {
		int v = g->edges[first + k], j = (rbuf[2 * k] - 100 * v) / 2;

		CHECK(block_ok(g, me, k, j) && rbuf[2 * k] == 100 * v + 2 * j &&
		      rbuf[2 * k + 1] == 100 * v + 2 * j + 1);
	}
	CHECK(rbuf[2 * deg] == -1);
	CHECK_MPI(MPI_Neighbor_allgather(sbuf, 1, pair, rbuf, 2, MPI_INT, c));
	for (int k = 0; k < deg; k++)
		CHECK(rbuf[2 * k] == 100 * g->edges[first + k] &&
		      rbuf[2 * k + 1] == 100 * g->edges[first + k] + 1);
	MPI_Type_free(&stride3);
	MPI_Type_free(&pair);

	/* large blocks */
	{
		size_t n = 300000;
		unsigned char *s = malloc(n * (size_t)(deg + 1)), *r = malloc(n * (size_t)(deg + 1));

		CHECK(s && r);
		for (int k = 0; k < deg; k++)
			tu_fill(s + (size_t)k * n, n, me, k);
		memset(r, 0, n * (size_t)(deg + 1));
		CHECK_MPI(MPI_Neighbor_alltoall(s, (int)n, MPI_BYTE, r, (int)n, MPI_BYTE, c));
		for (int k = 0; k < deg; k++) {
			int v = g->edges[first + k], j = 0, fv, nv = graph_nbrs(g, v, &fv);

			/* the block's pattern says which one it is */
			while (j < nv && !tu_verify(r + (size_t)k * n, n, v, j))
				j++;
			CHECK(block_ok(g, me, k, j));
		}
		free(s);
		free(r);
	}
	free(sbuf);
	free(rbuf);
	CHECK_MPI(MPI_Comm_free(&c));
}

static void test_neighbor(void)
{
	struct graph g;

	ring(&g, size);
	neighbor_checked(&g, 0);
	multi(&g, size);
	neighbor_checked(&g, 1);
	if (size > 2) {
		star(&g, size - 1);
		neighbor_checked(&g, 0);
	}
	if (size >= 4) {
		example(&g);
		neighbor_checked(&g, 0);
	}
}

/* The mappings place the processes a topology needs, each once; the rest
 * get MPI_UNDEFINED.  (shmpi: each keeps its rank.) */
static void check_map(int newrank, int needed)
{
	int *all = malloc(sizeof(int) * (size_t)size), placed = 0;

	CHECK(all);
	CHECK(newrank == MPI_UNDEFINED || (newrank >= 0 && newrank < needed));
#ifdef SHMPI
	CHECK(newrank == (rank < needed ? rank : MPI_UNDEFINED));
#endif
	CHECK_MPI(MPI_Allgather(&newrank, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD));
	for (int r = 0; r < size; r++)
		if (all[r] != MPI_UNDEFINED) {
			placed++;
			for (int q = 0; q < r; q++)
				CHECK(all[q] != all[r]);
		}
	CHECK(placed == needed);
	free(all);
}

static void test_map(void)
{
	int dims[3] = { 0, 0, 0 }, periods[3] = { 1, 0, 1 }, nr, one[1] = { 1 };
	struct graph g;

	CHECK_MPI(MPI_Dims_create(size, 2, dims));
	CHECK_MPI(MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, &nr));
	check_map(nr, size);
	CHECK_MPI(MPI_Cart_map(MPI_COMM_WORLD, 1, one, periods, &nr));
	check_map(nr, 1);
	dims[0] = size > 1 ? size - 1 : 1;
	CHECK_MPI(MPI_Cart_map(MPI_COMM_WORLD, 1, dims, periods, &nr));
	check_map(nr, dims[0]);
	ring(&g, size);
	CHECK_MPI(MPI_Graph_map(MPI_COMM_WORLD, g.nnodes, g.index, g.edges, &nr));
	check_map(nr, size);
	if (size > 2) {
		star(&g, size - 1);
		CHECK_MPI(MPI_Graph_map(MPI_COMM_WORLD, g.nnodes, g.index, g.edges, &nr));
		check_map(nr, size - 1);
	}
}

/* The error classes, under MPI_ERRORS_RETURN; nothing is created. */
static void test_errors(void)
{
	int idx[4] = { 1, 2, 3, 4 }, edg[4] = { 0, 0, 0, 0 }, nn = -3, ne = -3, n = -3;
	int dims[2] = { size + 1, 1 }, periods[2] = { 0, 0 }, nr = -3, status;
	MPI_Comm c = MPI_COMM_SELF, g, cart;
	struct graph ring1;

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	CHECK(tu_check_class(MPI_Graph_create(MPI_COMM_WORLD, size + 1, idx, edg, 0, &c),
			     MPI_ERR_ARG));
	CHECK(c == MPI_COMM_SELF);
	CHECK(tu_check_class(MPI_Graphdims_get(MPI_COMM_WORLD, &nn, &ne), MPI_ERR_TOPOLOGY));
	CHECK(tu_check_class(MPI_Graph_neighbors_count(MPI_COMM_WORLD, 0, &n),
			     MPI_ERR_TOPOLOGY));
	CHECK(nn == -3 && ne == -3 && n == -3);
	ring(&ring1, size);
	CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, size, ring1.index, ring1.edges, 0, &g));
	CHECK_MPI(MPI_Comm_set_errhandler(g, MPI_ERRORS_RETURN));
	CHECK(tu_check_class(MPI_Graph_neighbors_count(g, -1, &n), MPI_ERR_RANK));
	CHECK(tu_check_class(MPI_Cartdim_get(g, &n), MPI_ERR_TOPOLOGY));
	CHECK(n == -3);
	CHECK_MPI(MPI_Topo_test(g, &status));
	CHECK(status == MPI_GRAPH);
	CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, &size, periods, 0, &cart));
	CHECK_MPI(MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN));
	CHECK(tu_check_class(MPI_Graph_get(cart, 4, 4, idx, edg), MPI_ERR_TOPOLOGY));
#ifdef SHMPI
	{
		int neg[2] = { -1, 1 }, down[2] = { 2, 1 }, far[1] = { 5 }, none[1] = { 0 };
		int asym_index[2] = { 1, 1 }, asym_edges[1] = { 1 }, x = 0, y[2];
		MPI_Comm half, inter;

		CHECK(tu_check_class(MPI_Graph_create(MPI_COMM_WORLD, -1, idx, edg, 0, &c),
				     MPI_ERR_ARG));
		CHECK(tu_check_class(MPI_Graph_create(MPI_COMM_WORLD, 1, neg, edg, 0, &c),
				     MPI_ERR_ARG));
		if (size >= 2)
			CHECK(tu_check_class(MPI_Graph_create(MPI_COMM_WORLD, 2, down, edg, 0,
							      &c), MPI_ERR_ARG));
		CHECK(tu_check_class(MPI_Graph_create(MPI_COMM_WORLD, 1, idx, far, 0, &c),
				     MPI_ERR_ARG));
		CHECK(tu_check_class(MPI_Graph_create(MPI_COMM_WORLD, 1, idx, edg, 0, NULL),
				     MPI_ERR_ARG));
		CHECK(tu_check_class(MPI_Graph_create(MPI_COMM_NULL, 1, idx, edg, 0, &c),
				     MPI_ERR_COMM));
		CHECK(c == MPI_COMM_SELF);
		CHECK(tu_check_class(MPI_Graph_neighbors_count(g, size, &n), MPI_ERR_RANK));
		CHECK(tu_check_class(MPI_Graph_neighbors(g, size, 2, y), MPI_ERR_RANK));
		/* arrays too short for the answer */
		CHECK(tu_check_class(MPI_Graph_get(g, size - 1, 2 * size, idx, edg),
				     MPI_ERR_ARG));
		CHECK(tu_check_class(MPI_Graph_get(g, size, 2 * size - 1, idx, edg),
				     MPI_ERR_ARG));
		CHECK(tu_check_class(MPI_Graph_neighbors(g, 0, 1, y), MPI_ERR_ARG));
		CHECK(tu_check_class(MPI_Graphdims_get(g, NULL, &ne), MPI_ERR_ARG));
		/* the mappings check what they are given */
		CHECK(tu_check_class(MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, &nr),
				     MPI_ERR_DIMS));
		dims[0] = 0;
		CHECK(tu_check_class(MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, &nr),
				     MPI_ERR_DIMS));
		CHECK(tu_check_class(MPI_Cart_map(MPI_COMM_WORLD, -1, dims, periods, &nr),
				     MPI_ERR_ARG));
		CHECK(tu_check_class(MPI_Graph_map(MPI_COMM_WORLD, size + 1, idx, edg, &nr),
				     MPI_ERR_ARG));
		CHECK(tu_check_class(MPI_Graph_map(MPI_COMM_WORLD, 1, idx, far, &nr),
				     MPI_ERR_ARG));
		CHECK(tu_check_class(MPI_Graph_map(MPI_COMM_WORLD, 1, idx, edg, NULL),
				     MPI_ERR_ARG));
		CHECK(nr == -3);
		CHECK_MPI(MPI_Graph_map(MPI_COMM_WORLD, 0, none, none, &nr));
		CHECK(nr == MPI_UNDEFINED);
		/* a graph whose adjacency is not symmetric takes no neighbourhood
		 * collective (MPI 3.1, section 7.6): 0 -> 1 without 1 -> 0 */
		if (size >= 2) {
			CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, 2, asym_index, asym_edges, 0,
						   &c));
			if (c != MPI_COMM_NULL) {
				CHECK_MPI(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
				CHECK(tu_check_class(MPI_Neighbor_allgather(&x, 1, MPI_INT, y, 1,
									    MPI_INT, c),
						     MPI_ERR_TOPOLOGY));
				CHECK(tu_check_class(MPI_Neighbor_alltoall(&x, 1, MPI_INT, y, 1,
									   MPI_INT, c),
						     MPI_ERR_TOPOLOGY));
				CHECK_MPI(MPI_Comm_free(&c));
			}
			/* graphs are for intracommunicators */
			CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
			CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, !(rank % 2), 7,
						       &inter));
			c = MPI_COMM_SELF;
			CHECK(tu_check_class(MPI_Graph_create(inter, 1, idx, edg, 0, &c),
					     MPI_ERR_COMM));
			CHECK(c == MPI_COMM_SELF);
			CHECK_MPI(MPI_Comm_free(&inter));
			CHECK_MPI(MPI_Comm_free(&half));
		}
	}
#endif
	CHECK_MPI(MPI_Comm_free(&cart));
	CHECK_MPI(MPI_Comm_free(&g));
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK(size <= 64);
	TU_RUN("create", test_create);
	TU_RUN("neighbor", test_neighbor);
	TU_RUN("map", test_map);
	TU_RUN("errors", test_errors);
	MPI_Finalize();
	return 0;
}
