/*
 * The neighbourhood collectives, blocking and nonblocking:
 * MPI_(I)neighbor_allgather(v) and MPI_(I)neighbor_alltoall(v,w), on
 * Cartesian grids (periodic and not, dimensions of size 1 and 2, whose
 * neighbours repeat; MPI_PROC_NULL neighbours leave their receive blocks
 * alone), graphs (MPI_Graph_create: repeated and self edges, a graph on
 * fewer processes than the communicator) and distributed graphs (weighted
 * or not, repeated and self edges, built adjacent or from any rank's
 * edges).  Every block is
 * checked against what its sender put there (derived types on one side,
 * zero, small and rendezvous sizes, gaps between blocks untouched);
 * the nonblocking ones all outstanding at once and completed in different
 * orders; and the error classes (MPI_ERR_TOPOLOGY from every call on a
 * graph whose adjacency is not symmetric).
 *   neighbor [test [nodup]]
 * nodup leaves out the topologies where a process is a neighbour more than
 * once (to compare with MPI libraries that get those wrong).
 */
#include "testutil.h"

#define MAXN 64

static int rank, size, nodup;

/*
 * A topology's neighbours as the test sees them: in[i] and out[j] (comm
 * ranks or MPI_PROC_NULL) in the standard's order, and for each in-slot
 * i the index j of the same edge in the sender's list of out-neighbours.
 */
struct nbrs {
	int nin, nout;
	int in[MAXN], out[MAXN], from_j[MAXN];
};

/* Cartesian: per dimension the neighbour at -1 then at +1; what a
 * process sends towards +1 arrives as from -1. */
static void cart_nbrs(MPI_Comm c, struct nbrs *nb)
{
	int nd;

	CHECK_MPI(MPI_Cartdim_get(c, &nd));
	nb->nin = nb->nout = 2 * nd;
	for (int d = 0; d < nd; d++) {
		CHECK_MPI(MPI_Cart_shift(c, d, 1, &nb->in[2 * d], &nb->in[2 * d + 1]));
		nb->out[2 * d] = nb->in[2 * d];
		nb->out[2 * d + 1] = nb->in[2 * d + 1];
		nb->from_j[2 * d] = 2 * d + 1;
		nb->from_j[2 * d + 1] = 2 * d;
	}
}

/* A graph (kind MPI_GRAPH: its neighbours are sources and destinations)
 * or a distributed graph: the lists, and every member's out-list to match
 * the repeated edges (the t-th edge from s among ours is s's t-th edge to
 * us). */
static void graph_nbrs(MPI_Comm c, int kind, struct nbrs *nb)
{
	int me, n, w, deg[MAXN], at[MAXN], all[MAXN * MAXN], sw[MAXN], dw[MAXN];

	MPI_Comm_rank(c, &me);
	MPI_Comm_size(c, &n);
	if (kind == MPI_GRAPH) {
		CHECK_MPI(MPI_Graph_neighbors_count(c, me, &nb->nin));
		CHECK(nb->nin <= MAXN);
		CHECK_MPI(MPI_Graph_neighbors(c, me, MAXN, nb->in));
		nb->nout = nb->nin;
		memcpy(nb->out, nb->in, sizeof(int) * (size_t)nb->nin);
	} else {
		CHECK_MPI(MPI_Dist_graph_neighbors_count(c, &nb->nin, &nb->nout, &w));
		CHECK(nb->nin <= MAXN && nb->nout <= MAXN);
		CHECK_MPI(MPI_Dist_graph_neighbors(c, MAXN, nb->in, w ? sw : MPI_UNWEIGHTED,
						   MAXN, nb->out, w ? dw : MPI_UNWEIGHTED));
	}
	CHECK_MPI(MPI_Allgather(&nb->nout, 1, MPI_INT, deg, 1, MPI_INT, c));
	for (int m = 0, a = 0; m < n; a += deg[m], m++)
		at[m] = a;
	CHECK_MPI(MPI_Allgatherv(nb->out, nb->nout, MPI_INT, all, deg, at, MPI_INT, c));
	for (int i = 0; i < nb->nin; i++) {
		int s = nb->in[i], t = 0;

		for (int k = 0; k < i; k++)
			t += nb->in[k] == s;
		nb->from_j[i] = -1;
		for (int j = 0; j < deg[s] && nb->from_j[i] < 0; j++)
			if (all[at[s] + j] == me && t-- == 0)
				nb->from_j[i] = j;
		CHECK(nb->from_j[i] >= 0);
	}
}

static void nbrs_of(MPI_Comm c, struct nbrs *nb)
{
	int kind;

	CHECK_MPI(MPI_Topo_test(c, &kind));
	if (kind == MPI_CART)
		cart_nbrs(c, nb);
	else
		graph_nbrs(c, kind, nb);
}

/* Element k of the block s sends on its edge j (allgather: j = MAXN). */
static int code(int s, int j, int k)
{
	return s * 100000 + j * 1000 + k % 997;
}

/* How many ints s sends on its edge j: some empty, one large. */
static int count_of(int s, int j)
{
	return (s + j) % 4 + (s == 1 && j == 1 ? 3000 : 0);
}

/* How many ints s sends to each neighbour in allgather(v). */
static int gcount_of(int s)
{
	return s % 3 + 1 + (s == 1 ? 2500 : 0);
}

/* A receive buffer: blocks of cnt[i] ints, wide (every other int) where
 * asked, in reverse order of the slots with a gap of one int after each. */
struct layout {
	int cnt[MAXN], displs[MAXN], wide[MAXN];
	MPI_Aint bdispls[MAXN];
	MPI_Datatype types[MAXN];
	int span, *buf;
};

static void layout(struct layout *l, int n, MPI_Datatype wide, int wide_parity, int fill)
{
	l->span = 0;
	for (int i = n - 1; i >= 0; i--) {
		l->wide[i] = wide != MPI_DATATYPE_NULL && i % 2 == wide_parity;
		l->types[i] = l->wide[i] ? wide : MPI_INT;
		l->displs[i] = l->span;
		l->bdispls[i] = (MPI_Aint)l->span * (MPI_Aint)sizeof(int);
		l->span += l->cnt[i] * (l->wide[i] ? 2 : 1) + 1;
	}
	l->buf = malloc(sizeof(int) * (size_t)(l->span + 1));
	CHECK(l->buf);
	for (int i = 0; i <= l->span; i++)
		l->buf[i] = fill;
}

static int *at(const struct layout *l, int i, int k)
{
	return l->buf + l->displs[i] + k * (l->wide[i] ? 2 : 1);
}

/* Block i holds what in[i] sent on edge j (untouched for MPI_PROC_NULL),
 * and nothing else changed. */
static void check_recv(const struct layout *l, const struct nbrs *nb, int all_j,
		       int fill)
{
	char *seen = calloc((size_t)l->span + 1, 1);

	CHECK(seen);
	for (int i = 0; i < nb->nin; i++) {
		if (nb->in[i] == MPI_PROC_NULL)
			continue;
		for (int k = 0; k < l->cnt[i]; k++) {
			int want = code(nb->in[i], all_j >= 0 ? all_j : nb->from_j[i], k);

			if (*at(l, i, k) != want)
				fprintf(stderr, "rank %d: block %d from %d, element %d: %d, "
					"want %d\n", rank, i, nb->in[i], k, *at(l, i, k), want);
			CHECK(*at(l, i, k) == want);
			seen[at(l, i, k) - l->buf] = 1;
		}
	}
	for (int i = 0; i <= l->span; i++)
		CHECK(seen[i] || l->buf[i] == fill);
	free(seen);
}

/* ---- the calls, one after another or all at once -------------------------- */

enum { GATHER, GATHERV, A2A, A2AV, A2AW, NCALLS };

/* One call's buffers. */
struct run {
	struct layout snd, rcv;
	int *sbuf;		/* allgather(v): the one block */
	int scount;		/* allgather(v), alltoall: the count */
};

/*
 * Set up call `which` on c: send blocks carry code(me, j, k), the
 * receive blocks start as fill.  allgather sends its block as one element
 * of a vector type (every other int); alltoallw makes odd send blocks and
 * even receive blocks wide.
 */
static void prepare(struct run *r, int which, const struct nbrs *nb, int me,
		    MPI_Datatype wide)
{
	int fixed = 5;

	memset(r, 0, sizeof(*r));
	if (which == GATHER || which == GATHERV) {
		r->scount = which == GATHER ? fixed : gcount_of(me);
		r->sbuf = malloc(sizeof(int) * 2 * (size_t)(r->scount + 1));
		CHECK(r->sbuf);
		for (int k = 0; k < 2 * r->scount + 2; k++)
			r->sbuf[k] = k % 2 ? -1 : code(me, MAXN, k / 2);
		for (int i = 0; i < nb->nin; i++)
			r->rcv.cnt[i] = which == GATHER ? fixed :
					nb->in[i] == MPI_PROC_NULL ? 1 : gcount_of(nb->in[i]);
		layout(&r->rcv, nb->nin, MPI_DATATYPE_NULL, 0, -9);
		return;
	}
	for (int j = 0; j < nb->nout; j++)
		r->snd.cnt[j] = which == A2A ? fixed : count_of(me, j);
	for (int i = 0; i < nb->nin; i++)
		r->rcv.cnt[i] = which == A2A ? fixed : nb->in[i] == MPI_PROC_NULL ? 0 :
				count_of(nb->in[i], nb->from_j[i]);
	layout(&r->snd, nb->nout, which == A2AW ? wide : MPI_DATATYPE_NULL, 1, -1);
	layout(&r->rcv, nb->nin, which == A2AW ? wide : MPI_DATATYPE_NULL, 0, -9);
	r->scount = fixed;
	/* alltoall: the blocks follow each other, without gaps */
	for (int j = 0; j < nb->nout; j++)
		for (int k = 0; k < r->snd.cnt[j]; k++)
			*(which == A2A ? r->snd.buf + j * fixed + k : at(&r->snd, j, k)) =
				code(me, j, k);
}

/* Start (req) or run (req NULL) call `which`. */
static void start(struct run *r, int which, MPI_Comm c, MPI_Datatype vec,
		  MPI_Request *req)
{
	struct layout *s = &r->snd, *v = &r->rcv;

	switch (which) {
	case GATHER:
		if (req)
			CHECK_MPI(MPI_Ineighbor_allgather(r->sbuf, 1, vec, v->buf, r->scount,
							  MPI_INT, c, req));
		else
			CHECK_MPI(MPI_Neighbor_allgather(r->sbuf, 1, vec, v->buf, r->scount,
							 MPI_INT, c));
		break;
	case GATHERV:
		if (req)
			CHECK_MPI(MPI_Ineighbor_allgatherv(r->sbuf, 1, vec, v->buf, v->cnt,
							   v->displs, MPI_INT, c, req));
		else
			CHECK_MPI(MPI_Neighbor_allgatherv(r->sbuf, 1, vec, v->buf, v->cnt,
							  v->displs, MPI_INT, c));
		break;
	case A2A:
		if (req)
			CHECK_MPI(MPI_Ineighbor_alltoall(s->buf, r->scount, MPI_INT, v->buf,
							 r->scount, MPI_INT, c, req));
		else
			CHECK_MPI(MPI_Neighbor_alltoall(s->buf, r->scount, MPI_INT, v->buf,
							r->scount, MPI_INT, c));
		break;
	case A2AV:
		if (req)
			CHECK_MPI(MPI_Ineighbor_alltoallv(s->buf, s->cnt, s->displs, MPI_INT,
							  v->buf, v->cnt, v->displs, MPI_INT,
							  c, req));
		else
			CHECK_MPI(MPI_Neighbor_alltoallv(s->buf, s->cnt, s->displs, MPI_INT,
							 v->buf, v->cnt, v->displs, MPI_INT,
							 c));
		break;
	default:
		if (req)
			CHECK_MPI(MPI_Ineighbor_alltoallw(s->buf, s->cnt, s->bdispls, s->types,
							  v->buf, v->cnt, v->bdispls, v->types,
							  c, req));
		else
			CHECK_MPI(MPI_Neighbor_alltoallw(s->buf, s->cnt, s->bdispls, s->types,
							 v->buf, v->cnt, v->bdispls, v->types,
							 c));
		break;
	}
}

static void check(struct run *r, int which, const struct nbrs *nb)
{
	if (which == GATHER || which == A2A) {
		/* fixed blocks one after the other: the layout's gaps do not apply */
		for (int i = 0; i < nb->nin; i++)
			for (int k = 0; k < r->scount; k++)
				CHECK(r->rcv.buf[i * r->scount + k] ==
				      (nb->in[i] == MPI_PROC_NULL ? -9 :
				       code(nb->in[i], which == A2A ? nb->from_j[i] : MAXN, k)));
		for (int i = nb->nin * r->scount; i <= r->rcv.span; i++)
			CHECK(r->rcv.buf[i] == -9);
	} else {
		check_recv(&r->rcv, nb, which == GATHERV ? MAXN : -1, -9);
	}
	free(r->sbuf);
	free(r->snd.buf);
	free(r->rcv.buf);
}

/* Every call on c: blocking one by one, then nonblocking all at once
 * completed in the order `how` picks. */
static void on_topology(MPI_Comm c)
{
	struct nbrs nb;
	struct run runs[NCALLS];
	MPI_Request req[NCALLS];
	MPI_Datatype wide, vec;
	int me;

	MPI_Comm_rank(c, &me);
	nbrs_of(c, &nb);
	CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &wide));
	CHECK_MPI(MPI_Type_commit(&wide));
	for (int which = 0; which < NCALLS; which++) {
		int cnt = which == GATHER ? 5 : which == GATHERV ? gcount_of(me) : 1;

		CHECK_MPI(MPI_Type_vector(cnt, 1, 2, MPI_INT, &vec));
		CHECK_MPI(MPI_Type_commit(&vec));
		prepare(&runs[which], which, &nb, me, wide);
		start(&runs[which], which, c, vec, NULL);
		check(&runs[which], which, &nb);
		CHECK_MPI(MPI_Type_free(&vec));
	}
	CHECK_MPI(MPI_Type_free(&wide));
	for (int how = 0; how < 3; how++) {
		MPI_Datatype vecs[2];

		CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &wide));
		CHECK_MPI(MPI_Type_commit(&wide));
		for (int g = 0; g < 2; g++) {
			CHECK_MPI(MPI_Type_vector(g ? gcount_of(me) : 5, 1, 2, MPI_INT, &vecs[g]));
			CHECK_MPI(MPI_Type_commit(&vecs[g]));
		}
		for (int which = 0; which < NCALLS; which++) {
			prepare(&runs[which], which, &nb, me, wide);
			start(&runs[which], which, c, vecs[which == GATHERV], &req[which]);
		}
		/* the operations keep the types */
		CHECK_MPI(MPI_Type_free(&vecs[0]));
		CHECK_MPI(MPI_Type_free(&vecs[1]));
		CHECK_MPI(MPI_Type_free(&wide));
		if (how == 0) {
			CHECK_MPI(MPI_Waitall(NCALLS, req, MPI_STATUSES_IGNORE));
		} else {
			for (int k = 0; k < NCALLS; k++) {
				int w = how == 1 ? NCALLS - 1 - k : (k * 2) % NCALLS, flag = 0;

				while (!flag)
					CHECK_MPI(MPI_Test(&req[w], &flag, MPI_STATUS_IGNORE));
			}
		}
		for (int which = 0; which < NCALLS; which++)
			check(&runs[which], which, &nb);
	}
}

/* ---- topologies ---------------------------------------------------------------- */

static void cart(int ndims, const int *periods)
{
	int dims[3] = { 0, 0, 0 };
	MPI_Comm c;

	CHECK_MPI(MPI_Dims_create(size, ndims, dims));
	for (int d = 0; nodup && d < ndims; d++)
		if (periods[d] && dims[d] <= 2)
			return;
	CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, 0, &c));
	on_topology(c);
	CHECK_MPI(MPI_Comm_free(&c));
}

/* Rings (periodic: at 1 and 2 ranks both neighbours are one process;
 * not: MPI_PROC_NULL at the ends), a 2-D grid periodic in one dimension,
 * a 3-D torus (dimensions of size 1 and 2 at small sizes). */
static void test_cart(void)
{
	static const int per[] = { 1, 1, 1 }, none[] = { 0, 0, 0 }, mixed[] = { 1, 0 };

	cart(1, per);
	cart(1, none);
	cart(2, mixed);
	cart(3, per);
	cart(3, none);
}

/* Rank r's out-edges: r+1 twice, r+3 and itself (nodup: r+1 and r+3,
 * where they are other processes and not the same); in-edges in the order
 * of their sources, from the highest. */
static int graph_out(int r, int *out)
{
	int n = 0, a = (r + 1) % size, b = (r + 3) % size;

	if (nodup) {
		if (a != r)
			out[n++] = a;
		if (b != r && b != a)
			out[n++] = b;
		return n;
	}
	out[n++] = a;
	out[n++] = b;
	out[n++] = a;
	out[n++] = r;
	return n;
}

static void test_graph(void)
{
	int out[8], in[MAXN * 4], ow[8], iw[MAXN * 4], nout = graph_out(rank, out), nin = 0;

	for (int s = size - 1; s >= 0; s--) {
		int so[8], sn = graph_out(s, so);

		for (int j = 0; j < sn; j++)
			if (so[j] == rank) {
				iw[nin] = s * 10 + j;
				in[nin++] = s;
			}
	}
	for (int j = 0; j < nout; j++)
		ow[j] = rank * 10 + j;
	for (int weighted = 0; weighted < 2; weighted++) {
		MPI_Comm g;

		CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, nin, in,
							 weighted ? iw : MPI_UNWEIGHTED, nout,
							 out, weighted ? ow : MPI_UNWEIGHTED,
							 MPI_INFO_NULL, 0, &g));
		on_topology(g);
		CHECK_MPI(MPI_Comm_free(&g));
	}
	/* any rank names any edge: rank r gives the edges out of r + 1 */
	{
		int src = (rank + 1) % size, deg, dst[8];
		MPI_Comm g;

		deg = graph_out(src, dst);
		CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &src, &deg, dst,
						MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g));
		on_topology(g);
		CHECK_MPI(MPI_Comm_free(&g));
	}
	/* no neighbours at all on even ranks */
	{
		int to = (rank + 1) % size, from = (rank + size - 1) % size;
		int has_out = rank % 2 == 1, has_in = from % 2 == 1;
		MPI_Comm g;

		CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, has_in, &from,
							 MPI_UNWEIGHTED, has_out, &to,
							 MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g));
		on_topology(g);
		CHECK_MPI(MPI_Comm_free(&g));
	}
}

/* Node u's neighbours in a graph of n nodes: u+1 and u-1 twice each, and
 * itself (nodup: u+1 and u-1 once, where they are other nodes); each edge
 * has its reverse as often, as MPI 3.1, section 7.6 wants. */
static int ring_neighbors(int u, int n, int *nbr)
{
	int k = 0, up = (u + 1) % n, down = (u + n - 1) % n;

	if (nodup) {
		if (up != u)
			nbr[k++] = up;
		if (down != u && down != up)
			nbr[k++] = down;
		return k;
	}
	nbr[k++] = up;
	nbr[k++] = down;
	nbr[k++] = up;
	nbr[k++] = down;
	nbr[k++] = u;
	return k;
}

/* MPI_Graph_create: the ring over every process, then over all but the
 * last (which gets MPI_COMM_NULL). */
static void test_graph_create(void)
{
	for (int n = size; n >= size - 1 && n >= 1; n--) {
		int index[MAXN], edges[MAXN * 5], e = 0;
		MPI_Comm g;

		for (int u = 0; u < n; u++) {
			e += ring_neighbors(u, n, edges + e);
			index[u] = e;
		}
		CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &g));
		CHECK((g == MPI_COMM_NULL) == (rank >= n));
		if (g == MPI_COMM_NULL)
			continue;
		on_topology(g);
		CHECK_MPI(MPI_Comm_free(&g));
	}
}

/* ---- errors ------------------------------------------------------------------- */

#define EXPECT_ERR(want, call) TU_EXPECT_REQ_ERR(want, req, call)

/* Every call on a graph whose adjacency is not symmetric (node 0 -> 1
 * alone): MPI_ERR_TOPOLOGY (MPI 3.1, section 7.6). */
static void asymmetric_graph(void)
{
	static const int index[2] = { 1, 1 }, edges[1] = { 1 };
	MPI_Datatype types[2] = { MPI_INT, MPI_INT };
	MPI_Aint bd[2] = { 0, sizeof(int) };
	int a[4] = { 1, 2, 3, 4 }, b[4], counts[2] = { 1, 1 }, displs[2] = { 0, 1 };
	MPI_Request req;
	MPI_Comm g;

	if (size < 2)
		return;
	CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, 2, index, edges, 0, &g));
	if (g == MPI_COMM_NULL)
		return;
	CHECK_MPI(MPI_Comm_set_errhandler(g, MPI_ERRORS_RETURN));
	EXPECT_ERR(MPI_ERR_TOPOLOGY, MPI_Neighbor_allgather(a, 1, MPI_INT, b, 1, MPI_INT, g));
	EXPECT_ERR(MPI_ERR_TOPOLOGY, MPI_Neighbor_allgatherv(a, 1, MPI_INT, b, counts, displs,
							     MPI_INT, g));
	EXPECT_ERR(MPI_ERR_TOPOLOGY, MPI_Neighbor_alltoall(a, 1, MPI_INT, b, 1, MPI_INT, g));
	EXPECT_ERR(MPI_ERR_TOPOLOGY, MPI_Neighbor_alltoallv(a, counts, displs, MPI_INT, b,
							    counts, displs, MPI_INT, g));
	EXPECT_ERR(MPI_ERR_TOPOLOGY, MPI_Neighbor_alltoallw(a, counts, bd, types, b, counts,
							    bd, types, g));
	EXPECT_ERR(MPI_ERR_TOPOLOGY, MPI_Ineighbor_allgather(a, 1, MPI_INT, b, 1, MPI_INT, g,
							     &req));
	EXPECT_ERR(MPI_ERR_TOPOLOGY, MPI_Ineighbor_allgatherv(a, 1, MPI_INT, b, counts,
							      displs, MPI_INT, g, &req));
	EXPECT_ERR(MPI_ERR_TOPOLOGY, MPI_Ineighbor_alltoall(a, 1, MPI_INT, b, 1, MPI_INT, g,
							    &req));
	EXPECT_ERR(MPI_ERR_TOPOLOGY, MPI_Ineighbor_alltoallv(a, counts, displs, MPI_INT, b,
							     counts, displs, MPI_INT, g, &req));
	EXPECT_ERR(MPI_ERR_TOPOLOGY, MPI_Ineighbor_alltoallw(a, counts, bd, types, b, counts,
							     bd, types, g, &req));
	CHECK_MPI(MPI_Comm_free(&g));
}

static void test_errors(void)
{
	static const int per[] = { 1 };
	MPI_Comm c;
	MPI_Request req;
	MPI_Datatype types[2] = { MPI_INT, MPI_INT }, bad[2] = { MPI_INT, MPI_DATATYPE_NULL };
	MPI_Aint bd[2] = { 0, sizeof(int) };
	int a[4] = { 1, 2, 3, 4 }, b[4], counts[2] = { 1, 1 }, displs[2] = { 0, 1 };
	int neg[2] = { 1, -1 }, dims[1] = { size };

	CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &c));
	CHECK_MPI(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	/* a communicator without a topology */
	EXPECT_ERR(MPI_ERR_TOPOLOGY, MPI_Neighbor_allgatherv(a, 1, MPI_INT, b, counts, displs,
							     MPI_INT, MPI_COMM_WORLD));
	EXPECT_ERR(MPI_ERR_TOPOLOGY, MPI_Ineighbor_alltoall(a, 1, MPI_INT, b, 1, MPI_INT,
							    MPI_COMM_WORLD, &req));
	EXPECT_ERR(MPI_ERR_COMM, MPI_Ineighbor_allgather(a, 1, MPI_INT, b, 1, MPI_INT,
							 MPI_COMM_NULL, &req));
	EXPECT_ERR(MPI_ERR_COMM, MPI_Neighbor_alltoallw(a, counts, bd, types, b, counts, bd,
							types, MPI_COMM_NULL));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Neighbor_allgather(a, -1, MPI_INT, b, 1, MPI_INT, c));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Ineighbor_alltoall(a, 1, MPI_INT, b, -2, MPI_INT, c,
							 &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Ineighbor_allgatherv(a, 1, MPI_INT, b, neg, displs,
							   MPI_INT, c, &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Neighbor_alltoallv(a, neg, displs, MPI_INT, b, counts,
							 displs, MPI_INT, c));
	EXPECT_ERR(MPI_ERR_ARG, MPI_Ineighbor_alltoallv(a, counts, NULL, MPI_INT, b, counts,
							displs, MPI_INT, c, &req));
	EXPECT_ERR(MPI_ERR_ARG, MPI_Neighbor_allgatherv(a, 1, MPI_INT, b, NULL, displs,
							MPI_INT, c));
	EXPECT_ERR(MPI_ERR_ARG, MPI_Ineighbor_alltoallw(a, counts, bd, NULL, b, counts, bd,
							types, c, &req));
	EXPECT_ERR(MPI_ERR_TYPE, MPI_Neighbor_alltoallw(a, counts, bd, types, b, counts, bd,
							bad, c));
	EXPECT_ERR(MPI_ERR_TYPE, MPI_Ineighbor_allgather(a, 1, MPI_DATATYPE_NULL, b, 1,
							 MPI_INT, c, &req));
	EXPECT_ERR(MPI_ERR_ARG, MPI_Ineighbor_allgather(a, 1, MPI_INT, b, 1, MPI_INT, c,
							NULL));
	EXPECT_ERR(MPI_ERR_ARG, MPI_Ineighbor_alltoallw(a, counts, bd, types, b, counts, bd,
							types, c, NULL));
	/* MPI_IN_PLACE has no meaning here */
	EXPECT_ERR(MPI_ERR_BUFFER, MPI_Neighbor_allgather(MPI_IN_PLACE, 1, MPI_INT, b, 1,
							  MPI_INT, c));
	EXPECT_ERR(MPI_ERR_BUFFER, MPI_Ineighbor_alltoall(MPI_IN_PLACE, 1, MPI_INT, b, 1,
							  MPI_INT, c, &req));
	EXPECT_ERR(MPI_ERR_BUFFER, MPI_Neighbor_alltoall(a, 1, MPI_INT, MPI_IN_PLACE, 1,
							 MPI_INT, c));
	asymmetric_graph();
	/* nothing changed: the next calls match on every rank */
	b[0] = b[1] = -1;
	CHECK_MPI(MPI_Neighbor_allgather(&rank, 1, MPI_INT, b, 1, MPI_INT, c));
	CHECK(b[0] == (rank + size - 1) % size && b[1] == (rank + 1) % size);
	CHECK_MPI(MPI_Comm_free(&c));
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	nodup = argc > 2 && !strcmp(argv[2], "nodup");
	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK(size <= MAXN);
	TU_RUN("cart", test_cart);
	TU_RUN("graph", test_graph);
	TU_RUN("graph_create", test_graph_create);
	TU_RUN("errors", test_errors);
	MPI_Finalize();
	return 0;
}
