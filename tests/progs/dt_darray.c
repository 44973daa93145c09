/*
 * MPI_Type_create_darray (MPI 3.1, section 4.1.4).
 *   dt_darray maps      print the type map of every process of several
 *                       grids (block, cyclic, cyclic(k), none, default and
 *                       explicit dargs, C and Fortran order, 1 to 3
 *                       dimensions, an oldtype with a gap): size, bounds,
 *                       and the global indices in type map order, from
 *                       packing an array that holds its own indices.  The
 *                       same program built with MPICH prints the same.
 *   dt_darray [test]    (default: all) the checks below, then "ok test"
 *
 * scatter: the job's ranks on a 2-D grid (MPI_Dims_create), block-cyclic:
 * rank 0 sends every rank its part of a global array with that rank's
 * darray type, each checks it against the owner rule of block-cyclic
 * distributions worked out here, sends it back doubled, and rank 0 finds
 * every element doubled exactly once.  contents: envelope and contents
 * give back the arguments.  errors: every erroneous argument is refused
 * with MPI_ERR_ARG (or MPI_ERR_TYPE) and makes no type.
 */
#include "testutil.h"

static int rank, nprocs;

struct grid {
	int ndims, gsizes[3], distribs[3], dargs[3], psizes[3], order;
};

#define B MPI_DISTRIBUTE_BLOCK
#define C MPI_DISTRIBUTE_CYCLIC
#define N MPI_DISTRIBUTE_NONE
#define D MPI_DISTRIBUTE_DFLT_DARG

static const struct grid grids[] = {
	{ 1, { 10 }, { B }, { D }, { 3 }, MPI_ORDER_C },
	{ 1, { 10 }, { B }, { 4 }, { 3 }, MPI_ORDER_C },
	{ 1, { 10 }, { C }, { D }, { 3 }, MPI_ORDER_C },
	{ 1, { 11 }, { C }, { 2 }, { 3 }, MPI_ORDER_FORTRAN },
	{ 2, { 4, 6 }, { B, B }, { D, D }, { 2, 2 }, MPI_ORDER_C },
	{ 2, { 4, 6 }, { B, B }, { D, D }, { 2, 2 }, MPI_ORDER_FORTRAN },
	{ 2, { 5, 7 }, { C, B }, { 2, D }, { 2, 3 }, MPI_ORDER_C },
	{ 2, { 5, 7 }, { C, C }, { 1, 3 }, { 3, 2 }, MPI_ORDER_FORTRAN },
	{ 2, { 3, 5 }, { N, C }, { D, 2 }, { 1, 2 }, MPI_ORDER_C },
	{ 3, { 3, 4, 5 }, { B, C, N }, { D, 2, D }, { 2, 2, 1 }, MPI_ORDER_C },
	{ 3, { 3, 4, 5 }, { C, N, B }, { D, D, 2 }, { 2, 1, 3 }, MPI_ORDER_FORTRAN },
};

static int grid_size(const struct grid *g)
{
	int p = 1;

	for (int i = 0; i < g->ndims; i++)
		p *= g->psizes[i];
	return p;
}

static int grid_elems(const struct grid *g)
{
	int n = 1;

	for (int i = 0; i < g->ndims; i++)
		n *= g->gsizes[i];
	return n;
}

/* The darray of grid g for process r, on oldtype. */
static MPI_Datatype make(const struct grid *g, int r, MPI_Datatype oldtype)
{
	MPI_Datatype t;

	CHECK_MPI(MPI_Type_create_darray(grid_size(g), r, g->ndims, g->gsizes, g->distribs,
					 g->dargs, g->psizes, g->order, oldtype, &t));
	CHECK_MPI(MPI_Type_commit(&t));
	return t;
}

/* Print process r's type map of g: bounds, then the indices it holds. */
static void print_map(const struct grid *g, int r, MPI_Datatype oldtype, int stride)
{
	MPI_Datatype t = make(g, r, oldtype);
	int n = grid_elems(g), size, pos = 0;
	MPI_Aint lb, extent, tlb, textent;
	int *global = malloc((size_t)n * (size_t)stride * sizeof(int));
	int *packed = malloc((size_t)n * sizeof(int) + 1);

	CHECK(global && packed);
	for (int i = 0; i < n * stride; i++)
		global[i] = i % stride ? -1 : i / stride;
	CHECK_MPI(MPI_Type_size(t, &size));
	CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
	CHECK_MPI(MPI_Type_get_true_extent(t, &tlb, &textent));
	CHECK_MPI(MPI_Pack(global, 1, t, packed, n * (int)sizeof(int) + 1, &pos,
			   MPI_COMM_SELF));
	printf("rank %d: size %d lb %ld extent %ld true_lb %ld true_extent %ld:", r, size,
	       (long)lb, (long)extent, (long)tlb, (long)textent);
	for (int i = 0; i < size / (int)sizeof(int); i++)
		printf(" %d", packed[i]);
	printf("\n");
	free(packed);
	free(global);
	CHECK_MPI(MPI_Type_free(&t));
}

static void maps(void)
{
	MPI_Datatype gap;	/* an int followed by a gap of one int */

	CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &gap));
	CHECK_MPI(MPI_Type_commit(&gap));
	for (size_t k = 0; k < sizeof(grids) / sizeof(grids[0]); k++) {
		const struct grid *g = &grids[k];

		printf("grid %zu: ndims %d order %s\n", k, g->ndims,
		       g->order == MPI_ORDER_C ? "C" : "Fortran");
		for (int r = 0; r < grid_size(g); r++)
			print_map(g, r, MPI_INT, 1);
	}
	printf("grid 6 on a strided int:\n");
	for (int r = 0; r < grid_size(&grids[6]); r++)
		print_map(&grids[6], r, gap, 2);
	CHECK_MPI(MPI_Type_free(&gap));
}

/* Owner coordinate and rank of global index x in a block-cyclic dimension. */
static int owner(int x, int darg, int psize)
{
	return x / darg % psize;
}

static void scatter(void)
{
	int dims[2] = { 0, 0 }, gs[2] = { 7, 9 }, dargs[2] = { 2, MPI_DISTRIBUTE_DFLT_DARG };
	int distribs[2] = { MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK };
	int n = gs[0] * gs[1], size, count = 0, coords[2];
	double *global = NULL, *mine;
	MPI_Request req;
	MPI_Datatype t;

	CHECK_MPI(MPI_Dims_create(nprocs, 2, dims));
	for (int order = 0; order < 2; order++) {
		int ord = order ? MPI_ORDER_FORTRAN : MPI_ORDER_C;

		CHECK_MPI(MPI_Type_create_darray(nprocs, rank, 2, gs, distribs, dargs, dims,
						 ord, MPI_DOUBLE, &t));
		CHECK_MPI(MPI_Type_commit(&t));
		CHECK_MPI(MPI_Type_size(t, &size));
		mine = malloc((size_t)size + 1);
		CHECK(mine);
		if (rank == 0) {
			global = malloc((size_t)n * sizeof(double));
			CHECK(global);
			for (int i = 0; i < n; i++)
				global[i] = i;
		}
		/* rank 0 sends each rank its part, with that rank's type */
		CHECK_MPI(MPI_Irecv(mine, size / (int)sizeof(double), MPI_DOUBLE, 0, 0,
				    MPI_COMM_WORLD, &req));
		if (rank == 0) {
			for (int r = 0; r < nprocs; r++) {
				MPI_Datatype tr;

				CHECK_MPI(MPI_Type_create_darray(nprocs, r, 2, gs, distribs, dargs,
								 dims, ord, MPI_DOUBLE, &tr));
				CHECK_MPI(MPI_Type_commit(&tr));
				CHECK_MPI(MPI_Send(global, 1, tr, r, 0, MPI_COMM_WORLD));
				CHECK_MPI(MPI_Type_free(&tr));
			}
		}
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		/* what this rank owns, in the order of the array's memory */
		coords[0] = rank / dims[1];
		coords[1] = rank % dims[1];
		count = 0;
		for (int i = 0; i < n; i++) {
			/* C order: index 0 is the slow one; Fortran: the fast one */
			int x0 = ord == MPI_ORDER_C ? i / gs[1] : i % gs[0];
			int x1 = ord == MPI_ORDER_C ? i % gs[1] : i / gs[0];
			int b1 = (gs[1] + dims[1] - 1) / dims[1];

			if (owner(x0, 2, dims[0]) == coords[0] && owner(x1, b1, dims[1]) == coords[1])
				CHECK(mine[count++] == i);
		}
		CHECK(count * (int)sizeof(double) == size);
		for (int k = 0; k < count; k++)
			mine[k] *= 2;
		if (rank == 0) {
			CHECK_MPI(MPI_Isend(mine, count, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, &req));
			for (int r = 0; r < nprocs; r++) {
				MPI_Datatype tr;

				CHECK_MPI(MPI_Type_create_darray(nprocs, r, 2, gs, distribs, dargs,
								 dims, ord, MPI_DOUBLE, &tr));
				CHECK_MPI(MPI_Type_commit(&tr));
				CHECK_MPI(MPI_Recv(global, 1, tr, r, 1, MPI_COMM_WORLD,
						   MPI_STATUS_IGNORE));
				CHECK_MPI(MPI_Type_free(&tr));
			}
			CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
			for (int i = 0; i < n; i++)
				CHECK(global[i] == 2 * i);
			free(global);
		} else {
			CHECK_MPI(MPI_Send(mine, count, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD));
		}
		free(mine);
		CHECK_MPI(MPI_Type_free(&t));
	}
}

static void contents(void)
{
	const struct grid *g = &grids[9];
	MPI_Datatype t = make(g, 3, MPI_SHORT), dt;
	int ni, na, nd, comb, ints[16];
	MPI_Aint a[1];

	CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
	CHECK(comb == MPI_COMBINER_DARRAY && ni == 4 * 3 + 4 && na == 0 && nd == 1);
	CHECK_MPI(MPI_Type_get_contents(t, 16, 1, 1, ints, a, &dt));
	CHECK(ints[0] == 4 && ints[1] == 3 && ints[2] == 3 && dt == MPI_SHORT);
	for (int i = 0; i < 3; i++)
		CHECK(ints[3 + i] == g->gsizes[i] && ints[6 + i] == g->distribs[i] &&
		      ints[9 + i] == g->dargs[i] && ints[12 + i] == g->psizes[i]);
	CHECK(ints[15] == MPI_ORDER_C);
	CHECK_MPI(MPI_Type_free(&t));
}

/* Each call must fail with class want and leave newtype alone. */
#define EXPECT(want, size, r, nd, gs, di, da, ps, ord, old)                   \
	do {                                                                   \
		MPI_Datatype t_ = MPI_DATATYPE_NULL;                           \
		CHECK(tu_check_class(MPI_Type_create_darray(size, r, nd, gs, di, da, ps, \
							    ord, old, &t_), want)); \
		CHECK(t_ == MPI_DATATYPE_NULL);                                \
	} while (0)

static void errors(void)
{
	int gs[2] = { 4, 6 }, di[2] = { B, C }, da[2] = { D, D }, ps[2] = { 2, 2 };
	int bad[2];

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	EXPECT(MPI_ERR_ARG, 0, 0, 2, gs, di, da, ps, MPI_ORDER_C, MPI_INT);
	EXPECT(MPI_ERR_ARG, 4, 4, 2, gs, di, da, ps, MPI_ORDER_C, MPI_INT);
	EXPECT(MPI_ERR_ARG, 4, -1, 2, gs, di, da, ps, MPI_ORDER_C, MPI_INT);
	EXPECT(MPI_ERR_ARG, 4, 0, 0, gs, di, da, ps, MPI_ORDER_C, MPI_INT);
	EXPECT(MPI_ERR_ARG, 4, 0, 2, NULL, di, da, ps, MPI_ORDER_C, MPI_INT);
	EXPECT(MPI_ERR_ARG, 4, 0, 2, gs, di, da, ps, 3, MPI_INT);
	EXPECT(MPI_ERR_ARG, 3, 0, 2, gs, di, da, ps, MPI_ORDER_C, MPI_INT);	/* 2x2 != 3 */
	memcpy(bad, gs, sizeof(bad)); bad[1] = 0;
	EXPECT(MPI_ERR_ARG, 4, 0, 2, bad, di, da, ps, MPI_ORDER_C, MPI_INT);
	memcpy(bad, ps, sizeof(bad)); bad[0] = -2;
	EXPECT(MPI_ERR_ARG, 4, 0, 2, gs, di, da, bad, MPI_ORDER_C, MPI_INT);
	memcpy(bad, di, sizeof(bad)); bad[0] = 7;
	EXPECT(MPI_ERR_ARG, 4, 0, 2, gs, bad, da, ps, MPI_ORDER_C, MPI_INT);
	memcpy(bad, da, sizeof(bad)); bad[1] = 0;
	EXPECT(MPI_ERR_ARG, 4, 0, 2, gs, di, bad, ps, MPI_ORDER_C, MPI_INT);
	/* a block of 1 on 2 processes does not cover 4 elements */
	memcpy(bad, da, sizeof(bad)); bad[0] = 1;
	EXPECT(MPI_ERR_ARG, 4, 0, 2, gs, di, bad, ps, MPI_ORDER_C, MPI_INT);
	/* MPI_DISTRIBUTE_NONE on a grid dimension of 2 */
	memcpy(bad, di, sizeof(bad)); bad[0] = N;
	EXPECT(MPI_ERR_ARG, 4, 0, 2, gs, bad, da, ps, MPI_ORDER_C, MPI_INT);
	EXPECT(MPI_ERR_TYPE, 4, 0, 2, gs, di, da, ps, MPI_ORDER_C, MPI_DATATYPE_NULL);
	CHECK(tu_check_class(MPI_Type_create_darray(4, 0, 2, gs, di, da, ps, MPI_ORDER_C,
						    MPI_INT, NULL), MPI_ERR_ARG));
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
	if (!strcmp(which, "maps")) {
		if (rank == 0)
			maps();
	} else {
		TU_RUN("scatter", scatter);
		TU_RUN("contents", contents);
		TU_RUN("errors", errors);
	}
	MPI_Finalize();
	return 0;
}
