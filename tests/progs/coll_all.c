/*
 * Every collective at any number of ranks: results checked against values
 * each rank computes itself, for several roots and sizes (small, larger than
 * a slot), MPI_IN_PLACE where allowed, on MPI_COMM_WORLD and on split and
 * duplicated communicators.
 *   coll_all [test]
 */
#include "testutil.h"

static int rank, size;

/* The value member r contributes at index i (small, so sums stay exact). */
static int val(int r, int i)
{
	return (r * 7 + i * 3) % 101 - 50;
}

static void test_barrier(MPI_Comm comm)
{
	int me, n;
	double t[2], *all;

	MPI_Comm_rank(comm, &me);
	MPI_Comm_size(comm, &n);
	all = malloc(sizeof(double) * 2 * (size_t)n);
	for (int round = 0; round < 3; round++) {
		tu_sleep_ms((me * 3 + round) % 7);
		t[0] = MPI_Wtime();
		CHECK_MPI(MPI_Barrier(comm));
		t[1] = MPI_Wtime();
		CHECK_MPI(MPI_Allgather(t, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, comm));
		for (int a = 0; a < n; a++)
			for (int b = 0; b < n; b++)
				CHECK(all[2 * a] <= all[2 * b + 1]);	/* arrived before any left */
	}
	free(all);
}

static const int sizes[] = { 0, 1, 5, 1000, 20000, 70000 };
#define NSIZES ((int)(sizeof(sizes) / sizeof(sizes[0])))

static void test_bcast(MPI_Comm comm)
{
	int me, n;

	MPI_Comm_rank(comm, &me);
	MPI_Comm_size(comm, &n);
	for (int s = 0; s < NSIZES; s++)
		for (int root = 0; root < n; root += (n > 3 ? 2 : 1)) {
			int cnt = sizes[s], *b = malloc(sizeof(int) * (size_t)(cnt + 1));

			for (int i = 0; i < cnt; i++)
				b[i] = me == root ? val(root, i) : -999;
			CHECK_MPI(MPI_Bcast(b, cnt, MPI_INT, root, comm));
			for (int i = 0; i < cnt; i++)
				CHECK(b[i] == val(root, i));
			free(b);
		}
	/* a pair type with padding travels whole */
	struct { double v; int i; } p[3];

	for (int k = 0; k < 3; k++) {
		p[k].v = me == 0 ? 1.5 * k : 0;
		p[k].i = me == 0 ? k : -1;
	}
	CHECK_MPI(MPI_Bcast(p, 3, MPI_DOUBLE_INT, 0, comm));
	for (int k = 0; k < 3; k++)
		CHECK(p[k].v == 1.5 * k && p[k].i == k);
}

static void test_gather_scatter(MPI_Comm comm)
{
	int me, n;

	MPI_Comm_rank(comm, &me);
	MPI_Comm_size(comm, &n);
	for (int s = 0; s < NSIZES; s++) {
		int cnt = sizes[s], root = s % n;
		int *mine = malloc(sizeof(int) * (size_t)(cnt + 1));
		int *all = malloc(sizeof(int) * (size_t)(cnt * n + 1));

		for (int i = 0; i < cnt; i++)
			mine[i] = val(me, i);
		/* gather, then in place at the root */
		CHECK_MPI(MPI_Gather(mine, cnt, MPI_INT, all, cnt, MPI_INT, root, comm));
		if (me == root)
			for (int r = 0; r < n; r++)
				for (int i = 0; i < cnt; i++)
					CHECK(all[r * cnt + i] == val(r, i));
		if (me == root) {
			for (int i = 0; i < cnt * n; i++)
				all[i] = i < cnt * root || i >= cnt * (root + 1) ? -1 : all[i];
			CHECK_MPI(MPI_Gather(MPI_IN_PLACE, 0, MPI_INT, all, cnt, MPI_INT, root,
					     comm));
			for (int r = 0; r < n; r++)
				for (int i = 0; i < cnt; i++)
					CHECK(all[r * cnt + i] == val(r, i));
		} else {
			CHECK_MPI(MPI_Gather(mine, cnt, MPI_INT, NULL, 0, MPI_INT, root, comm));
		}
		/* scatter back what was gathered */
		memset(mine, 0, sizeof(int) * (size_t)cnt);
		CHECK_MPI(MPI_Scatter(all, cnt, MPI_INT, mine, cnt, MPI_INT, root, comm));
		for (int i = 0; i < cnt; i++)
			CHECK(mine[i] == val(me, i));
		if (me == root)
			CHECK_MPI(MPI_Scatter(all, cnt, MPI_INT, MPI_IN_PLACE, cnt, MPI_INT, root,
					      comm));
		else
			CHECK_MPI(MPI_Scatter(NULL, 0, MPI_INT, mine, cnt, MPI_INT, root, comm));
		free(mine);
		free(all);
	}
}

/* v-variants: member r has r % 3 * k + 1 elements at reversed places. */
static void test_gatherv_scatterv(MPI_Comm comm)
{
	int me, n, k = 9000;

	MPI_Comm_rank(comm, &me);
	MPI_Comm_size(comm, &n);
	int *counts = malloc(sizeof(int) * (size_t)n), *displs = malloc(sizeof(int) * (size_t)n);
	int total = 0;

	for (int r = n - 1; r >= 0; r--) {
		counts[r] = r % 3 * k + 1;
		displs[r] = total;
		total += counts[r] + 2;	/* gaps stay untouched */
	}
	int *mine = malloc(sizeof(int) * (size_t)counts[me]);
	int *all = malloc(sizeof(int) * (size_t)total);

	for (int i = 0; i < counts[me]; i++)
		mine[i] = val(me, i);
	for (int root = 0; root < n; root++) {
		for (int i = 0; i < total; i++)
			all[i] = 12345;
		CHECK_MPI(MPI_Gatherv(mine, counts[me], MPI_INT, all, counts, displs, MPI_INT,
				      root, comm));
		if (me == root)
			for (int r = 0; r < n; r++) {
				for (int i = 0; i < counts[r]; i++)
					CHECK(all[displs[r] + i] == val(r, i));
				CHECK(all[displs[r] + counts[r]] == 12345);
			}
		memset(mine, 0, sizeof(int) * (size_t)counts[me]);
		CHECK_MPI(MPI_Scatterv(all, counts, displs, MPI_INT, mine, counts[me], MPI_INT,
				       root, comm));
		if (me != root)
			for (int i = 0; i < counts[me]; i++)
				CHECK(mine[i] == val(me, i));
		for (int i = 0; i < counts[me]; i++)
			mine[i] = val(me, i);
	}
	/* allgatherv, also in place */
	for (int i = 0; i < total; i++)
		all[i] = 12345;
	CHECK_MPI(MPI_Allgatherv(mine, counts[me], MPI_INT, all, counts, displs, MPI_INT, comm));
	for (int r = 0; r < n; r++)
		for (int i = 0; i < counts[r]; i++)
			CHECK(all[displs[r] + i] == val(r, i));
	for (int i = 0; i < total; i++)
		all[i] = i >= displs[me] && i < displs[me] + counts[me] ? all[i] : 0;
	CHECK_MPI(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_INT, all, counts, displs, MPI_INT, comm));
	for (int r = 0; r < n; r++)
		for (int i = 0; i < counts[r]; i++)
			CHECK(all[displs[r] + i] == val(r, i));
	free(mine);
	free(all);
	free(counts);
	free(displs);
}

static void test_allgather(MPI_Comm comm)
{
	int me, n;

	MPI_Comm_rank(comm, &me);
	MPI_Comm_size(comm, &n);
	for (int s = 0; s < NSIZES; s++) {
		int cnt = sizes[s];
		int *mine = malloc(sizeof(int) * (size_t)(cnt + 1));
		int *all = malloc(sizeof(int) * (size_t)(cnt * n + 1));

		for (int i = 0; i < cnt; i++)
			mine[i] = val(me, i);
		CHECK_MPI(MPI_Allgather(mine, cnt, MPI_INT, all, cnt, MPI_INT, comm));
		for (int r = 0; r < n; r++)
			for (int i = 0; i < cnt; i++)
				CHECK(all[r * cnt + i] == val(r, i));
		for (int i = 0; i < cnt * n; i++)
			all[i] = i / (cnt ? cnt : 1) == me ? val(me, i % (cnt ? cnt : 1)) : 0;
		CHECK_MPI(MPI_Allgather(MPI_IN_PLACE, 0, MPI_INT, all, cnt, MPI_INT, comm));
		for (int r = 0; r < n; r++)
			for (int i = 0; i < cnt; i++)
				CHECK(all[r * cnt + i] == val(r, i));
		free(mine);
		free(all);
	}
}

static void test_alltoall(MPI_Comm comm)
{
	int me, n;

	MPI_Comm_rank(comm, &me);
	MPI_Comm_size(comm, &n);
	for (int s = 0; s < NSIZES; s++) {
		int cnt = sizes[s];
		int *out = malloc(sizeof(int) * (size_t)(cnt * n + 1));
		int *in = malloc(sizeof(int) * (size_t)(cnt * n + 1));

		/* piece for r: val(me * n + r, i) */
		for (int r = 0; r < n; r++)
			for (int i = 0; i < cnt; i++)
				out[r * cnt + i] = val(me * n + r, i);
		CHECK_MPI(MPI_Alltoall(out, cnt, MPI_INT, in, cnt, MPI_INT, comm));
		for (int r = 0; r < n; r++)
			for (int i = 0; i < cnt; i++)
				CHECK(in[r * cnt + i] == val(r * n + me, i));
		CHECK_MPI(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_INT, out, cnt, MPI_INT, comm));
		CHECK(memcmp(in, out, sizeof(int) * (size_t)(cnt * n)) == 0);
		free(out);
		free(in);
	}
	/* alltoallv: member a sends (a + b) % 4 * 3000 + 1 elements to b */
	int *sc = malloc(sizeof(int) * (size_t)n), *sd = malloc(sizeof(int) * (size_t)n);
	int *rc = malloc(sizeof(int) * (size_t)n), *rd = malloc(sizeof(int) * (size_t)n);
	int st = 0, rt_ = 0;

	for (int r = 0; r < n; r++) {
		sc[r] = (me + r) % 4 * 3000 + 1;
		rc[r] = (r + me) % 4 * 3000 + 1;
		sd[r] = st;
		rd[r] = rt_ + 1;
		st += sc[r];
		rt_ += rc[r] + 1;
	}
	int *out = malloc(sizeof(int) * (size_t)st), *in = malloc(sizeof(int) * (size_t)(rt_ + 1));

	for (int r = 0; r < n; r++)
		for (int i = 0; i < sc[r]; i++)
			out[sd[r] + i] = val(me * n + r, i);
	CHECK_MPI(MPI_Alltoallv(out, sc, sd, MPI_INT, in, rc, rd, MPI_INT, comm));
	for (int r = 0; r < n; r++)
		for (int i = 0; i < rc[r]; i++)
			CHECK(in[rd[r] + i] == val(r * n + me, i));
	free(sc);
	free(sd);
	free(rc);
	free(rd);
	free(out);
	free(in);
}

static void test_reduce(MPI_Comm comm)
{
	int me, n;

	MPI_Comm_rank(comm, &me);
	MPI_Comm_size(comm, &n);
	for (int s = 0; s < NSIZES; s++) {
		int cnt = sizes[s], root = (s + 1) % n;
		int *in = malloc(sizeof(int) * (size_t)(cnt + 1));
		int *out = malloc(sizeof(int) * (size_t)(cnt + 1));
		double *din = malloc(sizeof(double) * (size_t)(cnt + 1));
		double *dout = malloc(sizeof(double) * (size_t)(cnt + 1));

		for (int i = 0; i < cnt; i++) {
			in[i] = val(me, i);
			din[i] = val(me, i) * 0.5;
		}
		CHECK_MPI(MPI_Reduce(in, out, cnt, MPI_INT, MPI_SUM, root, comm));
		if (me == root)
			for (int i = 0; i < cnt; i++) {
				int want = 0;

				for (int r = 0; r < n; r++)
					want += val(r, i);
				CHECK(out[i] == want);
			}
		CHECK_MPI(MPI_Allreduce(din, dout, cnt, MPI_DOUBLE, MPI_MAX, comm));
		for (int i = 0; i < cnt; i++) {
			double want = -1e9;

			for (int r = 0; r < n; r++)
				want = val(r, i) * 0.5 > want ? val(r, i) * 0.5 : want;
			CHECK(dout[i] == want);
		}
		/* in place */
		memcpy(out, in, sizeof(int) * (size_t)cnt);
		CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, out, cnt, MPI_INT, MPI_MIN, comm));
		for (int i = 0; i < cnt; i++) {
			int want = 1000;

			for (int r = 0; r < n; r++)
				want = val(r, i) < want ? val(r, i) : want;
			CHECK(out[i] == want);
		}
		memcpy(out, in, sizeof(int) * (size_t)cnt);
		if (me == root)
			CHECK_MPI(MPI_Reduce(MPI_IN_PLACE, out, cnt, MPI_INT, MPI_BXOR, root, comm));
		else
			CHECK_MPI(MPI_Reduce(in, NULL, cnt, MPI_INT, MPI_BXOR, root, comm));
		if (me == root)
			for (int i = 0; i < cnt; i++) {
				int want = 0;

				for (int r = 0; r < n; r++)
					want ^= val(r, i);
				CHECK(out[i] == want);
			}
		free(in);
		free(out);
		free(din);
		free(dout);
	}
	/* MAXLOC on pairs: the value, and the smallest index on ties */
	struct { double v; int i; } p[2], q[2];

	p[0].v = me % 2;
	p[0].i = me;
	p[1].v = -me;
	p[1].i = me;
	CHECK_MPI(MPI_Allreduce(p, q, 2, MPI_DOUBLE_INT, MPI_MAXLOC, comm));
	CHECK(q[0].v == (n > 1 ? 1 : 0) && q[0].i == (n > 1 ? 1 : 0));
	CHECK(q[1].v == 0 && q[1].i == 0);
	CHECK_MPI(MPI_Allreduce(p, q, 2, MPI_DOUBLE_INT, MPI_MINLOC, comm));
	CHECK(q[0].v == 0 && q[0].i == 0);
	CHECK(q[1].v == -(n - 1) && q[1].i == n - 1);
}

static void test_reduce_scatter_scan(MPI_Comm comm)
{
	int me, n;

	MPI_Comm_rank(comm, &me);
	MPI_Comm_size(comm, &n);
	for (int s = 0; s < NSIZES; s++) {
		int per = sizes[s], total = per * n;
		int *in = malloc(sizeof(int) * (size_t)(total + 1));
		int *out = malloc(sizeof(int) * (size_t)(total + 1));
		int *counts = malloc(sizeof(int) * (size_t)n);

		for (int i = 0; i < total; i++)
			in[i] = val(me, i);
		CHECK_MPI(MPI_Reduce_scatter_block(in, out, per, MPI_INT, MPI_SUM, comm));
		for (int i = 0; i < per; i++) {
			int want = 0;

			for (int r = 0; r < n; r++)
				want += val(r, me * per + i);
			CHECK(out[i] == want);
		}
		memcpy(out, in, sizeof(int) * (size_t)total);
		CHECK_MPI(MPI_Reduce_scatter_block(MPI_IN_PLACE, out, per, MPI_INT, MPI_SUM, comm));
		for (int i = 0; i < per; i++) {
			int want = 0;

			for (int r = 0; r < n; r++)
				want += val(r, me * per + i);
			CHECK(out[i] == want);
		}
		/* uneven counts: member r gets (r + s) % 3 * per / 2 elements */
		int at = 0, my_at = 0;

		for (int r = 0; r < n; r++) {
			counts[r] = (r + s) % 3 * per / 2;
			if (r < me)
				my_at += counts[r];
			at += counts[r];
		}
		CHECK_MPI(MPI_Reduce_scatter(in, out, counts, MPI_INT, MPI_MAX, comm));
		for (int i = 0; i < counts[me]; i++) {
			int want = -1000;

			for (int r = 0; r < n; r++)
				want = val(r, my_at + i) > want ? val(r, my_at + i) : want;
			CHECK(out[i] == want);
		}
		/* scan and exscan */
		CHECK_MPI(MPI_Scan(in, out, per, MPI_INT, MPI_SUM, comm));
		for (int i = 0; i < per; i++) {
			int want = 0;

			for (int r = 0; r <= me; r++)
				want += val(r, i);
			CHECK(out[i] == want);
		}
		memcpy(out, in, sizeof(int) * (size_t)per);
		CHECK_MPI(MPI_Exscan(MPI_IN_PLACE, out, per, MPI_INT, MPI_SUM, comm));
		if (me > 0)
			for (int i = 0; i < per; i++) {
				int want = 0;

				for (int r = 0; r < me; r++)
					want += val(r, i);
				CHECK(out[i] == want);
			}
		free(in);
		free(out);
		free(counts);
	}
}

/* A non-commutative user op: 2x2 integer matrices, inout = in * inout. */
static void matmul(void *invec, void *inoutvec, int *len, MPI_Datatype *dt)
{
	int *a = invec, *b = inoutvec;

	(void)dt;
	for (int k = 0; k < *len; k++, a += 4, b += 4) {
		int c[4] = { a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
			     a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3] };

		memcpy(b, c, sizeof(c));
	}
}

static void mat_of(int r, int *m)
{
	m[0] = 1;
	m[1] = r % 3;
	m[2] = (r + 1) % 2;
	m[3] = 1;
}

static void test_user_op(MPI_Comm comm)
{
	int me, n, m[8], got[8], want[4] = { 1, 0, 0, 1 }, pre[4] = { 1, 0, 0, 1 };
	MPI_Datatype mat;
	MPI_Op op;
	int commute;

	MPI_Comm_rank(comm, &me);
	MPI_Comm_size(comm, &n);
	CHECK_MPI(MPI_Type_contiguous(4, MPI_INT, &mat));
	CHECK_MPI(MPI_Type_commit(&mat));
	CHECK_MPI(MPI_Op_create(matmul, 0, &op));
	CHECK_MPI(MPI_Op_commutative(op, &commute));
	CHECK(!commute);
	mat_of(me, m);
	mat_of(me + 5, m + 4);
	for (int r = 0; r < n; r++) {
		int x[4], t[4];

		mat_of(r, x);
		t[0] = want[0] * x[0] + want[1] * x[2];
		t[1] = want[0] * x[1] + want[1] * x[3];
		t[2] = want[2] * x[0] + want[3] * x[2];
		t[3] = want[2] * x[1] + want[3] * x[3];
		memcpy(want, t, sizeof(t));
		if (r == me)
			memcpy(pre, want, sizeof(want));	/* scan result */
	}
	CHECK_MPI(MPI_Allreduce(m, got, 2, mat, op, comm));
	CHECK(memcmp(got, want, sizeof(want)) == 0);
	CHECK_MPI(MPI_Reduce(m, got, 2, mat, op, n - 1, comm));
	if (me == n - 1)
		CHECK(memcmp(got, want, sizeof(want)) == 0);
	CHECK_MPI(MPI_Scan(m, got, 2, mat, op, comm));
	CHECK(memcmp(got, pre, sizeof(pre)) == 0);
	CHECK_MPI(MPI_Op_free(&op));
	CHECK(op == MPI_OP_NULL);
	CHECK_MPI(MPI_Type_free(&mat));
}

static void test_errors(MPI_Comm comm)
{
	int x = 0, y;

	MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
	CHECK(MPI_Bcast(&x, 1, MPI_INT, size + 5, comm) == MPI_ERR_ROOT);
	CHECK(MPI_Bcast(&x, -1, MPI_INT, 0, comm) == MPI_ERR_COUNT);
	CHECK(MPI_Reduce(&x, &y, 1, MPI_INT, MPI_OP_NULL, 0, comm) == MPI_ERR_OP);
	CHECK(MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_BAND, comm) == MPI_ERR_OP);
	CHECK(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_MAXLOC, comm) == MPI_ERR_OP);
	CHECK(MPI_Allreduce(&x, &y, 1, MPI_DATATYPE_NULL, MPI_SUM, comm) == MPI_ERR_TYPE);
	MPI_Comm_set_errhandler(comm, MPI_ERRORS_ARE_FATAL);
	/* an invalid communicator: MPI_COMM_WORLD's handler decides */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	CHECK(MPI_Barrier(MPI_COMM_NULL) == MPI_ERR_COMM);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void all_on(MPI_Comm comm, const char *which)
{
	if (!strcmp(which, "all") || !strcmp(which, "barrier"))
		test_barrier(comm);
	if (!strcmp(which, "all") || !strcmp(which, "bcast"))
		test_bcast(comm);
	if (!strcmp(which, "all") || !strcmp(which, "gather"))
		test_gather_scatter(comm);
	if (!strcmp(which, "all") || !strcmp(which, "gatherv"))
		test_gatherv_scatterv(comm);
	if (!strcmp(which, "all") || !strcmp(which, "allgather"))
		test_allgather(comm);
	if (!strcmp(which, "all") || !strcmp(which, "alltoall"))
		test_alltoall(comm);
	if (!strcmp(which, "all") || !strcmp(which, "reduce"))
		test_reduce(comm);
	if (!strcmp(which, "all") || !strcmp(which, "scan"))
		test_reduce_scatter_scan(comm);
	if (!strcmp(which, "all") || !strcmp(which, "userop"))
		test_user_op(comm);
	if (!strcmp(which, "all") || !strcmp(which, "errors"))
		test_errors(comm);
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";
	MPI_Comm half, dup;

	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	all_on(MPI_COMM_WORLD, which);
	if (rank == 0)
		printf("ok world\n");
	/* the same on halves (odd and even, reversed order) and on a dup */
	CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half));
	all_on(half, which);
	CHECK_MPI(MPI_Comm_free(&half));
	if (rank == 0)
		printf("ok split\n");
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
	all_on(dup, which);
	CHECK_MPI(MPI_Comm_free(&dup));
	if (rank == 0)
		printf("ok dup\n");
	MPI_Finalize();
	return 0;
}
