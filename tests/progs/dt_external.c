/*
 * MPI_Pack_external, MPI_Unpack_external and MPI_Pack_external_size with
 * "external32" (MPI 3.1, sections 4.2 and 13.5.2).
 *   dt_external [test]    (default: all)
 * bytes: the exact big-endian bytes of values of the predefined types
 * (table 13.2's sizes: MPI_LONG in 4 bytes, long double as binary128,
 * complex as two values, pairs without their gaps).  sizes: what
 * MPI_Pack_external_size says for them and for derived types.  roundtrip:
 * derived types with gaps packed and unpacked into another layout of the
 * same type signature, in several calls that move the position, integers
 * that external32 narrows coming back sign- or zero-extended.  ring: each
 * rank packs, sends the bytes as MPI_BYTE to the next, which unpacks.
 * errors: each erroneous argument refused with its class, changing
 * neither the buffers nor the position.
 *
 * A correct MPI program, but the peers do not follow table 13.2 (MPICH
 * 4.0.2 packs MPI_WCHAR in 2 bytes and died of SIGILL in roundtrip; Open
 * MPI 4.1.4 packs MPI_LONG in 8 bytes and long double as it is), and both
 * accept the datarep "native": bytes, sizes, roundtrip and errors check
 * the standard's external32, where ring asks only for a round trip.
 */
#include <complex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#include "testutil.h"

static int rank, nprocs;

/* Pack one element of t from v and compare with the n bytes want. */
static void expect_bytes(MPI_Datatype t, const void *v, const char *want, int n)
{
	unsigned char out[64], exp[64];
	MPI_Aint pos = 0, size;

	memset(out, 0xa5, sizeof(out));
	for (int i = 0; i < n; i++) {
		unsigned x;

		CHECK(sscanf(want + 2 * i, "%2x", &x) == 1);
		exp[i] = (unsigned char)x;
	}
	CHECK_MPI(MPI_Pack_external_size("external32", 1, t, &size));
	CHECK(size == n);
	CHECK_MPI(MPI_Pack_external("external32", v, 1, t, out, sizeof(out), &pos));
	CHECK(pos == n);
	if (memcmp(out, exp, (size_t)n) != 0) {
		char name[MPI_MAX_OBJECT_NAME];
		int len;

		MPI_Type_get_name(t, name, &len);
		fprintf(stderr, "%s: packed", name);
		for (int i = 0; i < n; i++)
			fprintf(stderr, " %02x", out[i]);
		fprintf(stderr, ", want %s\n", want);
		CHECK(0);
	}
	CHECK(out[n] == 0xa5);	/* nothing past the data */
}

static void bytes(void)
{
	struct { float v; int i; } fi = { 1.0f, -1 };
	struct { double v; int i; } di = { -2.0, 7 };
	struct { long double v; int i; } ldi = { 1.5L, 258 };
	struct { short v; int i; } si = { -3, 5 };
	signed char sc = -1;
	short s = -2;
	int i = 0x01020304;
	unsigned u = 0xfffffffeu;
	long l = -2;
	unsigned long ul = 0x1234567890abcdefUL;
	long long ll = -0x0102030405060708LL;
	float f = 1.0f;
	double d = -0.5;
	long double ld = 1.5L;
	float _Complex cf = 1.0f - 2.0f * I;
	double _Complex cd = 0.5 + 3.0 * I;
	bool b = true;
	wchar_t w = 0x20ac;
	MPI_Aint a = -16;
	char c = 'A';
	int pair[2] = { 3, -4 };
	int integer = -7;
	float real[2] = { 2.0f, 3.0f };
	unsigned char by = 0xc3;

	expect_bytes(MPI_SIGNED_CHAR, &sc, "ff", 1);
	expect_bytes(MPI_CHAR, &c, "41", 1);
	expect_bytes(MPI_BYTE, &by, "c3", 1);
	expect_bytes(MPI_SHORT, &s, "fffe", 2);
	expect_bytes(MPI_INT, &i, "01020304", 4);
	expect_bytes(MPI_UNSIGNED, &u, "fffffffe", 4);
	expect_bytes(MPI_LONG, &l, "fffffffe", 4);
	expect_bytes(MPI_UNSIGNED_LONG, &ul, "90abcdef", 4);
	expect_bytes(MPI_LONG_LONG, &ll, "fefdfcfbfaf9f8f8", 8);
	expect_bytes(MPI_FLOAT, &f, "3f800000", 4);
	expect_bytes(MPI_DOUBLE, &d, "bfe0000000000000", 8);
	expect_bytes(MPI_LONG_DOUBLE, &ld, "3fff8000000000000000000000000000", 16);
	expect_bytes(MPI_C_FLOAT_COMPLEX, &cf, "3f800000c0000000", 8);
	expect_bytes(MPI_C_DOUBLE_COMPLEX, &cd, "3fe00000000000004008000000000000", 16);
	expect_bytes(MPI_C_BOOL, &b, "01", 1);
	expect_bytes(MPI_WCHAR, &w, "000020ac", 4);
	expect_bytes(MPI_AINT, &a, "fffffffffffffff0", 8);
	expect_bytes(MPI_2INT, pair, "00000003fffffffc", 8);
	expect_bytes(MPI_FLOAT_INT, &fi, "3f800000ffffffff", 8);
	expect_bytes(MPI_DOUBLE_INT, &di, "c00000000000000000000007", 12);
	expect_bytes(MPI_SHORT_INT, &si, "fffd00000005", 6);
	expect_bytes(MPI_LONG_DOUBLE_INT, &ldi,
		     "3fff800000000000000000000000000000000102", 20);
	expect_bytes(MPI_INTEGER, &integer, "fffffff9", 4);
	expect_bytes(MPI_REAL, real, "40000000", 4);
	expect_bytes(MPI_2REAL, real, "4000000040400000", 8);
	expect_bytes(MPI_COMPLEX, &cf, "3f800000c0000000", 8);
	expect_bytes(MPI_DOUBLE_COMPLEX, &cd, "3fe00000000000004008000000000000", 16);
	expect_bytes(MPI_CXX_BOOL, &b, "01", 1);
}

static void sizes(void)
{
	static const struct { MPI_Datatype t; int size; } table[] = {
		{ MPI_PACKED, 1 }, { MPI_BYTE, 1 }, { MPI_CHAR, 1 }, { MPI_WCHAR, 4 },
		{ MPI_SHORT, 2 }, { MPI_INT, 4 }, { MPI_LONG, 4 }, { MPI_UNSIGNED_LONG, 4 },
		{ MPI_LONG_LONG_INT, 8 }, { MPI_FLOAT, 4 }, { MPI_DOUBLE, 8 },
		{ MPI_LONG_DOUBLE, 16 }, { MPI_C_BOOL, 1 }, { MPI_INT64_T, 8 },
		{ MPI_UINT16_T, 2 }, { MPI_AINT, 8 }, { MPI_COUNT, 8 }, { MPI_OFFSET, 8 },
		{ MPI_C_COMPLEX, 8 }, { MPI_C_DOUBLE_COMPLEX, 16 },
		{ MPI_C_LONG_DOUBLE_COMPLEX, 32 }, { MPI_CHARACTER, 1 }, { MPI_LOGICAL, 4 },
		{ MPI_INTEGER, 4 }, { MPI_REAL, 4 }, { MPI_DOUBLE_PRECISION, 8 },
		{ MPI_COMPLEX, 8 }, { MPI_DOUBLE_COMPLEX, 16 }, { MPI_INTEGER1, 1 },
		{ MPI_INTEGER2, 2 }, { MPI_INTEGER4, 4 }, { MPI_INTEGER8, 8 },
		{ MPI_REAL4, 4 }, { MPI_REAL8, 8 }, { MPI_COMPLEX8, 8 }, { MPI_COMPLEX16, 16 },
		{ MPI_CXX_BOOL, 1 }, { MPI_CXX_FLOAT_COMPLEX, 8 },
		{ MPI_CXX_DOUBLE_COMPLEX, 16 }, { MPI_CXX_LONG_DOUBLE_COMPLEX, 32 },
		{ MPI_2INTEGER, 8 }, { MPI_2DOUBLE_PRECISION, 16 },
		{ MPI_REAL16, 16 }, { MPI_COMPLEX32, 32 },
#ifdef MPI_INTEGER16	/* optional: an MPI may lack it */
		{ MPI_INTEGER16, 16 },
#endif
	};
	MPI_Datatype vec, st;
	int bl[3] = { 1, 2, 1 };
	MPI_Aint disp[3] = { 0, 8, 40 }, size;
	MPI_Datatype types[3] = { MPI_CHAR, MPI_LONG, MPI_LONG_DOUBLE };

	for (size_t k = 0; k < sizeof(table) / sizeof(table[0]); k++) {
		if (table[k].t == MPI_DATATYPE_NULL)
			continue;	/* an optional type this MPI lacks */
		CHECK_MPI(MPI_Pack_external_size("external32", 3, table[k].t, &size));
		CHECK(size == 3 * table[k].size);
	}
	/* a derived type: no gaps, each member at its external32 size */
	CHECK_MPI(MPI_Type_create_struct(3, bl, disp, types, &st));
	CHECK_MPI(MPI_Pack_external_size("external32", 2, st, &size));	/* uncommitted */
	CHECK(size == 2 * (1 + 2 * 4 + 16));
	CHECK_MPI(MPI_Type_vector(3, 2, 5, st, &vec));
	CHECK_MPI(MPI_Pack_external_size("external32", 1, vec, &size));
	CHECK(size == 6 * 25);
	CHECK_MPI(MPI_Pack_external_size("external32", 0, vec, &size));
	CHECK(size == 0);
	CHECK_MPI(MPI_Type_free(&vec));
	CHECK_MPI(MPI_Type_free(&st));
}

struct rec {		/* gaps after c and after s */
	char c;
	double d;
	short s;
	long l;
	long double ld;
	float _Complex z;
};

static MPI_Datatype rec_type(void)
{
	int bl[6] = { 1, 1, 1, 1, 1, 1 };
	MPI_Aint disp[6] = { offsetof(struct rec, c), offsetof(struct rec, d),
			     offsetof(struct rec, s), offsetof(struct rec, l),
			     offsetof(struct rec, ld), offsetof(struct rec, z) };
	MPI_Datatype types[6] = { MPI_CHAR, MPI_DOUBLE, MPI_SHORT, MPI_LONG,
				  MPI_LONG_DOUBLE, MPI_C_FLOAT_COMPLEX }, t, r;

	CHECK_MPI(MPI_Type_create_struct(6, bl, disp, types, &t));
	CHECK_MPI(MPI_Type_create_resized(t, 0, sizeof(struct rec), &r));
	CHECK_MPI(MPI_Type_free(&t));
	CHECK_MPI(MPI_Type_commit(&r));
	return r;
}

static void rec_fill(struct rec *r, int n, int seed)
{
	memset(r, 0, (size_t)n * sizeof(*r));
	for (int i = 0; i < n; i++) {
		r[i].c = (char)('a' + (i + seed) % 26);
		r[i].d = (i - 3) * 0.25 + seed;
		r[i].s = (short)(-i * 1000 - seed);
		r[i].l = (i % 2 ? -1L : 1L) * (0x7fff0000L + i + seed);	/* fits in 4 bytes */
		r[i].ld = (long double)(i + seed) / 3.0L;
		r[i].z = (float)i - (float)seed * I;
	}
}

static int rec_same(const struct rec *a, const struct rec *b, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i].c != b[i].c || a[i].d != b[i].d || a[i].s != b[i].s ||
		    a[i].l != b[i].l || a[i].ld != b[i].ld || a[i].z != b[i].z)
			return 0;
	return 1;
}

static void roundtrip(void)
{
	enum { N = 12 };
	struct rec in[N], out[N];
	MPI_Datatype rt = rec_type(), every_other, contig;
	MPI_Aint size, pos = 0, upos = 0;
	unsigned char *buf;
	unsigned long ul[3] = { 0, 0xffffffffUL, 0x80000000UL }, ulb[3];
	long lv[3] = { -1, -2147483648L, 2147483647L }, lb[3];
	int idx[4] = { 3, 0, 2, 1 }, back[8], ints[8];

	rec_fill(in, N, 5);
	/* pack the even records, then the odd ones, in two calls */
	CHECK_MPI(MPI_Type_vector(N / 2, 1, 2, rt, &every_other));
	CHECK_MPI(MPI_Type_commit(&every_other));
	CHECK_MPI(MPI_Pack_external_size("external32", 2, every_other, &size));
	CHECK(size == N * (1 + 8 + 2 + 4 + 16 + 8));
	buf = malloc((size_t)size);
	CHECK(buf);
	CHECK_MPI(MPI_Pack_external("external32", in, 1, every_other, buf, size, &pos));
	CHECK(pos == size / 2);
	CHECK_MPI(MPI_Pack_external("external32", &in[1], 1, every_other, buf, size, &pos));
	CHECK(pos == size);
	/* unpack as N / 2 even records then N / 2 odd ones, contiguous */
	CHECK_MPI(MPI_Type_contiguous(N / 2, rt, &contig));
	CHECK_MPI(MPI_Type_commit(&contig));
	memset(out, 0, sizeof(out));
	CHECK_MPI(MPI_Unpack_external("external32", buf, size, &upos, out, 2, contig));
	CHECK(upos == size);
	for (int i = 0; i < N; i++)
		CHECK(rec_same(&out[i], &in[i < N / 2 ? 2 * i : 2 * (i - N / 2) + 1], 1));
	free(buf);
	/* integers narrowed to 4 bytes come back extended */
	buf = malloc(64);
	CHECK(buf);
	pos = upos = 0;
	CHECK_MPI(MPI_Pack_external("external32", ul, 3, MPI_UNSIGNED_LONG, buf, 64, &pos));
	CHECK_MPI(MPI_Pack_external("external32", lv, 3, MPI_LONG, buf, 64, &pos));
	CHECK(pos == 24);
	CHECK_MPI(MPI_Unpack_external("external32", buf, 64, &upos, ulb, 3,
				      MPI_UNSIGNED_LONG));
	CHECK_MPI(MPI_Unpack_external("external32", buf, 64, &upos, lb, 3, MPI_LONG));
	CHECK(upos == 24);
	CHECK(!memcmp(ul, ulb, sizeof(ul)) && !memcmp(lv, lb, sizeof(lv)));
	/* an indexed type: the typemap's order, not memory's */
	{
		MPI_Datatype ix;
		int bls[4] = { 2, 2, 2, 2 }, disps[4];

		for (int k = 0; k < 4; k++) {
			disps[k] = 2 * idx[k];
			ints[2 * k] = 0x01000000 * k + 1;
			ints[2 * k + 1] = -k;
		}
		CHECK_MPI(MPI_Type_indexed(4, bls, disps, MPI_INT, &ix));
		CHECK_MPI(MPI_Type_commit(&ix));
		pos = upos = 0;
		CHECK_MPI(MPI_Pack_external("external32", ints, 1, ix, buf, 64, &pos));
		CHECK(pos == 32);
		/* the first packed int is ints[6]: 0x03000001, big-endian */
		CHECK(buf[0] == 3 && buf[1] == 0 && buf[2] == 0 && buf[3] == 1);
		CHECK_MPI(MPI_Unpack_external("external32", buf, 64, &upos, back, 8, MPI_INT));
		for (int k = 0; k < 4; k++)
			CHECK(back[2 * k] == ints[2 * idx[k]] &&
			      back[2 * k + 1] == ints[2 * idx[k] + 1]);
		CHECK_MPI(MPI_Type_free(&ix));
	}
	free(buf);
	CHECK_MPI(MPI_Type_free(&contig));
	CHECK_MPI(MPI_Type_free(&every_other));
	CHECK_MPI(MPI_Type_free(&rt));
}

/* Packed bytes travel as MPI_BYTE around the ring and unpack there. */
static void ring(void)
{
	enum { N = 5 };
	struct rec in[N], out[N], want[N];
	MPI_Datatype rt = rec_type();
	MPI_Aint size, pos = 0;
	unsigned char *sbuf, *rbuf;
	int from = (rank + nprocs - 1) % nprocs, to = (rank + 1) % nprocs;

	CHECK_MPI(MPI_Pack_external_size("external32", N, rt, &size));
	sbuf = malloc((size_t)size);
	rbuf = malloc((size_t)size);
	CHECK(sbuf && rbuf);
	rec_fill(in, N, rank);
	rec_fill(want, N, from);
	CHECK_MPI(MPI_Pack_external("external32", in, N, rt, sbuf, size, &pos));
	CHECK_MPI(MPI_Sendrecv(sbuf, (int)size, MPI_BYTE, to, 0, rbuf, (int)size, MPI_BYTE,
			       from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	pos = 0;
	memset(out, 0, sizeof(out));
	CHECK_MPI(MPI_Unpack_external("external32", rbuf, size, &pos, out, N, rt));
	CHECK(rec_same(out, want, N));
	free(rbuf);
	free(sbuf);
	CHECK_MPI(MPI_Type_free(&rt));
}

/* call must fail with class want, leaving buf and *pos as they were */
#define EXPECT(want, call, buf, pos)                                           \
	do {                                                                   \
		unsigned char before_[16];                                     \
		MPI_Aint pos_ = (pos);                                         \
		memcpy(before_, buf, sizeof(before_));                         \
		CHECK(tu_check_class(call, want));                             \
		CHECK(!memcmp(before_, buf, sizeof(before_)) && (pos) == pos_); \
	} while (0)

static void errors(void)
{
	unsigned char buf[16];
	int v[4] = { 1, 2, 3, 4 };
	MPI_Aint pos = 0, size = 0;
	MPI_Datatype uncommitted;

	memset(buf, 0x5a, sizeof(buf));
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	EXPECT(MPI_ERR_ARG, MPI_Pack_external("native", v, 1, MPI_INT, buf, 16, &pos), buf,
	       pos);
	EXPECT(MPI_ERR_ARG, MPI_Pack_external("External32", v, 1, MPI_INT, buf, 16, &pos),
	       buf, pos);
	EXPECT(MPI_ERR_ARG, MPI_Pack_external(NULL, v, 1, MPI_INT, buf, 16, &pos), buf, pos);
	EXPECT(MPI_ERR_COUNT, MPI_Pack_external("external32", v, -1, MPI_INT, buf, 16, &pos),
	       buf, pos);
	EXPECT(MPI_ERR_TYPE, MPI_Pack_external("external32", v, 1, MPI_DATATYPE_NULL, buf, 16,
					       &pos), buf, pos);
	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &uncommitted));
	EXPECT(MPI_ERR_TYPE, MPI_Pack_external("external32", v, 1, uncommitted, buf, 16,
					       &pos), buf, pos);
	CHECK_MPI(MPI_Type_free(&uncommitted));
	/* 4 ints are 16 bytes: not from position 4 of 16 */
	pos = 4;
	EXPECT(MPI_ERR_TRUNCATE, MPI_Pack_external("external32", v, 4, MPI_INT, buf, 16,
						   &pos), buf, pos);
	EXPECT(MPI_ERR_ARG, MPI_Pack_external("external32", v, 1, MPI_INT, buf, -1, &pos),
	       buf, pos);
	pos = -1;
	EXPECT(MPI_ERR_ARG, MPI_Pack_external("external32", v, 1, MPI_INT, buf, 16, &pos),
	       buf, pos);
	CHECK(tu_check_class(MPI_Pack_external("external32", v, 1, MPI_INT, buf, 16, NULL),
			     MPI_ERR_ARG));
	pos = 0;
	EXPECT(MPI_ERR_TRUNCATE, MPI_Unpack_external("external32", buf, 12, &pos, v, 4,
						     MPI_INT), v, pos);
	EXPECT(MPI_ERR_ARG, MPI_Unpack_external("xdr", buf, 16, &pos, v, 4, MPI_INT), v, pos);
	EXPECT(MPI_ERR_COUNT, MPI_Unpack_external("external32", buf, 16, &pos, v, -2,
						  MPI_INT), v, pos);
	CHECK(v[0] == 1 && v[3] == 4);
	CHECK(tu_check_class(MPI_Pack_external_size("external32", -1, MPI_INT, &size),
			     MPI_ERR_COUNT));
	CHECK(tu_check_class(MPI_Pack_external_size("native", 1, MPI_INT, &size),
			     MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Pack_external_size("external32", 1, MPI_INT, NULL),
			     MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Pack_external_size("external32", 1, MPI_DATATYPE_NULL,
						    &size), MPI_ERR_TYPE));
	CHECK(size == 0);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
	TU_RUN("bytes", bytes);
	TU_RUN("sizes", sizes);
	TU_RUN("roundtrip", roundtrip);
	TU_RUN("ring", ring);
	TU_RUN("errors", errors);
	MPI_Finalize();
	return 0;
}
