/*
 * Reduction ops through MPI_Reduce_local: every predefined op on every
 * predefined type (the C ones, and the Fortran and C++ ones usable from C,
 * with gfortran's and g++'s layouts), against results computed here, MPI_ERR_OP exactly where
 * MPI-3.1 5.9.2 leaves a pair undefined; derived types; MAXLOC/MINLOC ties;
 * user ops (order of a non-commutative op, the datatype and length they
 * get); MPI_Op_create/free/commutative and the error classes.  Every rank
 * runs the same local checks.
 *   op_reduce [test]     (default: all)
 */
#include <complex.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <wchar.h>

#include "testutil.h"

#define N 37	/* two blocks of 16 and a remainder, in the kernels */

enum cat { C_INT, F_INT, FLOATING, COMPLEX, LOGICAL, BYTE, PAIR, OTHER };

/* The class of an error code (codes are classes here, not in every MPI). */
static int eclass(int rc)
{
	int cls;

	MPI_Error_class(rc, &cls);
	return cls;
}

static const struct { MPI_Op op; const char *name; } ops[] = {
	{ MPI_MAX, "MPI_MAX" }, { MPI_MIN, "MPI_MIN" }, { MPI_SUM, "MPI_SUM" },
	{ MPI_PROD, "MPI_PROD" }, { MPI_LAND, "MPI_LAND" }, { MPI_BAND, "MPI_BAND" },
	{ MPI_LOR, "MPI_LOR" }, { MPI_BOR, "MPI_BOR" }, { MPI_LXOR, "MPI_LXOR" },
	{ MPI_BXOR, "MPI_BXOR" }, { MPI_MINLOC, "MPI_MINLOC" },
	{ MPI_MAXLOC, "MPI_MAXLOC" }, { MPI_REPLACE, "MPI_REPLACE" },
	{ MPI_NO_OP, "MPI_NO_OP" },
};

#define NOPS ((int)(sizeof(ops) / sizeof(ops[0])))

/* MPI-3.1 5.9.2, with MPI_CHAR as a C integer (as MPICH and Open MPI) */
static int applies(MPI_Op op, enum cat c)
{
	if (op == MPI_REPLACE || op == MPI_NO_OP)
		return 1;
	if (op == MPI_MAX || op == MPI_MIN)
		return c == C_INT || c == F_INT || c == FLOATING;
	if (op == MPI_SUM || op == MPI_PROD)
		return c == C_INT || c == F_INT || c == FLOATING || c == COMPLEX;
	if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR)
		return c == C_INT || c == LOGICAL;
	if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR)
		return c == C_INT || c == F_INT || c == BYTE;
	return c == PAIR;	/* MINLOC, MAXLOC */
}

static int tested;	/* (op, type) pairs that reduced */

/* Reduce in into io; on error io must not change. */
static void reduce(const void *in, void *io, size_t bytes, MPI_Datatype t, MPI_Op op,
		   enum cat c)
{
	unsigned char *before = malloc(bytes);
	int rc;

	CHECK(before);
	memcpy(before, io, bytes);
	rc = eclass(MPI_Reduce_local(in, io, N, t, op));
	if (rc != (applies(op, c) ? MPI_SUCCESS : MPI_ERR_OP)) {
		char name[MPI_MAX_OBJECT_NAME];
		int len, o = 0;

		MPI_Type_get_name(t, name, &len);
		while (ops[o].op != op)
			o++;
		fprintf(stderr, "%s on %s: error class %d\n", ops[o].name, name, rc);
	}
	if (!applies(op, c)) {
		CHECK(rc == MPI_ERR_OP);
		CHECK(memcmp(before, io, bytes) == 0);
	} else {
		CHECK(rc == MPI_SUCCESS);
		tested++;
	}
	free(before);
}

/* Integer types: expected results computed on U, the unsigned twin. */
#define INT_TEST(sfx, T, U)                                                    \
	static void test_##sfx(MPI_Datatype t, enum cat c)                     \
	{                                                                      \
		for (int o = 0; o < NOPS; o++) {                               \
			MPI_Op op = ops[o].op;                                 \
			T in[N], io[N], want[N];                               \
                                                                               \
			for (int i = 0; i < N; i++) {                          \
				in[i] = (T)(i * 7 % 23 - 11);                  \
				io[i] = (T)(i * 5 % 19 - 9);                   \
			}                                                      \
			in[3] = 0;                                             \
			io[4] = 0;                                             \
			for (int i = 0; i < N; i++) {                          \
				T a = in[i], b = io[i];                        \
                                                                               \
				want[i] = op == MPI_MAX ? (a > b ? a : b) :    \
					  op == MPI_MIN ? (a < b ? a : b) :    \
					  op == MPI_SUM ? (T)((U)a + (U)b) :   \
					  op == MPI_PROD ? (T)(sizeof(U) > 8 ? (U)a * (U)b : \
						 (U)((unsigned long long)(U)a * (U)b)) : \
					  op == MPI_LAND ? (T)(a && b) :       \
					  op == MPI_LOR ? (T)(a || b) :        \
					  op == MPI_LXOR ? (T)(!a != !b) :     \
					  op == MPI_BAND ? (T)((U)a & (U)b) :  \
					  op == MPI_BOR ? (T)((U)a | (U)b) :   \
					  op == MPI_BXOR ? (T)((U)a ^ (U)b) :  \
					  op == MPI_REPLACE ? a : b;           \
			}                                                      \
			reduce(in, io, sizeof(io), t, op, c);                  \
			if (applies(op, c))                                    \
				CHECK(memcmp(io, want, sizeof(io)) == 0);      \
		}                                                              \
	}

INT_TEST(schar, signed char, unsigned char)
INT_TEST(uchar, unsigned char, unsigned char)
INT_TEST(short, short, unsigned short)
INT_TEST(ushort, unsigned short, unsigned short)
INT_TEST(int, int, unsigned)
INT_TEST(uint, unsigned, unsigned)
INT_TEST(long, long, unsigned long)
INT_TEST(ulong, unsigned long, unsigned long)
INT_TEST(llong, long long, unsigned long long)
INT_TEST(ullong, unsigned long long, unsigned long long)
INT_TEST(i8, int8_t, uint8_t)
INT_TEST(i16, int16_t, uint16_t)
INT_TEST(i32, int32_t, uint32_t)
INT_TEST(i64, int64_t, uint64_t)
INT_TEST(u8, uint8_t, uint8_t)
INT_TEST(u16, uint16_t, uint16_t)
INT_TEST(u32, uint32_t, uint32_t)
INT_TEST(u64, uint64_t, uint64_t)
#ifdef __SIZEOF_INT128__
INT_TEST(i128, __int128, unsigned __int128)
#endif

/* Floating point: halves of small integers, so every result is exact. */
#define FLOAT_TEST(sfx, T)                                                     \
	static void test_##sfx(MPI_Datatype t, enum cat c)                     \
	{                                                                      \
		for (int o = 0; o < NOPS; o++) {                               \
			MPI_Op op = ops[o].op;                                 \
			T in[N], io[N], want[N];                               \
                                                                               \
			for (int i = 0; i < N; i++) {                          \
				in[i] = (T)(i * 7 % 23 - 11) / 2;              \
				io[i] = (T)(i * 5 % 19 - 9) / 2;               \
				want[i] = op == MPI_MAX ? (in[i] > io[i] ? in[i] : io[i]) : \
					  op == MPI_MIN ? (in[i] < io[i] ? in[i] : io[i]) : \
					  op == MPI_SUM ? in[i] + io[i] :      \
					  op == MPI_PROD ? in[i] * io[i] :     \
					  op == MPI_REPLACE ? in[i] : io[i];   \
			}                                                      \
			reduce(in, io, sizeof(io), t, op, c);                  \
			if (applies(op, c))                                    \
				for (int i = 0; i < N; i++)                    \
					CHECK(io[i] == want[i]);               \
		}                                                              \
	}

FLOAT_TEST(float, float)
FLOAT_TEST(double, double)
FLOAT_TEST(ldouble, long double)
#ifdef __SIZEOF_FLOAT128__
FLOAT_TEST(quad, __float128)	/* gfortran's REAL(16) */
#endif

#define COMPLEX_TEST(sfx, T)                                                   \
	static void test_##sfx(MPI_Datatype t, enum cat c)                     \
	{                                                                      \
		for (int o = 0; o < NOPS; o++) {                               \
			MPI_Op op = ops[o].op;                                 \
			T in[N], io[N], want[N];                               \
                                                                               \
			for (int i = 0; i < N; i++) {                          \
				in[i] = (T)(i % 5 - 2) + (T)(i % 3) * I;       \
				io[i] = (T)(i % 4) - (T)(i % 7 - 3) * I;       \
				want[i] = op == MPI_SUM ? in[i] + io[i] :      \
					  op == MPI_PROD ? in[i] * io[i] :     \
					  op == MPI_REPLACE ? in[i] : io[i];   \
			}                                                      \
			reduce(in, io, sizeof(io), t, op, c);                  \
			if (applies(op, c))                                    \
				for (int i = 0; i < N; i++)                    \
					CHECK(io[i] == want[i]);               \
		}                                                              \
	}

COMPLEX_TEST(cfloat, float _Complex)
COMPLEX_TEST(cdouble, double _Complex)
COMPLEX_TEST(cldouble, long double _Complex)
#ifdef __SIZEOF_FLOAT128__
typedef _Complex float __attribute__((mode(TC))) complex_quad;
COMPLEX_TEST(cquad, complex_quad)	/* gfortran's COMPLEX(16) */
#endif

/* C's and C++'s bool, Fortran LOGICAL of each width: 1 is .TRUE., 0 is
 * .FALSE. (gfortran). */
#define LOGICAL_TEST(sfx, T)                                                   \
	static void test_##sfx(MPI_Datatype t, enum cat c)                     \
	{                                                                      \
		for (int o = 0; o < NOPS; o++) {                               \
			MPI_Op op = ops[o].op;                                 \
			T in[N], io[N], want[N];                               \
                                                                               \
			for (int i = 0; i < N; i++) {                          \
				in[i] = i % 2;                                 \
				io[i] = i % 3 == 0;                            \
				want[i] = op == MPI_LAND ? in[i] && io[i] :    \
					  op == MPI_LOR ? in[i] || io[i] :     \
					  op == MPI_LXOR ? in[i] != io[i] :    \
					  op == MPI_REPLACE ? in[i] : io[i];   \
			}                                                      \
			reduce(in, io, sizeof(io), t, op, c);                  \
			if (applies(op, c))                                    \
				CHECK(memcmp(io, want, sizeof(io)) == 0);      \
		}                                                              \
	}

LOGICAL_TEST(bool, bool)
LOGICAL_TEST(logical1, int8_t)
LOGICAL_TEST(logical2, int16_t)
LOGICAL_TEST(logical4, int32_t)
LOGICAL_TEST(logical8, int64_t)

/* Types only MPI_REPLACE and MPI_NO_OP apply to (and MPI_BYTE's bit ops). */
static void test_bytes(MPI_Datatype t, enum cat c, size_t elem)
{
	for (int o = 0; o < NOPS; o++) {
		MPI_Op op = ops[o].op;
		unsigned char in[N * 32], io[N * 32], want[N * 32];
		size_t n = N * elem;

		for (size_t i = 0; i < n; i++) {
			in[i] = (unsigned char)(i * 37 + 11);
			io[i] = (unsigned char)(i * 91 + 5);
			want[i] = op == MPI_BAND ? in[i] & io[i] :
				  op == MPI_BOR ? in[i] | io[i] :
				  op == MPI_BXOR ? in[i] ^ io[i] :
				  op == MPI_REPLACE ? in[i] : io[i];
		}
		reduce(in, io, n, t, op, c);
		if (applies(op, c))
			CHECK(memcmp(io, want, n) == 0);
	}
}

/* MAXLOC/MINLOC: values with ties; a tie keeps the smaller index (of
 * type X: int, or the value's type in the Fortran pairs). */
#define PAIR_TEST(sfx, V) PAIR_TEST_OF(sfx, V, int)
#define PAIR_TEST_OF(sfx, V, X)                                                \
	static void test_##sfx(MPI_Datatype t, enum cat c)                     \
	{                                                                      \
		struct p { V v; X i; };                                        \
                                                                               \
		for (int o = 0; o < NOPS; o++) {                               \
			MPI_Op op = ops[o].op;                                 \
			struct p in[N], io[N], want[N];                        \
                                                                               \
			memset(in, 0, sizeof(in));                             \
			memset(io, 0, sizeof(io));                             \
			for (int i = 0; i < N; i++) {                          \
				in[i].v = (V)(i % 4);                          \
				in[i].i = (X)i;                                \
				io[i].v = (V)(i * 3 % 4);                      \
				io[i].i = (X)(N - i);                          \
			}                                                      \
			memcpy(want, io, sizeof(io));                          \
			for (int i = 0; i < N; i++) {                          \
				int win = op == MPI_MAXLOC ? in[i].v > io[i].v : \
					  in[i].v < io[i].v;                   \
				int tie = in[i].v == io[i].v;                  \
                                                                               \
				if (op == MPI_REPLACE)                         \
					want[i] = in[i];                       \
				else if (op == MPI_MAXLOC || op == MPI_MINLOC) \
					want[i].i = win ? in[i].i :            \
						    !tie ? io[i].i :           \
						    in[i].i < io[i].i ? in[i].i : io[i].i; \
				if ((op == MPI_MAXLOC || op == MPI_MINLOC) && win) \
					want[i].v = in[i].v;                   \
			}                                                      \
			reduce(in, io, sizeof(io), t, op, c);                  \
			if (applies(op, c))                                    \
				for (int i = 0; i < N; i++)                    \
					CHECK(io[i].v == want[i].v &&          \
					      io[i].i == want[i].i);           \
		}                                                              \
	}

PAIR_TEST(float_int, float)
PAIR_TEST(double_int, double)
PAIR_TEST(long_int, long)
PAIR_TEST(2int, int)
PAIR_TEST(short_int, short)
PAIR_TEST(ldouble_int, long double)
PAIR_TEST_OF(2real, float, float)
PAIR_TEST_OF(2double, double, double)

/* The Fortran and C++ types usable from C (MPI 3.1, Annex A.1.1), in the
 * groups of 5.9.2; the optional ones an MPI lacks are MPI_DATATYPE_NULL or
 * (MPICH) not defined. */
static void test_fortran(void)
{
	int n = 0, optional = 0;

	tested = 0;
	test_i32(MPI_INTEGER, F_INT);
	test_i8(MPI_INTEGER1, F_INT);
	test_i16(MPI_INTEGER2, F_INT);
	test_i32(MPI_INTEGER4, F_INT);
	test_i64(MPI_INTEGER8, F_INT);
	test_float(MPI_REAL, FLOATING);
	test_float(MPI_REAL4, FLOATING);
	test_double(MPI_DOUBLE_PRECISION, FLOATING);
	test_double(MPI_REAL8, FLOATING);
	test_cfloat(MPI_COMPLEX, COMPLEX);
	test_cfloat(MPI_COMPLEX8, COMPLEX);
	test_cdouble(MPI_DOUBLE_COMPLEX, COMPLEX);
	test_cdouble(MPI_COMPLEX16, COMPLEX);
	test_cfloat(MPI_CXX_FLOAT_COMPLEX, COMPLEX);
	test_cdouble(MPI_CXX_DOUBLE_COMPLEX, COMPLEX);
	test_cldouble(MPI_CXX_LONG_DOUBLE_COMPLEX, COMPLEX);
	test_logical4(MPI_LOGICAL, LOGICAL);
	test_bool(MPI_CXX_BOOL, LOGICAL);
	test_bytes(MPI_CHARACTER, OTHER, 1);
	test_2int(MPI_2INTEGER, PAIR);
	test_2real(MPI_2REAL, PAIR);
	test_2double(MPI_2DOUBLE_PRECISION, PAIR);
	/* 5 integer x 7 ops, 4 x 4 floating, 7 x 2 complex, 2 logical x 3,
	 * 3 pairs x 2; REPLACE and NO_OP on all 22 */
	n = 5 * 7 + 4 * 4 + 7 * 2 + 2 * 3 + 3 * 2 + 22 * 2;
#ifdef MPI_LOGICAL1	/* in MPI 4.0's list; MPICH 4.0.2 lacks it */
	test_logical1(MPI_LOGICAL1, LOGICAL);
	test_logical2(MPI_LOGICAL2, LOGICAL);
	test_logical4(MPI_LOGICAL4, LOGICAL);
	test_logical8(MPI_LOGICAL8, LOGICAL);
	n += 4 * 3 + 4 * 2;
#endif
#ifdef MPI_2COMPLEX	/* pairs of complex numbers: no order, no MAXLOC */
	test_bytes(MPI_2COMPLEX, OTHER, 2 * sizeof(float _Complex));
	test_bytes(MPI_2DOUBLE_COMPLEX, OTHER, 2 * sizeof(double _Complex));
	n += 2 * 2;
#endif
#if defined(__SIZEOF_INT128__) && defined(MPI_INTEGER16)
	if (MPI_INTEGER16 != MPI_DATATYPE_NULL) {
		test_i128(MPI_INTEGER16, F_INT);
		optional += 7 + 2;
	}
#endif
#if defined(__SIZEOF_FLOAT128__) && defined(SHMPI)
	/* shmpi's REAL16 and COMPLEX32 are gfortran's: binary128 */
	test_quad(MPI_REAL16, FLOATING);
	test_cquad(MPI_COMPLEX32, COMPLEX);
	optional += 4 + 2 + 2 * 2;
#endif
	CHECK(tested == n + optional);
}

static void test_all_pairs(void)
{
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	tested = 0;
	test_schar(MPI_CHAR, C_INT);
	test_schar(MPI_SIGNED_CHAR, C_INT);
	test_uchar(MPI_UNSIGNED_CHAR, C_INT);
	test_short(MPI_SHORT, C_INT);
	test_ushort(MPI_UNSIGNED_SHORT, C_INT);
	test_int(MPI_INT, C_INT);
	test_uint(MPI_UNSIGNED, C_INT);
	test_long(MPI_LONG, C_INT);
	test_ulong(MPI_UNSIGNED_LONG, C_INT);
	test_llong(MPI_LONG_LONG_INT, C_INT);
	test_llong(MPI_LONG_LONG, C_INT);
	test_ullong(MPI_UNSIGNED_LONG_LONG, C_INT);
	test_i8(MPI_INT8_T, C_INT);
	test_i16(MPI_INT16_T, C_INT);
	test_i32(MPI_INT32_T, C_INT);
	test_i64(MPI_INT64_T, C_INT);
	test_u8(MPI_UINT8_T, C_INT);
	test_u16(MPI_UINT16_T, C_INT);
	test_u32(MPI_UINT32_T, C_INT);
	test_u64(MPI_UINT64_T, C_INT);
	test_long(MPI_AINT, F_INT);
	test_llong(MPI_OFFSET, F_INT);
	test_llong(MPI_COUNT, F_INT);
	test_float(MPI_FLOAT, FLOATING);
	test_double(MPI_DOUBLE, FLOATING);
	test_ldouble(MPI_LONG_DOUBLE, FLOATING);
	test_cfloat(MPI_C_FLOAT_COMPLEX, COMPLEX);
	test_cfloat(MPI_C_COMPLEX, COMPLEX);
	test_cdouble(MPI_C_DOUBLE_COMPLEX, COMPLEX);
	test_cldouble(MPI_C_LONG_DOUBLE_COMPLEX, COMPLEX);
	test_bool(MPI_C_BOOL, LOGICAL);
	test_bytes(MPI_BYTE, BYTE, 1);
	test_bytes(MPI_PACKED, OTHER, 1);
	test_bytes(MPI_WCHAR, OTHER, sizeof(wchar_t));
	test_float_int(MPI_FLOAT_INT, PAIR);
	test_double_int(MPI_DOUBLE_INT, PAIR);
	test_long_int(MPI_LONG_INT, PAIR);
	test_2int(MPI_2INT, PAIR);
	test_short_int(MPI_SHORT_INT, PAIR);
	test_ldouble_int(MPI_LONG_DOUBLE_INT, PAIR);
	/* 23 integer types x 10 or 7 ops, 3 x 4 floating, 4 x 2 complex, 3
	 * logical, 3 byte, 6 x 2 pairs; REPLACE and NO_OP on all 40 */
	CHECK(tested == 20 * 10 + 3 * 7 + 3 * 4 + 4 * 2 + 3 + 3 + 6 * 2 + 40 * 2);
	test_fortran();
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

/* A few results worked out by hand. */
static void test_values(void)
{
	int i1[2] = { INT_MAX, -7 }, i2[2] = { 1, 3 };
	signed char c1[2] = { 100, -100 }, c2[2] = { 100, -100 };
	unsigned char u1[1] = { 200 }, u2[1] = { 100 };
	signed char s1[1] = { (signed char)200 }, s2[1] = { 100 };
	double _Complex z1 = 1 + 2 * I, z2 = 3 + 4 * I;
	struct { double v; int i; } d1[3] = { { 2.5, 7 }, { 1.0, 3 }, { -1.0, 9 } },
				    d2[3] = { { 2.5, 4 }, { 3.0, 1 }, { -1.0, 2 } };
	struct { int v; int i; } m1[2] = { { 5, 1 }, { 5, 8 } }, m2[2] = { { 5, 2 }, { 4, 0 } };
	uint64_t x1 = 0xff00ff00ff00ff00u, x2 = 0x0ff00ff00ff00ff0u;

	CHECK_MPI(MPI_Reduce_local(i1, i2, 2, MPI_INT, MPI_SUM));
	CHECK(i2[0] == INT_MIN && i2[1] == -4);	/* wraps */
	CHECK_MPI(MPI_Reduce_local(c1, c2, 2, MPI_CHAR, MPI_SUM));
	CHECK(c2[0] == -56 && c2[1] == 56);		/* signed char arithmetic */
	CHECK_MPI(MPI_Reduce_local(u1, u2, 1, MPI_UNSIGNED_CHAR, MPI_MAX));
	CHECK(u2[0] == 200);
	CHECK_MPI(MPI_Reduce_local(s1, s2, 1, MPI_SIGNED_CHAR, MPI_MAX));
	CHECK(s2[0] == 100);			/* 200 is -56 when signed */
	CHECK_MPI(MPI_Reduce_local(&z1, &z2, 1, MPI_C_DOUBLE_COMPLEX, MPI_PROD));
	CHECK(creal(z2) == -5 && cimag(z2) == 10);
	CHECK_MPI(MPI_Reduce_local(d1, d2, 3, MPI_DOUBLE_INT, MPI_MAXLOC));
	CHECK(d2[0].v == 2.5 && d2[0].i == 4);	/* tie: smaller index */
	CHECK(d2[1].v == 3.0 && d2[1].i == 1);
	CHECK(d2[2].v == -1.0 && d2[2].i == 2);
	CHECK_MPI(MPI_Reduce_local(m1, m2, 2, MPI_2INT, MPI_MINLOC));
	CHECK(m2[0].v == 5 && m2[0].i == 1);	/* tie: the incoming index wins */
	CHECK(m2[1].v == 4 && m2[1].i == 0);
	CHECK_MPI(MPI_Reduce_local(&x1, &x2, 1, MPI_UINT64_T, MPI_BXOR));
	CHECK(x2 == 0xf0f0f0f0f0f0f0f0u);
	/* a long vector through the blocked loops */
	{
		enum { M = 1000 };
		double *a = malloc(M * sizeof(double)), *b = malloc(M * sizeof(double));

		CHECK(a && b);
		for (int i = 0; i < M; i++) {
			a[i] = i;
			b[i] = 2 * i;
		}
		CHECK_MPI(MPI_Reduce_local(a, b, M, MPI_DOUBLE, MPI_SUM));
		for (int i = 0; i < M; i++)
			CHECK(b[i] == 3 * i);
		free(a);
		free(b);
	}
}

/* Derived types: the op reaches every basic element and nothing else. */
static void test_derived(void)
{
	MPI_Datatype v, r, s2, mixed, c3, ix;
	int in[16], io[16];
	double din[10], dio[10];
	struct { float v; int i; } fin[6], fio[6];

	/* vector(2, 2, 3): ints 0, 1, 3, 4 of each 5-int element */
	CHECK_MPI(MPI_Type_vector(2, 2, 3, MPI_INT, &v));
	CHECK_MPI(MPI_Type_commit(&v));
	for (int i = 0; i < 16; i++) {
		in[i] = i + 1;
		io[i] = 100 * i;
	}
	CHECK_MPI(MPI_Reduce_local(in, io, 2, v, MPI_SUM));
	for (int i = 0; i < 16; i++) {
		int k = i % 5;
		int hit = i < 10 && (k == 0 || k == 1 || k == 3 || k == 4);

		CHECK(io[i] == (hit ? 100 * i + i + 1 : 100 * i));
	}
	/* every other double, through a resized type */
	CHECK_MPI(MPI_Type_create_resized(MPI_DOUBLE, 0, 16, &r));
	CHECK_MPI(MPI_Type_commit(&r));
	for (int i = 0; i < 10; i++) {
		din[i] = i % 3;
		dio[i] = 1.5;
	}
	CHECK_MPI(MPI_Reduce_local(din, dio, 5, r, MPI_MAX));
	for (int i = 0; i < 10; i++)
		CHECK(dio[i] == (i % 2 == 0 && i % 3 == 2 ? 2.0 : 1.5));
	/* indexed with a negative displacement: the buffer points mid-array */
	CHECK_MPI(MPI_Type_indexed(2, (int[]){ 1, 2 }, (int[]){ -2, 1 }, MPI_INT, &ix));
	CHECK_MPI(MPI_Type_commit(&ix));
	for (int i = 0; i < 16; i++) {
		in[i] = i;
		io[i] = 1;
	}
	CHECK_MPI(MPI_Reduce_local(in + 4, io + 4, 1, ix, MPI_PROD));
	for (int i = 0; i < 16; i++)
		CHECK(io[i] == (i == 2 || i == 5 || i == 6 ? i : 1));
	/* contiguous pairs with MINLOC; a struct of pairs with MAXLOC */
	CHECK_MPI(MPI_Type_contiguous(3, MPI_FLOAT_INT, &c3));
	CHECK_MPI(MPI_Type_commit(&c3));
	for (int i = 0; i < 6; i++) {
		fin[i].v = (float)(i % 2);
		fin[i].i = i;
		fio[i].v = 0.5f;
		fio[i].i = 10 + i;
	}
	CHECK_MPI(MPI_Reduce_local(fin, fio, 2, c3, MPI_MINLOC));
	for (int i = 0; i < 6; i++)
		CHECK(fio[i].v == (i % 2 ? 0.5f : 0.0f) && fio[i].i == (i % 2 ? 10 + i : i));
	CHECK_MPI(MPI_Type_create_struct(2, (int[]){ 1, 1 }, (MPI_Aint[]){ 0, 16 },
					 (MPI_Datatype[]){ MPI_2INT, MPI_2INT }, &s2));
	CHECK_MPI(MPI_Type_commit(&s2));
	{
		int a[6] = { 1, 0, 9, 9, 7, 1 }, b[6] = { 2, 5, 9, 9, 7, 3 };

		/* pairs at ints 0-1 and 4-5; ints 2-3 are a gap */
		CHECK_MPI(MPI_Reduce_local(a, b, 1, s2, MPI_MAXLOC));
		CHECK(b[0] == 2 && b[1] == 5 && b[2] == 9 && b[4] == 7 && b[5] == 1);
	}
	/* mixed basic types: no predefined op applies, not even MPI_REPLACE */
	CHECK_MPI(MPI_Type_create_struct(2, (int[]){ 1, 1 }, (MPI_Aint[]){ 0, 8 },
					 (MPI_Datatype[]){ MPI_INT, MPI_DOUBLE }, &mixed));
	CHECK_MPI(MPI_Type_commit(&mixed));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK(eclass(MPI_Reduce_local(din, dio, 1, mixed, MPI_SUM)) == MPI_ERR_OP);
	CHECK(eclass(MPI_Reduce_local(din, dio, 1, mixed, MPI_REPLACE)) == MPI_ERR_OP);
	CHECK(eclass(MPI_Reduce_local(din, dio, 1, c3, MPI_SUM)) == MPI_ERR_OP);
	CHECK(eclass(MPI_Reduce_local(in, io, 1, v, MPI_MAXLOC)) == MPI_ERR_OP);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
	CHECK_MPI(MPI_Type_free(&v));
	CHECK_MPI(MPI_Type_free(&r));
	CHECK_MPI(MPI_Type_free(&ix));
	CHECK_MPI(MPI_Type_free(&c3));
	CHECK_MPI(MPI_Type_free(&s2));
	CHECK_MPI(MPI_Type_free(&mixed));
}

/* ---- user ops ---------------------------------------------------------- */

static int user_calls, user_len;
static MPI_Datatype user_type;

/* inout = 10 * in + inout, on pairs of ints: order matters */
static void shift_add(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype)
{
	const int *in = invec;
	int *io = inoutvec;
	int per = *datatype == MPI_INT ? 1 : 2;

	user_calls++;
	user_len = *len;
	user_type = *datatype;
	for (int i = 0; i < *len * per; i++)
		io[i] = 10 * in[i] + io[i];
}

static void test_user(void)
{
	MPI_Op op, op2, freed;
	MPI_Datatype pair;
	int in[6] = { 1, 2, 3, 4, 5, 6 }, io[6] = { 7, 8, 9, 1, 2, 3 }, commute;

	CHECK_MPI(MPI_Op_create(shift_add, 0, &op));
	CHECK_MPI(MPI_Op_commutative(op, &commute));
	CHECK(commute == 0);
	CHECK_MPI(MPI_Op_create(shift_add, 1, &op2));
	CHECK_MPI(MPI_Op_commutative(op2, &commute));
	CHECK(commute == 1);
	CHECK_MPI(MPI_Op_commutative(MPI_SUM, &commute));
	CHECK(commute == 1);
	CHECK_MPI(MPI_Op_commutative(MPI_MAXLOC, &commute));
	CHECK(commute == 1);
	/* inoutbuf = inbuf op inoutbuf, with the user's count and type */
	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
	CHECK_MPI(MPI_Type_commit(&pair));
	CHECK_MPI(MPI_Reduce_local(in, io, 3, pair, op));
	CHECK(user_calls == 1 && user_len == 3 && user_type == pair);
	CHECK(io[0] == 17 && io[1] == 28 && io[2] == 39 && io[3] == 41 &&
	      io[4] == 52 && io[5] == 63);
	CHECK_MPI(MPI_Reduce_local(in, io, 2, MPI_INT, op2));
	CHECK(user_calls == 2 && user_len == 2 && user_type == MPI_INT);
	CHECK(io[0] == 27 && io[1] == 48 && io[2] == 39);
	/* a user op accepts any type, mixed ones too */
	CHECK_MPI(MPI_Reduce_local(in, io, 0, pair, op));
	CHECK(user_calls == 2);
	CHECK_MPI(MPI_Type_free(&pair));
	freed = op;
	CHECK_MPI(MPI_Op_free(&op));
	CHECK(op == MPI_OP_NULL);
	CHECK_MPI(MPI_Op_free(&op2));

	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK(eclass(MPI_Op_free(&freed)) == MPI_ERR_OP);
	CHECK(eclass(MPI_Reduce_local(in, io, 1, MPI_INT, freed)) == MPI_ERR_OP);
	CHECK(eclass(MPI_Op_commutative(freed, &commute)) == MPI_ERR_OP);
	CHECK(eclass(MPI_Op_create(NULL, 1, &op)) == MPI_ERR_ARG);
	CHECK(eclass(MPI_Op_create(shift_add, 1, NULL)) == MPI_ERR_ARG);
	CHECK(eclass(MPI_Op_commutative(MPI_SUM, NULL)) == MPI_ERR_ARG);
	op = MPI_SUM;
	CHECK(eclass(MPI_Op_free(&op)) == MPI_ERR_OP && op == MPI_SUM);
	CHECK(eclass(MPI_Op_free(NULL)) == MPI_ERR_ARG);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

static void test_errors(void)
{
	int a[4] = { 0 }, b[4] = { 0 };
	MPI_Datatype v;

	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK(eclass(MPI_Reduce_local(a, b, -1, MPI_INT, MPI_SUM)) == MPI_ERR_COUNT);
	CHECK(eclass(MPI_Reduce_local(a, b, 1, MPI_DATATYPE_NULL, MPI_SUM)) == MPI_ERR_TYPE);
	CHECK(eclass(MPI_Reduce_local(a, b, 1, MPI_INT, MPI_OP_NULL)) == MPI_ERR_OP);
	CHECK(eclass(MPI_Reduce_local(a, b, 1, MPI_INT, 0x12345)) == MPI_ERR_OP);
	CHECK(eclass(MPI_Reduce_local(a, b, 1, MPI_INT, MPI_MAXLOC)) == MPI_ERR_OP);
	CHECK(eclass(MPI_Reduce_local(MPI_IN_PLACE, b, 1, MPI_INT, MPI_SUM)) == MPI_ERR_BUFFER);
	CHECK(eclass(MPI_Reduce_local(a, NULL, 1, MPI_INT, MPI_SUM)) == MPI_ERR_BUFFER);
	CHECK(eclass(MPI_Reduce_local(a, a, 1, MPI_INT, MPI_SUM)) == MPI_ERR_BUFFER);
	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &v));
	CHECK(eclass(MPI_Reduce_local(a, b, 1, v, MPI_SUM)) == MPI_ERR_TYPE);	/* uncommitted */
	CHECK_MPI(MPI_Type_free(&v));
	CHECK_MPI(MPI_Reduce_local(NULL, NULL, 0, MPI_INT, MPI_SUM));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	tu_init(&argc, &argv);
	TU_RUN("pairs", test_all_pairs);
	TU_RUN("values", test_values);
	TU_RUN("derived", test_derived);
	TU_RUN("user", test_user);
	TU_RUN("errors", test_errors);
	MPI_Finalize();
	return 0;
}
