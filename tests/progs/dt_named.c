/*
 * The Fortran and C++ datatypes usable from C (MPI 3.1, section 3.2.2 and
 * Annex A.1.1), the Fortran 90 parameterized types and MPI_Type_match_size
 * (17.1.9), and the MPI_Count element calls (4.1.11, 12.3).
 *   dt_named [test]    (default: all)
 * predefined: sizes and extents as gfortran and g++ lay the types out,
 * names, MPI_COMBINER_NAMED, no contents, no freeing.  coll: reductions on
 * derived types of them (vectors with gaps, pairs), with MPI_IN_PLACE,
 * through MPI_Allreduce, MPI_Reduce, MPI_Scan, MPI_Exscan and
 * MPI_Reduce_scatter_block, each result worked out here.  rma: every rank
 * accumulates into its neighbour's window with the ops each type takes
 * (Fetch_and_op and Compare_and_swap too, on a type of
 * MPI_Type_create_f90_integer as well), and the ops it does not take are
 * MPI_ERR_OP.  f90: the types of MPI_Type_create_f90_*: sizes, envelope
 * and contents, one handle per (p, r), reductions, use in a derived type,
 * errors.  match_size: each class and size.  elements:
 * MPI_Get_elements(_x) and MPI_Status_set_elements(_x) agree, past
 * INT_MAX too.  (MPI_Get_count, MPI_Get_elements and reductions of the
 * whole list of types and ops are in coll_ops.c and op_reduce.c.)
 */
#include <complex.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "testutil.h"

static int rank, nprocs;

static void expect_class(int rc, int want)
{
	CHECK(tu_check_class(rc, want));
}

static void predefined(void)
{
	static const struct { MPI_Datatype t; const char *name; int size, extent; } types[] = {
		{ MPI_CHARACTER, "MPI_CHARACTER", 1, 1 },
		{ MPI_LOGICAL, "MPI_LOGICAL", 4, 4 },
		{ MPI_INTEGER, "MPI_INTEGER", 4, 4 },
		{ MPI_REAL, "MPI_REAL", 4, 4 },
		{ MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", 8, 8 },
		{ MPI_COMPLEX, "MPI_COMPLEX", 8, 8 },
		{ MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", 16, 16 },
		{ MPI_INTEGER1, "MPI_INTEGER1", 1, 1 },
		{ MPI_INTEGER2, "MPI_INTEGER2", 2, 2 },
		{ MPI_INTEGER4, "MPI_INTEGER4", 4, 4 },
		{ MPI_INTEGER8, "MPI_INTEGER8", 8, 8 },
		{ MPI_REAL4, "MPI_REAL4", 4, 4 },
		{ MPI_REAL8, "MPI_REAL8", 8, 8 },
		{ MPI_REAL16, "MPI_REAL16", 16, 16 },
		{ MPI_COMPLEX8, "MPI_COMPLEX8", 8, 8 },
		{ MPI_COMPLEX16, "MPI_COMPLEX16", 16, 16 },
		{ MPI_COMPLEX32, "MPI_COMPLEX32", 32, 32 },
		{ MPI_2INTEGER, "MPI_2INTEGER", 8, 8 },
		{ MPI_2REAL, "MPI_2REAL", 8, 8 },
		{ MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", 16, 16 },
		{ MPI_CXX_BOOL, "MPI_CXX_BOOL", 1, 1 },
		{ MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX", 8, 8 },
		{ MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX", 16, 16 },
		{ MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX", 32, 32 },
#ifdef MPI_LOGICAL1	/* in MPI 4.0's list; MPICH 4.0.2 lacks them */
		{ MPI_LOGICAL1, "MPI_LOGICAL1", 1, 1 },
		{ MPI_LOGICAL2, "MPI_LOGICAL2", 2, 2 },
		{ MPI_LOGICAL4, "MPI_LOGICAL4", 4, 4 },
		{ MPI_LOGICAL8, "MPI_LOGICAL8", 8, 8 },
#endif
#ifdef MPI_INTEGER16
		{ MPI_INTEGER16, "MPI_INTEGER16", 16, 16 },
#endif
#ifdef MPI_2COMPLEX
		{ MPI_2COMPLEX, "MPI_2COMPLEX", 16, 16 },
		{ MPI_2DOUBLE_COMPLEX, "MPI_2DOUBLE_COMPLEX", 32, 32 },
#endif
	};

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	for (size_t k = 0; k < sizeof(types) / sizeof(types[0]); k++) {
		MPI_Datatype t = types[k].t;
		char name[MPI_MAX_OBJECT_NAME];
		int len, size, ni, na, nd, comb, ints[1];
		MPI_Aint lb, extent, addr[1];
		MPI_Datatype dt[1];

		if (t == MPI_DATATYPE_NULL)
			continue;	/* an optional type this MPI lacks */
		CHECK_MPI(MPI_Type_get_name(t, name, &len));
		if (strcmp(name, types[k].name) != 0) {
			fprintf(stderr, "%s is named %s\n", types[k].name, name);
			CHECK(0);
		}
		CHECK_MPI(MPI_Type_size(t, &size));
		CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
		CHECK(size == types[k].size && lb == 0 && extent == types[k].extent);
		CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
		CHECK(comb == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nd == 0);
		expect_class(MPI_Type_get_contents(t, 1, 1, 1, ints, addr, dt), MPI_ERR_TYPE);
		expect_class(MPI_Type_free(&t), MPI_ERR_TYPE);
		CHECK(t == types[k].t);
	}
#ifdef MPI_CXX_COMPLEX	/* in tests/api's list; MPICH 4.0.2 lacks it */
	CHECK(MPI_CXX_COMPLEX == MPI_CXX_FLOAT_COMPLEX);
#endif
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* ---- collectives ----------------------------------------------------------- */

struct r2 { float v, i; };
struct d2 { double v, i; };

static void coll(void)
{
	enum { N = 6 };
	int32_t in[3 * N], io[3 * N];
	int32_t logical[N], lres[N];
	struct r2 loc[N];
	struct d2 dloc[N], dres[N];
	double _Complex z[N], zres[N];
	MPI_Datatype vec;
	int n = nprocs;

	/* a vector of MPI_INTEGER with gaps: elements 0 and 2 of every 3 */
	CHECK_MPI(MPI_Type_vector(N, 1, 3, MPI_INTEGER, &vec));
	CHECK_MPI(MPI_Type_commit(&vec));
	for (int i = 0; i < 3 * N; i++)
		io[i] = in[i] = i % 3 == 1 ? -99 : (rank + 1) * (i + 1);
	CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, io, 1, vec, MPI_SUM, MPI_COMM_WORLD));
	for (int i = 0; i < 3 * N; i++)
		CHECK(io[i] == (i % 3 ? (i % 3 == 1 ? -99 : (rank + 1) * (i + 1)) :
				n * (n + 1) / 2 * (i + 1)));
	/* MPI_Reduce of MAX on the same vector, into a buffer with gaps */
	for (int i = 0; i < 3 * N; i++)
		io[i] = -1;
	CHECK_MPI(MPI_Reduce(in, io, 1, vec, MPI_MAX, n - 1, MPI_COMM_WORLD));
	if (rank == n - 1)
		for (int i = 0; i < 3 * N; i++)
			CHECK(io[i] == (i % 3 ? -1 : n * (i + 1)));
	/* LOGICAL: LXOR is true where an odd number of ranks hold .TRUE. */
	for (int i = 0; i < N; i++)
		logical[i] = (rank + i) % 3 == 0;
	CHECK_MPI(MPI_Allreduce(logical, lres, N, MPI_LOGICAL, MPI_LXOR, MPI_COMM_WORLD));
	for (int i = 0; i < N; i++) {
		int count = 0;

		for (int r = 0; r < n; r++)
			count += (r + i) % 3 == 0;
		CHECK(lres[i] == count % 2);
	}
	/* MAXLOC on MPI_2REAL in place: the largest value, the smallest rank
	 * of those that hold it */
	for (int i = 0; i < N; i++)
		loc[i] = (struct r2){ (float)((rank * 7 + i) % 4), (float)rank };
	CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, loc, N, MPI_2REAL, MPI_MAXLOC, MPI_COMM_WORLD));
	for (int i = 0; i < N; i++) {
		float best = -1;
		int who = -1;

		for (int r = 0; r < n; r++)
			if ((float)((r * 7 + i) % 4) > best) {
				best = (float)((r * 7 + i) % 4);
				who = r;
			}
		CHECK(loc[i].v == best && loc[i].i == (float)who);
	}
	/* MINLOC on MPI_2DOUBLE_PRECISION through MPI_Scan */
	for (int i = 0; i < N; i++)
		dloc[i] = (struct d2){ (double)((rank * 5 + i) % 3), (double)rank };
	CHECK_MPI(MPI_Scan(dloc, dres, N, MPI_2DOUBLE_PRECISION, MPI_MINLOC, MPI_COMM_WORLD));
	for (int i = 0; i < N; i++) {
		double best = 99;
		int who = -1;

		for (int r = 0; r <= rank; r++)
			if ((double)((r * 5 + i) % 3) < best) {
				best = (double)((r * 5 + i) % 3);
				who = r;
			}
		CHECK(dres[i].v == best && dres[i].i == (double)who);
	}
	/* PROD on MPI_DOUBLE_COMPLEX through MPI_Exscan: i ** rank */
	for (int i = 0; i < N; i++)
		z[i] = I;
	CHECK_MPI(MPI_Exscan(z, zres, N, MPI_DOUBLE_COMPLEX, MPI_PROD, MPI_COMM_WORLD));
	if (rank > 0)
		for (int i = 0; i < N; i++) {
			static const double _Complex pow_i[4] = { 1, I, -1, -I };

			CHECK(zres[i] == pow_i[rank % 4]);
		}
	/* MPI_Reduce_scatter_block of BOR on MPI_INTEGER2, in place */
	{
		int16_t *b = malloc((size_t)n * 2 * sizeof(int16_t));

		CHECK(b);
		for (int i = 0; i < 2 * n; i++)
			b[i] = (int16_t)(1 << (rank % 15));
		CHECK_MPI(MPI_Reduce_scatter_block(MPI_IN_PLACE, b, 2, MPI_INTEGER2, MPI_BOR,
						   MPI_COMM_WORLD));
		{
			int16_t want = 0;

			for (int r = 0; r < n; r++)
				want = (int16_t)(want | 1 << (r % 15));
			CHECK(b[0] == want && b[1] == want);
		}
		free(b);
	}
	/* an op the type does not take: MPI_SUM on MPI_LOGICAL */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	memcpy(lres, logical, sizeof(lres));
	expect_class(MPI_Allreduce(logical, lres, N, MPI_LOGICAL, MPI_SUM, MPI_COMM_WORLD),
		     MPI_ERR_OP);
	CHECK(!memcmp(lres, logical, sizeof(lres)));
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	CHECK_MPI(MPI_Type_free(&vec));
}

/* ---- RMA ------------------------------------------------------------------- */

struct slots {
	int32_t integer;	/* SUM */
	int64_t integer8;	/* BXOR */
	int32_t logical;	/* LOR */
	float real;		/* MAX */
	double dprec;		/* MIN */
	float _Complex cplx;	/* SUM */
	struct r2 loc;		/* MAXLOC */
	bool cxx_bool;		/* LAND */
	char ch;		/* REPLACE */
	int64_t fop;		/* Fetch_and_op SUM on MPI_INTEGER8 */
	int32_t cas;		/* Compare_and_swap on MPI_LOGICAL */
	int32_t f90;		/* Fetch_and_op SUM on an f90 integer type of r = 9 */
	int32_t f90cas;		/* Compare_and_swap on it */
};

static void rma(void)
{
	struct slots *w, mine;
	MPI_Win win;
	MPI_Datatype f90int;
	int to = (rank + 1) % nprocs, from = (rank + nprocs - 1) % nprocs;
	int64_t old8 = 0, one8 = 1;
	int32_t cmp = 0, yes = 1, got = -1, f90got = -1, seven = 7;
	char ch = (char)('a' + rank % 26);

	CHECK_MPI(MPI_Type_create_f90_integer(9, &f90int));
	CHECK_MPI(tu_win_allocate(sizeof(*w), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w, &win));
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
	*w = (struct slots){ .integer = 10, .integer8 = 0x0f0f, .logical = 0, .real = 1.5f,
			     .dprec = 2.5, .cplx = 1 + I, .loc = { 3, 100 }, .cxx_bool = true,
			     .ch = '-', .fop = 40, .cas = 0, .f90 = 1, .f90cas = 0 };
	CHECK_MPI(MPI_Win_unlock(rank, win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	mine = (struct slots){ .integer = rank + 1, .integer8 = 0xff, .logical = 1,
			       .real = (float)rank, .dprec = -rank, .cplx = 2 - I,
			       .loc = { (float)(3 + rank % 2), (float)rank }, .cxx_bool = false };
	CHECK_MPI(MPI_Win_lock_all(0, win));
#define ACC(field, type, op) \
	CHECK_MPI(MPI_Accumulate(&mine.field, 1, type, to, offsetof(struct slots, field), 1, \
				 type, op, win))
	ACC(integer, MPI_INTEGER, MPI_SUM);
	ACC(integer8, MPI_INTEGER8, MPI_BXOR);
	ACC(logical, MPI_LOGICAL, MPI_LOR);
	ACC(real, MPI_REAL, MPI_MAX);
	ACC(dprec, MPI_DOUBLE_PRECISION, MPI_MIN);
	ACC(cplx, MPI_COMPLEX, MPI_SUM);
	ACC(loc, MPI_2REAL, MPI_MAXLOC);
	ACC(cxx_bool, MPI_CXX_BOOL, MPI_LAND);
#undef ACC
	CHECK_MPI(MPI_Accumulate(&ch, 1, MPI_CHARACTER, to, offsetof(struct slots, ch), 1,
				 MPI_CHARACTER, MPI_REPLACE, win));
	CHECK_MPI(MPI_Fetch_and_op(&one8, &old8, MPI_INTEGER8, to, offsetof(struct slots, fop),
				   MPI_SUM, win));
	CHECK_MPI(MPI_Compare_and_swap(&yes, &cmp, &got, MPI_LOGICAL, to,
				       offsetof(struct slots, cas), win));
	CHECK_MPI(MPI_Fetch_and_op(&seven, &f90got, f90int, to, offsetof(struct slots, f90),
				   MPI_PROD, win));
	CHECK_MPI(MPI_Compare_and_swap(&seven, &cmp, &got, f90int, to,
				       offsetof(struct slots, f90cas), win));
	/* refused: ops these types do not take (MPI 3.1, 5.9.2) */
	MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
	expect_class(MPI_Accumulate(&mine.logical, 1, MPI_LOGICAL, to, 0, 1, MPI_LOGICAL,
				    MPI_SUM, win), MPI_ERR_OP);
	expect_class(MPI_Accumulate(&mine.integer, 1, MPI_INTEGER, to, 0, 1, MPI_INTEGER,
				    MPI_LAND, win), MPI_ERR_OP);
	expect_class(MPI_Accumulate(&mine.real, 1, MPI_REAL, to, 0, 1, MPI_REAL, MPI_BOR, win),
		     MPI_ERR_OP);
	expect_class(MPI_Accumulate(&mine.cplx, 1, MPI_COMPLEX, to, 0, 1, MPI_COMPLEX,
				    MPI_MAX, win), MPI_ERR_OP);
	expect_class(MPI_Accumulate(&mine.integer, 1, MPI_INTEGER, to, 0, 1, MPI_INTEGER,
				    MPI_MAXLOC, win), MPI_ERR_OP);
	expect_class(MPI_Accumulate(&ch, 1, MPI_CHARACTER, to, 0, 1, MPI_CHARACTER, MPI_SUM,
				    win), MPI_ERR_OP);
	MPI_Win_set_errhandler(win, MPI_ERRORS_ARE_FATAL);
	CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK(got == 0 && old8 >= 40 && f90got == 1);
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
	CHECK(w->integer == 10 + from + 1);
	CHECK(w->integer8 == (0x0f0f ^ 0xff));
	CHECK(w->logical == 1);
	CHECK(w->real == (from > 1 ? (float)from : 1.5f));
	CHECK(w->dprec == -from);
	CHECK(w->cplx == 3);
	/* a larger value, or a tie with a smaller index than 100: from's */
	CHECK(w->loc.v == (float)(3 + from % 2) && w->loc.i == (float)from);
	CHECK(w->cxx_bool == false && w->ch == 'a' + from % 26);
	CHECK(w->fop == 41 && w->cas == 1 && w->f90 == 7 && w->f90cas == 7);
	CHECK_MPI(MPI_Win_unlock(rank, win));
	CHECK_MPI(MPI_Win_free(&win));
}

/* ---- Fortran 90 types -------------------------------------------------------- */

static void f90_expect(MPI_Datatype t, int combiner, int p, int r, int size,
		       MPI_Datatype like)
{
	int ni, na, nd, comb, ints[2], tsize, lsize;
	MPI_Aint addr[1], lb, extent;
	MPI_Datatype dts[1];

	CHECK_MPI(MPI_Type_size(t, &tsize));
	CHECK_MPI(MPI_Type_size(like, &lsize));
	CHECK(tsize == size && lsize == size);
	CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
	CHECK(lb == 0 && extent == size);
	CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
	CHECK(comb == combiner && na == 0 && nd == 0);
	CHECK(ni == (combiner == MPI_COMBINER_F90_INTEGER ? 1 : 2));
	CHECK_MPI(MPI_Type_get_contents(t, 2, 0, 0, ints, addr, dts));
	if (ni == 1)
		CHECK(ints[0] == r);
	else
		CHECK(ints[0] == p && ints[1] == r);
}

static void f90(void)
{
	MPI_Datatype i2, i8, r4, r8, r10, c8, c16, again, st, dts[2];
	int ni, na, nd, comb, ints[3];
	MPI_Aint addrs[2];
	int16_t a[3] = { 1, 2, 3 }, b[3] = { 10, 20, 30 };
	long double x[2] = { 1.5L, 2.25L }, y[2] = { 0.25L, 1.0L };

	CHECK_MPI(MPI_Type_create_f90_integer(3, &i2));
	f90_expect(i2, MPI_COMBINER_F90_INTEGER, 0, 3, 2, MPI_INTEGER2);
	CHECK_MPI(MPI_Type_create_f90_integer(18, &i8));
	f90_expect(i8, MPI_COMBINER_F90_INTEGER, 0, 18, 8, MPI_INTEGER8);
	CHECK_MPI(MPI_Type_create_f90_real(6, MPI_UNDEFINED, &r4));
	f90_expect(r4, MPI_COMBINER_F90_REAL, 6, MPI_UNDEFINED, 4, MPI_REAL4);
	CHECK_MPI(MPI_Type_create_f90_real(MPI_UNDEFINED, 300, &r8));
	f90_expect(r8, MPI_COMBINER_F90_REAL, MPI_UNDEFINED, 300, 8, MPI_REAL8);
	CHECK_MPI(MPI_Type_create_f90_complex(10, 20, &c16));
	f90_expect(c16, MPI_COMBINER_F90_COMPLEX, 10, 20, 16, MPI_COMPLEX16);
	CHECK_MPI(MPI_Type_create_f90_complex(3, 3, &c8));
	f90_expect(c8, MPI_COMBINER_F90_COMPLEX, 3, 3, 8, MPI_COMPLEX8);
	/* gfortran's REAL(10): x87 extended precision in 16 bytes */
	CHECK_MPI(MPI_Type_create_f90_real(18, MPI_UNDEFINED, &r10));
	f90_expect(r10, MPI_COMBINER_F90_REAL, 18, MPI_UNDEFINED, 16, MPI_LONG_DOUBLE);
	/* the same arguments, the same predefined type */
	CHECK_MPI(MPI_Type_create_f90_integer(3, &again));
	CHECK(again == i2);
	/* they reduce as their named types */
	CHECK_MPI(MPI_Reduce_local(a, b, 3, i2, MPI_SUM));
	CHECK(b[0] == 11 && b[1] == 22 && b[2] == 33);
	CHECK_MPI(MPI_Reduce_local(x, y, 2, r10, MPI_PROD));
	CHECK(y[0] == 0.375L && y[1] == 2.25L);
	CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, a, 3, i2, MPI_MAX, MPI_COMM_WORLD));
	CHECK(a[0] == 1 && a[2] == 3);
	/* in a derived type, get_contents hands the predefined type back */
	CHECK_MPI(MPI_Type_create_struct(2, (int[]){ 1, 2 }, (MPI_Aint[]){ 0, 8 },
					 (MPI_Datatype[]){ i8, r4 }, &st));
	CHECK_MPI(MPI_Type_get_envelope(st, &ni, &na, &nd, &comb));
	CHECK(comb == MPI_COMBINER_STRUCT && nd == 2);
	CHECK_MPI(MPI_Type_get_contents(st, 3, 2, 2, ints, addrs, dts));
	CHECK(dts[0] == i8 && dts[1] == r4);
	CHECK_MPI(MPI_Type_free(&st));
	/* errors: kinds gfortran does not have, freeing a predefined type */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	expect_class(MPI_Type_create_f90_integer(39, &again), MPI_ERR_ARG);
	expect_class(MPI_Type_create_f90_real(34, MPI_UNDEFINED, &again), MPI_ERR_ARG);
	expect_class(MPI_Type_create_f90_real(MPI_UNDEFINED, 4932, &again), MPI_ERR_ARG);
	expect_class(MPI_Type_create_f90_complex(MPI_UNDEFINED, MPI_UNDEFINED, &again),
		     MPI_ERR_ARG);
	expect_class(MPI_Type_create_f90_real(6, 6, NULL), MPI_ERR_ARG);
	CHECK(again == i2);
	expect_class(MPI_Type_free(&r4), MPI_ERR_TYPE);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void match_size(void)
{
	static const struct { int cls, size; MPI_Datatype want; } cases[] = {
		{ MPI_TYPECLASS_INTEGER, 1, MPI_INTEGER1 },
		{ MPI_TYPECLASS_INTEGER, 2, MPI_INTEGER2 },
		{ MPI_TYPECLASS_INTEGER, 4, MPI_INTEGER4 },
		{ MPI_TYPECLASS_INTEGER, 8, MPI_INTEGER8 },
		{ MPI_TYPECLASS_REAL, 4, MPI_REAL4 },
		{ MPI_TYPECLASS_REAL, 8, MPI_REAL8 },
		{ MPI_TYPECLASS_REAL, 16, MPI_REAL16 },
		{ MPI_TYPECLASS_COMPLEX, 8, MPI_COMPLEX8 },
		{ MPI_TYPECLASS_COMPLEX, 16, MPI_COMPLEX16 },
		{ MPI_TYPECLASS_COMPLEX, 32, MPI_COMPLEX32 },
	};
	MPI_Datatype t = MPI_DATATYPE_NULL;

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		CHECK_MPI(MPI_Type_match_size(cases[k].cls, cases[k].size, &t));
		CHECK(t == cases[k].want);
	}
	t = MPI_DATATYPE_NULL;
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	expect_class(MPI_Type_match_size(MPI_TYPECLASS_REAL, 2, &t), MPI_ERR_ARG);
	expect_class(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 3, &t), MPI_ERR_ARG);
	expect_class(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 4, &t), MPI_ERR_ARG);
	expect_class(MPI_Type_match_size(99, 4, &t), MPI_ERR_ARG);
	CHECK(t == MPI_DATATYPE_NULL);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* ---- MPI_Count element calls -------------------------------------------------- */

static void elements(void)
{
	MPI_Datatype pair3, big;
	MPI_Status st;
	MPI_Count cx;
	int c, count;
	struct d2 buf[4], rbuf[4];

	/* three MPI_2DOUBLE_PRECISION pairs: six basic elements */
	CHECK_MPI(MPI_Type_contiguous(3, MPI_2DOUBLE_PRECISION, &pair3));
	CHECK_MPI(MPI_Type_commit(&pair3));
	for (int e = 0; e <= 13; e++) {
		CHECK_MPI(MPI_Status_set_elements_x(&st, pair3, e));
		CHECK_MPI(MPI_Get_elements_x(&st, pair3, &cx));
		CHECK_MPI(MPI_Get_elements(&st, pair3, &c));
		CHECK(cx == e && c == e);
		CHECK_MPI(MPI_Get_elements_x(&st, MPI_DOUBLE_PRECISION, &cx));
		CHECK(cx == e);
		CHECK_MPI(MPI_Get_count(&st, pair3, &count));
		CHECK(count == (e % 6 ? MPI_UNDEFINED : e / 6));
		CHECK_MPI(MPI_Status_set_elements(&st, pair3, e));
		CHECK_MPI(MPI_Get_elements_x(&st, pair3, &cx));
		CHECK(cx == e);
	}
	/* past INT_MAX: the int version says MPI_UNDEFINED */
	CHECK_MPI(MPI_Type_contiguous(1 << 20, MPI_INTEGER, &big));
	CHECK_MPI(MPI_Type_commit(&big));
	CHECK_MPI(MPI_Status_set_elements_x(&st, big, (MPI_Count)3 << 30));
	CHECK_MPI(MPI_Get_elements_x(&st, big, &cx));
	CHECK(cx == (MPI_Count)3 << 30);
	CHECK_MPI(MPI_Get_elements(&st, big, &c));
	CHECK(c == MPI_UNDEFINED);
	CHECK_MPI(MPI_Get_elements_x(&st, MPI_BYTE, &cx));
	CHECK(cx == ((MPI_Count)3 << 30) * 4);
	/* a message: 7 of the 8 doubles of 4 pairs */
	for (int i = 0; i < 4; i++)
		buf[i] = (struct d2){ i, -i };
	CHECK_MPI(MPI_Sendrecv(buf, 7, MPI_DOUBLE_PRECISION, 0, 5, rbuf, 4,
			       MPI_2DOUBLE_PRECISION, 0, 5, MPI_COMM_SELF, &st));
	CHECK_MPI(MPI_Get_elements_x(&st, MPI_2DOUBLE_PRECISION, &cx));
	CHECK_MPI(MPI_Get_count(&st, MPI_2DOUBLE_PRECISION, &count));
	CHECK(cx == 7 && count == MPI_UNDEFINED && rbuf[3].v == 3);
	/* errors */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	expect_class(MPI_Status_set_elements_x(&st, pair3, -1), MPI_ERR_COUNT);
	expect_class(MPI_Status_set_elements_x(MPI_STATUS_IGNORE, pair3, 1), MPI_ERR_ARG);
	expect_class(MPI_Status_set_elements_x(&st, MPI_DATATYPE_NULL, 1), MPI_ERR_TYPE);
	expect_class(MPI_Get_elements_x(&st, pair3, NULL), MPI_ERR_ARG);
	expect_class(MPI_Get_elements_x(&st, MPI_DATATYPE_NULL, &cx), MPI_ERR_TYPE);
	CHECK_MPI(MPI_Get_elements_x(&st, MPI_2DOUBLE_PRECISION, &cx));
	CHECK(cx == 7);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	CHECK_MPI(MPI_Type_free(&big));
	CHECK_MPI(MPI_Type_free(&pair3));
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
	TU_RUN("predefined", predefined);
	TU_RUN("coll", coll);
	TU_RUN("rma", rma);
	TU_RUN("f90", f90);
	TU_RUN("match_size", match_size);
	TU_RUN("elements", elements);
	MPI_Finalize();
	return 0;
}
