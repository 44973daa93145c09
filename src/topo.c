/*
 * Process topologies: MPI_Dims_create, the Cartesian calls, graphs,
 * distributed graphs, MPI_Topo_test, MPI_Cart_map and MPI_Graph_map, and
 * the neighbours of a topology, which the neighbourhood collectives
 * (coll_neighbor.c) exchange with.
 *
 * A topology is a description hung on a new communicator (made like any
 * other: split of the old one).  Ranks are never reordered: the standard
 * allows keeping them, and on one node every placement is as good, so the
 * mapping calls (MPI 3.1, section 7.5.8) give each process its own rank,
 * or MPI_UNDEFINED past the processes the topology needs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "comm.h"
#include "datatype.h"
#include "errhandler.h"
#include "runtime.h"
#include "topo.h"

void topo_free(struct topo *t)
{
	if (!t)
		return;
	free(t->dims);
	free(t->periods);
	free(t->coords);
	free(t->sources);
	free(t->sourceweights);
	free(t->destinations);
	free(t->destweights);
	free(t->index);
	free(t->edges);
	free(t);
}

static int *int_copy(const int *a, int n)
{
	int *c = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));

	if (c && n > 0)
		memcpy(c, a, sizeof(int) * (size_t)n);
	return c;
}

/* The copy of what t points to (n ints) into d, if t has it; 0 or -1. */
static int topo_copy_array(int **d, const int *t, int n)
{
	if (!t)
		return 0;
	*d = int_copy(t, n);
	return *d ? 0 : -1;
}

struct topo *topo_dup(const struct topo *t)
{
	struct topo *d = calloc(1, sizeof(*d));
	int nedges = t->index && t->nnodes > 0 ? t->index[t->nnodes - 1] : 0;

	if (!d)
		return NULL;
	d->kind = t->kind;
	d->ndims = t->ndims;
	d->nnodes = t->nnodes;
	d->symmetric = t->symmetric;
	d->indegree = t->indegree;
	d->outdegree = t->outdegree;
	d->weighted = t->weighted;
	if (topo_copy_array(&d->dims, t->dims, t->ndims) < 0 ||
	    topo_copy_array(&d->periods, t->periods, t->ndims) < 0 ||
	    topo_copy_array(&d->coords, t->coords, t->ndims) < 0 ||
	    topo_copy_array(&d->index, t->index, t->nnodes) < 0 ||
	    topo_copy_array(&d->edges, t->edges, nedges) < 0 ||
	    topo_copy_array(&d->sources, t->sources, t->indegree) < 0 ||
	    topo_copy_array(&d->sourceweights, t->sourceweights, t->indegree) < 0 ||
	    topo_copy_array(&d->destinations, t->destinations, t->outdegree) < 0 ||
	    topo_copy_array(&d->destweights, t->destweights, t->outdegree) < 0) {
		topo_free(d);
		return NULL;
	}
	return d;
}

/* ---- MPI_Dims_create ---------------------------------------------------- */

/*
 * Fill the zero entries of dims with a factorisation of nnodes divided by
 * the product of the given entries, as balanced as possible and in
 * non-increasing order: the largest prime factors go to the smallest
 * entries, one at a time.
 */
API(int, Dims_create, (int nnodes, int ndims, int dims[]))
{
	int rest = nnodes, free_dims = 0, nf = 0, *f, *out;

	runtime_check("MPI_Dims_create");
	if (nnodes <= 0 || ndims < 0 || (ndims > 0 && !dims))
		return err_comm(MPI_COMM_WORLD, "MPI_Dims_create", MPI_ERR_ARG,
				nnodes <= 0 ? "nnodes" : ndims < 0 ? "ndims" : "dims",
				"is invalid (nnodes %d, ndims %d)", nnodes, ndims);
	for (int i = 0; i < ndims; i++) {
		if (dims[i] < 0)
			return err_comm(MPI_COMM_WORLD, "MPI_Dims_create", MPI_ERR_DIMS,
					"dims", "element %d is negative", i);
		if (dims[i] == 0)
			free_dims++;
		else if (rest % dims[i])
			return err_comm(MPI_COMM_WORLD, "MPI_Dims_create", MPI_ERR_DIMS,
					"dims", "the given sizes do not divide %d", nnodes);
		else
			rest /= dims[i];
	}
	if (free_dims == 0)
		return rest == 1 ? MPI_SUCCESS :
		       err_comm(MPI_COMM_WORLD, "MPI_Dims_create", MPI_ERR_DIMS, "dims",
				"their product is not %d", nnodes);
	f = malloc(sizeof(int) * 32);
	out = calloc((size_t)free_dims, sizeof(int));
	if (!f || !out) {
		free(f);
		free(out);
		return err_comm(MPI_COMM_WORLD, "MPI_Dims_create", MPI_ERR_NO_MEM, NULL,
				"out of memory");
	}
	for (int p = 2, r = rest; r > 1; p++)
		while (r % p == 0) {
			f[nf++] = p;
			r /= p;
		}
	for (int i = 0; i < free_dims; i++)
		out[i] = 1;
	/* largest factor first, onto the currently smallest entry */
	for (int k = nf - 1; k >= 0; k--) {
		int small = 0;

		for (int i = 1; i < free_dims; i++)
			if (out[i] < out[small])
				small = i;
		out[small] *= f[k];
	}
	/* non-increasing order */
	for (int i = 0; i < free_dims; i++)
		for (int j = i + 1; j < free_dims; j++)
			if (out[j] > out[i]) {
				int t = out[i];

				out[i] = out[j];
				out[j] = t;
			}
	for (int i = 0, k = 0; i < ndims; i++)
		if (dims[i] == 0)
			dims[i] = out[k++];
	free(f);
	free(out);
	return MPI_SUCCESS;
}

/* ---- Cartesian topologies ----------------------------------------------- */

/* The topology of kind `kind` of comm, or NULL with *rc raised. */
static struct topo *topo_of(MPI_Comm comm, const char *call, int kind, int *rc)
{
	struct comm *c = comm_get(comm);

	*rc = MPI_SUCCESS;
	if (!c) {
		*rc = comm_err_invalid(comm, call);
		return NULL;
	}
	if (!c->topo || c->topo->kind != kind) {
		*rc = err_comm(comm, call, MPI_ERR_TOPOLOGY, "comm", "has no %s topology",
			       kind == MPI_CART ? "Cartesian" :
			       kind == MPI_GRAPH ? "graph" : "distributed graph");
		return NULL;
	}
	return c->topo;
}

static struct topo *cart_of(MPI_Comm comm, const char *call, int *rc)
{
	return topo_of(comm, call, MPI_CART, rc);
}

/*
 * The processes of p that a topology of n processes takes (MPI 3.1,
 * section 7.5.1: the first n, keeping their ranks) get a new communicator
 * with topology t, made by each of them (a NULL t there: out of memory),
 * the others MPI_COMM_NULL; t is freed if it is not used.  Collective over
 * p; MPI error class.
 */
static int topo_attach(struct comm *p, int n, struct topo *t, MPI_Comm *newcomm)
{
	int member = p->rank < n;
	struct comm *c;
	int rc = comm_split_internal(p, CALL_COMM_CREATE, member ? 0 : MPI_UNDEFINED,
				     p->rank, &c);

	if (rc != MPI_SUCCESS || (member && !t)) {
		topo_free(t);
		if (rc == MPI_SUCCESS)
			comm_unref(c);
		return rc != MPI_SUCCESS ? rc : MPI_ERR_NO_MEM;
	}
	if (c)
		c->topo = t;
	else
		topo_free(t);
	return comm_out(p, c, newcomm, 0);
}

/* The checks of a grid of ndims dims (periods) over the size processes of
 * comm; *cells: how many processes it takes. */
static int cart_check(MPI_Comm comm, const char *call, int size, int ndims,
		      const int *dims, const int *periods, int *cells)
{
	long n = 1;

	if (ndims < 0 || (ndims > 0 && (!dims || !periods)))
		return err_comm(comm, call, MPI_ERR_ARG, ndims < 0 ? "ndims" : "dims",
				"is invalid (ndims %d, or dims or periods NULL)", ndims);
	for (int i = 0; i < ndims; i++) {
		if (dims[i] <= 0)
			return err_comm(comm, call, MPI_ERR_DIMS, "dims", "element %d is %d",
					i, dims[i]);
		n *= dims[i];
		if (n > size)
			return err_comm(comm, call, MPI_ERR_DIMS, "dims",
					"the grid has more cells than the %d processes",
					size);
	}
	*cells = (int)n;
	return MPI_SUCCESS;
}

/* Coordinates of rank r in the grid (row-major: the last dimension varies
 * fastest). */
static void cart_coords_of(const struct topo *t, int r, int *coords)
{
	for (int i = t->ndims - 1; i >= 0; i--) {
		coords[i] = r % t->dims[i];
		r /= t->dims[i];
	}
}

static struct topo *cart_new(int ndims, const int *dims, const int *periods, int rank)
{
	struct topo *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->kind = MPI_CART;
	t->ndims = ndims;
	t->dims = int_copy(dims, ndims);
	t->periods = calloc((size_t)(ndims > 0 ? ndims : 1), sizeof(int));
	t->coords = calloc((size_t)(ndims > 0 ? ndims : 1), sizeof(int));
	if (!t->dims || !t->periods || !t->coords) {
		topo_free(t);
		return NULL;
	}
	for (int i = 0; i < ndims; i++)
		t->periods[i] = periods[i] != 0;
	cart_coords_of(t, rank, t->coords);
	return t;
}

API(int, Cart_create, (MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
		       int reorder, MPI_Comm *comm_cart))
{
	struct comm *p = comm_get(comm_old);
	int rc, cells;

	runtime_check("MPI_Cart_create");
	(void)reorder;
	if (!p)
		return comm_err_invalid(comm_old, "MPI_Cart_create");
	if (p->remote)
		return comm_err_inter(comm_old, "MPI_Cart_create", "comm_old");
	if (!comm_cart)
		return err_comm(comm_old, "MPI_Cart_create", MPI_ERR_ARG, "comm_cart",
				"is NULL");
	rc = cart_check(comm_old, "MPI_Cart_create", p->size, ndims, dims, periods, &cells);
	if (rc != MPI_SUCCESS)
		return rc;
	rc = topo_attach(p, cells, p->rank < cells ?
			 cart_new(ndims, dims, periods, p->rank) : NULL, comm_cart);
	return rc == MPI_SUCCESS ? rc :
	       err_comm(comm_old, "MPI_Cart_create", rc, NULL,
			"cannot create the communicator");
}

/* MPI 3.1, section 7.5.8: the identity mapping (see the top). */
API(int, Cart_map, (MPI_Comm comm, int ndims, const int dims[], const int periods[],
		    int *newrank))
{
	struct comm *c = comm_get(comm);
	int rc, cells;

	runtime_check("MPI_Cart_map");
	if (!c)
		return comm_err_invalid(comm, "MPI_Cart_map");
	if (!newrank)
		return err_comm(comm, "MPI_Cart_map", MPI_ERR_ARG, "newrank", "is NULL");
	rc = cart_check(comm, "MPI_Cart_map", c->size, ndims, dims, periods, &cells);
	if (rc != MPI_SUCCESS)
		return rc;
	*newrank = c->rank < cells ? c->rank : MPI_UNDEFINED;
	return MPI_SUCCESS;
}

API(int, Cartdim_get, (MPI_Comm comm, int *ndims))
{
	struct topo *t;
	int rc;

	runtime_check("MPI_Cartdim_get");
	if (!(t = cart_of(comm, "MPI_Cartdim_get", &rc)))
		return rc;
	if (!ndims)
		return err_comm(comm, "MPI_Cartdim_get", MPI_ERR_ARG, "ndims", "is NULL");
	*ndims = t->ndims;
	return MPI_SUCCESS;
}

API(int, Cart_get, (MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]))
{
	struct topo *t;
	int rc;

	runtime_check("MPI_Cart_get");
	if (!(t = cart_of(comm, "MPI_Cart_get", &rc)))
		return rc;
	if (maxdims < t->ndims || (t->ndims > 0 && (!dims || !periods || !coords)))
		return err_comm(comm, "MPI_Cart_get", MPI_ERR_ARG, "maxdims",
				"%d is less than the %d dimensions, or an array is NULL",
				maxdims, t->ndims);
	for (int i = 0; i < t->ndims; i++) {
		dims[i] = t->dims[i];
		periods[i] = t->periods[i];
		coords[i] = t->coords[i];
	}
	return MPI_SUCCESS;
}

/* The rank at coords, -1 (with the index) for a coordinate out of a
 * non-periodic range. */
static int cart_rank_of(const struct topo *t, const int *coords, int *bad)
{
	int r = 0;

	for (int i = 0; i < t->ndims; i++) {
		int c = coords[i];

		if (t->periods[i])
			c = ((c % t->dims[i]) + t->dims[i]) % t->dims[i];
		else if (c < 0 || c >= t->dims[i]) {
			*bad = i;
			return -1;
		}
		r = r * t->dims[i] + c;
	}
	return r;
}

API(int, Cart_rank, (MPI_Comm comm, const int coords[], int *rank))
{
	struct topo *t;
	int rc, bad = 0;

	runtime_check("MPI_Cart_rank");
	if (!(t = cart_of(comm, "MPI_Cart_rank", &rc)))
		return rc;
	if ((t->ndims > 0 && !coords) || !rank)
		return err_comm(comm, "MPI_Cart_rank", MPI_ERR_ARG, !rank ? "rank" : "coords",
				"is NULL");
	*rank = cart_rank_of(t, coords, &bad);
	if (*rank < 0)
		return err_comm(comm, "MPI_Cart_rank", MPI_ERR_ARG, "coords",
				"coordinate %d (%d) is outside a non-periodic dimension",
				bad, coords[bad]);
	return MPI_SUCCESS;
}

API(int, Cart_coords, (MPI_Comm comm, int rank, int maxdims, int coords[]))
{
	struct topo *t;
	struct comm *c;
	int rc;

	runtime_check("MPI_Cart_coords");
	if (!(t = cart_of(comm, "MPI_Cart_coords", &rc)))
		return rc;
	c = comm_get(comm);
	if (rank < 0 || rank >= c->size)
		return err_comm(comm, "MPI_Cart_coords", MPI_ERR_RANK, "rank",
				"%d is not a rank of the grid", rank);
	if (maxdims < t->ndims || (t->ndims > 0 && !coords))
		return err_comm(comm, "MPI_Cart_coords", MPI_ERR_ARG, "maxdims",
				"%d is less than the %d dimensions", maxdims, t->ndims);
	cart_coords_of(t, rank, coords);
	return MPI_SUCCESS;
}

API(int, Cart_shift, (MPI_Comm comm, int direction, int disp, int *rank_source,
		      int *rank_dest))
{
	struct topo *t;
	int rc, bad, *at;

	runtime_check("MPI_Cart_shift");
	if (!(t = cart_of(comm, "MPI_Cart_shift", &rc)))
		return rc;
	if (direction < 0 || direction >= t->ndims || !rank_source || !rank_dest)
		return err_comm(comm, "MPI_Cart_shift", MPI_ERR_ARG, "direction",
				"%d is not a dimension (0 to %d), or an output is NULL",
				direction, t->ndims - 1);
	at = int_copy(t->coords, t->ndims);
	if (!at)
		return err_comm(comm, "MPI_Cart_shift", MPI_ERR_NO_MEM, NULL, "out of memory");
	at[direction] = t->coords[direction] + disp;
	*rank_dest = cart_rank_of(t, at, &bad);
	at[direction] = t->coords[direction] - disp;
	*rank_source = cart_rank_of(t, at, &bad);
	if (*rank_dest < 0)
		*rank_dest = MPI_PROC_NULL;
	if (*rank_source < 0)
		*rank_source = MPI_PROC_NULL;
	free(at);
	return MPI_SUCCESS;
}

API(int, Cart_sub, (MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm))
{
	struct topo *t;
	struct comm *p, *c = NULL;
	int rc, color = 0, key = 0, nd = 0, *dims, *periods;

	runtime_check("MPI_Cart_sub");
	if (!(t = cart_of(comm, "MPI_Cart_sub", &rc)))
		return rc;
	if ((t->ndims > 0 && !remain_dims) || !newcomm)
		return err_comm(comm, "MPI_Cart_sub", MPI_ERR_ARG,
				!newcomm ? "newcomm" : "remain_dims", "is NULL");
	p = comm_get(comm);
	/* the colour: the coordinates dropped; the key: the ones kept */
	for (int i = 0; i < t->ndims; i++) {
		if (remain_dims[i])
			key = key * t->dims[i] + t->coords[i];
		else
			color = color * t->dims[i] + t->coords[i];
	}
	dims = malloc(sizeof(int) * (size_t)(t->ndims + 1));
	periods = malloc(sizeof(int) * (size_t)(t->ndims + 1));
	if (!dims || !periods) {
		free(dims);
		free(periods);
		return err_comm(comm, "MPI_Cart_sub", MPI_ERR_NO_MEM, NULL, "out of memory");
	}
	for (int i = 0; i < t->ndims; i++)
		if (remain_dims[i]) {
			dims[nd] = t->dims[i];
			periods[nd++] = t->periods[i];
		}
	rc = comm_split_internal(p, CALL_COMM_CREATE, color, key, &c);
	if (rc == MPI_SUCCESS && c && !(c->topo = cart_new(nd, dims, periods, c->rank))) {
		comm_unref(c);
		rc = MPI_ERR_NO_MEM;
	}
	free(dims);
	free(periods);
	if (rc != MPI_SUCCESS)
		return err_comm(comm, "MPI_Cart_sub", rc, NULL, "cannot create the communicator");
	return comm_out(p, c, newcomm, 0);
}

API(int, Topo_test, (MPI_Comm comm, int *status))
{
	struct comm *c;

	runtime_check("MPI_Topo_test");
	c = comm_get(comm);
	if (!c)
		return comm_err_invalid(comm, "MPI_Topo_test");
	if (!status)
		return err_comm(comm, "MPI_Topo_test", MPI_ERR_ARG, "status", "is NULL");
	*status = c->topo ? c->topo->kind : MPI_UNDEFINED;
	return MPI_SUCCESS;
}

/* ---- graphs ------------------------------------------------------------- */

/*
 * The checks of a graph of nnodes nodes (MPI 3.1, section 7.5.3) over the
 * size processes of comm: index non-decreasing from 0, every edge a node.
 * MPI names no class for a bad index or edge: MPI_ERR_ARG, as MPICH has it.
 */
static int graph_check(MPI_Comm comm, const char *call, int size, int nnodes,
		       const int *index, const int *edges)
{
	int nedges = 0;

	if (nnodes < 0 || nnodes > size)
		return err_comm(comm, call, MPI_ERR_ARG, "nnodes",
				"%d is not in [0, %d], the size of the communicator",
				nnodes, size);
	if (nnodes > 0 && !index)
		return err_comm(comm, call, MPI_ERR_ARG, "index", "is NULL");
	for (int i = 0; i < nnodes; nedges = index[i++])
		if (index[i] < nedges)
			return err_comm(comm, call, MPI_ERR_ARG, "index",
					"entry %d (%d) is less than %s (%d)", i, index[i],
					i ? "the one before" : "zero", nedges);
	if (nedges > 0 && !edges)
		return err_comm(comm, call, MPI_ERR_ARG, "edges", "is NULL");
	for (int e = 0; e < nedges; e++)
		if (edges[e] < 0 || edges[e] >= nnodes)
			return err_comm(comm, call, MPI_ERR_ARG, "edges",
					"entry %d (%d) is not a node of the graph (0 to %d)",
					e, edges[e], nnodes - 1);
	return MPI_SUCCESS;
}

static int edge_order(const void *a, const void *b)
{
	const int *x = a, *y = b;

	if (x[0] != y[0])
		return (x[0] > y[0]) - (x[0] < y[0]);
	return (x[1] > y[1]) - (x[1] < y[1]);
}

/* Whether the adjacency matrix of graph t is symmetric: each edge (u, v)
 * as often as (v, u).  0 or 1, -ENOMEM. */
static int graph_symmetric(const struct topo *t)
{
	int nedges = t->index[t->nnodes - 1], sym;
	int *fwd = malloc(sizeof(int) * 2 * (size_t)(nedges + 1));
	int *rev = malloc(sizeof(int) * 2 * (size_t)(nedges + 1));

	if (!fwd || !rev) {
		free(fwd);
		free(rev);
		return -ENOMEM;
	}
	for (int u = 0, e = 0; u < t->nnodes; u++)
		for (; e < t->index[u]; e++) {
			fwd[2 * e] = rev[2 * e + 1] = u;
			fwd[2 * e + 1] = rev[2 * e] = t->edges[e];
		}
	qsort(fwd, (size_t)nedges, 2 * sizeof(int), edge_order);
	qsort(rev, (size_t)nedges, 2 * sizeof(int), edge_order);
	sym = !memcmp(fwd, rev, sizeof(int) * 2 * (size_t)nedges);
	free(fwd);
	free(rev);
	return sym;
}

/* A graph topology of this (checked, nnodes > 0) graph; NULL when out of
 * memory. */
static struct topo *graph_new(int nnodes, const int *index, const int *edges)
{
	struct topo *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->kind = MPI_GRAPH;
	t->nnodes = nnodes;
	t->index = int_copy(index, nnodes);
	t->edges = int_copy(edges, index[nnodes - 1]);
	if (!t->index || !t->edges || (t->symmetric = graph_symmetric(t)) < 0) {
		topo_free(t);
		return NULL;
	}
	return t;
}

/* The neighbours of node r of graph t: how many, from t->edges + *first. */
static int graph_neighbors_of(const struct topo *t, int r, int *first)
{
	*first = r ? t->index[r - 1] : 0;
	return t->index[r] - *first;
}

/* reorder may do nothing (see the top); nnodes 0 gives every process
 * MPI_COMM_NULL. */
API(int, Graph_create, (MPI_Comm comm_old, int nnodes, const int index[], const int edges[],
			int reorder, MPI_Comm *comm_graph))
{
	const char *call = "MPI_Graph_create";
	struct comm *p = comm_get(comm_old);
	int rc;

	runtime_check(call);
	(void)reorder;
	if (!p)
		return comm_err_invalid(comm_old, call);
	if (p->remote)
		return comm_err_inter(comm_old, call, "comm_old");
	if (!comm_graph)
		return err_comm(comm_old, call, MPI_ERR_ARG, "comm_graph", "is NULL");
	rc = graph_check(comm_old, call, p->size, nnodes, index, edges);
	if (rc != MPI_SUCCESS)
		return rc;
	rc = topo_attach(p, nnodes, p->rank < nnodes ? graph_new(nnodes, index, edges) : NULL,
			 comm_graph);
	return rc == MPI_SUCCESS ? rc :
	       err_comm(comm_old, call, rc, NULL, "cannot create the communicator");
}

API(int, Graphdims_get, (MPI_Comm comm, int *nnodes, int *nedges))
{
	struct topo *t;
	int rc;

	runtime_check("MPI_Graphdims_get");
	if (!(t = topo_of(comm, "MPI_Graphdims_get", MPI_GRAPH, &rc)))
		return rc;
	if (!nnodes || !nedges)
		return err_comm(comm, "MPI_Graphdims_get", MPI_ERR_ARG,
				!nnodes ? "nnodes" : "nedges", "is NULL");
	*nnodes = t->nnodes;
	*nedges = t->index[t->nnodes - 1];
	return MPI_SUCCESS;
}

API(int, Graph_get, (MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]))
{
	struct topo *t;
	int rc, nedges;

	runtime_check("MPI_Graph_get");
	if (!(t = topo_of(comm, "MPI_Graph_get", MPI_GRAPH, &rc)))
		return rc;
	nedges = t->index[t->nnodes - 1];
	if (maxindex < t->nnodes)
		return err_comm(comm, "MPI_Graph_get", MPI_ERR_ARG, "maxindex",
				"%d is less than the %d nodes", maxindex, t->nnodes);
	if (maxedges < nedges)
		return err_comm(comm, "MPI_Graph_get", MPI_ERR_ARG, "maxedges",
				"%d is less than the %d edges", maxedges, nedges);
	if (!index || (nedges > 0 && !edges))
		return err_comm(comm, "MPI_Graph_get", MPI_ERR_ARG, !index ? "index" : "edges",
				"is NULL");
	memcpy(index, t->index, sizeof(int) * (size_t)t->nnodes);
	memcpy(edges, t->edges, sizeof(int) * (size_t)nedges);
	return MPI_SUCCESS;
}

/* The graph of comm, of which `rank` must be a node, or NULL. */
static struct topo *graph_node(MPI_Comm comm, const char *call, int rank, int *rc)
{
	struct topo *t = topo_of(comm, call, MPI_GRAPH, rc);

	if (t && (rank < 0 || rank >= t->nnodes)) {
		*rc = err_comm(comm, call, MPI_ERR_RANK, "rank",
			       "%d is not a node of the graph (0 to %d)", rank, t->nnodes - 1);
		return NULL;
	}
	return t;
}

API(int, Graph_neighbors_count, (MPI_Comm comm, int rank, int *nneighbors))
{
	struct topo *t;
	int rc, first;

	runtime_check("MPI_Graph_neighbors_count");
	if (!(t = graph_node(comm, "MPI_Graph_neighbors_count", rank, &rc)))
		return rc;
	if (!nneighbors)
		return err_comm(comm, "MPI_Graph_neighbors_count", MPI_ERR_ARG, "nneighbors",
				"is NULL");
	*nneighbors = graph_neighbors_of(t, rank, &first);
	return MPI_SUCCESS;
}

API(int, Graph_neighbors, (MPI_Comm comm, int rank, int maxneighbors, int neighbors[]))
{
	struct topo *t;
	int rc, first, n;

	runtime_check("MPI_Graph_neighbors");
	if (!(t = graph_node(comm, "MPI_Graph_neighbors", rank, &rc)))
		return rc;
	n = graph_neighbors_of(t, rank, &first);
	if (maxneighbors < n)
		return err_comm(comm, "MPI_Graph_neighbors", MPI_ERR_ARG, "maxneighbors",
				"%d is less than the %d neighbours of node %d", maxneighbors,
				n, rank);
	if (n > 0 && !neighbors)
		return err_comm(comm, "MPI_Graph_neighbors", MPI_ERR_ARG, "neighbors",
				"is NULL");
	memcpy(neighbors, t->edges + first, sizeof(int) * (size_t)n);
	return MPI_SUCCESS;
}

/* MPI 3.1, section 7.5.8: the identity mapping (see the top). */
API(int, Graph_map, (MPI_Comm comm, int nnodes, const int index[], const int edges[],
		     int *newrank))
{
	struct comm *c = comm_get(comm);
	int rc;

	runtime_check("MPI_Graph_map");
	if (!c)
		return comm_err_invalid(comm, "MPI_Graph_map");
	if (!newrank)
		return err_comm(comm, "MPI_Graph_map", MPI_ERR_ARG, "newrank", "is NULL");
	rc = graph_check(comm, "MPI_Graph_map", c->size, nnodes, index, edges);
	if (rc != MPI_SUCCESS)
		return rc;
	*newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
	return MPI_SUCCESS;
}

/* ---- distributed graphs ------------------------------------------------- */

static int dist_check_list(MPI_Comm comm, const char *call, const struct comm *c,
			   int n, const int *ranks, const int *weights, const char *name)
{
	if (n < 0)
		return err_comm(comm, call, MPI_ERR_ARG, name, "degree %d is negative", n);
	if (n > 0 && (!ranks || !weights || weights == MPI_WEIGHTS_EMPTY))
		return err_comm(comm, call, MPI_ERR_ARG, name,
				"is NULL (or MPI_WEIGHTS_EMPTY with a degree of %d)", n);
	for (int i = 0; i < n; i++)
		if (ranks[i] < 0 || ranks[i] >= c->size)
			return err_comm(comm, call, MPI_ERR_RANK, name,
					"%d is not a rank of the communicator", ranks[i]);
	return MPI_SUCCESS;
}

/* A graph topology with these neighbours (weights may be MPI_UNWEIGHTED). */
static struct topo *dist_new(int indeg, const int *src, const int *sw, int outdeg,
			     const int *dst, const int *dw)
{
	struct topo *t = calloc(1, sizeof(*t));
	int zeros[1] = { 0 };

	if (!t)
		return NULL;
	t->kind = MPI_DIST_GRAPH;
	t->indegree = indeg;
	t->outdegree = outdeg;
	t->weighted = sw != MPI_UNWEIGHTED && dw != MPI_UNWEIGHTED;
	t->sources = int_copy(src, indeg);
	t->destinations = int_copy(dst, outdeg);
	t->sourceweights = t->weighted && indeg ? int_copy(sw, indeg) : int_copy(zeros, 0);
	t->destweights = t->weighted && outdeg ? int_copy(dw, outdeg) : int_copy(zeros, 0);
	if (!t->sources || !t->destinations || !t->sourceweights || !t->destweights) {
		topo_free(t);
		return NULL;
	}
	return t;
}

API(int, Dist_graph_create_adjacent, (MPI_Comm comm_old, int indegree, const int sources[],
				      const int *sourceweights, int outdegree,
				      const int destinations[], const int *destweights,
				      MPI_Info info, int reorder, MPI_Comm *comm_dist_graph))
{
	const char *call = "MPI_Dist_graph_create_adjacent";
	struct comm *p = comm_get(comm_old);
	int rc;

	runtime_check(call);
	(void)info;
	(void)reorder;
	if (!p)
		return comm_err_invalid(comm_old, call);
	if (!comm_dist_graph)
		return err_comm(comm_old, call, MPI_ERR_ARG, "comm_dist_graph", "is NULL");
	if ((rc = dist_check_list(comm_old, call, p, indegree, sources, sourceweights,
				  "sources")) != MPI_SUCCESS ||
	    (rc = dist_check_list(comm_old, call, p, outdegree, destinations, destweights,
				  "destinations")) != MPI_SUCCESS)
		return rc;
	rc = topo_attach(p, p->size, dist_new(indegree, sources, sourceweights, outdegree,
				     destinations, destweights), comm_dist_graph);
	return rc == MPI_SUCCESS ? rc :
	       err_comm(comm_old, call, rc, NULL, "cannot create the communicator");
}

/*
 * Any rank may name any edge: every edge (s, d, w) is sent to s (an
 * out-edge) and to d (an in-edge) with one all-to-all exchange, then each
 * rank keeps the edges it received, in the order of their senders.
 */
API(int, Dist_graph_create, (MPI_Comm comm_old, int n, const int sources[],
			     const int degrees[], const int destinations[],
			     const int *weights, MPI_Info info, int reorder,
			     MPI_Comm *comm_dist_graph))
{
	const char *call = "MPI_Dist_graph_create";
	struct comm *p = comm_get(comm_old);
	int weighted = weights != MPI_UNWEIGHTED, edges = 0, rc = MPI_SUCCESS;
	int *scount = NULL, *rcount = NULL, *sdisp = NULL, *rdisp = NULL;
	int *out = NULL, *in = NULL, *fill = NULL, nin = 0, nout = 0, total_in = 0;
	int *src = NULL, *sw = NULL, *dst = NULL, *dw = NULL;

	runtime_check(call);
	(void)info;
	(void)reorder;
	if (!p)
		return comm_err_invalid(comm_old, call);
	if (p->remote)	/* before the exchange below (intercomm.c) */
		return comm_err_inter(comm_old, call, "comm_old");
	if (n < 0 || (n > 0 && (!sources || !degrees)) || !comm_dist_graph)
		return err_comm(comm_old, call, MPI_ERR_ARG, n < 0 ? "n" : "sources",
				"is invalid");
	for (int i = 0; i < n; i++) {
		if (sources[i] < 0 || sources[i] >= p->size || degrees[i] < 0)
			return err_comm(comm_old, call, MPI_ERR_ARG, "sources",
					"entry %d: source %d, degree %d", i, sources[i],
					degrees[i]);
		edges += degrees[i];
	}
	if (edges > 0 && (!destinations || (weighted && (!weights ||
							 weights == MPI_WEIGHTS_EMPTY))))
		return err_comm(comm_old, call, MPI_ERR_ARG, "destinations", "is NULL");
	for (int e = 0; e < edges; e++)
		if (destinations[e] < 0 || destinations[e] >= p->size)
			return err_comm(comm_old, call, MPI_ERR_RANK, "destinations",
					"%d is not a rank of the communicator",
					destinations[e]);
	scount = calloc((size_t)p->size, sizeof(int));
	rcount = calloc((size_t)p->size, sizeof(int));
	sdisp = calloc((size_t)p->size, sizeof(int));
	rdisp = calloc((size_t)p->size, sizeof(int));
	fill = calloc((size_t)p->size, sizeof(int));
	out = malloc(sizeof(int) * 3 * (size_t)(2 * edges + 1));
	if (!scount || !rcount || !sdisp || !rdisp || !fill || !out) {
		rc = MPI_ERR_NO_MEM;
		goto out;
	}
	/* triples (kind 0: out-edge to peer / 1: in-edge from peer, peer, w) */
	for (int i = 0, e = 0; i < n; i++)
		for (int k = 0; k < degrees[i]; k++, e++) {
			scount[sources[i]] += 3;
			scount[destinations[e]] += 3;
		}
	for (int r = 1; r < p->size; r++)
		sdisp[r] = sdisp[r - 1] + scount[r - 1];
	for (int i = 0, e = 0; i < n; i++)
		for (int k = 0; k < degrees[i]; k++, e++) {
			int w = weighted ? weights[e] : 1;
			int *o = out + sdisp[sources[i]] + fill[sources[i]];

			o[0] = 0, o[1] = destinations[e], o[2] = w;
			fill[sources[i]] += 3;
			o = out + sdisp[destinations[e]] + fill[destinations[e]];
			o[0] = 1, o[1] = sources[i], o[2] = w;
			fill[destinations[e]] += 3;
		}
	PMPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, comm_old);
	for (int r = 0; r < p->size; r++) {
		rdisp[r] = total_in;
		total_in += rcount[r];
	}
	in = malloc(sizeof(int) * (size_t)(total_in + 1));
	src = malloc(sizeof(int) * (size_t)(total_in / 3 + 1));
	sw = malloc(sizeof(int) * (size_t)(total_in / 3 + 1));
	dst = malloc(sizeof(int) * (size_t)(total_in / 3 + 1));
	dw = malloc(sizeof(int) * (size_t)(total_in / 3 + 1));
	/* everybody takes part in the exchange, out of memory or not */
	PMPI_Alltoallv(out, scount, sdisp, MPI_INT, in ? in : out, rcount, rdisp, MPI_INT,
		       comm_old);
	if (!in || !src || !sw || !dst || !dw) {
		rc = MPI_ERR_NO_MEM;
	} else {
		for (int k = 0; k < total_in; k += 3) {
			if (in[k] == 0) {
				dst[nout] = in[k + 1];
				dw[nout++] = in[k + 2];
			} else {
				src[nin] = in[k + 1];
				sw[nin++] = in[k + 2];
			}
		}
	}
	/* the collective step below must happen on every rank */
	rc = topo_attach(p, p->size, rc == MPI_SUCCESS ?
			 dist_new(nin, src, weighted ? sw : MPI_UNWEIGHTED, nout, dst,
				  weighted ? dw : MPI_UNWEIGHTED) : NULL, comm_dist_graph);
out:
	free(scount);
	free(rcount);
	free(sdisp);
	free(rdisp);
	free(fill);
	free(out);
	free(in);
	free(src);
	free(sw);
	free(dst);
	free(dw);
	return rc == MPI_SUCCESS ? rc :
	       err_comm(comm_old, call, rc, NULL, "cannot create the communicator");
}

API(int, Dist_graph_neighbors_count, (MPI_Comm comm, int *indegree, int *outdegree,
				      int *weighted))
{
	struct topo *t;
	int rc;

	runtime_check("MPI_Dist_graph_neighbors_count");
	if (!(t = topo_of(comm, "MPI_Dist_graph_neighbors_count", MPI_DIST_GRAPH, &rc)))
		return rc;
	if (!indegree || !outdegree || !weighted)
		return err_comm(comm, "MPI_Dist_graph_neighbors_count", MPI_ERR_ARG,
				"indegree", "an output argument is NULL");
	*indegree = t->indegree;
	*outdegree = t->outdegree;
	*weighted = t->weighted;
	return MPI_SUCCESS;
}

API(int, Dist_graph_neighbors, (MPI_Comm comm, int maxindegree, int sources[],
				int *sourceweights, int maxoutdegree, int destinations[],
				int *destweights))
{
	struct topo *t;
	int rc;

	runtime_check("MPI_Dist_graph_neighbors");
	if (!(t = topo_of(comm, "MPI_Dist_graph_neighbors", MPI_DIST_GRAPH, &rc)))
		return rc;
	if (maxindegree < t->indegree || maxoutdegree < t->outdegree)
		return err_comm(comm, "MPI_Dist_graph_neighbors", MPI_ERR_ARG,
				"maxindegree", "less than the degrees %d and %d",
				t->indegree, t->outdegree);
	for (int i = 0; i < t->indegree; i++) {
		sources[i] = t->sources[i];
		if (t->weighted && sourceweights != MPI_UNWEIGHTED)
			sourceweights[i] = t->sourceweights[i];
	}
	for (int i = 0; i < t->outdegree; i++) {
		destinations[i] = t->destinations[i];
		if (t->weighted && destweights != MPI_UNWEIGHTED)
			destweights[i] = t->destweights[i];
	}
	return MPI_SUCCESS;
}

/* ---- neighbourhood collectives: the neighbours (topo.h) ------------------ */

int neighbors_of(const struct comm *c, struct neighbors *nb)
{
	const struct topo *t = c->topo;
	int first;

	memset(nb, 0, sizeof(*nb));
	if (t->kind == MPI_GRAPH) {
		if (!t->symmetric)
			return -EINVAL;
		nb->nin = nb->nout = graph_neighbors_of(t, c->rank, &first);
		nb->in = nb->out = t->edges + first;
		return 0;	/* tag 0: edges between two ranks keep their order */
	}
	if (t->kind == MPI_DIST_GRAPH) {
		nb->nin = t->indegree;
		nb->nout = t->outdegree;
		nb->in = t->sources;
		nb->out = t->destinations;
		return 0;	/* tag 0: edges between two ranks keep their order */
	}
	nb->nin = nb->nout = 2 * t->ndims;
	nb->in = malloc(sizeof(int) * (size_t)(nb->nin + 1));
	nb->send_tag = malloc(sizeof(int) * (size_t)(nb->nin + 1));
	nb->recv_tag = malloc(sizeof(int) * (size_t)(nb->nin + 1));
	if (!nb->in || !nb->send_tag || !nb->recv_tag)
		return -ENOMEM;
	nb->out = nb->in;
	for (int d = 0; d < t->ndims; d++) {
		int *at = int_copy(t->coords, t->ndims), bad;

		if (!at)
			return -ENOMEM;
		at[d] = t->coords[d] - 1;
		nb->in[2 * d] = cart_rank_of(t, at, &bad);
		at[d] = t->coords[d] + 1;
		nb->in[2 * d + 1] = cart_rank_of(t, at, &bad);
		free(at);
		for (int k = 2 * d; k < 2 * d + 2; k++)
			if (nb->in[k] < 0)
				nb->in[k] = MPI_PROC_NULL;
		/* what we send towards -1 arrives there as from its +1 */
		nb->send_tag[2 * d] = 2 * d + 1;
		nb->send_tag[2 * d + 1] = 2 * d;
		nb->recv_tag[2 * d] = 2 * d;
		nb->recv_tag[2 * d + 1] = 2 * d + 1;
	}
	return 0;
}

void neighbors_free(const struct comm *c, struct neighbors *nb)
{
	if (c->topo->kind == MPI_CART) {
		free(nb->in);
		free(nb->send_tag);
		free(nb->recv_tag);
	}
}
