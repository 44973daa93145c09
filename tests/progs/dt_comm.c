/*
 * Derived datatypes in messages: sent with one layout and received with
 * another of the same type signature, eager and rendezvous sizes, around a
 * ring (at one rank, to itself); MPI_Get_count / MPI_Get_elements on
 * partial receives; MPI_PACKED messages; contiguous data at a displacement
 * (a lower bound past the buffer, an absolute address from MPI_BOTTOM); and
 * a type freed while a nonblocking or persistent operation still uses it.
 *   dt_comm [test]     (default: all)
 */
#include <stddef.h>

#include "testutil.h"

static int rank, size, to, from;

/* int value of element i in the messages rank r sends */
static int val(int r, long i)
{
	return r * 1000003 + (int)i * 7 + 1;
}

/*
 * Send n ints picked by stype from a buffer where int i of the signature
 * sits at sidx(i); receive them with rtype into a buffer where int i lands
 * at ridx(i).  Every other int of the receive buffer must stay untouched.
 */
static void exchange(MPI_Datatype stype, int scount, long (*sidx)(long), long sspan,
		     MPI_Datatype rtype, int rcount, long (*ridx)(long), long rspan,
		     long n, int tag)
{
	int *s = malloc(sizeof(int) * (size_t)sspan);
	int *r = malloc(sizeof(int) * (size_t)rspan);
	char *seen = calloc((size_t)rspan, 1);
	MPI_Request req[2];
	MPI_Status st;
	int count;

	CHECK(s && r && seen);
	for (long i = 0; i < sspan; i++)
		s[i] = -1;
	for (long i = 0; i < n; i++)
		s[sidx(i)] = val(rank, i);
	for (long i = 0; i < rspan; i++)
		r[i] = -2;
	CHECK_MPI(MPI_Irecv(r, rcount, rtype, from, tag, MPI_COMM_WORLD, &req[0]));
	CHECK_MPI(MPI_Isend(s, scount, stype, to, tag, MPI_COMM_WORLD, &req[1]));
	CHECK_MPI(MPI_Wait(&req[1], MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Wait(&req[0], &st));
	CHECK_MPI(MPI_Get_elements(&st, MPI_INT, &count));
	CHECK(count == n);
	for (long i = 0; i < n; i++) {
		CHECK(r[ridx(i)] == val(from, i));
		seen[ridx(i)] = 1;
	}
	for (long i = 0; i < rspan; i++)
		CHECK(seen[i] || r[i] == -2);
	free(s);
	free(r);
	free(seen);
}

static long ident(long i) { return i; }
static long every3(long i) { return 3 * i; }		/* vector(., 1, 3) */
static long blocks2of5(long i) { return i / 2 * 5 + i % 2; }	/* vector(., 2, 5) */
static long rev(long i) { return 9 - i; }		/* 10 ints, backwards */

/* a vector sent, received contiguous, and the other way round */
static void test_vector(void)
{
	MPI_Datatype v, v2, c;
	static const long ns[] = { 10, 1000, 300000 };	/* eager .. rendezvous */

	for (int k = 0; k < 3; k++) {
		long n = ns[k];

		CHECK_MPI(MPI_Type_vector((int)n, 1, 3, MPI_INT, &v));
		CHECK_MPI(MPI_Type_commit(&v));
		CHECK_MPI(MPI_Type_vector((int)n / 2, 2, 5, MPI_INT, &v2));
		CHECK_MPI(MPI_Type_commit(&v2));
		CHECK_MPI(MPI_Type_contiguous((int)n, MPI_INT, &c));
		CHECK_MPI(MPI_Type_commit(&c));
		exchange(v, 1, every3, 3 * n, c, 1, ident, n, n, 10 + k);
		exchange(c, 1, ident, n, v, 1, every3, 3 * n, n, 20 + k);
		exchange(v, 1, every3, 3 * n, v2, 1, blocks2of5, n / 2 * 5, n, 30 + k);
		exchange(MPI_INT, (int)n, ident, n, v2, 1, blocks2of5, n / 2 * 5, n, 40 + k);
		CHECK_MPI(MPI_Type_free(&v));
		CHECK_MPI(MPI_Type_free(&v2));
		CHECK_MPI(MPI_Type_free(&c));
	}
	/* vector with a negative stride from the end of the buffer */
	CHECK_MPI(MPI_Type_vector(10, 1, -1, MPI_INT, &v));
	CHECK_MPI(MPI_Type_commit(&v));
	{
		int s[10], r[10];
		MPI_Status st;

		for (int i = 0; i < 10; i++)
			s[rev(i)] = val(rank, i);
		CHECK_MPI(MPI_Sendrecv(s + 9, 1, v, to, 50, r, 10, MPI_INT, from, 50,
				       MPI_COMM_WORLD, &st));
		for (int i = 0; i < 10; i++)
			CHECK(r[i] == val(from, i));
	}
	CHECK_MPI(MPI_Type_free(&v));
}

struct rec {
	int a;
	double b;
	char c;
};

/* an array of C structs, received into three separate arrays (MPI_BOTTOM) */
static void test_struct(void)
{
	enum { N = 700 };	/* 700 * 13 bytes: a rendezvous message */
	struct rec *s = calloc(N, sizeof(*s));
	int *ra = calloc(N, sizeof(int));
	double *rb = calloc(N, sizeof(double));
	char *rc = calloc(N, 1);
	int *bl = malloc(3 * N * sizeof(int));
	MPI_Aint *disp = malloc(3 * N * sizeof(MPI_Aint));
	MPI_Datatype *types = malloc(3 * N * sizeof(MPI_Datatype));
	MPI_Datatype st, scatter;
	MPI_Aint ext, lb;
	MPI_Request req;
	MPI_Status status;
	int count;

	CHECK(s && ra && rb && rc && bl && disp && types);
	CHECK_MPI(MPI_Type_create_struct(3, (int[]){ 1, 1, 1 },
					 (MPI_Aint[]){ offsetof(struct rec, a),
						       offsetof(struct rec, b),
						       offsetof(struct rec, c) },
					 (MPI_Datatype[]){ MPI_INT, MPI_DOUBLE, MPI_CHAR },
					 &st));
	CHECK_MPI(MPI_Type_commit(&st));
	CHECK_MPI(MPI_Type_get_extent(st, &lb, &ext));
	CHECK(lb == 0 && ext == (MPI_Aint)sizeof(struct rec));
	for (int i = 0; i < N; i++) {
		s[i] = (struct rec){ val(rank, i), val(rank, i) * 0.5, (char)(i % 100) };
		bl[3 * i] = bl[3 * i + 1] = bl[3 * i + 2] = 1;
		CHECK_MPI(MPI_Get_address(&ra[i], &disp[3 * i]));
		CHECK_MPI(MPI_Get_address(&rb[i], &disp[3 * i + 1]));
		CHECK_MPI(MPI_Get_address(&rc[i], &disp[3 * i + 2]));
		types[3 * i] = MPI_INT;
		types[3 * i + 1] = MPI_DOUBLE;
		types[3 * i + 2] = MPI_CHAR;
	}
	CHECK_MPI(MPI_Type_create_struct(3 * N, bl, disp, types, &scatter));
	CHECK_MPI(MPI_Type_commit(&scatter));
	CHECK_MPI(MPI_Irecv(MPI_BOTTOM, 1, scatter, from, 60, MPI_COMM_WORLD, &req));
	CHECK_MPI(MPI_Send(s, N, st, to, 60, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Wait(&req, &status));
	CHECK_MPI(MPI_Get_count(&status, scatter, &count));
	CHECK(count == 1);
	CHECK_MPI(MPI_Get_count(&status, st, &count));
	CHECK(count == N);
	CHECK_MPI(MPI_Get_elements(&status, st, &count));
	CHECK(count == 3 * N);
	for (int i = 0; i < N; i++)
		CHECK(ra[i] == val(from, i) && rb[i] == val(from, i) * 0.5 &&
		      rc[i] == (char)(i % 100));
	CHECK_MPI(MPI_Type_free(&scatter));
	CHECK_MPI(MPI_Type_free(&st));
	free(s);
	free(ra);
	free(rb);
	free(rc);
	free(bl);
	free(disp);
	free(types);
}

/* Send (sbuf, 1, stype), receive it as (rbuf, 1, rtype): the n ints from
 * index 2 of r must hold it, every other int of r stay as it was. */
static void displaced_round(void *rbuf, MPI_Datatype rtype, const void *sbuf,
			    MPI_Datatype stype, int tag, int *r, int n)
{
	MPI_Request req;

	for (int i = 0; i < n + 3; i++)
		r[i] = -2;
	CHECK_MPI(MPI_Irecv(rbuf, 1, rtype, from, tag, MPI_COMM_WORLD, &req));
	CHECK_MPI(MPI_Send(sbuf, 1, stype, to, tag, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	CHECK(r[0] == -2 && r[1] == -2 && r[n + 2] == -2);
	for (int i = 0; i < n; i++)
		CHECK(r[i + 2] == val(from, i));
}

/* n ints from index 2 of s and of r, as a type whose one run lies past
 * the buffer's address and as a type of absolute addresses (MPI_BOTTOM):
 * sent as one and received as the other, eager and rendezvous sizes */
static void test_displaced(void)
{
	static const int ns[] = { 10, 300000 };

	for (int k = 0; k < 2; k++) {
		int n = ns[k];
		int *s = malloc(sizeof(int) * (size_t)(n + 3));
		int *r = malloc(sizeof(int) * (size_t)(n + 3));
		MPI_Aint shift = 2 * sizeof(int), as, ar;
		MPI_Datatype shifted, abs_s, abs_r;

		CHECK(s && r);
		CHECK_MPI(MPI_Type_create_hindexed(1, &n, &shift, MPI_INT, &shifted));
		CHECK_MPI(MPI_Get_address(s + 2, &as));
		CHECK_MPI(MPI_Get_address(r + 2, &ar));
		CHECK_MPI(MPI_Type_create_hindexed(1, &n, &as, MPI_INT, &abs_s));
		CHECK_MPI(MPI_Type_create_hindexed(1, &n, &ar, MPI_INT, &abs_r));
		CHECK_MPI(MPI_Type_commit(&shifted));
		CHECK_MPI(MPI_Type_commit(&abs_s));
		CHECK_MPI(MPI_Type_commit(&abs_r));
		s[0] = s[1] = s[n + 2] = -1;
		for (int i = 0; i < n; i++)
			s[i + 2] = val(rank, i);
		displaced_round(MPI_BOTTOM, abs_r, s, shifted, 70 + k, r, n);
		displaced_round(r, shifted, MPI_BOTTOM, abs_s, 72 + k, r, n);
		CHECK_MPI(MPI_Type_free(&shifted));
		CHECK_MPI(MPI_Type_free(&abs_s));
		CHECK_MPI(MPI_Type_free(&abs_r));
		free(s);
		free(r);
	}
}

/* a subarray of a 2-D grid to a column of another grid (Fortran order) */
static void test_subarray(void)
{
	enum { R = 64, C = 48 };
	int sizes[2] = { R, C }, subs[2] = { 40, 1 }, starts[2] = { 7, 5 };
	int fsizes[2] = { 50, 3 }, fsubs[2] = { 40, 1 }, fstarts[2] = { 10, 2 };
	int *g = malloc(sizeof(int) * R * C), *f = malloc(sizeof(int) * 150);
	MPI_Datatype col, fcol;

	CHECK(g && f);
	/* column 5, rows 7..46 of int g[64][48] */
	CHECK_MPI(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT,
					   &col));
	CHECK_MPI(MPI_Type_commit(&col));
	/* f(10:49, 2) of integer f(0:49, 0:2): contiguous in Fortran order */
	CHECK_MPI(MPI_Type_create_subarray(2, fsizes, fsubs, fstarts, MPI_ORDER_FORTRAN,
					   MPI_INT, &fcol));
	CHECK_MPI(MPI_Type_commit(&fcol));
	for (int i = 0; i < R * C; i++)
		g[i] = -1;
	for (int i = 0; i < 40; i++)
		g[(7 + i) * C + 5] = val(rank, i);
	for (int i = 0; i < 150; i++)
		f[i] = -2;
	CHECK_MPI(MPI_Sendrecv(g, 1, col, to, 70, f, 1, fcol, from, 70, MPI_COMM_WORLD,
			       MPI_STATUS_IGNORE));
	for (int i = 0; i < 150; i++)
		CHECK(f[i] == (i >= 110 && i < 150 ? val(from, i - 110) : -2));
	CHECK_MPI(MPI_Type_free(&col));
	CHECK_MPI(MPI_Type_free(&fcol));
	free(g);
	free(f);
}

/* partial receives: count undefined, elements counted */
static void test_elements(void)
{
	MPI_Datatype v, s;
	int buf[64] = { 0 }, in[64], count;
	MPI_Status st;
	MPI_Request req;
	char bytes[6] = { 0 };

	for (int i = 0; i < 64; i++)
		in[i] = i;
	/* 4 ints per element (2 blocks of 2); 5 ints arrive */
	CHECK_MPI(MPI_Type_vector(2, 2, 3, MPI_INT, &v));
	CHECK_MPI(MPI_Type_commit(&v));
	CHECK_MPI(MPI_Irecv(buf, 3, v, from, 80, MPI_COMM_WORLD, &req));
	CHECK_MPI(MPI_Send(in, 5, MPI_INT, to, 80, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Wait(&req, &st));
	CHECK_MPI(MPI_Get_count(&st, v, &count));
	CHECK(count == MPI_UNDEFINED);
	CHECK_MPI(MPI_Get_elements(&st, v, &count));
	CHECK(count == 5);
	CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
	CHECK(count == 5);
	/* element 1 starts one extent (5 ints) on */
	CHECK(buf[0] == 0 && buf[1] == 1 && buf[3] == 2 && buf[4] == 3 && buf[5] == 4);
	CHECK(buf[2] == 0 && buf[6] == 0 && buf[7] == 0);
	/* a struct of an int and a double: 3 basic elements in 16 bytes */
	CHECK_MPI(MPI_Type_create_struct(2, (int[]){ 1, 1 }, (MPI_Aint[]){ 0, 8 },
					 (MPI_Datatype[]){ MPI_INT, MPI_DOUBLE }, &s));
	CHECK_MPI(MPI_Type_commit(&s));
	CHECK_MPI(MPI_Irecv(buf, 2, s, from, 81, MPI_COMM_WORLD, &req));
	CHECK_MPI(MPI_Send(in, 16, MPI_BYTE, to, 81, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Wait(&req, &st));
	CHECK_MPI(MPI_Get_elements(&st, s, &count));
	CHECK(count == 3);
	CHECK_MPI(MPI_Get_count(&st, s, &count));
	CHECK(count == MPI_UNDEFINED);
	/* 6 bytes end inside the second int: no whole number of elements */
	CHECK_MPI(MPI_Irecv(buf, 1, v, from, 82, MPI_COMM_WORLD, &req));
	CHECK_MPI(MPI_Send(bytes, 6, MPI_BYTE, to, 82, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Wait(&req, &st));
	CHECK_MPI(MPI_Get_elements(&st, v, &count));
	CHECK(count == MPI_UNDEFINED);
	CHECK_MPI(MPI_Type_free(&v));
	CHECK_MPI(MPI_Type_free(&s));
}

/* MPI_Pack'ed data travels as MPI_PACKED and unpacks on the other side */
static void test_packed(void)
{
	char out[512], in[512];
	int ints[8], got[8], pos = 0, n, insize;
	double d = rank + 0.25, gd;
	MPI_Datatype v;
	MPI_Status st;

	for (int i = 0; i < 8; i++)
		ints[i] = val(rank, i);
	CHECK_MPI(MPI_Type_vector(4, 1, 2, MPI_INT, &v));
	CHECK_MPI(MPI_Type_commit(&v));
	n = 4;
	CHECK_MPI(MPI_Pack(&n, 1, MPI_INT, out, sizeof(out), &pos, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Pack(ints, 1, v, out, sizeof(out), &pos, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Pack(&d, 1, MPI_DOUBLE, out, sizeof(out), &pos, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Sendrecv(out, pos, MPI_PACKED, to, 90, in, sizeof(in), MPI_PACKED,
			       from, 90, MPI_COMM_WORLD, &st));
	CHECK_MPI(MPI_Get_count(&st, MPI_PACKED, &insize));
	CHECK(insize == pos);
	pos = 0;
	CHECK_MPI(MPI_Unpack(in, insize, &pos, &n, 1, MPI_INT, MPI_COMM_WORLD));
	CHECK(n == 4);
	CHECK_MPI(MPI_Unpack(in, insize, &pos, got, n, MPI_INT, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Unpack(in, insize, &pos, &gd, 1, MPI_DOUBLE, MPI_COMM_WORLD));
	CHECK(pos == insize && gd == from + 0.25);
	for (int i = 0; i < 4; i++)
		CHECK(got[i] == val(from, 2 * i));
	CHECK_MPI(MPI_Type_free(&v));
}

/*
 * MPI_Type_free while operations use the type: a rendezvous send in
 * flight, a persistent send and receive started twice after the free.
 */
static void test_free_pending(void)
{
	enum { N = 200000 };	/* 800 KB of data: many rendezvous chunks */
	int *s = malloc(sizeof(int) * 2 * N), *r = malloc(sizeof(int) * 2 * N);
	MPI_Datatype v, inner, rv;
	MPI_Request req[2];

	CHECK(s && r);
	for (long i = 0; i < 2 * N; i++)
		s[i] = i % 2 ? -1 : val(rank, i / 2);
	/* the type is built on another type that is freed first */
	CHECK_MPI(MPI_Type_contiguous(1, MPI_INT, &inner));
	CHECK_MPI(MPI_Type_vector(N, 1, 2, inner, &v));
	CHECK_MPI(MPI_Type_free(&inner));
	CHECK_MPI(MPI_Type_commit(&v));
	CHECK_MPI(MPI_Type_dup(v, &rv));
	memset(r, 0, sizeof(int) * 2 * N);
	CHECK_MPI(MPI_Irecv(r, 1, rv, from, 100, MPI_COMM_WORLD, &req[0]));
	CHECK_MPI(MPI_Type_free(&rv));
	CHECK_MPI(MPI_Isend(s, 1, v, to, 100, MPI_COMM_WORLD, &req[1]));
	CHECK_MPI(MPI_Type_free(&v));
	CHECK(v == MPI_DATATYPE_NULL);
	/* reuse freed memory with other types before the data moves */
	for (int k = 0; k < 8; k++) {
		MPI_Datatype junk;

		CHECK_MPI(MPI_Type_vector(N, 3, 7, MPI_DOUBLE, &junk));
		CHECK_MPI(MPI_Type_free(&junk));
	}
	CHECK_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
	for (long i = 0; i < 2 * N; i++)
		CHECK(r[i] == (i % 2 ? 0 : val(from, i / 2)));

	/* persistent requests outlive the type's handle too */
	CHECK_MPI(MPI_Type_vector(N, 1, 2, MPI_INT, &v));
	CHECK_MPI(MPI_Type_commit(&v));
	CHECK_MPI(MPI_Recv_init(r, 1, v, from, 101, MPI_COMM_WORLD, &req[0]));
	CHECK_MPI(MPI_Send_init(s, 1, v, to, 101, MPI_COMM_WORLD, &req[1]));
	CHECK_MPI(MPI_Type_free(&v));
	for (int round = 0; round < 2; round++) {
		memset(r, 0, sizeof(int) * 2 * N);
		CHECK_MPI(MPI_Startall(2, req));
		CHECK_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
		for (long i = 0; i < 2 * N; i++)
			CHECK(r[i] == (i % 2 ? 0 : val(from, i / 2)));
	}
	CHECK_MPI(MPI_Request_free(&req[0]));
	CHECK_MPI(MPI_Request_free(&req[1]));
	free(s);
	free(r);
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	tu_init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	to = (rank + 1) % size;
	from = (rank + size - 1) % size;
	TU_RUN("vector", test_vector);
	TU_RUN("struct", test_struct);
	TU_RUN("subarray", test_subarray);
	TU_RUN("elements", test_elements);
	TU_RUN("packed", test_packed);
	TU_RUN("displaced", test_displaced);
	TU_RUN("free_pending", test_free_pending);
	MPI_Finalize();
	return 0;
}
