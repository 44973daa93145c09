/*
 * The nonblocking collectives on an intercommunicator: the job splits into
 * group A (job ranks 0 .. a-1) and group B (the rest), joined by
 * MPI_Intercomm_create.  Every call against values each process computes
 * itself (byte-exact, roots on either side with MPI_ROOT / MPI_PROC_NULL,
 * small and rendezvous sizes, derived datatypes, a non-commutative user
 * op): MPI_Ibarrier, MPI_Ibcast, MPI_Ireduce, MPI_Iallreduce,
 * MPI_Igather(v), MPI_Iscatter(v), MPI_Iallgather(v), MPI_Ialltoall(v,w),
 * MPI_Ireduce_scatter(_block) and MPI_Comm_idup; several outstanding at
 * once on several communicators and completed in different orders, mixed
 * with blocking collectives and point-to-point across, progress while the
 * other processes are outside MPI, and the error classes (MPI_Iscan and
 * MPI_Iexscan are MPI_ERR_COMM).
 *   inter_nb a [test [weak|strong|any]]
 * (test "fatal": a bad root under MPI_ERRORS_ARE_FATAL; the progress mode
 * says what the "outside" test expects, "any" nothing.)
 */
#include "interutil.h"
#include "nbutil.h"

static const char *mode = "any";

/* ---- each call on its own ------------------------------------------------ */

/* Nobody leaves before everybody of both groups entered: each process
 * counts itself in at job rank 0's window before, and reads the count
 * after; one group comes late, then the other. */
static void test_barrier(void)
{
	MPI_Win win;
	MPI_Request req;
	int *counter, one = 1, got = 0, dummy;

	CHECK_MPI(MPI_Win_allocate(rank == 0 ? sizeof(int) : 0, sizeof(int), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &counter, &win));
	if (rank == 0)
		*counter = 0;
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_lock_all(0, win));
	for (int round = 1; round <= 4; round++) {
		if (in_a == round % 2)
			tu_sleep_ms(20 + lrank);
		CHECK_MPI(MPI_Fetch_and_op(&one, &dummy, MPI_INT, 0, 0, MPI_SUM, win));
		CHECK_MPI(MPI_Win_flush(0, win));
		CHECK_MPI(MPI_Ibarrier(inter, &req));
		overlap_wait(&req);
		CHECK_MPI(MPI_Fetch_and_op(NULL, &got, MPI_INT, 0, 0, MPI_NO_OP, win));
		CHECK_MPI(MPI_Win_flush(0, win));
		CHECK(got >= round * size);
		/* nobody counts the next round in before everybody has read */
		CHECK_MPI(MPI_Ibarrier(inter, &req));
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	}
	CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK_MPI(MPI_Win_free(&win));
}

static void test_bcast(void)
{
	MPI_Request req;
	MPI_Datatype vec;

	/* every process of either group as the root, every size */
	for (int from_a = 1; from_a >= 0; from_a--)
		for (int rr = 0; rr < group_size(from_a); rr++)
			for (int s = 0; s < NSIZES; s++) {
				int cnt = sizes[s], root = root_arg(from_a, rr);
				int w = world_of(from_a, rr), *b = ints((size_t)cnt, -999);

				for (int i = 0; root == MPI_ROOT && i < cnt; i++)
					b[i] = val(w, i);
				CHECK_MPI(MPI_Ibcast(b, cnt, MPI_INT, root, inter, &req));
				overlap_wait(&req);
				for (int i = 0; i < cnt; i++)
					CHECK(b[i] == (root == MPI_PROC_NULL ? -999 : val(w, i)));
				CHECK(b[cnt] == -999);
				free(b);
			}
	/* a vector type from B's last process: the gaps stay as they were */
	CHECK_MPI(MPI_Type_vector(3, 2, 3, MPI_INT, &vec));
	CHECK_MPI(MPI_Type_commit(&vec));
	{
		int b[4 * 8 + 1], root = root_arg(0, size - a - 1);

		for (int i = 0; i < 33; i++)
			b[i] = root == MPI_ROOT ? val(rank, i) : -1;
		CHECK_MPI(MPI_Ibcast(b, 4, vec, root, inter, &req));
		CHECK_MPI(MPI_Type_free(&vec));	/* the operation keeps it */
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		for (int i = 0; in_a && i < 33; i++) {
			/* element k covers ints 8k + {0, 1, 3, 4, 6, 7} */
			int in_type = i < 32 && i % 8 != 2 && i % 8 != 5;

			CHECK(b[i] == (in_type ? val(size - 1, i) : -1));
		}
		for (int i = 0; root == MPI_PROC_NULL && i < 33; i++)
			CHECK(b[i] == -1);
	}
}

/* The sum of the elements of MPI_Type_vector(2, 2, 4, MPI_INT): ints 0,
 * 1, 4 and 5 of every 6 (the predefined ops take predefined datatypes
 * only, MPI 3.1 section 5.9.1). */
static void vec_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
	static const int at[] = { 0, 1, 4, 5 };
	const int *x = in;
	int *y = inout;

	(void)dt;
	for (int e = 0; e < *len; e++)
		for (int k = 0; k < 4; k++)
			y[6 * e + at[k]] += x[6 * e + at[k]];
}

/* The affine contributions of group A (group_a) or B in rank order. */
static affine aff_group(int group_a, int i)
{
	return aff_range(world_of(group_a, 0), group_size(group_a), i);
}

/* The sum of val(w, i) over group A (group_a) or B. */
static int sum_group(int group_a, int i)
{
	int sum = 0;

	for (int r = 0; r < group_size(group_a); r++)
		sum += val(world_of(group_a, r), i);
	return sum;
}

/* One reduction: Iallreduce (root unused) or Ireduce to root. */
static void ireduce(int all, const void *in, void *out, int cnt, MPI_Datatype dt,
		    MPI_Op op, int root, MPI_Request *req)
{
	if (all)
		CHECK_MPI(MPI_Iallreduce(in, out, cnt, dt, op, inter, req));
	else
		CHECK_MPI(MPI_Ireduce(in, out, cnt, dt, op, root, inter, req));
}

/* Every size, MPI_SUM: the result is the other group's (MPI 3.1, sections
 * 5.9.1 and 5.9.6); recvbuf stays as it was wherever it is no result. */
static void reduce_sizes(int all, int root)
{
	int gets = all || root == MPI_ROOT;
	MPI_Request req;

	for (int s = 0; s < NSIZES; s++) {
		int cnt = sizes[s], *in = ints((size_t)cnt, 0), *out = ints((size_t)cnt, -7);

		for (int i = 0; i < cnt; i++)
			in[i] = val(rank, i);
		ireduce(all, in, out, cnt, MPI_INT, MPI_SUM, root, &req);
		overlap_wait(&req);
		for (int i = 0; i < cnt; i++)
			CHECK(out[i] == (gets ? sum_group(!in_a, i) : -7));
		CHECK(out[cnt] == -7);
		free(in);
		free(out);
	}
}

/* Allreduce, or reduce to every process of either group in turn. */
static void t_reduce(int all)
{
	MPI_Request req;
	MPI_Datatype pair;
	MPI_Op op;

	if (all)
		reduce_sizes(1, 0);
	for (int from_a = 1; !all && from_a >= 0; from_a--)
		for (int rr = 0; rr < group_size(from_a); rr++)
			reduce_sizes(0, root_arg(from_a, rr));
	/* a user op that does not commute, on a derived type, roots on both
	 * sides: the remote group in rank order */
	CHECK_MPI(MPI_Type_contiguous(2, MPI_UNSIGNED, &pair));
	CHECK_MPI(MPI_Type_commit(&pair));
	for (int from_a = 0; from_a <= 1; from_a++) {
		int cnt = 300, root = root_arg(from_a, group_size(from_a) - 1);
		int gets = all || root == MPI_ROOT;
		affine *in = malloc(sizeof(affine) * (size_t)cnt);
		affine *out = malloc(sizeof(affine) * (size_t)cnt);

		for (int i = 0; i < cnt; i++) {
			in[i] = aff(rank, i);
			out[i] = (affine){ 0, 0 };
		}
		CHECK_MPI(MPI_Op_create(affine_op, 0, &op));
		ireduce(all, in, out, cnt, pair, op, root, &req);
		CHECK_MPI(MPI_Op_free(&op));	/* the operation keeps it */
		overlap_wait(&req);
		for (int i = 0; i < cnt; i++) {
			affine want = gets ? aff_group(!in_a, i) : (affine){ 0, 0 };

			CHECK(out[i].a == want.a && out[i].b == want.b);
		}
		free(in);
		free(out);
	}
	CHECK_MPI(MPI_Type_free(&pair));
	/* a sum on a vector type: the gaps of recvbuf stay untouched */
	{
		MPI_Datatype vec;
		int in[16], out[17], root = root_arg(1, a - 1);
		int gets = all || root == MPI_ROOT;

		CHECK_MPI(MPI_Type_vector(2, 2, 4, MPI_INT, &vec));
		CHECK_MPI(MPI_Type_commit(&vec));
		CHECK_MPI(MPI_Op_create(vec_sum, 1, &op));
		for (int i = 0; i < 16; i++)
			in[i] = val(rank, i);
		for (int i = 0; i < 17; i++)
			out[i] = -3;
		/* 2 elements of extent 6: ints 0,1,4,5 and 6,7,10,11 */
		ireduce(all, in, out, 2, vec, op, root, &req);
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Op_free(&op));
		for (int i = 0; i < 17; i++) {
			int used = i == 0 || i == 1 || i == 4 || i == 5 || i == 6 || i == 7 ||
				   i == 10 || i == 11;

			CHECK(out[i] == (gets && used ? sum_group(!in_a, i) : -3));
		}
		CHECK_MPI(MPI_Type_free(&vec));
	}
}

static void test_reduce(void)
{
	t_reduce(0);
}

static void test_allreduce(void)
{
	t_reduce(1);
}

static void test_gather_scatter(void)
{
	MPI_Request req;

	for (int from_a = 0; from_a <= 1; from_a++)
		for (int rr = 0; rr < group_size(from_a); rr++)
			for (int s = 0; s < NSIZES; s++) {
				int cnt = sizes[s] / 4, root = root_arg(from_a, rr);
				int *mine = ints((size_t)cnt, 0);
				int *all = ints((size_t)cnt * (size_t)rsize, -5);

				/* gather: a block from every remote process */
				for (int i = 0; i < cnt; i++)
					mine[i] = val(rank, i);
				CHECK_MPI(MPI_Igather(mine, cnt, MPI_INT, all, cnt, MPI_INT, root,
						      inter, &req));
				overlap_wait(&req);
				for (int r = 0; r < rsize; r++)
					for (int i = 0; i < cnt; i++)
						CHECK(all[r * cnt + i] ==
						      (root == MPI_ROOT ?
						       val(world_of(!in_a, r), i) : -5));
				CHECK(all[cnt * rsize] == -5);
				/* scatter back, shifted */
				for (int i = 0; root == MPI_ROOT && i < cnt * rsize; i++)
					all[i] = val(world_of(!in_a, i / cnt) + 1, i % cnt);
				for (int i = 0; i <= cnt; i++)
					mine[i] = -6;
				CHECK_MPI(MPI_Iscatter(all, cnt, MPI_INT, mine, cnt, MPI_INT, root,
						       inter, &req));
				overlap_wait(&req);
				for (int i = 0; i < cnt; i++)
					CHECK(mine[i] == (from_a != in_a ? val(rank + 1, i) : -6));
				CHECK(mine[cnt] == -6);
				free(mine);
				free(all);
			}
	/* different types on the two sides: 6 ints against a vector element,
	 * to and from A's rank 0 */
	{
		MPI_Datatype vec = pairs_type(3, 8);
		int mine[6], *all = ints((size_t)rsize * 8, -1), root = root_arg(1, 0);

		for (int i = 0; i < 6; i++)
			mine[i] = val(rank, i);
		CHECK_MPI(MPI_Igather(mine, 6, MPI_INT, all, 1, vec, root, inter, &req));
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		for (int r = 0; root == MPI_ROOT && r < rsize; r++)
			CHECK(pairs_hold(all + 8 * r, 3, 8, world_of(0, r), -1));
		for (int i = 0; i < 6; i++)
			mine[i] = 0;
		CHECK_MPI(MPI_Iscatter(all, 1, vec, mine, 6, MPI_INT, root, inter, &req));
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		for (int i = 0; !in_a && i < 6; i++)
			CHECK(mine[i] == val(rank, i));
		CHECK_MPI(MPI_Type_free(&vec));
		free(all);
	}
}

static void test_allgather(void)
{
	MPI_Request req;

	/* A sends cnt ints, B cnt + 2: each receives the other's count */
	for (int s = 0; s < NSIZES; s++) {
		int sc = sizes[s] / 4 + (in_a ? 0 : 2), rc = sizes[s] / 4 + (in_a ? 2 : 0);
		int *mine = ints((size_t)sc, 0), *all = ints((size_t)rc * (size_t)rsize, -5);

		for (int i = 0; i < sc; i++)
			mine[i] = val(rank, i);
		CHECK_MPI(MPI_Iallgather(mine, sc, MPI_INT, all, rc, MPI_INT, inter, &req));
		overlap_wait(&req);
		for (int r = 0; r < rsize; r++)
			for (int i = 0; i < rc; i++)
				CHECK(all[r * rc + i] == val(world_of(!in_a, r), i));
		CHECK(all[rc * rsize] == -5);
		free(mine);
		free(all);
	}
	/* v: remote rank r gives r * 3 + 1 ints, placed backwards with gaps */
	{
		int *counts = ints((size_t)rsize, 0), *displs = ints((size_t)rsize, 0);
		int *all, *mine = ints((size_t)lrank * 3 + 1, 0);

		for (int r = 0; r < rsize; r++)
			counts[r] = r * 3 + 1;
		all = ints((size_t)place_blocks(rsize, counts, displs, 1, 2), -4);
		for (int i = 0; i < lrank * 3 + 1; i++)
			mine[i] = val(rank, i);
		CHECK_MPI(MPI_Iallgatherv(mine, lrank * 3 + 1, MPI_INT, all, counts, displs,
					  MPI_INT, inter, &req));
		overlap_wait(&req);
		for (int r = 0; r < rsize; r++) {
			for (int i = 0; i < counts[r]; i++)
				CHECK(all[displs[r] + i] == val(world_of(!in_a, r), i));
			CHECK(all[displs[r] + counts[r]] == -4 &&
			      all[displs[r] + counts[r] + 1] == -4);
		}
		free(all);
		free(mine);
		free(counts);
		free(displs);
	}
	/* a vector type on the receiving side */
	{
		MPI_Datatype vec = pairs_type(2, 6);
		int mine[4], *all = ints((size_t)rsize * 6, -9);

		for (int i = 0; i < 4; i++)
			mine[i] = val(rank, i);
		CHECK_MPI(MPI_Iallgather(mine, 4, MPI_INT, all, 1, vec, inter, &req));
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		for (int r = 0; r < rsize; r++)
			CHECK(pairs_hold(all + 6 * r, 2, 6, world_of(!in_a, r), -9));
		CHECK_MPI(MPI_Type_free(&vec));
		free(all);
	}
}

/* Job rank `from` sends job rank `to` val(pair_id(from, to), i) at index
 * i in the alltoalls. */
static int pair_id(int from, int to)
{
	return from * 64 + to;
}

static int pairval(int from, int to, int i)
{
	return val(pair_id(from, to), i);
}

static void test_alltoall(void)
{
	MPI_Request req;

	for (int s = 0; s < NSIZES; s++) {
		int cnt = sizes[s] / 8;
		int *snd = ints((size_t)cnt * (size_t)rsize, 0);
		int *rcv = ints((size_t)cnt * (size_t)rsize, -5);

		for (int m = 0; m < rsize; m++)
			for (int i = 0; i < cnt; i++)
				snd[m * cnt + i] = pairval(rank, world_of(!in_a, m), i);
		CHECK_MPI(MPI_Ialltoall(snd, cnt, MPI_INT, rcv, cnt, MPI_INT, inter, &req));
		overlap_wait(&req);
		for (int m = 0; m < rsize; m++)
			for (int i = 0; i < cnt; i++)
				CHECK(rcv[m * cnt + i] == pairval(world_of(!in_a, m), rank, i));
		CHECK(rcv[cnt * rsize] == -5);
		free(snd);
		free(rcv);
	}
	/* v: (lrank + m) % 3 * 2 ints between local rank lrank and remote rank
	 * m (0 included), reversed displacements on the receiving side */
	{
		int *sc = ints((size_t)rsize, 0), *sd = ints((size_t)rsize, 0);
		int *rc = ints((size_t)rsize, 0), *rd = ints((size_t)rsize, 0);
		int *snd, *rcv;

		for (int m = 0; m < rsize; m++) {
			sc[m] = (lrank + m) % 3 * 2;
			rc[m] = (m + lrank) % 3 * 2;
		}
		snd = ints((size_t)place_blocks(rsize, sc, sd, 0, 1), 0);
		rcv = ints((size_t)place_blocks(rsize, rc, rd, 1, 1), -8);
		for (int m = 0; m < rsize; m++)
			for (int i = 0; i < sc[m]; i++)
				snd[sd[m] + i] = pairval(rank, world_of(!in_a, m), i);
		CHECK_MPI(MPI_Ialltoallv(snd, sc, sd, MPI_INT, rcv, rc, rd, MPI_INT, inter, &req));
		overlap_wait(&req);
		for (int m = 0; m < rsize; m++) {
			for (int i = 0; i < rc[m]; i++)
				CHECK(rcv[rd[m] + i] == pairval(world_of(!in_a, m), rank, i));
			CHECK(rcv[rd[m] + rc[m]] == -8);
		}
		free(sc);
		free(sd);
		free(rc);
		free(rd);
		free(snd);
		free(rcv);
	}
	/* a vector type on the receiving side */
	{
		MPI_Datatype vec = pairs_type(2, 6);
		int *snd = ints((size_t)rsize * 4, 0), *rcv = ints((size_t)rsize * 6, -9);

		for (int m = 0; m < rsize; m++)
			for (int i = 0; i < 4; i++)
				snd[m * 4 + i] = pairval(rank, world_of(!in_a, m), i);
		CHECK_MPI(MPI_Ialltoall(snd, 4, MPI_INT, rcv, 1, vec, inter, &req));
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		for (int m = 0; m < rsize; m++)
			CHECK(pairs_hold(rcv + 6 * m, 2, 6, pair_id(world_of(!in_a, m), rank), -9));
		CHECK_MPI(MPI_Type_free(&vec));
		free(snd);
		free(rcv);
	}
}

/* Remote rank r's block in the v-variants: one empty, one large. */
static int vcount(int r)
{
	return r == 1 ? 0 : r * 3 + 1 + (r == 2 ? 3000 : 0);
}

/* Igatherv and Iscatterv with every process of either group as the root:
 * the root's counts and displacements over the remote group, placed
 * backwards with gaps; a strided type at the others. */
static void test_gatherv_scatterv(void)
{
	int *counts = ints((size_t)rsize, 0), *displs = ints((size_t)rsize, 0), span;
	MPI_Datatype strided;
	MPI_Request req;

	for (int r = 0; r < rsize; r++)
		counts[r] = vcount(r);
	span = place_blocks(rsize, counts, displs, 1, 2);
	/* every other int: what a non-root sends and receives */
	CHECK_MPI(MPI_Type_vector(vcount(lrank) ? vcount(lrank) : 1, 1, 2, MPI_INT,
				  &strided));
	CHECK_MPI(MPI_Type_commit(&strided));
	for (int from_a = 0; from_a <= 1; from_a++)
		for (int rr = 0; rr < group_size(from_a); rr++) {
			int root = root_arg(from_a, rr), n = vcount(lrank), one = n ? 1 : 0;
			int *mine = ints(2 * (size_t)n, -6), *all = ints((size_t)span, -5);

			for (int i = 0; i < n; i++)
				mine[2 * i] = val(rank, i);
			CHECK_MPI(MPI_Igatherv(mine, one, strided, all, counts, displs, MPI_INT,
					       root, inter, &req));
			overlap_wait(&req);
			for (int r = 0; r < rsize; r++) {
				for (int i = 0; i < counts[r]; i++)
					CHECK(all[displs[r] + i] == (root == MPI_ROOT ?
						val(world_of(!in_a, r), i) : -5));
				CHECK(all[displs[r] + counts[r]] == -5 &&
				      all[displs[r] + counts[r] + 1] == -5);
			}
			/* scatter back, shifted */
			for (int r = 0; root == MPI_ROOT && r < rsize; r++)
				for (int i = 0; i < counts[r]; i++)
					all[displs[r] + i] = val(world_of(!in_a, r) + 1, i);
			for (int i = 0; i <= 2 * n; i++)
				mine[i] = -6;
			CHECK_MPI(MPI_Iscatterv(all, counts, displs, MPI_INT, mine, one,
						strided, root, inter, &req));
			overlap_wait(&req);
			for (int i = 0; i < 2 * n; i++)
				CHECK(mine[i] == (i % 2 == 0 && from_a != in_a ?
						  val(rank + 1, i / 2) : -6));
			CHECK(mine[2 * n] == -6);
			free(mine);
			free(all);
		}
	CHECK_MPI(MPI_Type_free(&strided));
	free(counts);
	free(displs);
}

/* Ialltoallw: (lrank + m) % 4 ints, and 2500 more between local rank 1
 * and remote rank 0, between this process and remote rank m; an int of
 * extent two ints (`wide`) for odd send blocks and even receive blocks;
 * byte displacements, the receive blocks backwards. */
static int w_count(int l, int m)
{
	return (l + m) % 4 + (l == 1 && m == 0 ? 2500 : 0);
}

static void test_alltoallw(void)
{
	int sc[64], sd[64], rc[64], rd[64], at = 0, *snd, *rcv, sspan, rspan;
	MPI_Datatype wide, st[64], rt[64];
	MPI_Request req;

	CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &wide));
	CHECK_MPI(MPI_Type_commit(&wide));
	for (int m = 0; m < rsize; m++) {
		sc[m] = w_count(lrank, m);
		st[m] = m % 2 ? wide : MPI_INT;
		sd[m] = at * (int)sizeof(int);
		at += sc[m] * (m % 2 ? 2 : 1) + 1;
	}
	sspan = at;
	at = 0;
	for (int m = rsize - 1; m >= 0; m--) {
		rc[m] = w_count(m, lrank);
		rt[m] = m % 2 ? MPI_INT : wide;
		rd[m] = at * (int)sizeof(int);
		at += rc[m] * (m % 2 ? 1 : 2) + 1;
	}
	rspan = at;
	snd = ints((size_t)sspan, -1);
	rcv = ints((size_t)rspan, -7);
	for (int m = 0; m < rsize; m++)
		for (int i = 0; i < sc[m]; i++)
			snd[sd[m] / (int)sizeof(int) + i * (m % 2 ? 2 : 1)] =
				pairval(rank, world_of(!in_a, m), i);
	CHECK_MPI(MPI_Ialltoallw(snd, sc, sd, st, rcv, rc, rd, rt, inter, &req));
	CHECK_MPI(MPI_Type_free(&wide));	/* the operation keeps it */
	overlap_wait(&req);
	for (int m = 0, seen = 0; m < rsize; m++) {
		int step = m % 2 ? 1 : 2, *b = rcv + rd[m] / (int)sizeof(int);

		for (int i = 0; i < rc[m]; i++)
			CHECK(b[i * step] == pairval(world_of(!in_a, m), rank, i));
		for (int k = 0; step == 2 && k < rc[m]; k++)
			CHECK(b[2 * k + 1] == -7);
		seen += rc[m] * step + 1;
		CHECK(b[rc[m] * step] == -7);
		CHECK(m < rsize - 1 || seen == rspan);
	}
	CHECK(rcv[rspan] == -7);
	free(snd);
	free(rcv);
}

/* Ireduce_scatter_block and Ireduce_scatter (MPI 3.1, section 5.10): each
 * group reduces a vector of `total` elements, the same length in both
 * groups, and its result is scattered over the other group by that
 * group's counts, which are over its local group. */
static void t_reduce_scatter(int total, int block)
{
	int *counts = ints((size_t)lsize, 0), *in = ints((size_t)total, 0), off = 0;
	int *out;
	MPI_Request req;

	/* block: total / lsize each; else local rank 1 none, rank 0 the rest */
	for (int l = 0; l < lsize; l++)
		counts[l] = block ? total / lsize : lsize == 1 ? total :
			    l == 1 ? 0 : l == 0 ? total - (total / lsize) * (lsize - 2) :
			    total / lsize;
	for (int l = 0; l < lrank; l++)
		off += counts[l];
	out = ints((size_t)counts[lrank], -3);
	for (int i = 0; i < total; i++)
		in[i] = val(rank, i);
	if (block)
		CHECK_MPI(MPI_Ireduce_scatter_block(in, out, counts[0], MPI_INT, MPI_SUM, inter,
						    &req));
	else
		CHECK_MPI(MPI_Ireduce_scatter(in, out, counts, MPI_INT, MPI_SUM, inter, &req));
	overlap_wait(&req);
	for (int i = 0; i < counts[lrank]; i++)
		CHECK(out[i] == sum_group(!in_a, off + i));
	CHECK(out[counts[lrank]] == -3);
	free(counts);
	free(in);
	free(out);
}

static void test_reduce_scatter(void)
{
	MPI_Datatype pair;
	MPI_Request req;
	MPI_Op op;

	/* lengths that both groups' sizes divide, from none to rendezvous */
	for (int k = 0; k < 4; k++) {
		int total = a * (size - a) * (k == 3 ? 1000 : k);

		t_reduce_scatter(total, 1);
		t_reduce_scatter(total, 0);
	}
	/* a user op that does not commute, on a derived type: the other
	 * group's contributions in rank order */
	CHECK_MPI(MPI_Type_contiguous(2, MPI_UNSIGNED, &pair));
	CHECK_MPI(MPI_Type_commit(&pair));
	CHECK_MPI(MPI_Op_create(affine_op, 0, &op));
	{
		/* a vector of a (size - a) pairs: size - a each in A, a in B */
		int per = in_a ? size - a : a, first = lrank * per;
		affine *in, *out;

		in = malloc(sizeof(affine) * (size_t)(per * lsize));
		out = malloc(sizeof(affine) * (size_t)per);
		CHECK(in && out);
		for (int i = 0; i < per * lsize; i++)
			in[i] = aff(rank, i);
		CHECK_MPI(MPI_Ireduce_scatter_block(in, out, per, pair, op, inter, &req));
		CHECK_MPI(MPI_Op_free(&op));	/* the operation keeps it */
		CHECK_MPI(MPI_Type_free(&pair));
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		for (int i = 0; i < per; i++) {
			affine want = aff_group(!in_a, first + i);

			CHECK(out[i].a == want.a && out[i].b == want.b);
		}
		free(in);
		free(out);
	}
}

/* MPI_Comm_idup of the intercommunicator (MPI 3.1, section 6.4.2): two,
 * started around a nonblocking collective on it, completed in reverse
 * order; each then joins the same groups with a context of its own:
 * messages of the same source and tag on the two never mix. */
static void test_idup(void)
{
	MPI_Comm dup[2];
	MPI_Request req[3];
	int x = rank, sum = -1;
	long want = 0;

	for (int r = 0; r < rsize; r++)
		want += world_of(!in_a, r);
	CHECK_MPI(MPI_Comm_idup(inter, &dup[0], &req[0]));
	CHECK_MPI(MPI_Iallreduce(&x, &sum, 1, MPI_INT, MPI_SUM, inter, &req[1]));
	CHECK_MPI(MPI_Comm_idup(inter, &dup[1], &req[2]));
	for (int k = 2; k >= 0; k--)
		overlap_wait(&req[k]);
	CHECK(sum == want);
	for (int k = 0; k < 2; k++) {
		int flag, n, result, total = -1;

		CHECK_MPI(MPI_Comm_test_inter(dup[k], &flag));
		CHECK(flag);
		CHECK_MPI(MPI_Comm_remote_size(dup[k], &n));
		CHECK(n == rsize);
		CHECK_MPI(MPI_Comm_compare(inter, dup[k], &result));
		CHECK(result == MPI_CONGRUENT);
		CHECK_MPI(MPI_Allreduce(&x, &total, 1, MPI_INT, MPI_SUM, dup[k]));
		CHECK(total == want);
	}
	/* point-to-point across: local rank l of A and B trade with l of the
	 * other, where it exists, on dup[0] and dup[1] with one tag, the
	 * receives posted the other way round */
	if (lrank < rsize) {
		int got[2] = { -1, -1 }, mine[2] = { x, x + 1000 };
		MPI_Request r[4];

		CHECK_MPI(MPI_Irecv(&got[1], 1, MPI_INT, lrank, 9, dup[1], &r[0]));
		CHECK_MPI(MPI_Irecv(&got[0], 1, MPI_INT, lrank, 9, dup[0], &r[1]));
		CHECK_MPI(MPI_Isend(&mine[0], 1, MPI_INT, lrank, 9, dup[0], &r[2]));
		CHECK_MPI(MPI_Isend(&mine[1], 1, MPI_INT, lrank, 9, dup[1], &r[3]));
		CHECK_MPI(MPI_Waitall(4, r, MPI_STATUSES_IGNORE));
		CHECK(got[0] == world_of(!in_a, lrank) && got[1] == got[0] + 1000);
	}
	CHECK_MPI(MPI_Comm_free(&dup[0]));
	CHECK_MPI(MPI_Comm_free(&dup[1]));
}

/* ---- several at once ------------------------------------------------------ */

#define NREQ 8
#define BIGN 20000

struct many {
	MPI_Request req[NREQ];
	int *bc, *red, *rout, *gat, *ag, *a2s, *a2r, g[10], sum[2], wsum;
	MPI_Comm dup;
};

/* Start eight collectives on the intercommunicator, a duplicate of it and
 * MPI_COMM_WORLD, interleaved, roots on both sides. */
static void many_start(struct many *m, int round)
{
	int bcast_root = root_arg(round % 2, 0), gather_root = root_arg(!(round % 2), 0);

	m->bc = ints(BIGN, -1);
	m->red = ints(BIGN, 0);
	m->rout = ints(BIGN, -1);
	m->gat = ints((size_t)rsize * 10, -1);
	m->ag = ints((size_t)rsize * 3, -1);
	m->a2s = ints((size_t)rsize * 5, 0);
	m->a2r = ints((size_t)rsize * 5, -1);
	for (int i = 0; bcast_root == MPI_ROOT && i < BIGN; i++)
		m->bc[i] = val(rank + round, i);
	for (int i = 0; i < 10; i++)
		m->g[i] = val(rank, i * round);
	for (int i = 0; i < rsize * 5; i++)
		m->a2s[i] = pairval(rank, world_of(!in_a, i / 5), i % 5 + round);
	CHECK_MPI(MPI_Ibcast(m->bc, BIGN, MPI_INT, bcast_root, inter, &m->req[0]));
	CHECK_MPI(MPI_Ibarrier(m->dup, &m->req[1]));
	m->sum[0] = rank + round;
	CHECK_MPI(MPI_Iallreduce(m->sum, m->sum + 1, 1, MPI_INT, MPI_MAX, inter, &m->req[2]));
	CHECK_MPI(MPI_Igather(m->g, 10, MPI_INT, m->gat, 10, MPI_INT, gather_root, m->dup,
			      &m->req[3]));
	CHECK_MPI(MPI_Iallreduce(&rank, &m->wsum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
				 &m->req[4]));
	for (int i = 0; i < BIGN; i++)
		m->red[i] = val(rank, i + round);
	CHECK_MPI(MPI_Ireduce(m->red, m->rout, BIGN, MPI_INT, MPI_SUM, gather_root, inter,
			      &m->req[5]));
	CHECK_MPI(MPI_Iallgather(m->g, 3, MPI_INT, m->ag, 3, MPI_INT, m->dup, &m->req[6]));
	CHECK_MPI(MPI_Ialltoall(m->a2s, 5, MPI_INT, m->a2r, 5, MPI_INT, inter, &m->req[7]));
}

static void many_check(struct many *m, int round)
{
	int bcast_root = root_arg(round % 2, 0), gather_root = root_arg(!(round % 2), 0);
	int bcast_from = world_of(round % 2, 0);

	for (int i = 0; i < BIGN; i++) {
		CHECK(m->bc[i] == (bcast_root == MPI_PROC_NULL ? -1 : val(bcast_from + round, i)));
		/* the other group's sum at the root, recvbuf untouched elsewhere */
		if (gather_root == MPI_ROOT) {
			int want = 0;

			for (int r = 0; r < rsize; r++)
				want += val(world_of(!in_a, r), i + round);
			CHECK(m->rout[i] == want);
		} else {
			CHECK(m->rout[i] == -1);
		}
	}
	CHECK(m->sum[1] == world_of(!in_a, rsize - 1) + round);
	CHECK(m->wsum == size * (size - 1) / 2);
	for (int r = 0; gather_root == MPI_ROOT && r < rsize; r++)
		for (int i = 0; i < 10; i++)
			CHECK(m->gat[r * 10 + i] == val(world_of(!in_a, r), i * round));
	for (int r = 0; r < rsize; r++)
		for (int i = 0; i < 3; i++)
			CHECK(m->ag[r * 3 + i] == val(world_of(!in_a, r), i * round));
	for (int r = 0; r < rsize; r++)
		for (int i = 0; i < 5; i++)
			CHECK(m->a2r[r * 5 + i] == pairval(world_of(!in_a, r), rank, i + round));
	free(m->bc);
	free(m->red);
	free(m->rout);
	free(m->gat);
	free(m->ag);
	free(m->a2s);
	free(m->a2r);
}

static void test_overlap(void)
{
	struct many m[2];

	CHECK_MPI(MPI_Comm_dup(inter, &m[0].dup));
	m[1].dup = m[0].dup;
	for (int how = 0; how < 6; how++) {
		/* two rounds outstanding together, completed newest first */
		many_start(&m[0], how);
		many_start(&m[1], how + 10);
		complete_all(m[1].req, NREQ, how);
		complete_all(m[0].req, NREQ, (how + 2) % 6);
		many_check(&m[1], how + 10);
		many_check(&m[0], how);
	}
	CHECK_MPI(MPI_Comm_free(&m[0].dup));
}

/* Blocking collectives and point-to-point across (wildcards included) on
 * the same intercommunicator while nonblocking collectives are
 * outstanding. */
static void test_mixed(void)
{
	MPI_Request nb[3], p2p[2] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL };
	int *bc = ints(BIGN, 0), ar[2] = { rank, 0 }, ag[64], token, got = -1, sum = 0;
	int root = root_arg(1, 0), senders = 0;
	long want = 0;

	/* local rank l sends a token to remote rank l % rsize: mine come from
	 * the remote ranks congruent to lrank modulo lsize (maybe none) */
	for (int r = 0; r < rsize; r++)
		senders += r % lsize == lrank;

	for (int i = 0; root == MPI_ROOT && i < BIGN; i++)
		bc[i] = val(3, i);
	CHECK_MPI(MPI_Ibcast(bc, BIGN, MPI_INT, root, inter, &nb[0]));
	CHECK_MPI(MPI_Iallreduce(ar, ar + 1, 1, MPI_INT, MPI_SUM, inter, &nb[1]));
	/* user messages with wildcards never take the collectives' ones */
	token = rank * 100;
	if (senders)
		CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, inter,
				    &p2p[0]));
	CHECK_MPI(MPI_Isend(&token, 1, MPI_INT, lrank % rsize, 5, inter, &p2p[1]));
	CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, inter));
	for (int r = 0; r < rsize; r++)
		want += world_of(!in_a, r);
	CHECK(sum == want);
	CHECK_MPI(MPI_Iallgather(&rank, 1, MPI_INT, ag, 1, MPI_INT, inter, &nb[2]));
	CHECK_MPI(MPI_Barrier(inter));
	CHECK_MPI(MPI_Wait(&p2p[1], MPI_STATUS_IGNORE));
	for (int k = 0; k < senders; k++) {
		MPI_Status st;

		if (k == 0)
			CHECK_MPI(MPI_Wait(&p2p[0], &st));
		else
			CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 5, inter, &st));
		CHECK(st.MPI_SOURCE % lsize == lrank && st.MPI_TAG == 5);
		CHECK(got == world_of(!in_a, st.MPI_SOURCE) * 100);
	}
	{
		int x = root == MPI_ROOT ? 77 : 0;

		CHECK_MPI(MPI_Bcast(&x, 1, MPI_INT, root, inter));
		CHECK(x == (root == MPI_PROC_NULL ? 0 : 77));
	}
	CHECK_MPI(MPI_Wait(&nb[2], MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Waitall(2, nb, MPI_STATUSES_IGNORE));
	for (int i = 0; i < BIGN; i++)
		CHECK(bc[i] == (root == MPI_PROC_NULL ? 0 : val(3, i)));
	CHECK(ar[1] == want);
	for (int r = 0; r < rsize; r++)
		CHECK(ag[r] == world_of(!in_a, r));
	/* the next ones still match */
	CHECK_MPI(MPI_Iallreduce(&rank, &sum, 1, MPI_INT, MPI_MAX, inter, &nb[1]));
	CHECK_MPI(MPI_Wait(&nb[1], MPI_STATUS_IGNORE));
	CHECK(sum == world_of(!in_a, rsize - 1));
	free(bc);
}

/* ---- progress ------------------------------------------------------------ */

/* B's rank 0 broadcasts a large buffer to group A while job rank 0 (A's
 * rank 0) waits and the others compute outside MPI (nbutil.h). */
static void test_outside(void)
{
	int *b = ints(BIGN * 2, -1), root = root_arg(0, 0);
	MPI_Request req[2];
	struct outside o;

	outside_begin(&o);
	for (int i = 0; root == MPI_ROOT && i < BIGN * 2; i++)
		b[i] = val(a, i);
	CHECK_MPI(MPI_Ibcast(b, BIGN * 2, MPI_INT, root, inter, &req[0]));
	CHECK_MPI(MPI_Ibarrier(inter, &req[1]));
	outside_end(&o, mode, 2, req);
	for (int i = 0; in_a && i < BIGN * 2; i++)
		CHECK(b[i] == val(a, i));
	free(b);
}

/* ---- errors -------------------------------------------------------------- */

static void test_errors(void)
{
	MPI_Comm comm, newcomm = MPI_COMM_NULL;
	MPI_Request req;
	MPI_Datatype types[64], badtypes[64];
	int x[64] = { 0 }, y[64], counts[64], displs[64], neg[64], lneg[64], sum;
	long want = 0;

	CHECK_MPI(MPI_Comm_dup(inter, &comm));
	CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
	for (int i = 0; i < 64; i++) {
		counts[i] = 1;
		displs[i] = i;
		neg[i] = i == rsize - 1 ? -1 : 1;
		lneg[i] = i == lsize - 1 ? -1 : 1;
		types[i] = MPI_INT;
		badtypes[i] = i == rsize - 1 ? MPI_DATATYPE_NULL : MPI_INT;
	}
	/* roots: MPI_ROOT, MPI_PROC_NULL or a remote rank */
	EXPECT_ERR(MPI_ERR_ROOT, MPI_Ibcast(x, 1, MPI_INT, rsize, comm, &req));
	EXPECT_ERR(MPI_ERR_ROOT, MPI_Ibcast(x, 1, MPI_INT, -7, comm, &req));
	EXPECT_ERR(MPI_ERR_ROOT, MPI_Ireduce(x, y, 1, MPI_INT, MPI_SUM, -7, comm, &req));
	EXPECT_ERR(MPI_ERR_ROOT, MPI_Igather(x, 1, MPI_INT, y, 1, MPI_INT, rsize + 3, comm,
					     &req));
	EXPECT_ERR(MPI_ERR_ROOT, MPI_Iscatter(x, 1, MPI_INT, y, 1, MPI_INT, rsize, comm,
					      &req));
	/* counts, where they are significant */
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Ibcast(x, -1, MPI_INT, 0, comm, &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Ibcast(x, -1, MPI_INT, MPI_ROOT, comm, &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Iallreduce(x, y, -2, MPI_INT, MPI_SUM, comm, &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Iallgather(x, -1, MPI_INT, y, 1, MPI_INT, comm, &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Ialltoall(x, 1, MPI_INT, y, -1, MPI_INT, comm, &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Igather(x, 1, MPI_INT, y, -1, MPI_INT, MPI_ROOT, comm,
					      &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Iscatter(x, 1, MPI_INT, y, -1, MPI_INT, 0, comm, &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Iallgatherv(x, 1, MPI_INT, y, neg, displs, MPI_INT,
						  comm, &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Ialltoallv(x, neg, displs, MPI_INT, y, counts,
						 displs, MPI_INT, comm, &req));
	EXPECT_ERR(MPI_ERR_ARG, MPI_Ialltoallv(x, counts, NULL, MPI_INT, y, counts,
					       displs, MPI_INT, comm, &req));
	EXPECT_ERR(MPI_ERR_ARG, MPI_Iallgatherv(x, 1, MPI_INT, y, NULL, displs, MPI_INT,
						comm, &req));
	/* datatypes */
	EXPECT_ERR(MPI_ERR_TYPE, MPI_Ibcast(x, 1, MPI_DATATYPE_NULL, 0, comm, &req));
	EXPECT_ERR(MPI_ERR_TYPE, MPI_Ialltoall(x, 1, MPI_INT, y, 1, MPI_DATATYPE_NULL, comm,
					       &req));
	EXPECT_ERR(MPI_ERR_TYPE, MPI_Ireduce(x, y, 1, MPI_DATATYPE_NULL, MPI_SUM, MPI_ROOT,
					     comm, &req));
	{
		MPI_Datatype uncommitted;

		CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &uncommitted));
		EXPECT_ERR(MPI_ERR_TYPE, MPI_Iallgather(x, 1, uncommitted, y, 2, MPI_INT,
							comm, &req));
		CHECK_MPI(MPI_Type_free(&uncommitted));
	}
	/* ops */
	EXPECT_ERR(MPI_ERR_OP, MPI_Iallreduce(x, y, 1, MPI_INT, MPI_OP_NULL, comm, &req));
	EXPECT_ERR(MPI_ERR_OP, MPI_Ireduce(x, y, 1, MPI_BYTE, MPI_SUM, 0, comm, &req));
	EXPECT_ERR(MPI_ERR_OP, MPI_Ireduce(x, y, 1, MPI_INT, MPI_OP_NULL, MPI_ROOT, comm,
					   &req));
	EXPECT_ERR(MPI_ERR_OP, MPI_Iallreduce(x, y, 1, MPI_DOUBLE, MPI_BAND, comm, &req));
	/* buffers: no MPI_IN_PLACE on an intercommunicator, no NULL buffer */
	EXPECT_ERR(MPI_ERR_BUFFER, MPI_Iallreduce(MPI_IN_PLACE, y, 1, MPI_INT, MPI_SUM, comm,
						  &req));
	EXPECT_ERR(MPI_ERR_BUFFER, MPI_Iallgather(MPI_IN_PLACE, 1, MPI_INT, y, 1, MPI_INT,
						  comm, &req));
	EXPECT_ERR(MPI_ERR_BUFFER, MPI_Ialltoall(MPI_IN_PLACE, 1, MPI_INT, y, 1, MPI_INT,
						 comm, &req));
	EXPECT_ERR(MPI_ERR_BUFFER, MPI_Igather(x, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT,
					       MPI_ROOT, comm, &req));
	EXPECT_ERR(MPI_ERR_BUFFER, MPI_Ireduce(MPI_IN_PLACE, y, 1, MPI_INT, MPI_SUM, 0, comm,
					       &req));
	EXPECT_ERR(MPI_ERR_BUFFER, MPI_Iallreduce(NULL, y, 1, MPI_INT, MPI_SUM, comm, &req));
	EXPECT_ERR(MPI_ERR_BUFFER, MPI_Ireduce(x, NULL, 1, MPI_INT, MPI_SUM, MPI_ROOT, comm,
					       &req));
	EXPECT_ERR(MPI_ERR_ARG, MPI_Ibarrier(comm, NULL));
	/* the v- and w-variants: counts and types over the remote group, but
	 * over the local one for reduce-scatter; scan and exscan are for
	 * intracommunicators only (MPI 3.1, sections 5.11.1 and 5.11.2) */
	EXPECT_ERR(MPI_ERR_ROOT, MPI_Igatherv(x, 1, MPI_INT, y, counts, displs, MPI_INT,
					      rsize, comm, &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Igatherv(x, 1, MPI_INT, y, neg, displs, MPI_INT,
					       MPI_ROOT, comm, &req));
	EXPECT_ERR(MPI_ERR_ARG, MPI_Iscatterv(x, counts, NULL, MPI_INT, y, 1, MPI_INT,
					      MPI_ROOT, comm, &req));
	EXPECT_ERR(MPI_ERR_BUFFER, MPI_Iscatterv(x, counts, displs, MPI_INT, MPI_IN_PLACE, 1,
						 MPI_INT, 0, comm, &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Ialltoallw(x, neg, displs, types, y, counts, displs,
						 types, comm, &req));
	EXPECT_ERR(MPI_ERR_TYPE, MPI_Ialltoallw(x, counts, displs, types, y, counts, displs,
						badtypes, comm, &req));
	EXPECT_ERR(MPI_ERR_BUFFER, MPI_Ialltoallw(MPI_IN_PLACE, counts, displs, types, y,
						  counts, displs, types, comm, &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Ireduce_scatter(x, y, lneg, MPI_INT, MPI_SUM, comm,
						      &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Ireduce_scatter_block(x, y, -1, MPI_INT, MPI_SUM, comm,
							    &req));
	EXPECT_ERR(MPI_ERR_OP, MPI_Ireduce_scatter(x, y, counts, MPI_INT, MPI_OP_NULL, comm,
						   &req));
	EXPECT_ERR(MPI_ERR_BUFFER, MPI_Ireduce_scatter_block(MPI_IN_PLACE, y, 1, MPI_INT,
							     MPI_SUM, comm, &req));
	EXPECT_ERR(MPI_ERR_COMM, MPI_Iscan(x, y, 1, MPI_INT, MPI_SUM, comm, &req));
	EXPECT_ERR(MPI_ERR_COMM, MPI_Iexscan(x, y, 1, MPI_INT, MPI_SUM, comm, &req));
	EXPECT_ERR(MPI_ERR_ARG, MPI_Comm_idup(comm, &newcomm, NULL));
	CHECK(newcomm == MPI_COMM_NULL);
	/* nothing changed: the next collectives match on every process */
	CHECK_MPI(MPI_Iallreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm, &req));
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	for (int r = 0; r < rsize; r++)
		want += world_of(!in_a, r);
	CHECK(sum == want);
	for (int i = 0; i < rsize; i++)
		y[i] = -1;
	CHECK_MPI(MPI_Iallgather(&rank, 1, MPI_INT, y, 1, MPI_INT, comm, &req));
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	for (int i = 0; i < rsize; i++)
		CHECK(y[i] == world_of(!in_a, i));
	CHECK_MPI(MPI_Comm_free(&comm));
}

int main(int argc, char **argv)
{
	const char *which = argc > 2 ? argv[2] : "all";

	if (argc > 3)
		mode = argv[3];
	tu_init(&argc, &argv);
	inter_begin(argc > 1 ? argv[1] : NULL);
	CHECK(size <= 64);
	if (!strcmp(which, "fatal")) {
		/* the default handler ends the job, the class as exit status */
		MPI_Request req;
		int x = 0;

		MPI_Ibcast(&x, 1, MPI_INT, rsize, inter, &req);
		CHECK(0);
	}
	TU_RUN("barrier", test_barrier);
	TU_RUN("bcast", test_bcast);
	TU_RUN("reduce", test_reduce);
	TU_RUN("allreduce", test_allreduce);
	TU_RUN("gather_scatter", test_gather_scatter);
	TU_RUN("allgather", test_allgather);
	TU_RUN("alltoall", test_alltoall);
	TU_RUN("gatherv_scatterv", test_gatherv_scatterv);
	TU_RUN("alltoallw", test_alltoallw);
	TU_RUN("reduce_scatter", test_reduce_scatter);
	TU_RUN("idup", test_idup);
	TU_RUN("overlap", test_overlap);
	TU_RUN("mixed", test_mixed);
	TU_RUN("outside", test_outside);
	TU_RUN("errors", test_errors);
	inter_end();
	MPI_Finalize();
	return 0;
}
