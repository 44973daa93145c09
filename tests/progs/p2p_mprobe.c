/*
 * Matched probe and receive (MPI 3.1, sections 3.8.2 and 3.8.3) at any
 * number of ranks: a matched message leaves the matching queue at once, so
 * no later probe or receive sees it; MPI_Mrecv and MPI_Imrecv receive
 * exactly the message probed, eager and rendezvous, into derived types, in
 * any order; MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC; the order of
 * matching with the other receives of the communicator is the order of the
 * calls; and the error classes.
 *   p2p_mprobe [test [seed]]      (default: all)
 *   p2p_mprobe fatal              MPI_Mrecv of MPI_MESSAGE_NULL, fatal
 *   p2p_mprobe deadlock           every rank in MPI_Mprobe for nothing
 *   p2p_mprobe stall MS           rank 1 sends rank 0 a rendezvous message,
 *                                 then computes MS ms outside MPI while
 *                                 rank 0 waits in MPI_Mrecv for the data
 * The error test's checks of classes that MPI leaves to the implementation
 * (and that MPICH and Open MPI differ on) are for shmpi only.
 */
#include "testutil.h"

static int rank, size, left, right;

/* A message of n ints, element i = base + i. */
static int *ints(int n, int base)
{
	int *b = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));

	CHECK(b);
	for (int i = 0; i < n; i++)
		b[i] = base + i;
	return b;
}

/* n ints, all v. */
static int *filled(int n, int v)
{
	int *b = ints(n, 0);

	for (int i = 0; i < n; i++)
		b[i] = v;
	return b;
}

static int count_of(const MPI_Status *st, MPI_Datatype dt)
{
	int n = -1;

	CHECK_MPI(MPI_Get_count(st, dt, &n));
	return n;
}

static void check_proc_null(const MPI_Status *st)
{
	CHECK(st->MPI_SOURCE == MPI_PROC_NULL && st->MPI_TAG == MPI_ANY_TAG);
	CHECK(count_of(st, MPI_INT) == 0);
}

/* Probe and receive one message from left and one from ourselves, ANY_SOURCE;
 * MPI_PROC_NULL; an Improbe that finds nothing. */
static void test_basic(void)
{
	int mine = 100 + rank, got[2] = { -1, -1 }, flag = 7, x = -5;
	MPI_Request sreq[2], req;
	MPI_Message msg;
	MPI_Status st;

	CHECK_MPI(MPI_Isend(&mine, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &sreq[0]));
	CHECK_MPI(MPI_Isend(&mine, 1, MPI_INT, rank, 7, MPI_COMM_WORLD, &sreq[1]));
	for (int k = 0; k < 2; k++) {
		int n;

		CHECK_MPI(MPI_Mprobe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &msg, &st));
		CHECK(msg != MPI_MESSAGE_NULL && msg != MPI_MESSAGE_NO_PROC);
		CHECK(st.MPI_TAG == 7 && (st.MPI_SOURCE == left || st.MPI_SOURCE == rank));
		CHECK(count_of(&st, MPI_INT) == 1);
		n = st.MPI_SOURCE;
		CHECK_MPI(MPI_Mrecv(&got[k], 1, MPI_INT, &msg, &st));
		CHECK(msg == MPI_MESSAGE_NULL);
		CHECK(st.MPI_SOURCE == n && st.MPI_TAG == 7 && got[k] == 100 + n);
	}
	/* (one rank: both came from ourselves) */
	CHECK((got[0] == 100 + left && got[1] == 100 + rank) ||
	      (got[0] == 100 + rank && got[1] == 100 + left));
	CHECK_MPI(MPI_Waitall(2, sreq, MPI_STATUSES_IGNORE));

	/* MPI_PROC_NULL: MPI_MESSAGE_NO_PROC, received at once */
	CHECK_MPI(MPI_Mprobe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &msg, &st));
	CHECK(msg == MPI_MESSAGE_NO_PROC);
	check_proc_null(&st);
	CHECK_MPI(MPI_Mrecv(&x, 1, MPI_INT, &msg, &st));
	CHECK(msg == MPI_MESSAGE_NULL && x == -5);
	check_proc_null(&st);
	CHECK_MPI(MPI_Improbe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st));
	CHECK(flag == 1 && msg == MPI_MESSAGE_NO_PROC);
	check_proc_null(&st);
	CHECK_MPI(MPI_Imrecv(&x, 1, MPI_INT, &msg, &req));
	CHECK(msg == MPI_MESSAGE_NULL && req != MPI_REQUEST_NULL);
	CHECK_MPI(MPI_Wait(&req, &st));
	CHECK(x == -5);
	check_proc_null(&st);

	/* nothing there: flag 0, nothing taken */
	msg = MPI_MESSAGE_NULL;
	CHECK_MPI(MPI_Improbe(MPI_ANY_SOURCE, 12345, MPI_COMM_WORLD, &flag, &msg, &st));
	CHECK(flag == 0 && msg == MPI_MESSAGE_NULL);
}

/*
 * From left, in this order: A (tag 1, 1 int), B (tag 1, 2), C (tag 2, 3),
 * D (tag 1, 4); the count says which one a call got.  A matched message is
 * no longer seen by a probe or a receive; the rest keep their order.  Then
 * E and F (tag 5, 1 and 2 ints) after a receive of tag 5 was posted: the
 * receive takes E, the probe F.
 */
static void test_order(void)
{
	static const int tags[4] = { 1, 1, 2, 1 };
	int *a[4], *r[4], e[2] = { -1, -1 }, flag;
	MPI_Request sreq[4], ereq, req;
	MPI_Message ma, mc, mf;
	MPI_Status st;

	for (int k = 0; k < 4; k++) {
		a[k] = ints(k + 1, 1000 * rank + 10 * k);
		r[k] = filled(k + 1, -1);
	}
	CHECK_MPI(MPI_Irecv(e, 2, MPI_INT, left, 5, MPI_COMM_WORLD, &ereq));
	/* every receive of tag 5 is posted before any E leaves */
	MPI_Barrier(MPI_COMM_WORLD);
	for (int k = 0; k < 4; k++)
		CHECK_MPI(MPI_Isend(a[k], k + 1, MPI_INT, right, tags[k], MPI_COMM_WORLD,
				    &sreq[k]));
	CHECK_MPI(MPI_Mprobe(left, 1, MPI_COMM_WORLD, &ma, &st));
	CHECK(count_of(&st, MPI_INT) == 1);
	/* A is out of the queue: the probes see B */
	do
		CHECK_MPI(MPI_Iprobe(left, 1, MPI_COMM_WORLD, &flag, &st));
	while (!flag);
	CHECK(count_of(&st, MPI_INT) == 2);
	CHECK_MPI(MPI_Probe(left, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
	CHECK(count_of(&st, MPI_INT) == 2 && st.MPI_TAG == 1);
	/* and so does a receive */
	CHECK_MPI(MPI_Recv(r[1], 2, MPI_INT, left, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
	CHECK(st.MPI_TAG == 1 && r[1][0] == 1000 * left + 10 && r[1][1] == r[1][0] + 1);
	CHECK_MPI(MPI_Mprobe(left, MPI_ANY_TAG, MPI_COMM_WORLD, &mc, &st));
	CHECK(st.MPI_TAG == 2 && count_of(&st, MPI_INT) == 3);
	/* received in the other order, each gets its own */
	CHECK_MPI(MPI_Mrecv(r[2], 3, MPI_INT, &mc, &st));
	CHECK(st.MPI_TAG == 2 && count_of(&st, MPI_INT) == 3);
	for (int i = 0; i < 3; i++)
		CHECK(r[2][i] == 1000 * left + 20 + i);
	CHECK_MPI(MPI_Imrecv(r[0], 1, MPI_INT, &ma, &req));
	CHECK(ma == MPI_MESSAGE_NULL);
	CHECK_MPI(MPI_Wait(&req, &st));
	CHECK(st.MPI_TAG == 1 && r[0][0] == 1000 * left);
	CHECK_MPI(MPI_Recv(r[3], 4, MPI_INT, left, 1, MPI_COMM_WORLD, &st));
	for (int i = 0; i < 4; i++)
		CHECK(r[3][i] == 1000 * left + 30 + i);
	CHECK_MPI(MPI_Waitall(4, sreq, MPI_STATUSES_IGNORE));

	CHECK_MPI(MPI_Isend(a[0], 1, MPI_INT, right, 5, MPI_COMM_WORLD, &sreq[0]));
	CHECK_MPI(MPI_Isend(a[1], 2, MPI_INT, right, 5, MPI_COMM_WORLD, &sreq[1]));
	CHECK_MPI(MPI_Mprobe(left, 5, MPI_COMM_WORLD, &mf, &st));
	CHECK(count_of(&st, MPI_INT) == 2);
	CHECK_MPI(MPI_Wait(&ereq, &st));
	CHECK(count_of(&st, MPI_INT) == 1 && e[0] == 1000 * left && e[1] == -1);
	CHECK_MPI(MPI_Mrecv(e, 2, MPI_INT, &mf, &st));
	CHECK(e[0] == 1000 * left + 10 && e[1] == 1000 * left + 11);
	CHECK_MPI(MPI_Waitall(2, sreq, MPI_STATUSES_IGNORE));
	for (int k = 0; k < 4; k++) {
		free(a[k]);
		free(r[k]);
	}
}

/*
 * Probes and receives competing for the same messages: two matched probes
 * get two different messages, a third finds none; a receive and a probe
 * posted after them never get one of theirs.
 */
static void test_compete(void)
{
	int v[4] = { 10 * rank, 10 * rank + 1, 10 * rank + 2, 10 * rank + 3 };
	int got[4] = { -1, -1, -1, -1 }, flag;
	MPI_Message m1, m2, m3;
	MPI_Request sreq[4], rreq;
	MPI_Status st;

	for (int k = 0; k < 3; k++)
		CHECK_MPI(MPI_Isend(&v[k], 1, MPI_INT, right, 3, MPI_COMM_WORLD, &sreq[k]));
	CHECK_MPI(MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &m1, &st));
	do
		CHECK_MPI(MPI_Improbe(left, 3, MPI_COMM_WORLD, &flag, &m2, &st));
	while (!flag);
	CHECK(m2 != m1);
	/* the third goes to a receive posted after the probes */
	CHECK_MPI(MPI_Irecv(&got[2], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
			    &rreq));
	CHECK_MPI(MPI_Wait(&rreq, &st));
	CHECK(got[2] == 10 * left + 2);
	/* nothing is left for a probe */
	CHECK_MPI(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &m3, &st));
	CHECK(!flag);
	CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
	CHECK(!flag);
	CHECK_MPI(MPI_Mrecv(&got[1], 1, MPI_INT, &m2, &st));
	CHECK_MPI(MPI_Mrecv(&got[0], 1, MPI_INT, &m1, &st));
	CHECK(got[0] == 10 * left && got[1] == 10 * left + 1);
	/* a fourth, sent once the probe waits for it */
	MPI_Barrier(MPI_COMM_WORLD);
	CHECK_MPI(MPI_Isend(&v[3], 1, MPI_INT, right, 4, MPI_COMM_WORLD, &sreq[3]));
	CHECK_MPI(MPI_Mprobe(left, 4, MPI_COMM_WORLD, &m3, &st));
	CHECK_MPI(MPI_Iprobe(left, 4, MPI_COMM_WORLD, &flag, &st));
	CHECK(!flag);
	CHECK_MPI(MPI_Mrecv(&got[3], 1, MPI_INT, &m3, MPI_STATUS_IGNORE));
	CHECK(got[3] == 10 * left + 3);
	CHECK_MPI(MPI_Waitall(4, sreq, MPI_STATUSES_IGNORE));
}

/* Eager and rendezvous sizes, blocking and not, synchronous sends too. */
static void test_sizes(void)
{
	static const size_t sizes[] = { 0, 1, 100, 8192, 8193, 65536, 1 << 20, 4 << 20 };
	int round = 0;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (int mode = 0; mode < 3; mode++, round++) {
			size_t n = sizes[i];
			unsigned char *s = malloc(n + 1), *r = malloc(n + 1);
			MPI_Request sreq, rreq;
			MPI_Message m;
			MPI_Status st;
			int flag = 0;

			CHECK(s && r);
			tu_fill(s, n, rank, round);
			memset(r, 0xee, n + 1);
			if (mode == 2)
				CHECK_MPI(MPI_Issend(s, (int)n, MPI_BYTE, right, round,
						     MPI_COMM_WORLD, &sreq));
			else
				CHECK_MPI(MPI_Isend(s, (int)n, MPI_BYTE, right, round,
						    MPI_COMM_WORLD, &sreq));
			if (mode == 0) {
				CHECK_MPI(MPI_Mprobe(MPI_ANY_SOURCE, round, MPI_COMM_WORLD, &m,
						     &st));
			} else {
				while (!flag)
					CHECK_MPI(MPI_Improbe(left, MPI_ANY_TAG, MPI_COMM_WORLD,
							      &flag, &m, &st));
			}
			CHECK(st.MPI_SOURCE == left && st.MPI_TAG == round);
			CHECK(count_of(&st, MPI_BYTE) == (int)n);
			if (mode == 1) {
				CHECK_MPI(MPI_Imrecv(r, (int)n, MPI_BYTE, &m, &rreq));
				CHECK_MPI(MPI_Wait(&rreq, &st));
			} else {
				CHECK_MPI(MPI_Mrecv(r, (int)n, MPI_BYTE, &m, &st));
			}
			CHECK(st.MPI_SOURCE == left && st.MPI_TAG == round);
			CHECK(count_of(&st, MPI_BYTE) == (int)n);
			CHECK(tu_verify(r, n, left, round) && r[n] == 0xee);
			CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
			free(s);
			free(r);
		}
}

/*
 * Messages sent while the receiver already waits: rank 0 computes, then
 * sends a rendezvous message to every other rank, which waits in
 * MPI_Mprobe; then the others compute and send rank 0 a short message
 * each, which it polls for with MPI_Improbe.  (One rank: to itself.)
 */
static void test_later(void)
{
	size_t n = (size_t)2 << 20;
	unsigned char *s = malloc(n), *r = malloc(n);
	MPI_Request *sreq = malloc(sizeof(*sreq) * (size_t)size);
	MPI_Message m;
	MPI_Status st;

	CHECK(s && r && sreq);
	tu_fill(s, n, rank, 77);
	if (rank == 0) {
		tu_sleep_ms(50);
		for (int q = 0; q < size; q++)
			CHECK_MPI(MPI_Isend(s, (int)n, MPI_BYTE, q, 77, MPI_COMM_WORLD,
					    &sreq[q]));
	}
	CHECK_MPI(MPI_Mprobe(MPI_ANY_SOURCE, 77, MPI_COMM_WORLD, &m, &st));
	CHECK(st.MPI_SOURCE == 0 && count_of(&st, MPI_BYTE) == (int)n);
	CHECK_MPI(MPI_Mrecv(r, (int)n, MPI_BYTE, &m, &st));
	CHECK(tu_verify(r, n, 0, 77));
	if (rank == 0)
		CHECK_MPI(MPI_Waitall(size, sreq, MPI_STATUSES_IGNORE));

	if (rank > 0) {
		tu_sleep_ms(20 * rank);
		CHECK_MPI(MPI_Send(s, 100, MPI_BYTE, 0, 78, MPI_COMM_WORLD));
	} else {
		for (int k = 1; k < size; k++) {
			int flag = 0;

			while (!flag)
				CHECK_MPI(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
						      &flag, &m, &st));
			CHECK(st.MPI_TAG == 78 && count_of(&st, MPI_BYTE) == 100);
			CHECK_MPI(MPI_Mrecv(r, 100, MPI_BYTE, &m, &st));
			CHECK(tu_verify(r, 100, st.MPI_SOURCE, 77));
		}
	}
	free(s);
	free(r);
	free(sreq);
}

/* Derived datatypes on both sides: a strided send into a contiguous
 * receive and back, eager and rendezvous. */
static void test_dtype(void)
{
	static const int counts[] = { 4, 5000, 300000 };

	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		int n = counts[c], *flat = ints(n, 7 * rank), *wide = filled(2 * n + 1, -1);
		int *mine = ints(2 * n, 0), *back = ints(n, 0);
		MPI_Datatype every2, pair;
		MPI_Request sreq, rreq;
		MPI_Message m;
		MPI_Status st;

		/* n ints at stride 2, and a pair of ints */
		CHECK_MPI(MPI_Type_vector(n, 1, 2, MPI_INT, &every2));
		CHECK_MPI(MPI_Type_commit(&every2));
		CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
		CHECK_MPI(MPI_Type_commit(&pair));
		/* contiguous out, strided in */
		CHECK_MPI(MPI_Isend(flat, n, MPI_INT, right, 20, MPI_COMM_WORLD, &sreq));
		CHECK_MPI(MPI_Mprobe(left, 20, MPI_COMM_WORLD, &m, &st));
		CHECK(count_of(&st, MPI_INT) == n);
		CHECK_MPI(MPI_Mrecv(wide, 1, every2, &m, &st));
		CHECK(count_of(&st, every2) == 1 && count_of(&st, MPI_INT) == n);
		for (int i = 0; i < 2 * n + 1; i++)
			CHECK(wide[i] == (i % 2 || i == 2 * n ? -1 : 7 * left + i / 2));
		CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
		/* strided out, pairs in */
		for (int i = 0; i < 2 * n; i++)
			mine[i] = i % 2 ? -3 : 11 * rank + i / 2;
		CHECK_MPI(MPI_Isend(mine, 1, every2, right, 21, MPI_COMM_WORLD, &sreq));
		CHECK_MPI(MPI_Mprobe(left, 21, MPI_COMM_WORLD, &m, &st));
		CHECK(count_of(&st, MPI_INT) == n);
		CHECK(count_of(&st, pair) == (n % 2 ? MPI_UNDEFINED : n / 2));
		CHECK_MPI(MPI_Imrecv(back, n, MPI_INT, &m, &rreq));
		CHECK_MPI(MPI_Wait(&rreq, &st));
		for (int i = 0; i < n; i++)
			CHECK(back[i] == 11 * left + i);
		CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
		MPI_Type_free(&every2);
		MPI_Type_free(&pair);
		free(flat);
		free(wide);
		free(mine);
		free(back);
	}
}

/* On an intercommunicator: sources are ranks of the remote group. */
static void test_inter(void)
{
	MPI_Comm half, inter;
	int color = rank < size / 2, lrank, lsize, rsize, v, got = -1;
	MPI_Request sreq;
	MPI_Message m;
	MPI_Status st;

	if (size < 2)
		return;
	CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half));
	CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, color ? size / 2 : 0, 40,
				       &inter));
	CHECK_MPI(MPI_Comm_rank(half, &lrank));
	CHECK_MPI(MPI_Comm_remote_size(inter, &rsize));
	CHECK_MPI(MPI_Comm_size(half, &lsize));
	/* every process sends to remote rank lrank % rsize, and so receives
	 * from the remote ranks q with q % lsize == lrank */
	v = 500 + rank;
	CHECK_MPI(MPI_Isend(&v, 1, MPI_INT, lrank % rsize, 9, inter, &sreq));
	for (int q = lrank; q < rsize; q += lsize) {
		/* by name, and by MPI_ANY_SOURCE for the last one */
		CHECK_MPI(MPI_Mprobe(q + lsize >= rsize ? MPI_ANY_SOURCE : q, 9, inter, &m,
				     &st));
		CHECK(st.MPI_SOURCE == q);
		CHECK_MPI(MPI_Mrecv(&got, 1, MPI_INT, &m, &st));
		/* remote rank q is job rank q of the low half, size / 2 + q of
		 * the high one */
		CHECK(st.MPI_SOURCE == q && got == 500 + (color ? size / 2 + q : q));
	}
	CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Comm_free(&inter));
	CHECK_MPI(MPI_Comm_free(&half));
}

/*
 * Every rank sends NMSG messages of random sizes (eager and rendezvous)
 * and tags to every rank, and receives them all with ANY_SOURCE and
 * ANY_TAG through a mix of matched probes (blocking and not, received at
 * once, later or in reverse order) and plain receives.  Non-overtaking
 * (MPI 3.1, section 3.5) then fixes which message each call matches: per
 * sender, the messages in the order of the calls that matched them.
 */
#define NMSG 24
#define HOLD 3

struct got {
	int op, src, seq;
};

/* What a storm message says of itself (sender, number), checked against
 * its status and its bytes. */
static struct got storm_got(int op, const unsigned char *b, const MPI_Status *st)
{
	int n = count_of(st, MPI_BYTE);
	struct got g = { op, -1, -1 };

	CHECK(n >= 8);
	memcpy(&g.src, b, sizeof(int));
	memcpy(&g.seq, b + 4, sizeof(int));
	CHECK(g.src == st->MPI_SOURCE && g.seq >= 0 && g.seq < NMSG);
	for (int i = 8; i < n; i++)
		CHECK(b[i] == tu_pattern(g.src, g.seq, (size_t)i));
	return g;
}

static void test_storm(uint64_t seed)
{
	int total = NMSG * size, nops = 0, ngot = 0, nheld = 0, flag;
	struct got *got = calloc((size_t)total, sizeof(*got));
	MPI_Request *sreq = malloc(sizeof(*sreq) * (size_t)total);
	unsigned char **sbuf = malloc(sizeof(*sbuf) * (size_t)total);
	size_t maxn = 40000;
	unsigned char *any = malloc(maxn);
	struct { MPI_Message m; int op; size_t n; } held[HOLD];
	uint64_t rng = seed * 1000003u + (uint64_t)rank;
	int *next = calloc((size_t)size, sizeof(int));
	MPI_Status st;

	CHECK(got && sreq && sbuf && any && next);
	for (int i = 0; i < total; i++) {
		int dest = i % size, seq = i / size;
		size_t n = 8 + tu_splitmix(&rng) % (maxn - 8);

		if (tu_splitmix(&rng) % 2)
			n %= 2000;	/* half of them eager */
		if (n < 8)
			n = 8;
		sbuf[i] = malloc(n);
		CHECK(sbuf[i]);
		tu_fill(sbuf[i], n, rank, seq);
		memcpy(sbuf[i], &rank, sizeof(int));
		memcpy(sbuf[i] + 4, &seq, sizeof(int));
		CHECK_MPI(MPI_Isend(sbuf[i], (int)n, MPI_BYTE, dest,
				    (int)(tu_splitmix(&rng) % 4), MPI_COMM_WORLD, &sreq[i]));
	}
	/* receive: op numbers in the order the calls match */
	while (ngot < total) {
		int how = (int)(tu_splitmix(&rng) % 5), count, op = nops++;
		MPI_Message m;
		MPI_Request rr;

		if (how == 4 && nheld == HOLD)
			how = 0;
		if (how == 3) {
			/* a plain receive, posted now */
			CHECK_MPI(MPI_Irecv(any, (int)maxn, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG,
					    MPI_COMM_WORLD, &rr));
			CHECK_MPI(MPI_Wait(&rr, &st));
		} else {
			if (how == 0 || how == 4) {
				CHECK_MPI(MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
						     &m, &st));
			} else {
				flag = 0;
				while (!flag)
					CHECK_MPI(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG,
							      MPI_COMM_WORLD, &flag, &m, &st));
			}
			count = count_of(&st, MPI_BYTE);
			if (how == 4) {
				/* keep it: received in reverse order at the end */
				held[nheld].m = m;
				held[nheld].op = op;
				held[nheld++].n = (size_t)count;
				if (ngot + nheld < total)
					continue;
			} else if (how == 2) {
				CHECK_MPI(MPI_Imrecv(any, count, MPI_BYTE, &m, &rr));
				CHECK_MPI(MPI_Wait(&rr, &st));
			} else {
				CHECK_MPI(MPI_Mrecv(any, count, MPI_BYTE, &m, &st));
			}
		}
		if (how != 4)
			got[ngot++] = storm_got(op, any, &st);
		/* every so often, and at the end, receive the held ones, last
		 * first, into buffers of their own */
		if (nheld && (ngot + nheld == total || tu_splitmix(&rng) % 7 == 0)) {
			while (nheld) {
				size_t n = held[--nheld].n;
				unsigned char *b = malloc(n);

				CHECK(b);
				CHECK_MPI(MPI_Mrecv(b, (int)n, MPI_BYTE, &held[nheld].m, &st));
				CHECK(count_of(&st, MPI_BYTE) == (int)n);
				got[ngot++] = storm_got(held[nheld].op, b, &st);
				free(b);
			}
		}
	}
	CHECK_MPI(MPI_Waitall(total, sreq, MPI_STATUSES_IGNORE));
	/* per sender, in the order of the matching calls: 0, 1, 2, ... */
	for (int op = 0; op < nops; op++)
		for (int i = 0; i < total; i++)
			if (got[i].op == op) {
				CHECK(got[i].seq == next[got[i].src]);
				next[got[i].src]++;
			}
	for (int s = 0; s < size; s++)
		CHECK(next[s] == NMSG);
	for (int i = 0; i < total; i++)
		free(sbuf[i]);
	free(sbuf);
	free(sreq);
	free(got);
	free(any);
	free(next);
}

static uint64_t storm_seed = 1;

static void test_storm_run(void)
{
	test_storm(storm_seed);
}

/* The error classes, under MPI_ERRORS_RETURN; nothing changes. */
static void test_errors(void)
{
	int v = 42, small = 0, buf[4] = { 0 }, flag = 5;
	MPI_Message m, none = MPI_MESSAGE_NULL, saved;
	MPI_Datatype loose;
	MPI_Request sreq, req = MPI_REQUEST_NULL;
	MPI_Status st;

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	CHECK(tu_check_class(MPI_Mrecv(buf, 1, MPI_INT, &none, &st), MPI_ERR_REQUEST));
	CHECK(tu_check_class(MPI_Imrecv(buf, 1, MPI_INT, &none, &req), MPI_ERR_REQUEST));
	CHECK(none == MPI_MESSAGE_NULL && req == MPI_REQUEST_NULL);
	CHECK(tu_check_class(MPI_Mrecv(buf, 1, MPI_INT, NULL, &st), MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Mprobe(size, 0, MPI_COMM_WORLD, &m, &st), MPI_ERR_RANK));
	CHECK(tu_check_class(MPI_Mprobe(0, -5, MPI_COMM_WORLD, &m, &st), MPI_ERR_TAG));
	CHECK(tu_check_class(MPI_Improbe(-7, 0, MPI_COMM_WORLD, &flag, &m, &st), MPI_ERR_RANK));
	CHECK(tu_check_class(MPI_Improbe(0, 0, MPI_COMM_NULL, &flag, &m, &st), MPI_ERR_COMM));
	CHECK(flag == 5);

	/* a real message: bad arguments leave it to a correct receive */
	CHECK_MPI(MPI_Isend(&v, 1, MPI_INT, rank, 6, MPI_COMM_WORLD, &sreq));
	CHECK_MPI(MPI_Mprobe(rank, 6, MPI_COMM_WORLD, &m, &st));
	saved = m;
	CHECK(tu_check_class(MPI_Mrecv(buf, -1, MPI_INT, &m, &st), MPI_ERR_COUNT));
	CHECK(tu_check_class(MPI_Mrecv(buf, 1, MPI_DATATYPE_NULL, &m, &st), MPI_ERR_TYPE));
	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &loose));
	CHECK(tu_check_class(MPI_Imrecv(buf, 1, loose, &m, &req), MPI_ERR_TYPE));
	MPI_Type_free(&loose);
	CHECK(m == saved && req == MPI_REQUEST_NULL);
	CHECK_MPI(MPI_Mrecv(buf, 4, MPI_INT, &m, &st));
	CHECK(buf[0] == 42 && m == MPI_MESSAGE_NULL);
	CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));

	/* truncation, blocking and not: the message is received all the same */
	for (int nb = 0; nb < 2; nb++) {
		int three[3] = { 1, 2, 3 };

		CHECK_MPI(MPI_Isend(three, 3, MPI_INT, rank, 8, MPI_COMM_WORLD, &sreq));
		CHECK_MPI(MPI_Mprobe(rank, 8, MPI_COMM_WORLD, &m, &st));
		if (nb) {
			CHECK_MPI(MPI_Imrecv(&small, 1, MPI_INT, &m, &req));
			CHECK(tu_check_class(MPI_Wait(&req, &st), MPI_ERR_TRUNCATE));
		} else {
			CHECK(tu_check_class(MPI_Mrecv(&small, 1, MPI_INT, &m, &st),
					     MPI_ERR_TRUNCATE));
		}
#ifdef SHMPI
		CHECK(small == 1);	/* what fits is there (MPI leaves it open) */
#endif
		CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Iprobe(rank, 8, MPI_COMM_WORLD, &flag, &st));
		CHECK(!flag);
	}
#ifdef SHMPI
	/* a message handle used up, another kind of handle, NULL outputs */
	CHECK(m == MPI_MESSAGE_NULL);
	CHECK(tu_check_class(MPI_Mrecv(buf, 1, MPI_INT, &saved, &st), MPI_ERR_REQUEST));
	m = (MPI_Message)MPI_COMM_WORLD;
	CHECK(tu_check_class(MPI_Mrecv(buf, 1, MPI_INT, &m, &st), MPI_ERR_REQUEST));
	CHECK(tu_check_class(MPI_Improbe(0, 0, MPI_COMM_WORLD, NULL, &m, &st), MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Mprobe(0, 0, MPI_COMM_WORLD, NULL, &st), MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Mrecv(buf, 1, MPI_INT, &none, NULL), MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Imrecv(buf, 1, MPI_INT, &none, NULL), MPI_ERR_ARG));
	CHECK(m == (MPI_Message)MPI_COMM_WORLD);
#endif
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	left = (rank + size - 1) % size;
	right = (rank + 1) % size;
	if (argc > 2)
		storm_seed = strtoull(argv[2], NULL, 10);
	if (!strcmp(which, "fatal")) {
		MPI_Message m = MPI_MESSAGE_NULL;
		int x;

		if (rank == size - 1)
			MPI_Mrecv(&x, 1, MPI_INT, &m, MPI_STATUS_IGNORE);
		else
			tu_sleep_ms(10000);
		printf("survived\n");
		MPI_Finalize();
		return 0;
	}
	if (!strcmp(which, "deadlock")) {
		MPI_Message m;

		MPI_Mprobe(left, 99, MPI_COMM_WORLD, &m, MPI_STATUS_IGNORE);
		MPI_Finalize();
		return 0;
	}
	if (!strcmp(which, "stall") && size == 2) {
		size_t n = (size_t)4 << 20;
		unsigned char *b = malloc(n);
		MPI_Request req;
		MPI_Message m;

		CHECK(b);
		tu_fill(b, n, 1, 5);
		if (rank == 1) {
			CHECK_MPI(MPI_Isend(b, (int)n, MPI_BYTE, 0, 5, MPI_COMM_WORLD, &req));
			tu_sleep_ms(argc > 2 ? atoi(argv[2]) : 2500);
			CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		} else {
			CHECK_MPI(MPI_Mprobe(1, 5, MPI_COMM_WORLD, &m, MPI_STATUS_IGNORE));
			memset(b, 0, n);
			CHECK_MPI(MPI_Mrecv(b, (int)n, MPI_BYTE, &m, MPI_STATUS_IGNORE));
			CHECK(tu_verify(b, n, 1, 5));
			printf("received\n");
		}
		free(b);
		MPI_Finalize();
		return 0;
	}
	TU_RUN("basic", test_basic);
	TU_RUN("order", test_order);
	TU_RUN("compete", test_compete);
	TU_RUN("sizes", test_sizes);
	TU_RUN("later", test_later);
	TU_RUN("dtype", test_dtype);
	TU_RUN("inter", test_inter);
	TU_RUN("storm", test_storm_run);
	TU_RUN("errors", test_errors);
	MPI_Finalize();
	return 0;
}
