/*
 * Datatype constructors, checked against hand-computed layouts: size,
 * bounds, true bounds, the bytes MPI_Pack takes and MPI_Unpack puts back,
 * decoding (envelope and contents) round trips, names, MPI_Pack/MPI_Unpack
 * positions, addresses, and the error classes of bad arguments.  Every
 * rank runs the same local checks.
 *   dt_types [test]     (default: all)
 */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "testutil.h"

/* Bytes [off, off + len) of one element, relative to the buffer origin. */
struct run {
	long off, len;
};

#define NRUNS(a) ((int)(sizeof(a) / sizeof((a)[0])))

enum { SPAN = 1 << 16, ORIGIN = SPAN / 2 };

/* The class of an error code (codes are classes here, not in every MPI). */
static int eclass(int rc)
{
	int cls;

	MPI_Error_class(rc, &cls);
	return cls;
}

static unsigned char pat(long i)
{
	return (unsigned char)(i * 7 + 3 + (i >> 8));
}

/*
 * count elements of t (element k's runs are runs + k * extent) must pack to
 * exactly those bytes in order, and unpack to exactly those bytes, leaving
 * every other byte alone.
 */
static void check_map(MPI_Datatype t, int count, long extent, const struct run *runs,
		      int nruns)
{
	unsigned char *src = malloc(SPAN), *dst = malloc(SPAN), *want = malloc(SPAN);
	unsigned char *got = malloc(SPAN), *mask = calloc(SPAN, 1);
	int total = 0, pos = 0, size, packsize;

	CHECK(src && dst && want && got && mask);
	for (long i = 0; i < SPAN; i++)
		src[i] = pat(i);
	for (int k = 0; k < count; k++)
		for (int r = 0; r < nruns; r++)
			for (long b = 0; b < runs[r].len; b++) {
				long at = ORIGIN + k * extent + runs[r].off + b;

				CHECK(at >= 0 && at < SPAN);
				want[total++] = src[at];
				mask[at] = 1;
			}
	CHECK_MPI(MPI_Type_size(t, &size));
	CHECK((long)size * count == total);
	CHECK_MPI(MPI_Pack_size(count, t, MPI_COMM_WORLD, &packsize));
	CHECK(packsize == total);
	memset(got, 0xa5, SPAN);
	CHECK_MPI(MPI_Pack(src + ORIGIN, count, t, got, SPAN, &pos, MPI_COMM_WORLD));
	CHECK(pos == total);
	CHECK(memcmp(got, want, (size_t)total) == 0);
	CHECK(total == SPAN || got[total] == 0xa5);
	memset(dst, 0, SPAN);
	pos = 0;
	CHECK_MPI(MPI_Unpack(want, total, &pos, dst + ORIGIN, count, t, MPI_COMM_WORLD));
	CHECK(pos == total);
	for (long i = 0; i < SPAN; i++)
		CHECK(dst[i] == (mask[i] ? src[i] : 0));
	free(src);
	free(dst);
	free(want);
	free(got);
	free(mask);
}

static void check_bounds(MPI_Datatype t, long size, long lb, long extent, long tlb,
			 long textent)
{
	MPI_Aint a, b;
	MPI_Count ca, cb;
	int isize;

	CHECK_MPI(MPI_Type_size(t, &isize));
	CHECK(isize == size);
	CHECK_MPI(MPI_Type_size_x(t, &ca));
	CHECK(ca == size);
	CHECK_MPI(MPI_Type_get_extent(t, &a, &b));
	CHECK(a == lb && b == extent);
	CHECK_MPI(MPI_Type_get_extent_x(t, &ca, &cb));
	CHECK(ca == lb && cb == extent);
	CHECK_MPI(MPI_Type_get_true_extent(t, &a, &b));
	CHECK(a == tlb && b == textent);
	CHECK_MPI(MPI_Type_get_true_extent_x(t, &ca, &cb));
	CHECK(ca == tlb && cb == textent);
}

/* Commit, check bounds and layout at count 1 and 3, free. */
static void check_type(MPI_Datatype t, long size, long lb, long extent, long tlb,
		       long textent, const struct run *runs, int nruns)
{
	CHECK_MPI(MPI_Type_commit(&t));
	check_bounds(t, size, lb, extent, tlb, textent);
	check_map(t, 1, extent, runs, nruns);
	check_map(t, 3, extent, runs, nruns);
	CHECK_MPI(MPI_Type_free(&t));
	CHECK(t == MPI_DATATYPE_NULL);
}

static void test_predefined(void)
{
	static const struct { MPI_Datatype t; long size, extent, true_extent; } pre[] = {
		{ MPI_CHAR, 1, 1, 1 }, { MPI_INT, 4, 4, 4 }, { MPI_DOUBLE, 8, 8, 8 },
		{ MPI_LONG_DOUBLE, 16, 16, 16 }, { MPI_C_DOUBLE_COMPLEX, 16, 16, 16 },
		{ MPI_FLOAT_INT, 8, 8, 8 }, { MPI_DOUBLE_INT, 12, 16, 12 },
		{ MPI_LONG_INT, 12, 16, 12 }, { MPI_2INT, 8, 8, 8 },
		{ MPI_SHORT_INT, 6, 8, 8 }, { MPI_LONG_DOUBLE_INT, 20, 32, 20 },
	};
	struct run dint[] = { { 0, 8 }, { 8, 4 } }, sint[] = { { 0, 2 }, { 4, 4 } };

	for (int i = 0; i < NRUNS(pre); i++)
		check_bounds(pre[i].t, pre[i].size, 0, pre[i].extent, 0,
			     pre[i].true_extent);
	check_map(MPI_DOUBLE_INT, 3, 16, dint, 2);
	check_map(MPI_SHORT_INT, 2, 8, sint, 2);
}

static void test_contiguous(void)
{
	MPI_Datatype t;
	struct run r[] = { { 0, 12 } };

	CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &t));
	check_type(t, 12, 0, 12, 0, 12, r, NRUNS(r));
	/* nothing at all */
	CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &t));
	check_type(t, 0, 0, 0, 0, 0, NULL, 0);
}

static void test_vector(void)
{
	MPI_Datatype t;
	struct run r[] = { { 0, 8 }, { 16, 8 }, { 32, 8 } };
	struct run neg[] = { { 0, 4 }, { -8, 4 }, { -16, 4 } };
	struct run h[] = { { 0, 6 }, { 20, 6 } };

	CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &t));
	check_type(t, 24, 0, 40, 0, 40, r, NRUNS(r));
	/* a negative stride: typemap order is still block 0, 1, 2 */
	CHECK_MPI(MPI_Type_vector(3, 1, -2, MPI_INT, &t));
	check_type(t, 12, -16, 20, -16, 20, neg, NRUNS(neg));
	CHECK_MPI(MPI_Type_create_hvector(2, 3, 20, MPI_SHORT, &t));
	check_type(t, 12, 0, 26, 0, 26, h, NRUNS(h));
	/* zero blocklength: an empty typemap, extent 0 (as Open MPI; MPICH
	 * gives the extent the strides would span) */
	CHECK_MPI(MPI_Type_vector(3, 0, 4, MPI_INT, &t));
	check_type(t, 0, 0, 0, 0, 0, NULL, 0);
}

static void test_indexed(void)
{
	MPI_Datatype t;
	int bl[] = { 2, 0, 1 }, d[] = { 5, 1, 0 }, db[] = { 4, 0, 8 };
	int hbl[] = { 1, 2 };
	MPI_Aint hd[] = { -8, 12 }, hbd[] = { 3, 10 };
	struct run ri[] = { { 20, 8 }, { 0, 4 } };
	struct run rh[] = { { -8, 8 }, { 12, 16 } };
	struct run rib[] = { { 16, 8 }, { 0, 8 }, { 32, 8 } };
	struct run rhb[] = { { 3, 1 }, { 10, 1 } };

	/* the empty block at 4 is no part of the typemap: lb stays 0 */
	CHECK_MPI(MPI_Type_indexed(3, bl, d, MPI_INT, &t));
	check_type(t, 12, 0, 28, 0, 28, ri, NRUNS(ri));
	CHECK_MPI(MPI_Type_create_hindexed(2, hbl, hd, MPI_DOUBLE, &t));
	check_type(t, 24, -8, 36, -8, 36, rh, NRUNS(rh));
	CHECK_MPI(MPI_Type_create_indexed_block(3, 2, db, MPI_INT, &t));
	check_type(t, 24, 0, 40, 0, 40, rib, NRUNS(rib));
	CHECK_MPI(MPI_Type_create_hindexed_block(2, 1, hbd, MPI_CHAR, &t));
	check_type(t, 2, 3, 8, 3, 8, rhb, NRUNS(rhb));
}

struct s1 { int a; double b; char c; };
struct s2 { int i; char c; };
struct s3 { long double x; char c; };

static void test_struct(void)
{
	MPI_Datatype t, r5, types[3] = { MPI_INT, MPI_DOUBLE, MPI_CHAR };
	int bl[3] = { 1, 1, 1 };
	MPI_Aint d1[3] = { offsetof(struct s1, a), offsetof(struct s1, b),
			   offsetof(struct s1, c) };
	MPI_Aint d2[2] = { offsetof(struct s2, i), offsetof(struct s2, c) };
	MPI_Aint d3[2] = { offsetof(struct s3, x), offsetof(struct s3, c) };
	MPI_Datatype t2[2] = { MPI_INT, MPI_CHAR }, t3[2] = { MPI_LONG_DOUBLE, MPI_CHAR };
	struct run r1[] = { { 0, 4 }, { 8, 8 }, { 16, 1 } };
	struct run r2[] = { { 0, 5 } };
	struct run r3[] = { { 0, 16 }, { 16, 1 } };
	struct run r4[] = { { 0, 4 } };
	MPI_Aint d0 = 0;
	int one = 1;

	/* the extent is padded to the strictest member's alignment, as C does */
	CHECK_MPI(MPI_Type_create_struct(3, bl, d1, types, &t));
	check_type(t, 13, 0, (long)sizeof(struct s1), 0, 17, r1, NRUNS(r1));
	CHECK(sizeof(struct s1) == 24);
	CHECK_MPI(MPI_Type_create_struct(2, bl, d2, t2, &t));
	check_type(t, 5, 0, (long)sizeof(struct s2), 0, 5, r2, NRUNS(r2));
	CHECK_MPI(MPI_Type_create_struct(2, bl, d3, t3, &t));
	check_type(t, 17, 0, (long)sizeof(struct s3), 0, 17, r3, NRUNS(r3));
	/* a member with explicit bounds: no padding */
	CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 5, &r5));
	CHECK_MPI(MPI_Type_create_struct(1, &one, &d0, &r5, &t));
	check_type(t, 4, 0, 5, 0, 4, r4, NRUNS(r4));
	CHECK_MPI(MPI_Type_free(&r5));
	/* empty struct */
	CHECK_MPI(MPI_Type_create_struct(0, NULL, NULL, NULL, &t));
	check_type(t, 0, 0, 0, 0, 0, NULL, 0);
}

static void test_resized(void)
{
	MPI_Datatype c2, t;
	struct run r[] = { { 0, 8 } }, ri[] = { { 0, 4 } };

	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &c2));
	CHECK_MPI(MPI_Type_create_resized(c2, -4, 16, &t));
	check_type(t, 8, -4, 16, 0, 8, r, NRUNS(r));
	CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 4, &t));
	check_type(t, 4, 0, 4, 0, 4, ri, NRUNS(ri));
	/* shrunk below the data: elements overlap in memory */
	CHECK_MPI(MPI_Type_create_resized(c2, 2, 4, &t));
	CHECK_MPI(MPI_Type_commit(&t));
	check_bounds(t, 8, 2, 4, 0, 8);
	check_map(t, 1, 4, r, NRUNS(r));
	CHECK_MPI(MPI_Type_free(&t));
	CHECK_MPI(MPI_Type_free(&c2));
}

static void test_subarray(void)
{
	MPI_Datatype t;
	int sizes[] = { 4, 5 }, subs[] = { 2, 3 }, starts[] = { 1, 2 };
	int s3[] = { 3, 4, 5 }, sub3[] = { 2, 2, 2 }, st3[] = { 1, 1, 1 };
	int zs[] = { 0, 3 };
	struct run rc[] = { { 28, 12 }, { 48, 12 } };
	struct run rf[] = { { 36, 8 }, { 52, 8 }, { 68, 8 } };
	struct run r3[] = { { 26, 2 }, { 31, 2 }, { 46, 2 }, { 51, 2 } };
	struct run r3f[] = { { 16, 2 }, { 19, 2 }, { 28, 2 }, { 31, 2 } };

	/* rows 1-2, columns 2-4 of int[4][5] */
	CHECK_MPI(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C,
					   MPI_INT, &t));
	check_type(t, 24, 0, 80, 28, 32, rc, NRUNS(rc));
	/* the same numbers in Fortran order: a(1:2, 2:4) of a(0:3, 0:4) */
	CHECK_MPI(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_FORTRAN,
					   MPI_INT, &t));
	check_type(t, 24, 0, 80, 36, 40, rf, NRUNS(rf));
	/* three dimensions of chars: [1:2][1:2][1:2] of [3][4][5] */
	CHECK_MPI(MPI_Type_create_subarray(3, s3, sub3, st3, MPI_ORDER_C, MPI_CHAR, &t));
	check_type(t, 8, 0, 60, 26, 27, r3, NRUNS(r3));
	/* Fortran: (a,b,c) at a + 3b + 12c */
	CHECK_MPI(MPI_Type_create_subarray(3, s3, sub3, st3, MPI_ORDER_FORTRAN,
					   MPI_CHAR, &t));
	check_type(t, 8, 0, 60, 16, 17, r3f, NRUNS(r3f));
	/* an empty subarray still spans the whole array */
	CHECK_MPI(MPI_Type_create_subarray(2, sizes, zs, starts, MPI_ORDER_C,
					   MPI_INT, &t));
	check_type(t, 0, 0, 80, 0, 0, NULL, 0);
}

static void test_dup(void)
{
	MPI_Datatype v, d, dd;
	struct run r[] = { { 0, 8 }, { 16, 8 }, { 32, 8 } };
	int x = 0, pos = 0;
	char buf[64];

	CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &v));
	/* a dup of an uncommitted type is uncommitted: sending it fails */
	CHECK_MPI(MPI_Type_dup(v, &d));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK(eclass(MPI_Pack(&x, 1, d, buf, sizeof(buf), &pos, MPI_COMM_WORLD)) ==
	      MPI_ERR_TYPE);
	CHECK(pos == 0);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
	CHECK_MPI(MPI_Type_free(&d));
	/* a dup of a committed type is committed */
	CHECK_MPI(MPI_Type_commit(&v));
	CHECK_MPI(MPI_Type_dup(v, &d));
	CHECK_MPI(MPI_Type_dup(d, &dd));
	CHECK_MPI(MPI_Type_free(&v));
	CHECK_MPI(MPI_Type_free(&d));
	check_bounds(dd, 24, 0, 40, 0, 40);
	check_map(dd, 2, 40, r, NRUNS(r));
	check_type(dd, 24, 0, 40, 0, 40, r, NRUNS(r));
	CHECK_MPI(MPI_Type_dup(MPI_INT, &d));
	check_bounds(d, 4, 0, 4, 0, 4);
	check_map(d, 5, 4, (struct run[]){ { 0, 4 } }, 1);
	CHECK_MPI(MPI_Type_free(&d));
}

static void test_nested(void)
{
	MPI_Datatype s, v, ri, ix, vec2, st, sub, cs, hi, hv, deep, t;
	MPI_Datatype types[3] = { MPI_INT, MPI_DOUBLE, MPI_CHAR };
	int bl[3] = { 1, 1, 1 }, bl2[2] = { 2, 1 }, d2[2] = { 0, 3 };
	MPI_Aint d1[3] = { 0, 8, 16 }, dst[2] = { 0, 40 }, hd[2] = { -8, 12 };
	int sizes[] = { 4, 5 }, subs[] = { 2, 3 }, starts[] = { 1, 2 }, hbl[] = { 1, 2 };
	struct run rv[] = { { 0, 4 }, { 8, 8 }, { 16, 1 }, { 72, 4 }, { 80, 8 }, { 88, 1 } };
	struct run rix[] = { { 0, 4 }, { 8, 4 }, { 24, 4 } };
	struct run rst[] = { { 0, 4 }, { 8, 4 }, { 40, 16 } };
	struct run rcs[] = { { 28, 12 }, { 48, 12 }, { 108, 12 }, { 128, 12 } };
	struct run rhv[] = { { -8, 8 }, { 12, 16 }, { 92, 8 }, { 112, 16 } };
	struct run rdeep[32];
	int n = 0;

	/* vector of structs: blocks of one struct, stride 3 structs */
	CHECK_MPI(MPI_Type_create_struct(3, bl, d1, types, &s));
	CHECK_MPI(MPI_Type_vector(2, 1, 3, s, &v));
	check_type(v, 26, 0, 96, 0, 89, rv, NRUNS(rv));
	/* indexed over a strided int (resized to 8) */
	CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 8, &ri));
	CHECK_MPI(MPI_Type_indexed(2, bl2, d2, ri, &ix));
	check_type(ix, 12, 0, 32, 0, 28, rix, NRUNS(rix));
	/* struct of a vector and two doubles */
	CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &vec2));
	CHECK_MPI(MPI_Type_create_struct(2, (int[]){ 1, 2 }, dst,
					 (MPI_Datatype[]){ vec2, MPI_DOUBLE }, &st));
	check_type(st, 24, 0, 56, 0, 56, rst, NRUNS(rst));
	/* two subarrays back to back */
	CHECK_MPI(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C,
					   MPI_INT, &sub));
	CHECK_MPI(MPI_Type_contiguous(2, sub, &cs));
	check_type(cs, 48, 0, 160, 28, 112, rcs, NRUNS(rcs));
	/* hvector of an hindexed with a negative displacement */
	CHECK_MPI(MPI_Type_create_hindexed(2, hbl, hd, MPI_DOUBLE, &hi));
	CHECK_MPI(MPI_Type_create_hvector(2, 1, 100, hi, &hv));
	check_type(hv, 48, -8, 136, -8, 136, rhv, NRUNS(rhv));
	/* vector of vector of resized-int: 2 x (3 ints 8 apart), 64 apart */
	CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 8, &t));
	CHECK_MPI(MPI_Type_contiguous(3, t, &deep));
	CHECK_MPI(MPI_Type_free(&t));
	t = deep;
	CHECK_MPI(MPI_Type_create_resized(t, 0, 64, &deep));
	CHECK_MPI(MPI_Type_free(&t));
	t = deep;
	CHECK_MPI(MPI_Type_vector(2, 1, 1, t, &deep));
	CHECK_MPI(MPI_Type_free(&t));
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 3; j++)
			rdeep[n++] = (struct run){ i * 64 + j * 8, 4 };
	check_type(deep, 24, 0, 128, 0, 84, rdeep, n);
	/* the parts go first: the composites keep what they need */
	CHECK_MPI(MPI_Type_free(&s));
	CHECK_MPI(MPI_Type_free(&ri));
	CHECK_MPI(MPI_Type_free(&vec2));
	CHECK_MPI(MPI_Type_free(&sub));
	CHECK_MPI(MPI_Type_free(&hi));
}

/* Elements and counts the way MPI_Get_elements sees a packed stream. */
static void test_merge(void)
{
	MPI_Datatype t, u;
	struct run r[] = { { 0, 400 } };

	/* contiguous ints merge into one run; a vector whose stride equals
	 * its blocklength is contiguous too */
	CHECK_MPI(MPI_Type_vector(10, 10, 10, MPI_INT, &t));
	CHECK_MPI(MPI_Type_contiguous(1, t, &u));
	CHECK_MPI(MPI_Type_free(&t));
	check_type(u, 400, 0, 400, 0, 400, r, NRUNS(r));
}

/* ---- decoding ---------------------------------------------------------- */

static int count_free;

/* Rebuild t from its envelope and contents, recursively; free what
 * MPI_Type_get_contents handed out.  Predefined types come back as is. */
static MPI_Datatype rebuild(MPI_Datatype t)
{
	int ni, na, nd, comb, *ints;
	MPI_Aint *aints;
	MPI_Datatype *types, out = MPI_DATATYPE_NULL;

	CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
	if (comb == MPI_COMBINER_NAMED) {
		CHECK(ni == 0 && na == 0 && nd == 0);
		return t;
	}
	ints = malloc(sizeof(int) * (size_t)(ni + 1));
	aints = malloc(sizeof(MPI_Aint) * (size_t)(na + 1));
	types = malloc(sizeof(MPI_Datatype) * (size_t)(nd + 1));
	CHECK(ints && aints && types);
	CHECK_MPI(MPI_Type_get_contents(t, ni, na, nd, ints, aints, types));
	for (int i = 0; i < nd; i++) {
		MPI_Datatype inner = types[i];
		int e1, e2, e3, c;

		CHECK_MPI(MPI_Type_get_envelope(inner, &e1, &e2, &e3, &c));
		types[i] = rebuild(inner);
		if (c != MPI_COMBINER_NAMED) {
			CHECK_MPI(MPI_Type_free(&inner));
			count_free++;
		}
	}
	switch (comb) {
	case MPI_COMBINER_DUP:
		CHECK(ni == 0 && na == 0 && nd == 1);
		CHECK_MPI(MPI_Type_dup(types[0], &out));
		break;
	case MPI_COMBINER_CONTIGUOUS:
		CHECK(ni == 1 && na == 0 && nd == 1);
		CHECK_MPI(MPI_Type_contiguous(ints[0], types[0], &out));
		break;
	case MPI_COMBINER_VECTOR:
		CHECK(ni == 3 && na == 0 && nd == 1);
		CHECK_MPI(MPI_Type_vector(ints[0], ints[1], ints[2], types[0], &out));
		break;
	case MPI_COMBINER_HVECTOR:
		CHECK(ni == 2 && na == 1 && nd == 1);
		CHECK_MPI(MPI_Type_create_hvector(ints[0], ints[1], aints[0], types[0],
						  &out));
		break;
	case MPI_COMBINER_INDEXED:
		CHECK(ni == 2 * ints[0] + 1 && na == 0 && nd == 1);
		CHECK_MPI(MPI_Type_indexed(ints[0], ints + 1, ints + 1 + ints[0],
					   types[0], &out));
		break;
	case MPI_COMBINER_HINDEXED:
		CHECK(ni == ints[0] + 1 && na == ints[0] && nd == 1);
		CHECK_MPI(MPI_Type_create_hindexed(ints[0], ints + 1, aints, types[0],
						   &out));
		break;
	case MPI_COMBINER_INDEXED_BLOCK:
		CHECK(ni == ints[0] + 2 && na == 0 && nd == 1);
		CHECK_MPI(MPI_Type_create_indexed_block(ints[0], ints[1], ints + 2,
							types[0], &out));
		break;
	case MPI_COMBINER_HINDEXED_BLOCK:
		CHECK(ni == 2 && na == ints[0] && nd == 1);
		CHECK_MPI(MPI_Type_create_hindexed_block(ints[0], ints[1], aints,
							 types[0], &out));
		break;
	case MPI_COMBINER_STRUCT:
		CHECK(ni == ints[0] + 1 && na == ints[0] && nd == ints[0]);
		CHECK_MPI(MPI_Type_create_struct(ints[0], ints + 1, aints, types, &out));
		break;
	case MPI_COMBINER_SUBARRAY: {
		int d = ints[0];

		CHECK(ni == 3 * d + 2 && na == 0 && nd == 1);
		CHECK_MPI(MPI_Type_create_subarray(d, ints + 1, ints + 1 + d,
						   ints + 1 + 2 * d, ints[1 + 3 * d],
						   types[0], &out));
		break;
	}
	case MPI_COMBINER_RESIZED:
		CHECK(ni == 0 && na == 2 && nd == 1);
		CHECK_MPI(MPI_Type_create_resized(types[0], aints[0], aints[1], &out));
		break;
	default:
		CHECK(!"unexpected combiner");
	}
	for (int i = 0; i < nd; i++) {
		int e1, e2, e3, c;

		CHECK_MPI(MPI_Type_get_envelope(types[i], &e1, &e2, &e3, &c));
		if (c != MPI_COMBINER_NAMED)
			CHECK_MPI(MPI_Type_free(&types[i]));
	}
	free(ints);
	free(aints);
	free(types);
	return out;
}

/* t and its rebuilt twin: same combiner, bounds and packed bytes. */
static void check_rebuild(MPI_Datatype t, int want_combiner)
{
	MPI_Datatype r = rebuild(t);
	MPI_Aint lb1, ex1, lb2, ex2, tl1, te1, tl2, te2;
	int ni, na, nd, c1, c2, s1, s2, p1 = 0, p2 = 0;
	unsigned char *src = malloc(SPAN), *a = malloc(SPAN), *b = malloc(SPAN);

	CHECK(src && a && b);
	CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &c1));
	CHECK_MPI(MPI_Type_get_envelope(r, &ni, &na, &nd, &c2));
	CHECK(c1 == want_combiner && c2 == want_combiner);
	CHECK_MPI(MPI_Type_get_extent(t, &lb1, &ex1));
	CHECK_MPI(MPI_Type_get_extent(r, &lb2, &ex2));
	CHECK(lb1 == lb2 && ex1 == ex2);
	CHECK_MPI(MPI_Type_get_true_extent(t, &tl1, &te1));
	CHECK_MPI(MPI_Type_get_true_extent(r, &tl2, &te2));
	CHECK(tl1 == tl2 && te1 == te2);
	CHECK_MPI(MPI_Type_size(t, &s1));
	CHECK_MPI(MPI_Type_size(r, &s2));
	CHECK(s1 == s2);
	CHECK_MPI(MPI_Type_commit(&t));
	CHECK_MPI(MPI_Type_commit(&r));
	for (long i = 0; i < SPAN; i++)
		src[i] = pat(i);
	CHECK_MPI(MPI_Pack(src + ORIGIN, 2, t, a, SPAN, &p1, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Pack(src + ORIGIN, 2, r, b, SPAN, &p2, MPI_COMM_WORLD));
	CHECK(p1 == p2 && p1 == 2 * s1 && memcmp(a, b, (size_t)p1) == 0);
	CHECK_MPI(MPI_Type_free(&r));
	CHECK_MPI(MPI_Type_free(&t));
	free(src);
	free(a);
	free(b);
}

static void test_contents(void)
{
	MPI_Datatype t, v, s, sub, types[3] = { MPI_INT, MPI_DOUBLE, MPI_CHAR };
	int bl[3] = { 2, 0, 1 }, d[3] = { 5, 1, 0 }, ints[8];
	MPI_Aint ad[3] = { 0, 8, 16 }, hd[2] = { -8, 12 }, aints[4];
	int sizes[] = { 4, 5 }, subs[] = { 2, 3 }, starts[] = { 1, 2 };
	MPI_Datatype got[4];
	int ni, na, nd, comb;

	CHECK_MPI(MPI_Type_get_envelope(MPI_INT, &ni, &na, &nd, &comb));
	CHECK(comb == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nd == 0);

	/* one of each constructor, on a predefined type */
	CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &t));
	check_rebuild(t, MPI_COMBINER_CONTIGUOUS);
	CHECK_MPI(MPI_Type_vector(3, 2, -4, MPI_INT, &t));
	check_rebuild(t, MPI_COMBINER_VECTOR);
	CHECK_MPI(MPI_Type_create_hvector(2, 3, 20, MPI_SHORT, &t));
	check_rebuild(t, MPI_COMBINER_HVECTOR);
	CHECK_MPI(MPI_Type_indexed(3, bl, d, MPI_INT, &t));
	check_rebuild(t, MPI_COMBINER_INDEXED);
	CHECK_MPI(MPI_Type_create_hindexed(2, bl, hd, MPI_DOUBLE, &t));
	check_rebuild(t, MPI_COMBINER_HINDEXED);
	CHECK_MPI(MPI_Type_create_indexed_block(3, 2, d, MPI_INT, &t));
	check_rebuild(t, MPI_COMBINER_INDEXED_BLOCK);
	CHECK_MPI(MPI_Type_create_hindexed_block(2, 3, hd, MPI_CHAR, &t));
	check_rebuild(t, MPI_COMBINER_HINDEXED_BLOCK);
	CHECK_MPI(MPI_Type_create_struct(3, (int[]){ 1, 1, 1 }, ad, types, &t));
	check_rebuild(t, MPI_COMBINER_STRUCT);
	CHECK_MPI(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_FORTRAN,
					   MPI_INT, &t));
	check_rebuild(t, MPI_COMBINER_SUBARRAY);
	CHECK_MPI(MPI_Type_create_resized(MPI_INT, -4, 12, &t));
	check_rebuild(t, MPI_COMBINER_RESIZED);
	CHECK_MPI(MPI_Type_dup(MPI_DOUBLE, &t));
	check_rebuild(t, MPI_COMBINER_DUP);

	/* the exact values, for a vector and a struct */
	CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &v));
	CHECK_MPI(MPI_Type_get_envelope(v, &ni, &na, &nd, &comb));
	CHECK(comb == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nd == 1);
	CHECK_MPI(MPI_Type_get_contents(v, 8, 4, 4, ints, aints, got));
	CHECK(ints[0] == 3 && ints[1] == 2 && ints[2] == 4 && got[0] == MPI_INT);
	CHECK_MPI(MPI_Type_create_struct(2, (int[]){ 1, 4 }, hd,
					 (MPI_Datatype[]){ v, MPI_CHAR }, &s));
	CHECK_MPI(MPI_Type_get_envelope(s, &ni, &na, &nd, &comb));
	CHECK(comb == MPI_COMBINER_STRUCT && ni == 3 && na == 2 && nd == 2);
	CHECK_MPI(MPI_Type_get_contents(s, 3, 2, 2, ints, aints, got));
	CHECK(ints[0] == 2 && ints[1] == 1 && ints[2] == 4);
	CHECK(aints[0] == -8 && aints[1] == 12 && got[1] == MPI_CHAR);
	/* the derived member comes back as an equivalent type to free (here a
	 * new object; MPICH hands back v itself with one more reference) */
	CHECK(got[0] != MPI_DATATYPE_NULL);
	CHECK_MPI(MPI_Type_get_envelope(got[0], &ni, &na, &nd, &comb));
	CHECK(comb == MPI_COMBINER_VECTOR && ni == 3);
	CHECK_MPI(MPI_Type_free(&got[0]));
	/* nested: struct of (vector, subarray of resized), decoded recursively */
	CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 8, &t));
	CHECK_MPI(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, t, &sub));
	CHECK_MPI(MPI_Type_free(&t));
	CHECK_MPI(MPI_Type_create_struct(2, (int[]){ 2, 1 }, (MPI_Aint[]){ 0, 1000 },
					 (MPI_Datatype[]){ v, sub }, &t));
	CHECK_MPI(MPI_Type_free(&sub));
	CHECK_MPI(MPI_Type_free(&v));
	count_free = 0;
	check_rebuild(t, MPI_COMBINER_STRUCT);
	CHECK(count_free == 3);	/* vector, subarray, the resized inside it */
	CHECK_MPI(MPI_Type_free(&s));
}

static void test_names(void)
{
	static const struct { MPI_Datatype t; const char *name; } pre[] = {
		{ MPI_CHAR, "MPI_CHAR" }, { MPI_INT, "MPI_INT" },
		{ MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG" }, { MPI_DOUBLE, "MPI_DOUBLE" },
		{ MPI_C_BOOL, "MPI_C_BOOL" }, { MPI_INT64_T, "MPI_INT64_T" },
		{ MPI_BYTE, "MPI_BYTE" }, { MPI_PACKED, "MPI_PACKED" },
		{ MPI_2INT, "MPI_2INT" }, { MPI_DOUBLE_INT, "MPI_DOUBLE_INT" },
		{ MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX" }, { MPI_AINT, "MPI_AINT" },
	};
	char name[MPI_MAX_OBJECT_NAME], longname[300];
	MPI_Datatype t;
	int len;

	for (int i = 0; i < NRUNS(pre); i++) {
		CHECK_MPI(MPI_Type_get_name(pre[i].t, name, &len));
		CHECK(strcmp(name, pre[i].name) == 0 && len == (int)strlen(name));
	}
	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
	CHECK_MPI(MPI_Type_get_name(t, name, &len));
	CHECK(len == 0 && name[0] == '\0');
	CHECK_MPI(MPI_Type_set_name(t, "pair of ints"));
	CHECK_MPI(MPI_Type_get_name(t, name, &len));
	CHECK(strcmp(name, "pair of ints") == 0 && len == 12);
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	CHECK_MPI(MPI_Type_set_name(t, longname));
	CHECK_MPI(MPI_Type_get_name(t, name, &len));
	CHECK(len == MPI_MAX_OBJECT_NAME - 1 && (int)strlen(name) == len);
	CHECK_MPI(MPI_Type_free(&t));
}

static void test_pack(void)
{
	int ints[10], out[10], pos = 0, size, psize;
	double d[3] = { 1.5, -2.25, 1e300 }, dout[3];
	char buf[256];
	MPI_Datatype v;

	for (int i = 0; i < 10; i++)
		ints[i] = i * 11 - 7;
	/* several items into one buffer; positions advance by the packed sizes */
	CHECK_MPI(MPI_Type_vector(5, 1, 2, MPI_INT, &v));
	CHECK_MPI(MPI_Type_commit(&v));
	CHECK_MPI(MPI_Pack(d, 3, MPI_DOUBLE, buf, sizeof(buf), &pos, MPI_COMM_WORLD));
	CHECK(pos == 24);
	CHECK_MPI(MPI_Pack(ints, 1, v, buf, sizeof(buf), &pos, MPI_COMM_WORLD));
	CHECK(pos == 44);
	CHECK_MPI(MPI_Pack(ints + 1, 1, v, buf, sizeof(buf), &pos, MPI_COMM_WORLD));
	CHECK(pos == 64);
	size = pos;
	CHECK_MPI(MPI_Pack_size(2, v, MPI_COMM_WORLD, &psize));
	CHECK(psize == 40);
	/* unpack in the same order with other, compatible types */
	pos = 0;
	memset(out, 0, sizeof(out));
	CHECK_MPI(MPI_Unpack(buf, size, &pos, dout, 3, MPI_DOUBLE, MPI_COMM_WORLD));
	CHECK(memcmp(d, dout, sizeof(d)) == 0);
	CHECK_MPI(MPI_Unpack(buf, size, &pos, out, 10, MPI_INT, MPI_COMM_WORLD));
	CHECK(pos == 64);
	for (int i = 0; i < 5; i++)
		CHECK(out[i] == ints[2 * i] && out[5 + i] == ints[2 * i + 1]);
	/* nothing to pack: position stays */
	pos = 7;
	CHECK_MPI(MPI_Pack(NULL, 0, v, buf, sizeof(buf), &pos, MPI_COMM_WORLD));
	CHECK(pos == 7);
	CHECK_MPI(MPI_Type_free(&v));
}

/* A struct of absolute addresses, used with MPI_BOTTOM. */
static void test_address(void)
{
	int a[3] = { 1, 2, 3 }, a2[3];
	double b[2] = { 4.5, 5.5 }, b2[2];
	MPI_Aint addr[2], base, lb, ext;
	MPI_Datatype t;
	char buf[64];
	int pos = 0;

	CHECK_MPI(MPI_Get_address(&a[0], &addr[0]));
	CHECK_MPI(MPI_Get_address(&b[1], &addr[1]));
	CHECK_MPI(MPI_Get_address(&a[2], &base));
	CHECK(MPI_Aint_diff(base, addr[0]) == 2 * (MPI_Aint)sizeof(int));
	CHECK(MPI_Aint_add(addr[0], 8) == base);
	CHECK(addr[0] == (MPI_Aint)(uintptr_t)&a[0]);
	CHECK_MPI(MPI_Type_create_struct(2, (int[]){ 3, 1 }, addr,
					 (MPI_Datatype[]){ MPI_INT, MPI_DOUBLE }, &t));
	CHECK_MPI(MPI_Type_commit(&t));
	CHECK_MPI(MPI_Type_get_true_extent(t, &lb, &ext));
	CHECK(lb == (addr[0] < addr[1] ? addr[0] : addr[1]));
	CHECK_MPI(MPI_Pack(MPI_BOTTOM, 1, t, buf, sizeof(buf), &pos, MPI_COMM_WORLD));
	CHECK(pos == 20);
	CHECK(memcmp(buf, a, 12) == 0 && memcmp(buf + 12, &b[1], 8) == 0);
	/* and back, into other arrays */
	CHECK_MPI(MPI_Get_address(&a2[0], &addr[0]));
	CHECK_MPI(MPI_Get_address(&b2[0], &addr[1]));
	CHECK_MPI(MPI_Type_free(&t));
	CHECK_MPI(MPI_Type_create_struct(2, (int[]){ 3, 1 }, addr,
					 (MPI_Datatype[]){ MPI_INT, MPI_DOUBLE }, &t));
	CHECK_MPI(MPI_Type_commit(&t));
	pos = 0;
	CHECK_MPI(MPI_Unpack(buf, 20, &pos, MPI_BOTTOM, 1, t, MPI_COMM_WORLD));
	CHECK(a2[0] == 1 && a2[1] == 2 && a2[2] == 3 && b2[0] == 5.5);
	CHECK_MPI(MPI_Type_free(&t));
}

/* ---- errors ------------------------------------------------------------ */

static void test_errors(void)
{
	MPI_Datatype t = MPI_DATATYPE_NULL, keep, v, freed, pre = MPI_INT;
	int bl[2] = { 1, -1 }, d[2] = { 0, 1 }, x, ni, na, nd, c, ints[4];
	MPI_Aint ad[2] = { 0, 8 }, a, aints[4];
	MPI_Datatype types[2] = { MPI_INT, MPI_DATATYPE_NULL }, got[2];
	int sizes[2] = { 4, 4 }, subs[2] = { 2, 5 }, starts[2] = { 0, 0 };
	char buf[16], name[MPI_MAX_OBJECT_NAME];
	int pos;

	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	keep = t;
	CHECK(eclass(MPI_Type_contiguous(-1, MPI_INT, &t)) == MPI_ERR_COUNT);
	CHECK(eclass(MPI_Type_contiguous(1, MPI_DATATYPE_NULL, &t)) == MPI_ERR_TYPE);
	CHECK(eclass(MPI_Type_contiguous(1, 0x12345, &t)) == MPI_ERR_TYPE);
	CHECK(eclass(MPI_Type_contiguous(1, MPI_COMM_WORLD, &t)) == MPI_ERR_TYPE);
	CHECK(eclass(MPI_Type_contiguous(1, MPI_INT, NULL)) == MPI_ERR_ARG);
	CHECK(eclass(MPI_Type_vector(-2, 1, 1, MPI_INT, &t)) == MPI_ERR_COUNT);
	CHECK(eclass(MPI_Type_vector(2, -1, 1, MPI_INT, &t)) == MPI_ERR_ARG);
	CHECK(eclass(MPI_Type_create_hvector(2, -1, 8, MPI_INT, &t)) == MPI_ERR_ARG);
	CHECK(eclass(MPI_Type_indexed(2, bl, d, MPI_INT, &t)) == MPI_ERR_ARG);
	CHECK(eclass(MPI_Type_indexed(2, NULL, d, MPI_INT, &t)) == MPI_ERR_ARG);
	CHECK(eclass(MPI_Type_indexed(2, d, NULL, MPI_INT, &t)) == MPI_ERR_ARG);
	CHECK(eclass(MPI_Type_indexed(-1, d, d, MPI_INT, &t)) == MPI_ERR_COUNT);
	CHECK(eclass(MPI_Type_create_hindexed(2, bl, ad, MPI_INT, &t)) == MPI_ERR_ARG);
	CHECK(eclass(MPI_Type_create_indexed_block(2, -3, d, MPI_INT, &t)) == MPI_ERR_ARG);
	CHECK(eclass(MPI_Type_create_hindexed_block(2, 1, NULL, MPI_INT, &t)) == MPI_ERR_ARG);
	CHECK(eclass(MPI_Type_create_hindexed_block(2, 1, ad, MPI_DATATYPE_NULL, &t)) ==
	      MPI_ERR_TYPE);
	CHECK(eclass(MPI_Type_create_struct(2, d, ad, types, &t)) == MPI_ERR_TYPE);
	CHECK(eclass(MPI_Type_create_struct(2, bl, ad, (MPI_Datatype[]){ MPI_INT, MPI_INT },
				     &t)) == MPI_ERR_ARG);
	CHECK(eclass(MPI_Type_create_struct(-1, d, ad, types, &t)) == MPI_ERR_COUNT);
	CHECK(eclass(MPI_Type_create_subarray(0, sizes, subs, starts, MPI_ORDER_C, MPI_INT,
				       &t)) == MPI_ERR_ARG);
	CHECK(eclass(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT,
				       &t)) == MPI_ERR_ARG);	/* 5 > 4 */
	subs[1] = 2;
	starts[1] = 3;
	CHECK(eclass(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT,
				       &t)) == MPI_ERR_ARG);	/* 3 + 2 > 4 */
	starts[1] = 2;
	CHECK(eclass(MPI_Type_create_subarray(2, sizes, subs, starts, 3, MPI_INT, &t)) ==
	      MPI_ERR_ARG);
	sizes[0] = 0;
	CHECK(eclass(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT,
				       &t)) == MPI_ERR_ARG);
	sizes[0] = 4;
	CHECK(eclass(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C,
				       MPI_DATATYPE_NULL, &t)) == MPI_ERR_TYPE);
	CHECK(eclass(MPI_Type_create_resized(MPI_DATATYPE_NULL, 0, 4, &t)) == MPI_ERR_TYPE);
	CHECK(eclass(MPI_Type_dup(0x4c0000ff, &t)) == MPI_ERR_TYPE);
	CHECK(t == keep);	/* no output on error */

	CHECK(eclass(MPI_Type_commit(NULL)) == MPI_ERR_ARG);
	CHECK(eclass(MPI_Type_commit(&keep)) == MPI_ERR_TYPE);
	CHECK(eclass(MPI_Type_free(&pre)) == MPI_ERR_TYPE && pre == MPI_INT);
	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &v));
	freed = v;
	CHECK_MPI(MPI_Type_free(&v));
	CHECK(eclass(MPI_Type_free(&freed)) == MPI_ERR_TYPE);	/* stale handle */
	CHECK(eclass(MPI_Type_size(freed, &x)) == MPI_ERR_TYPE);
	CHECK(eclass(MPI_Type_size(MPI_INT, NULL)) == MPI_ERR_ARG);
	CHECK(eclass(MPI_Type_get_extent(MPI_INT, &a, NULL)) == MPI_ERR_ARG);
	CHECK(eclass(MPI_Type_get_true_extent(MPI_DATATYPE_NULL, &a, &a)) == MPI_ERR_TYPE);
	CHECK(eclass(MPI_Type_get_envelope(MPI_INT, &ni, &na, &nd, NULL)) == MPI_ERR_ARG);
	CHECK(eclass(MPI_Type_get_contents(MPI_INT, 4, 4, 2, ints, aints, got)) == MPI_ERR_TYPE);
	CHECK(eclass(MPI_Type_get_name(MPI_INT, NULL, &x)) == MPI_ERR_ARG);
	CHECK(eclass(MPI_Type_set_name(MPI_INT, NULL)) == MPI_ERR_ARG);
	CHECK(eclass(MPI_Type_get_name(MPI_INT, name, NULL)) == MPI_ERR_ARG);
	CHECK(eclass(MPI_Get_address(&x, NULL)) == MPI_ERR_ARG);

	/* contents: arrays too short */
	CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_INT, &v));
	CHECK_MPI(MPI_Type_get_envelope(v, &ni, &na, &nd, &c));
	CHECK(eclass(MPI_Type_get_contents(v, 2, 0, 1, ints, aints, got)) == MPI_ERR_ARG);
	CHECK(eclass(MPI_Type_get_contents(v, 3, 0, 0, ints, aints, got)) == MPI_ERR_ARG);

	/* uncommitted types cannot carry data */
	pos = 0;
	CHECK(eclass(MPI_Pack(d, 1, v, buf, sizeof(buf), &pos, MPI_COMM_WORLD)) == MPI_ERR_TYPE);
	CHECK(eclass(MPI_Send(d, 1, v, 0, 0, MPI_COMM_WORLD)) == MPI_ERR_TYPE);
	CHECK_MPI(MPI_Pack_size(1, v, MPI_COMM_WORLD, &x));	/* a query: allowed */
	CHECK(x == 8);
	CHECK_MPI(MPI_Type_commit(&v));
	CHECK(eclass(MPI_Pack(d, 1, v, buf, 4, &pos, MPI_COMM_WORLD)) == MPI_ERR_TRUNCATE);
	CHECK(pos == 0);
	CHECK(eclass(MPI_Pack(d, -1, v, buf, 16, &pos, MPI_COMM_WORLD)) == MPI_ERR_COUNT);
	CHECK(eclass(MPI_Pack(d, 1, v, buf, 16, NULL, MPI_COMM_WORLD)) == MPI_ERR_ARG);
	CHECK(eclass(MPI_Pack(d, 1, v, buf, 16, &pos, MPI_COMM_NULL)) == MPI_ERR_COMM);
	CHECK(eclass(MPI_Pack(NULL, 2, MPI_INT, buf, 16, &pos, MPI_COMM_WORLD)) ==
	      MPI_ERR_BUFFER);
	pos = 12;
	CHECK(eclass(MPI_Unpack(buf, 16, &pos, d, 1, v, MPI_COMM_WORLD)) == MPI_ERR_TRUNCATE);
	CHECK(pos == 12);
	pos = -1;
	CHECK(eclass(MPI_Unpack(buf, 16, &pos, d, 1, v, MPI_COMM_WORLD)) == MPI_ERR_ARG);
	CHECK(eclass(MPI_Pack_size(-1, MPI_INT, MPI_COMM_WORLD, &x)) == MPI_ERR_COUNT);
	CHECK(eclass(MPI_Pack_size(INT_MAX, MPI_DOUBLE, MPI_COMM_WORLD, &x)) == MPI_ERR_COUNT);
	CHECK_MPI(MPI_Type_free(&v));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	tu_init(&argc, &argv);
	TU_RUN("predefined", test_predefined);
	TU_RUN("contiguous", test_contiguous);
	TU_RUN("vector", test_vector);
	TU_RUN("indexed", test_indexed);
	TU_RUN("struct", test_struct);
	TU_RUN("resized", test_resized);
	TU_RUN("subarray", test_subarray);
	TU_RUN("dup", test_dup);
	TU_RUN("nested", test_nested);
	TU_RUN("merge", test_merge);
	TU_RUN("contents", test_contents);
	TU_RUN("names", test_names);
	TU_RUN("pack", test_pack);
	TU_RUN("address", test_address);
	TU_RUN("errors", test_errors);
	MPI_Finalize();
	return 0;
}
