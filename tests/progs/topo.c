/*
 * Process topologies against hand-computed results: MPI_Dims_create
 * factorisations, a 2-D grid periodic in one dimension (ranks, coordinates,
 * shifts with MPI_PROC_NULL at the edges, sub-grids), distributed graphs
 * built both ways, and the neighbourhood collectives on both.
 */
#include "testutil.h"

static int rank, size;

static void test_dims(void)
{
	struct { int n, nd, in[3], out[3]; } cases[] = {
		{ 6, 2, { 0, 0 }, { 3, 2 } },
		{ 12, 3, { 0, 0, 0 }, { 3, 2, 2 } },
		{ 7, 2, { 0, 0 }, { 7, 1 } },
		{ 8, 3, { 2, 0, 0 }, { 2, 2, 2 } },
		{ 10, 2, { 0, 5 }, { 2, 5 } },
		{ 24, 3, { 0, 0, 0 }, { 4, 3, 2 } },
		{ 1, 2, { 0, 0 }, { 1, 1 } },
		{ 16, 2, { 0, 0 }, { 4, 4 } },
	};
	int d[3];

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		memcpy(d, cases[c].in, sizeof(d));
		CHECK_MPI(MPI_Dims_create(cases[c].n, cases[c].nd, d));
		for (int i = 0; i < cases[c].nd; i++)
			CHECK(d[i] == cases[c].out[i]);
	}
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	d[0] = 2, d[1] = 0;
	CHECK(MPI_Dims_create(7, 2, d) == MPI_ERR_DIMS);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void test_cart(void)
{
	int dims[2] = { 0, 0 }, periods[2] = { 1, 0 }, coords[2], d2[2], p2[2], c2[2];
	int r, status, src, dst, nd, gsize;
	MPI_Comm cart, row;

	CHECK_MPI(MPI_Dims_create(size, 2, dims));
	CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
	CHECK_MPI(MPI_Topo_test(cart, &status));
	CHECK(status == MPI_CART);
	CHECK_MPI(MPI_Topo_test(MPI_COMM_WORLD, &status));
	CHECK(status == MPI_UNDEFINED);
	CHECK_MPI(MPI_Cartdim_get(cart, &nd));
	CHECK(nd == 2);
	CHECK_MPI(MPI_Cart_get(cart, 2, d2, p2, c2));
	CHECK(d2[0] == dims[0] && d2[1] == dims[1] && p2[0] == 1 && p2[1] == 0);
	/* row-major: rank = c0 * dims[1] + c1 */
	CHECK(c2[0] == rank / dims[1] && c2[1] == rank % dims[1]);
	/* a duplicate keeps the topology (MPI 3.1, section 6.4.2) */
	{
		int d3[2], p3[2], c3[2];
		MPI_Comm dup;

		CHECK_MPI(MPI_Comm_dup(cart, &dup));
		CHECK_MPI(MPI_Topo_test(dup, &status));
		CHECK(status == MPI_CART);
		CHECK_MPI(MPI_Cart_get(dup, 2, d3, p3, c3));
		CHECK(!memcmp(d2, d3, sizeof(d2)) && !memcmp(p2, p3, sizeof(p2)) &&
		      !memcmp(c2, c3, sizeof(c2)));
		CHECK_MPI(MPI_Comm_free(&dup));
	}
	for (int q = 0; q < size; q++) {
		CHECK_MPI(MPI_Cart_coords(cart, q, 2, coords));
		CHECK_MPI(MPI_Cart_rank(cart, coords, &r));
		CHECK(r == q && coords[0] == q / dims[1]);
	}
	/* a periodic coordinate wraps */
	coords[0] = -1, coords[1] = 0;
	CHECK_MPI(MPI_Cart_rank(cart, coords, &r));
	CHECK(r == (dims[0] - 1) * dims[1]);
	/* shifts: periodic in dimension 0, MPI_PROC_NULL at dimension 1's edges */
	CHECK_MPI(MPI_Cart_shift(cart, 0, 1, &src, &dst));
	CHECK(dst == ((c2[0] + 1) % dims[0]) * dims[1] + c2[1]);
	CHECK(src == ((c2[0] + dims[0] - 1) % dims[0]) * dims[1] + c2[1]);
	CHECK_MPI(MPI_Cart_shift(cart, 1, 1, &src, &dst));
	CHECK(dst == (c2[1] + 1 < dims[1] ? rank + 1 : MPI_PROC_NULL));
	CHECK(src == (c2[1] > 0 ? rank - 1 : MPI_PROC_NULL));
	/* neighbourhood collectives: order -1, +1 per dimension */
	{
		int nbr[4], mine[4], got[4], want[4];

		nbr[0] = ((c2[0] + dims[0] - 1) % dims[0]) * dims[1] + c2[1];
		nbr[1] = ((c2[0] + 1) % dims[0]) * dims[1] + c2[1];
		nbr[2] = c2[1] > 0 ? rank - 1 : MPI_PROC_NULL;
		nbr[3] = c2[1] + 1 < dims[1] ? rank + 1 : MPI_PROC_NULL;
		for (int k = 0; k < 4; k++)
			got[k] = -7;
		CHECK_MPI(MPI_Neighbor_allgather(&rank, 1, MPI_INT, got, 1, MPI_INT, cart));
		for (int k = 0; k < 4; k++)
			CHECK(got[k] == (nbr[k] == MPI_PROC_NULL ? -7 : nbr[k]));
		for (int k = 0; k < 4; k++) {
			mine[k] = rank * 10 + k;
			got[k] = -7;
			/* what neighbour k sent towards us was its block k ^ 1 */
			want[k] = nbr[k] == MPI_PROC_NULL ? -7 : nbr[k] * 10 + (k ^ 1);
		}
		CHECK_MPI(MPI_Neighbor_alltoall(mine, 1, MPI_INT, got, 1, MPI_INT, cart));
		for (int k = 0; k < 4; k++)
			CHECK(got[k] == want[k]);
	}
	/* keep dimension 1: the row of this rank */
	{
		int remain[2] = { 0, 1 };

		CHECK_MPI(MPI_Cart_sub(cart, remain, &row));
		CHECK_MPI(MPI_Comm_size(row, &gsize));
		CHECK_MPI(MPI_Comm_rank(row, &r));
		CHECK(gsize == dims[1] && r == c2[1]);
		CHECK_MPI(MPI_Cartdim_get(row, &nd));
		CHECK(nd == 1);
		CHECK_MPI(MPI_Comm_free(&row));
	}
	CHECK_MPI(MPI_Comm_free(&cart));
	/* a grid smaller than the communicator leaves the rest out */
	if (size > 1) {
		int one[1] = { size - 1 }, per[1] = { 0 };

		CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, one, per, 0, &cart));
		CHECK((rank == size - 1) == (cart == MPI_COMM_NULL));
		if (cart != MPI_COMM_NULL)
			CHECK_MPI(MPI_Comm_free(&cart));
	}
}

static void test_graph(void)
{
	MPI_Comm g;
	int left = (rank + size - 1) % size, right = (rank + 1) % size;
	int in, out, w, src[4], sw[4], dst[4], dw[4], got[2];

	/* a directed ring, weights = the sender's rank */
	CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, &left, 1, &right,
						 &rank, MPI_INFO_NULL, 0, &g));
	CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &in, &out, &w));
	CHECK(in == 1 && out == 1 && w);
	CHECK_MPI(MPI_Dist_graph_neighbors(g, 1, src, sw, 1, dst, dw));
	CHECK(src[0] == left && dst[0] == right && sw[0] == left && dw[0] == rank);
	got[0] = -1;
	CHECK_MPI(MPI_Neighbor_allgather(&rank, 1, MPI_INT, got, 1, MPI_INT, g));
	CHECK(got[0] == left);
	/* a duplicate keeps the graph and its weights (MPI 3.1, section 6.4.2) */
	{
		MPI_Comm dup;
		int status;

		CHECK_MPI(MPI_Comm_dup(g, &dup));
		CHECK_MPI(MPI_Topo_test(dup, &status));
		CHECK(status == MPI_DIST_GRAPH);
		CHECK_MPI(MPI_Dist_graph_neighbors_count(dup, &in, &out, &w));
		CHECK(in == 1 && out == 1 && w);
		CHECK_MPI(MPI_Dist_graph_neighbors(dup, 1, src, sw, 1, dst, dw));
		CHECK(src[0] == left && dst[0] == right && sw[0] == left && dw[0] == rank);
		got[0] = -1;
		CHECK_MPI(MPI_Neighbor_allgather(&rank, 1, MPI_INT, got, 1, MPI_INT, dup));
		CHECK(got[0] == left);
		CHECK_MPI(MPI_Comm_free(&dup));
	}
	/* and a graph of MPI_Graph_create: a ring, both ways */
	{
		int *index = malloc(sizeof(int) * (size_t)size);
		int *edges = malloc(sizeof(int) * 2 * (size_t)size);
		int *index2 = malloc(sizeof(int) * (size_t)size);
		int *edges2 = malloc(sizeof(int) * 2 * (size_t)size);
		int nn, ne, status;
		MPI_Comm ring, dup;

		CHECK(index && edges && index2 && edges2);
		for (int i = 0; i < size; i++) {
			index[i] = 2 * (i + 1);
			edges[2 * i] = (i + size - 1) % size;
			edges[2 * i + 1] = (i + 1) % size;
		}
		CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &ring));
		CHECK_MPI(MPI_Comm_dup(ring, &dup));
		CHECK_MPI(MPI_Topo_test(dup, &status));
		CHECK(status == MPI_GRAPH);
		CHECK_MPI(MPI_Graphdims_get(dup, &nn, &ne));
		CHECK(nn == size && ne == 2 * size);
		CHECK_MPI(MPI_Graph_get(dup, size, 2 * size, index2, edges2));
		CHECK(!memcmp(index, index2, sizeof(int) * (size_t)size) &&
		      !memcmp(edges, edges2, sizeof(int) * 2 * (size_t)size));
		CHECK_MPI(MPI_Comm_free(&dup));
		CHECK_MPI(MPI_Comm_free(&ring));
		free(index);
		free(edges);
		free(index2);
		free(edges2);
	}
	CHECK_MPI(MPI_Comm_free(&g));
	/* rank 0 names every edge i -> (i + 2) % size; no weights */
	{
		int n = rank == 0 ? size : 0;
		int *s = malloc(sizeof(int) * (size_t)size), *deg = malloc(sizeof(int) * (size_t)size);
		int *d = malloc(sizeof(int) * (size_t)size);

		for (int i = 0; i < n; i++) {
			s[i] = i;
			deg[i] = 1;
			d[i] = (i + 2) % size;
		}
		CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, n, s, deg, d, MPI_UNWEIGHTED,
						MPI_INFO_NULL, 0, &g));
		CHECK_MPI(MPI_Dist_graph_neighbors_count(g, &in, &out, &w));
		CHECK(in == 1 && out == 1 && !w);
		CHECK_MPI(MPI_Dist_graph_neighbors(g, 1, src, MPI_UNWEIGHTED, 1, dst,
						   MPI_UNWEIGHTED));
		CHECK(src[0] == (rank + size - 2) % size && dst[0] == (rank + 2) % size);
		got[0] = rank * 3;
		CHECK_MPI(MPI_Neighbor_alltoall(&got[0], 1, MPI_INT, &got[1], 1, MPI_INT, g));
		CHECK(got[1] == src[0] * 3);
		CHECK_MPI(MPI_Comm_free(&g));
		free(s);
		free(deg);
		free(d);
	}
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	TU_RUN("dims", test_dims);
	TU_RUN("cart", test_cart);
	TU_RUN("graph", test_graph);
	MPI_Finalize();
	return 0;
}
