/*
 * Every predefined op on every predefined type it applies to (the C ones,
 * and the Fortran and C++ ones usable from C), through
 * MPI_Allreduce, MPI_Reduce and MPI_Scan: the result must equal the
 * reduction computed locally, in rank order, with MPI_Reduce_local (whose
 * kernels tests/progs/op_reduce.c checks against hand-computed values).
 * Counts of 1 and of 3000 elements (several chunks of the collective area).
 */
#include <complex.h>
#include <stdbool.h>
#include <stdint.h>

#include "testutil.h"

static int rank, size;

/* Member r's value at index i of a type, as bytes: small numbers (and
 * 0/1 for the logical ops' types) so that sums and products stay exact. */
static void fill(MPI_Datatype t, int r, int n, void *buf)
{
	int tsize;

	MPI_Type_size(t, &tsize);
	for (int i = 0; i < n; i++) {
		long v = (r * 3 + i * 7) % 5 + 1 - (i % 3 == 0 && r % 2);
		char *p = (char *)buf + (size_t)i * (size_t)tsize;

		if (t == MPI_FLOAT || t == MPI_REAL || t == MPI_REAL4)
			*(float *)p = (float)v;
		else if (t == MPI_DOUBLE || t == MPI_DOUBLE_PRECISION || t == MPI_REAL8)
			*(double *)p = (double)v;
		else if (t == MPI_LONG_DOUBLE) *(long double *)p = (long double)v;
		else if (t == MPI_C_FLOAT_COMPLEX || t == MPI_COMPLEX || t == MPI_COMPLEX8 ||
			 t == MPI_CXX_FLOAT_COMPLEX)
			*(float _Complex *)p = (float)v;
		else if (t == MPI_C_DOUBLE_COMPLEX || t == MPI_DOUBLE_COMPLEX ||
			 t == MPI_COMPLEX16 || t == MPI_CXX_DOUBLE_COMPLEX)
			*(double _Complex *)p = (double)v;
		else if (t == MPI_C_LONG_DOUBLE_COMPLEX || t == MPI_CXX_LONG_DOUBLE_COMPLEX)
			*(long double _Complex *)p = (long double)v;
#if defined(__SIZEOF_FLOAT128__) && defined(SHMPI)	/* gfortran's REAL(16) */
		else if (t == MPI_REAL16) *(__float128 *)p = v;
		else if (t == MPI_COMPLEX32) *(__float128 *)p = v, ((__float128 *)p)[1] = 0;
#endif
		else if (t == MPI_C_BOOL || t == MPI_CXX_BOOL) *(bool *)p = v % 2;
		else {
			uint64_t u = (uint64_t)v;

			memset(p, 0, (size_t)tsize);
			memcpy(p, &u, (size_t)tsize < sizeof(u) ? (size_t)tsize : sizeof(u));
			/* little-endian integers (a 16-byte one is small too) */
		}
	}
}

/* Equal values (long double has padding bytes: compare values, not bytes). */
static int same(MPI_Datatype t, const void *a, const void *b, int n)
{
	int tsize;

	MPI_Type_size(t, &tsize);
	for (int i = 0; i < n; i++) {
		const char *p = (const char *)a + (size_t)i * (size_t)tsize;
		const char *q = (const char *)b + (size_t)i * (size_t)tsize;

		if (t == MPI_LONG_DOUBLE) {
			if (*(const long double *)p != *(const long double *)q)
				return 0;
		} else if (t == MPI_C_LONG_DOUBLE_COMPLEX || t == MPI_CXX_LONG_DOUBLE_COMPLEX) {
			if (*(const long double _Complex *)p != *(const long double _Complex *)q)
				return 0;
		} else if (memcmp(p, q, (size_t)tsize) != 0) {
			return 0;
		}
	}
	return 1;
}

int main(int argc, char **argv)
{
	static const MPI_Datatype types[] = {
		MPI_CHAR, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_BYTE, MPI_SHORT,
		MPI_UNSIGNED_SHORT, MPI_INT, MPI_UNSIGNED, MPI_LONG, MPI_UNSIGNED_LONG,
		MPI_LONG_LONG, MPI_UNSIGNED_LONG_LONG, MPI_FLOAT, MPI_DOUBLE,
		MPI_LONG_DOUBLE, MPI_C_BOOL, MPI_INT8_T, MPI_INT16_T, MPI_INT32_T,
		MPI_INT64_T, MPI_UINT8_T, MPI_UINT16_T, MPI_UINT32_T, MPI_UINT64_T,
		MPI_AINT, MPI_OFFSET, MPI_COUNT, MPI_C_FLOAT_COMPLEX,
		MPI_C_DOUBLE_COMPLEX, MPI_C_LONG_DOUBLE_COMPLEX, MPI_WCHAR,
		/* Fortran and C++ (MPI 3.1, Annex A.1.1) */
		MPI_INTEGER, MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER4, MPI_INTEGER8,
		MPI_REAL, MPI_REAL4, MPI_DOUBLE_PRECISION, MPI_REAL8, MPI_COMPLEX,
		MPI_COMPLEX8, MPI_DOUBLE_COMPLEX, MPI_COMPLEX16, MPI_LOGICAL,
		MPI_CHARACTER, MPI_CXX_BOOL, MPI_CXX_FLOAT_COMPLEX,
		MPI_CXX_DOUBLE_COMPLEX, MPI_CXX_LONG_DOUBLE_COMPLEX,
#ifdef MPI_LOGICAL1	/* MPICH 4.0.2 lacks them */
		MPI_LOGICAL1, MPI_LOGICAL2, MPI_LOGICAL4, MPI_LOGICAL8,
#endif
#ifdef MPI_INTEGER16	/* optional */
		MPI_INTEGER16,
#endif
#if defined(__SIZEOF_FLOAT128__) && defined(SHMPI)
		MPI_REAL16, MPI_COMPLEX32,
#endif
	};
	static const MPI_Op ops[] = { MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND,
				      MPI_BAND, MPI_LOR, MPI_BOR, MPI_LXOR, MPI_BXOR };
	static const int counts[] = { 1, 3000 };
	int pairs = 0;

	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (size_t ti = 0; ti < sizeof(types) / sizeof(types[0]); ti++)
		for (size_t oi = 0; oi < sizeof(ops) / sizeof(ops[0]); oi++)
			for (size_t ci = 0; ci < 2; ci++) {
				MPI_Datatype t = types[ti];
				int n = counts[ci], tsize, applies;
				char *in, *want, *pre, *got, *tmp;

				MPI_Type_size(t, &tsize);
				in = malloc((size_t)n * (size_t)tsize);
				want = malloc((size_t)n * (size_t)tsize);
				pre = malloc((size_t)n * (size_t)tsize);
				got = malloc((size_t)n * (size_t)tsize);
				tmp = malloc((size_t)n * (size_t)tsize);
				/* whether the op applies: Reduce_local says */
				MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
				fill(t, 0, n, tmp);
				fill(t, 0, n, want);
				applies = MPI_Reduce_local(tmp, want, n, t, ops[oi]) == MPI_SUCCESS;
				MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
				if (!applies)
					goto next;
				pairs++;
				/* the reference: x0 op (x1 op (... op xn-1)), in rank order */
				fill(t, size - 1, n, want);
				for (int r = size - 2; r >= 0; r--) {
					fill(t, r, n, tmp);
					CHECK_MPI(MPI_Reduce_local(tmp, want, n, t, ops[oi]));
				}
				/* scan's reference for this rank: x0 op ... op x_rank */
				fill(t, rank, n, pre);
				for (int r = rank - 1; r >= 0; r--) {
					fill(t, r, n, tmp);
					CHECK_MPI(MPI_Reduce_local(tmp, pre, n, t, ops[oi]));
				}
				fill(t, rank, n, in);
				CHECK_MPI(MPI_Allreduce(in, got, n, t, ops[oi], MPI_COMM_WORLD));
				CHECK(same(t, got, want, n));
				memset(got, 0, (size_t)n * (size_t)tsize);
				CHECK_MPI(MPI_Reduce(in, got, n, t, ops[oi], size / 2, MPI_COMM_WORLD));
				CHECK(rank != size / 2 || same(t, got, want, n));
				CHECK_MPI(MPI_Scan(in, got, n, t, ops[oi], MPI_COMM_WORLD));
				CHECK(same(t, got, pre, n));
next:
				free(in);
				free(want);
				free(pre);
				free(got);
				free(tmp);
			}
	if (rank == 0)
		printf("ok %d (op, type, count) combinations\n", pairs);
	MPI_Finalize();
	return 0;
}
