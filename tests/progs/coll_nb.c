/*
 * The nonblocking collectives: every call against values each rank
 * computes itself (byte-exact, every root, small and rendezvous sizes,
 * derived datatypes, MPI_IN_PLACE where the standard allows it, a
 * non-commutative user op), several outstanding at once and completed in
 * different orders, mixed with blocking collectives and point-to-point on
 * the same communicator, progress while the other ranks are outside MPI
 * (strong) or not (weak), and the error classes.
 *   coll_nb [test [weak|strong]]
 */
#include "nbutil.h"

static int rank, size;

/* ---- each call on its own ------------------------------------------------ */

static void t_barrier(MPI_Comm comm)
{
	int me, n;
	MPI_Request req;

	MPI_Comm_rank(comm, &me);
	MPI_Comm_size(comm, &n);
	/* nobody leaves before everybody entered */
	for (int round = 0; round < 3; round++) {
		double t[2], *all = malloc(sizeof(double) * 2 * (size_t)n);

		tu_sleep_ms((me * 3 + round) % 5);
		t[0] = MPI_Wtime();
		CHECK_MPI(MPI_Ibarrier(comm, &req));
		overlap_wait(&req);
		t[1] = MPI_Wtime();
		CHECK_MPI(MPI_Allgather(t, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, comm));
		for (int a = 0; a < n; a++)
			for (int b = 0; b < n; b++)
				CHECK(all[2 * a] <= all[2 * b + 1]);
		free(all);
	}
}

static void t_bcast(MPI_Comm comm)
{
	int me, n;
	MPI_Request req;
	MPI_Datatype vec;

	MPI_Comm_rank(comm, &me);
	MPI_Comm_size(comm, &n);
	for (int s = 0; s < NSIZES; s++)
		for (int root = 0; root < n; root++) {
			int cnt = sizes[s], *b = ints((size_t)cnt, -999);

			for (int i = 0; me == root && i < cnt; i++)
				b[i] = val(root, i);
			CHECK_MPI(MPI_Ibcast(b, cnt, MPI_INT, root, comm, &req));
			overlap_wait(&req);
			for (int i = 0; i < cnt; i++)
				CHECK(b[i] == val(root, i));
			CHECK(b[cnt] == -999);
			free(b);
		}
	/* a vector type: the gaps stay as they were */
	CHECK_MPI(MPI_Type_vector(3, 2, 3, MPI_INT, &vec));
	CHECK_MPI(MPI_Type_commit(&vec));
	{
		int b[4 * 8 + 1];

		for (int i = 0; i < 33; i++)
			b[i] = me == 1 % n ? val(1, i) : -1;
		CHECK_MPI(MPI_Ibcast(b, 4, vec, 1 % n, comm, &req));
		CHECK_MPI(MPI_Type_free(&vec));	/* the operation keeps it */
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		for (int i = 0; i < 33; i++) {
			/* element k covers ints 8k + {0, 1, 3, 4, 6, 7} */
			int in_type = i < 32 && i % 8 != 2 && i % 8 != 5;

			CHECK(b[i] == (me == 1 % n || in_type ? val(1, i) : -1));
		}
	}
}

static void t_reduce(MPI_Comm comm, int all)
{
	int me, n;
	MPI_Request req;
	MPI_Datatype pair;
	MPI_Op op;

	MPI_Comm_rank(comm, &me);
	MPI_Comm_size(comm, &n);
	/* predefined op, every root, in place at the root on odd sizes */
	for (int s = 0; s < NSIZES; s++)
		for (int root = 0; root < n; root++) {
			int cnt = sizes[s], *in = ints((size_t)cnt, 0), *out = ints((size_t)cnt, -7);
			int in_place = s % 2 && (all || me == root);

			for (int i = 0; i < cnt; i++)
				(in_place ? out : in)[i] = val(me, i);
			if (all)
				CHECK_MPI(MPI_Iallreduce(in_place ? MPI_IN_PLACE : in, out, cnt,
							 MPI_INT, MPI_SUM, comm, &req));
			else
				CHECK_MPI(MPI_Ireduce(in_place ? MPI_IN_PLACE : in, out, cnt,
						      MPI_INT, MPI_SUM, root, comm, &req));
			overlap_wait(&req);
			for (int i = 0; (all || me == root) && i < cnt; i++) {
				int want = 0;

				for (int r = 0; r < n; r++)
					want += val(r, i);
				CHECK(out[i] == want);
			}
			CHECK(out[cnt] == -7);
			free(in);
			free(out);
			if (all)
				break;
		}
	/* a user op that does not commute, on a derived type */
	CHECK_MPI(MPI_Type_contiguous(2, MPI_UNSIGNED, &pair));
	CHECK_MPI(MPI_Type_commit(&pair));
	CHECK_MPI(MPI_Op_create(affine_op, 0, &op));
	for (int root = 0; root < n; root++) {
		int cnt = 300;
		affine *in = malloc(sizeof(affine) * (size_t)cnt);
		affine *out = malloc(sizeof(affine) * (size_t)cnt);

		for (int i = 0; i < cnt; i++) {
			in[i] = aff(me, i);
			out[i] = (affine){ 0, 0 };
		}
		if (all)
			CHECK_MPI(MPI_Iallreduce(in, out, cnt, pair, op, comm, &req));
		else
			CHECK_MPI(MPI_Ireduce(in, out, cnt, pair, op, root, comm, &req));
		CHECK_MPI(MPI_Op_free(&op));	/* the operation keeps it */
		overlap_wait(&req);
		CHECK_MPI(MPI_Op_create(affine_op, 0, &op));
		for (int i = 0; (all || me == root) && i < cnt; i++) {
			affine want = aff_range(0, n, i);

			CHECK(out[i].a == want.a && out[i].b == want.b);
		}
		free(in);
		free(out);
		if (all)
			break;
	}
	CHECK_MPI(MPI_Op_free(&op));
	CHECK_MPI(MPI_Type_free(&pair));
	/* MPI_SUM on a vector type: the gaps of recvbuf stay untouched */
	{
		MPI_Datatype vec;
		int in[16], out[17];

		CHECK_MPI(MPI_Type_vector(2, 2, 4, MPI_INT, &vec));
		CHECK_MPI(MPI_Type_commit(&vec));
		for (int i = 0; i < 16; i++)
			in[i] = val(me, i);
		for (int i = 0; i < 17; i++)
			out[i] = -3;
		/* 2 elements of extent 6: ints 0,1,4,5 and 6,7,10,11 */
		if (all)
			CHECK_MPI(MPI_Iallreduce(in, out, 2, vec, MPI_SUM, comm, &req));
		else
			CHECK_MPI(MPI_Ireduce(in, out, 2, vec, MPI_SUM, n - 1, comm, &req));
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		for (int i = 0; (all || me == n - 1) && i < 17; i++) {
			int want = 0, used = i == 0 || i == 1 || i == 4 || i == 5 || i == 6 ||
					     i == 7 || i == 10 || i == 11;

			for (int r = 0; r < n; r++)
				want += val(r, i);
			CHECK(out[i] == (used ? want : -3));
		}
		CHECK_MPI(MPI_Type_free(&vec));
	}
}

static void t_ireduce(MPI_Comm comm) { t_reduce(comm, 0); }
static void t_iallreduce(MPI_Comm comm) { t_reduce(comm, 1); }

static void t_gather_scatter(MPI_Comm comm)
{
	int me, n;
	MPI_Request req;

	MPI_Comm_rank(comm, &me);
	MPI_Comm_size(comm, &n);
	for (int s = 0; s < NSIZES; s++)
		for (int root = 0; root < n; root++) {
			int cnt = sizes[s] / 4, in_place = s % 2 && me == root;
			int *mine = ints((size_t)cnt, 0), *all = ints((size_t)cnt * (size_t)n, -5);

			/* gather */
			for (int i = 0; i < cnt; i++)
				(in_place ? all + me * cnt : mine)[i] = val(me, i);
			CHECK_MPI(MPI_Igather(in_place ? MPI_IN_PLACE : mine, cnt, MPI_INT,
					      all, cnt, MPI_INT, root, comm, &req));
			overlap_wait(&req);
			for (int r = 0; me == root && r < n; r++)
				for (int i = 0; i < cnt; i++)
					CHECK(all[r * cnt + i] == val(r, i));
			CHECK(all[cnt * n] == -5);
			/* scatter back, shifted */
			for (int i = 0; me == root && i < cnt * n; i++)
				all[i] = val(i / (cnt ? cnt : 1) + 1, i % (cnt ? cnt : 1));
			for (int i = 0; i <= cnt; i++)
				mine[i] = -6;
			CHECK_MPI(MPI_Iscatter(all, cnt, MPI_INT, in_place ? MPI_IN_PLACE : mine,
					       cnt, MPI_INT, root, comm, &req));
			overlap_wait(&req);
			for (int i = 0; i < cnt; i++)
				CHECK((in_place ? all + me * cnt : mine)[i] == val(me + 1, i));
			CHECK(mine[cnt] == -6 || in_place);
			free(mine);
			free(all);
		}
	/* different types on the two sides: 6 ints against a vector element */
	{
		MPI_Datatype vec = pairs_type(3, 8);
		int mine[6], *all = ints((size_t)n * 8, -1);

		for (int i = 0; i < 6; i++)
			mine[i] = val(me, i);
		CHECK_MPI(MPI_Igather(mine, 6, MPI_INT, all, 1, vec, 0, comm, &req));
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		for (int r = 0; me == 0 && r < n; r++)
			CHECK(pairs_hold(all + 8 * r, 3, 8, r, -1));
		for (int i = 0; i < 6; i++)
			mine[i] = 0;
		CHECK_MPI(MPI_Iscatter(all, 1, vec, mine, 6, MPI_INT, 0, comm, &req));
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		for (int i = 0; i < 6; i++)
			CHECK(mine[i] == val(me, i));
		CHECK_MPI(MPI_Type_free(&vec));
		free(all);
	}
}

static void t_allgather(MPI_Comm comm)
{
	int me, n;
	MPI_Request req;

	MPI_Comm_rank(comm, &me);
	MPI_Comm_size(comm, &n);
	for (int s = 0; s < NSIZES; s++) {
		int cnt = sizes[s] / 4, in_place = s % 2;
		int *mine = ints((size_t)cnt, 0), *all = ints((size_t)cnt * (size_t)n, -5);

		for (int i = 0; i < cnt; i++)
			(in_place ? all + me * cnt : mine)[i] = val(me, i);
		CHECK_MPI(MPI_Iallgather(in_place ? MPI_IN_PLACE : mine, cnt, MPI_INT, all,
					 cnt, MPI_INT, comm, &req));
		overlap_wait(&req);
		for (int r = 0; r < n; r++)
			for (int i = 0; i < cnt; i++)
				CHECK(all[r * cnt + i] == val(r, i));
		CHECK(all[cnt * n] == -5);
		free(mine);
		free(all);
	}
	/* v: member r gives r * 3 + 1 ints, placed backwards with gaps */
	for (int in_place = 0; in_place < 2; in_place++) {
		int *counts = ints((size_t)n, 0), *displs = ints((size_t)n, 0), total;
		int *all, mine[64];

		for (int r = 0; r < n; r++)
			counts[r] = r * 3 + 1;
		total = place_blocks(n, counts, displs, 1, 2);
		all = ints((size_t)total, -4);
		for (int i = 0; i < counts[me]; i++)
			(in_place ? all + displs[me] : mine)[i] = val(me, i);
		CHECK_MPI(MPI_Iallgatherv(in_place ? MPI_IN_PLACE : mine, counts[me], MPI_INT,
					  all, counts, displs, MPI_INT, comm, &req));
		overlap_wait(&req);
		for (int r = 0; r < n; r++) {
			for (int i = 0; i < counts[r]; i++)
				CHECK(all[displs[r] + i] == val(r, i));
			CHECK(all[displs[r] + counts[r]] == -4 &&
			      all[displs[r] + counts[r] + 1] == -4);
		}
		free(all);
		free(counts);
		free(displs);
	}
}

static void t_alltoall(MPI_Comm comm)
{
	int me, n;
	MPI_Request req;

	MPI_Comm_rank(comm, &me);
	MPI_Comm_size(comm, &n);
	for (int s = 0; s < NSIZES; s++) {
		int cnt = sizes[s] / 8, in_place = s % 2;
		int *snd = ints((size_t)cnt * (size_t)n, 0), *rcv = ints((size_t)cnt * (size_t)n, -5);

		/* block for member m: val(me * n + m, i) */
		for (int m = 0; m < n; m++)
			for (int i = 0; i < cnt; i++)
				(in_place ? rcv : snd)[m * cnt + i] = val(me * n + m, i);
		CHECK_MPI(MPI_Ialltoall(in_place ? MPI_IN_PLACE : snd, cnt, MPI_INT, rcv, cnt,
					MPI_INT, comm, &req));
		overlap_wait(&req);
		for (int m = 0; m < n; m++)
			for (int i = 0; i < cnt; i++)
				CHECK(rcv[m * cnt + i] == val(m * n + me, i));
		CHECK(rcv[cnt * n] == -5);
		free(snd);
		free(rcv);
	}
	/* v: me sends (me + m) % 3 * 2 ints to m (0 included), reversed
	 * displacements on the receiving side */
	for (int in_place = 0; in_place < 2; in_place++) {
		int *sc = ints((size_t)n, 0), *sd = ints((size_t)n, 0);
		int *rc = ints((size_t)n, 0), *rd = ints((size_t)n, 0);
		int *snd, *rcv;

		for (int m = 0; m < n; m++) {
			sc[m] = (me + m) % 3 * 2;
			rc[m] = (m + me) % 3 * 2;
		}
		snd = ints((size_t)place_blocks(n, sc, sd, 0, 1), 0);
		rcv = ints((size_t)place_blocks(n, rc, rd, 1, 1), -8);
		for (int m = 0; m < n; m++)
			for (int i = 0; i < sc[m]; i++) {
				if (in_place)
					rcv[rd[m] + i] = val(me * n + m, i);
				else
					snd[sd[m] + i] = val(me * n + m, i);
			}
		CHECK_MPI(MPI_Ialltoallv(in_place ? MPI_IN_PLACE : snd, sc, sd, MPI_INT,
					 rcv, rc, rd, MPI_INT, comm, &req));
		overlap_wait(&req);
		for (int m = 0; m < n; m++) {
			for (int i = 0; i < rc[m]; i++)
				CHECK(rcv[rd[m] + i] == val(m * n + me, i));
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
		int *snd = ints((size_t)n * 4, 0), *rcv = ints((size_t)n * 6, -9);

		for (int m = 0; m < n; m++)
			for (int i = 0; i < 4; i++)
				snd[m * 4 + i] = val(me * n + m, i);
		CHECK_MPI(MPI_Ialltoall(snd, 4, MPI_INT, rcv, 1, vec, comm, &req));
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		for (int m = 0; m < n; m++)
			CHECK(pairs_hold(rcv + 6 * m, 2, 6, m * n + me, -9));
		CHECK_MPI(MPI_Type_free(&vec));
		free(snd);
		free(rcv);
	}
}

static void test_barrier(void) { on_comms(t_barrier); }
static void test_bcast(void) { on_comms(t_bcast); }
static void test_reduce(void) { on_comms(t_ireduce); }
static void test_allreduce(void) { on_comms(t_iallreduce); }
static void test_gather_scatter(void) { on_comms(t_gather_scatter); }
static void test_allgather(void) { on_comms(t_allgather); }
static void test_alltoall(void) { on_comms(t_alltoall); }

/* ---- several at once ------------------------------------------------------ */

#define NREQ 7
#define BIGN 20000

struct many {
	MPI_Request req[NREQ];
	int *bc, *red, *gat, *ag, *a2s, *a2r, sum[2], g[10];
	MPI_Comm other;
};

/* Start seven collectives on two communicators, interleaved. */
static void many_start(struct many *m, int round)
{
	int root = round % size;

	m->bc = ints(BIGN, -1);
	m->red = ints(BIGN, -1);
	m->gat = ints((size_t)size * 10, -1);
	m->ag = ints((size_t)size * 3, -1);
	m->a2s = ints((size_t)size * 5, 0);
	m->a2r = ints((size_t)size * 5, -1);
	for (int i = 0; rank == root && i < BIGN; i++)
		m->bc[i] = val(root + round, i);
	for (int i = 0; i < BIGN; i++)
		m->red[i] = val(rank, i + round);
	for (int i = 0; i < size * 5; i++)
		m->a2s[i] = val(rank * size + i / 5, i % 5 + round);
	CHECK_MPI(MPI_Ibcast(m->bc, BIGN, MPI_INT, root, MPI_COMM_WORLD, &m->req[0]));
	CHECK_MPI(MPI_Iallreduce(MPI_IN_PLACE, m->red, BIGN, MPI_INT, MPI_SUM,
				 MPI_COMM_WORLD, &m->req[1]));
	m->sum[0] = rank + round;	/* the largest of my parity wins */
	CHECK_MPI(MPI_Iallreduce(m->sum, m->sum + 1, 1, MPI_INT, MPI_MAX, m->other,
				 &m->req[2]));
	CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &m->req[3]));
	for (int i = 0; i < 10; i++)
		m->g[i] = val(rank, i * round);
	CHECK_MPI(MPI_Igather(m->g, 10, MPI_INT, m->gat, 10, MPI_INT, (root + 1) % size,
			      MPI_COMM_WORLD, &m->req[4]));
	for (int i = 0; i < 3; i++)
		m->ag[rank / 2 * 3 + i] = val(rank, i + round);	/* my rank in other */
	CHECK_MPI(MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, m->ag, 3, MPI_INT,
				 m->other, &m->req[5]));
	CHECK_MPI(MPI_Ialltoall(m->a2s, 5, MPI_INT, m->a2r, 5, MPI_INT, MPI_COMM_WORLD,
				&m->req[6]));
}

static void many_check(struct many *m, int round)
{
	int root = round % size, osize;

	MPI_Comm_size(m->other, &osize);
	for (int i = 0; i < BIGN; i++) {
		int want = 0;

		for (int r = 0; r < size; r++)
			want += val(r, i + round);
		CHECK(m->bc[i] == val(root + round, i));
		CHECK(m->red[i] == want);
	}
	CHECK(m->sum[1] == (size - 1 - (size - 1 - rank) % 2) + round);
	for (int r = 0; rank == (root + 1) % size && r < size; r++)
		for (int i = 0; i < 10; i++)
			CHECK(m->gat[r * 10 + i] == val(r, i * round));
	for (int r = 0; r < osize; r++)
		for (int i = 0; i < 3; i++)
			CHECK(m->ag[r * 3 + i] == val(r * 2 + rank % 2, i + round));
	for (int r = 0; r < size; r++)
		for (int i = 0; i < 5; i++)
			CHECK(m->a2r[r * 5 + i] == val(r * size + rank, i + round));
	free(m->bc);
	free(m->red);
	free(m->gat);
	free(m->ag);
	free(m->a2s);
	free(m->a2r);
}

static void test_overlap(void)
{
	struct many m[2];

	CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &m[0].other));
	m[1].other = m[0].other;
	for (int how = 0; how < 6; how++) {
		/* two rounds outstanding together, completed newest first */
		many_start(&m[0], how);
		many_start(&m[1], how + 10);
		complete_all(m[1].req, NREQ, how);
		complete_all(m[0].req, NREQ, (how + 2) % 6);
		many_check(&m[1], how + 10);
		many_check(&m[0], how);
	}
	CHECK_MPI(MPI_Comm_free(&m[0].other));
}

/* Blocking collectives and point-to-point (wildcards included) on the same
 * communicator while nonblocking collectives are outstanding. */
static void test_mixed(void)
{
	MPI_Comm comm;
	MPI_Request nb[3], p2p[2];
	int *bc = ints(BIGN, 0), ar[2] = { rank, 0 }, ag[64], token, got = -1, sum = 0;
	MPI_Status st;

	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
	for (int i = 0; rank == 0 && i < BIGN; i++)
		bc[i] = val(3, i);
	CHECK_MPI(MPI_Ibcast(bc, BIGN, MPI_INT, 0, comm, &nb[0]));
	CHECK_MPI(MPI_Iallreduce(ar, ar + 1, 1, MPI_INT, MPI_SUM, comm, &nb[1]));
	/* user messages with wildcards never take the collectives' ones */
	token = rank * 100;
	CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &p2p[0]));
	CHECK_MPI(MPI_Isend(&token, 1, MPI_INT, (rank + 1) % size, 5, comm, &p2p[1]));
	CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm));
	CHECK(sum == size * (size - 1) / 2);
	CHECK_MPI(MPI_Iallgather(&rank, 1, MPI_INT, ag, 1, MPI_INT, comm, &nb[2]));
	CHECK_MPI(MPI_Barrier(comm));
	CHECK_MPI(MPI_Waitall(2, p2p, MPI_STATUSES_IGNORE));
	CHECK(got == (rank + size - 1) % size * 100);
	{
		int x = rank == 1 % size ? 77 : 0;

		CHECK_MPI(MPI_Bcast(&x, 1, MPI_INT, 1 % size, comm));
		CHECK(x == 77);
	}
	CHECK_MPI(MPI_Wait(&nb[2], &st));
	CHECK_MPI(MPI_Waitall(2, nb, MPI_STATUSES_IGNORE));
	for (int i = 0; i < BIGN; i++)
		CHECK(bc[i] == val(3, i));
	CHECK(ar[1] == size * (size - 1) / 2);
	for (int r = 0; r < size; r++)
		CHECK(ag[r] == r);
	/* a freed request still completes; the next ones still match */
	CHECK_MPI(MPI_Ibarrier(comm, &nb[0]));
	CHECK_MPI(MPI_Request_free(&nb[0]));
	CHECK(nb[0] == MPI_REQUEST_NULL);
	CHECK_MPI(MPI_Iallreduce(&rank, &sum, 1, MPI_INT, MPI_MAX, comm, &nb[1]));
	CHECK_MPI(MPI_Wait(&nb[1], MPI_STATUS_IGNORE));
	CHECK(sum == size - 1);
	CHECK_MPI(MPI_Comm_free(&comm));	/* with nothing pending of ours */
	free(bc);
}

/* ---- progress ------------------------------------------------------------ */

/* Which progress the job runs under: the script says (argv[2]). */
static int strong;

/* A large broadcast from rank 1 while rank 0 waits and the others compute
 * outside MPI (nbutil.h). */
static void test_outside(void)
{
	int *b = ints(BIGN * 2, -1);
	MPI_Request req[2];
	struct outside o;

	outside_begin(&o);
	for (int i = 0; rank == 1 && i < BIGN * 2; i++)
		b[i] = val(1, i);
	CHECK_MPI(MPI_Ibcast(b, BIGN * 2, MPI_INT, 1, MPI_COMM_WORLD, &req[0]));
	CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &req[1]));
	outside_end(&o, strong ? "strong" : "weak", 2, req);
	for (int i = 0; i < BIGN * 2; i++)
		CHECK(b[i] == val(1, i));
	free(b);
}

/*
 * For the watchdog (tests/watch/coll_nb.sh, weak progress): rank 0 sends
 * rank 1 a large message, starts a large broadcast and computes outside MPI
 * for 2.5 s, so rank 1's receive stalls on rank 0's engine; the watchdog
 * names rank 0 after the call that left its engine work, MPI_Ibcast.
 */
static void test_watch(void)
{
	int *b = ints(BIGN * 4, 1), *c = ints(BIGN * 4, 2);
	MPI_Request req[2];

	if (rank == 0) {
		CHECK_MPI(MPI_Isend(b, BIGN * 4, MPI_INT, 1, 3, MPI_COMM_WORLD, &req[0]));
		CHECK_MPI(MPI_Ibcast(c, BIGN * 4, MPI_INT, 0, MPI_COMM_WORLD, &req[1]));
		tu_sleep_ms(2500);	/* "computing" */
		CHECK_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
	} else {
		if (rank == 1)
			CHECK_MPI(MPI_Recv(b, BIGN * 4, MPI_INT, 0, 3, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Ibcast(c, BIGN * 4, MPI_INT, 0, MPI_COMM_WORLD, &req[1]));
		CHECK_MPI(MPI_Wait(&req[1], MPI_STATUS_IGNORE));
		CHECK(c[0] == 2 && c[BIGN * 4 - 1] == 2 && (rank != 1 || b[0] == 1));
	}
	free(b);
	free(c);
}

/* ---- errors -------------------------------------------------------------- */

static void test_errors(void)
{
	MPI_Comm comm;
	MPI_Request req;
	int a[64] = { 0 }, b[64], counts[64], displs[64], neg[64], sum;

	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
	CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
	for (int i = 0; i < 64; i++) {
		counts[i] = 1;
		displs[i] = i;
		neg[i] = i == size - 1 ? -1 : 1;
	}
	EXPECT_ERR(MPI_ERR_ROOT, MPI_Ibcast(a, 1, MPI_INT, size, comm, &req));
	EXPECT_ERR(MPI_ERR_ROOT, MPI_Ireduce(a, b, 1, MPI_INT, MPI_SUM, -1, comm, &req));
	EXPECT_ERR(MPI_ERR_ROOT, MPI_Igather(a, 1, MPI_INT, b, 1, MPI_INT, size + 3, comm,
					     &req));
	EXPECT_ERR(MPI_ERR_ROOT, MPI_Iscatter(a, 1, MPI_INT, b, 1, MPI_INT, MPI_ROOT, comm,
					      &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Ibcast(a, -1, MPI_INT, 0, comm, &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Iallreduce(a, b, -2, MPI_INT, MPI_SUM, comm, &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Iallgather(a, -1, MPI_INT, b, 1, MPI_INT, comm, &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Ialltoall(a, 1, MPI_INT, b, -1, MPI_INT, comm, &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Iallgatherv(a, 1, MPI_INT, b, neg, displs, MPI_INT,
						  comm, &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Ialltoallv(a, neg, displs, MPI_INT, b, counts,
						 displs, MPI_INT, comm, &req));
	EXPECT_ERR(MPI_ERR_ARG, MPI_Ialltoallv(a, counts, NULL, MPI_INT, b, counts,
					       displs, MPI_INT, comm, &req));
	EXPECT_ERR(MPI_ERR_ARG, MPI_Iallgatherv(a, 1, MPI_INT, b, NULL, displs, MPI_INT,
						comm, &req));
	EXPECT_ERR(MPI_ERR_TYPE, MPI_Ibcast(a, 1, MPI_DATATYPE_NULL, 0, comm, &req));
	EXPECT_ERR(MPI_ERR_TYPE, MPI_Ialltoall(a, 1, MPI_INT, b, 1, MPI_DATATYPE_NULL, comm,
					       &req));
	{
		MPI_Datatype uncommitted;

		CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &uncommitted));
		EXPECT_ERR(MPI_ERR_TYPE, MPI_Iallgather(a, 1, uncommitted, b, 2, MPI_INT,
							comm, &req));
		CHECK_MPI(MPI_Type_free(&uncommitted));
	}
	EXPECT_ERR(MPI_ERR_OP, MPI_Iallreduce(a, b, 1, MPI_INT, MPI_OP_NULL, comm, &req));
	EXPECT_ERR(MPI_ERR_OP, MPI_Ireduce(a, b, 1, MPI_BYTE, MPI_SUM, 0, comm, &req));
	EXPECT_ERR(MPI_ERR_OP, MPI_Iallreduce(a, b, 1, MPI_INT, MPI_REPLACE, comm, &req));
	EXPECT_ERR(MPI_ERR_OP, MPI_Ireduce(a, b, 1, MPI_DOUBLE, MPI_BAND, 0, comm, &req));
	/* MPI_IN_PLACE where the standard does not allow it */
	EXPECT_ERR(MPI_ERR_BUFFER, MPI_Ibcast(MPI_IN_PLACE, 1, MPI_INT, 0, comm, &req));
	EXPECT_ERR(MPI_ERR_BUFFER, MPI_Iallreduce(a, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM,
						  comm, &req));
	EXPECT_ERR(MPI_ERR_BUFFER, MPI_Iallgather(a, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT,
						  comm, &req));
	EXPECT_ERR(MPI_ERR_BUFFER, MPI_Ialltoall(a, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT,
						 comm, &req));
	if (rank != 0) {
		/* in place is for the root only: these fail on the others alone,
		 * and must leave nothing behind that would upset what follows */
		EXPECT_ERR(MPI_ERR_BUFFER, MPI_Igather(MPI_IN_PLACE, 1, MPI_INT, b, 1,
						       MPI_INT, 0, comm, &req));
		EXPECT_ERR(MPI_ERR_BUFFER, MPI_Iscatter(a, 1, MPI_INT, MPI_IN_PLACE, 1,
							MPI_INT, 0, comm, &req));
		EXPECT_ERR(MPI_ERR_BUFFER, MPI_Ireduce(MPI_IN_PLACE, b, 1, MPI_INT, MPI_SUM,
						       0, comm, &req));
	} else {
		EXPECT_ERR(MPI_ERR_BUFFER, MPI_Ireduce(a, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM,
						       0, comm, &req));
		EXPECT_ERR(MPI_ERR_BUFFER, MPI_Igather(a, 1, MPI_INT, NULL, 1, MPI_INT, 0,
						       comm, &req));
	}
	EXPECT_ERR(MPI_ERR_BUFFER, MPI_Iallreduce(NULL, b, 1, MPI_INT, MPI_SUM, comm, &req));
	EXPECT_ERR(MPI_ERR_ARG, MPI_Ibarrier(comm, NULL));
	/* an invalid communicator raises on MPI_COMM_WORLD */
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	EXPECT_ERR(MPI_ERR_COMM, MPI_Ibarrier(MPI_COMM_NULL, &req));
	EXPECT_ERR(MPI_ERR_COMM, MPI_Iallreduce(a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL,
						&req));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
	/* nothing changed: the next collectives match on every rank */
	CHECK_MPI(MPI_Iallreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm, &req));
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	CHECK(sum == size * (size - 1) / 2);
	for (int i = 0; i < size; i++)
		b[i] = -1;
	CHECK_MPI(MPI_Iallgather(&rank, 1, MPI_INT, b, 1, MPI_INT, comm, &req));
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	for (int i = 0; i < size; i++)
		CHECK(b[i] == i);
	CHECK_MPI(MPI_Comm_free(&comm));
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	strong = argc > 2 && !strcmp(argv[2], "strong");
	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK(size <= 64);
	TU_RUN("barrier", test_barrier);
	TU_RUN("bcast", test_bcast);
	TU_RUN("reduce", test_reduce);
	TU_RUN("allreduce", test_allreduce);
	TU_RUN("gather_scatter", test_gather_scatter);
	TU_RUN("allgather", test_allgather);
	TU_RUN("alltoall", test_alltoall);
	TU_RUN("overlap", test_overlap);
	TU_RUN("mixed", test_mixed);
	if (size >= 2)
		TU_RUN("outside", test_outside);
	TU_RUN("errors", test_errors);
	if (!strcmp(which, "watch"))	/* not part of "all" */
		TU_RUN("watch", test_watch);
	MPI_Finalize();
	return 0;
}
