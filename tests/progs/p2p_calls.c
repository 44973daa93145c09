/*
 * Point-to-point calls, checked byte for byte at any number of ranks.
 *   p2p_calls [test]     (default: all)
 */
#include "testutil.h"

static int rank, size;

static MPI_Comm world(void)
{
	return MPI_COMM_WORLD;
}

/* Every rank sends n bytes to rank+1 and receives from rank-1. */
static void ring_exchange(size_t n, int round, int use_isend)
{
	int to = (rank + 1) % size, from = (rank + size - 1) % size;
	unsigned char *s = malloc(n + 1), *r = malloc(n + 1);
	MPI_Request req[2];
	MPI_Status st[2];
	int count;

	CHECK(s && r);
	tu_fill(s, n, rank, round);
	memset(r, 0xee, n + 1);
	if (use_isend) {
		CHECK_MPI(MPI_Irecv(r, (int)n, MPI_BYTE, from, round, world(), &req[0]));
		CHECK_MPI(MPI_Isend(s, (int)n, MPI_BYTE, to, round, world(), &req[1]));
		CHECK_MPI(MPI_Waitall(2, req, st));
		CHECK(req[0] == MPI_REQUEST_NULL && req[1] == MPI_REQUEST_NULL);
	} else {
		CHECK_MPI(MPI_Sendrecv(s, (int)n, MPI_BYTE, to, round, r, (int)n, MPI_BYTE,
				       from, round, world(), &st[0]));
	}
	CHECK(st[0].MPI_SOURCE == from && st[0].MPI_TAG == round);
	CHECK_MPI(MPI_Get_count(&st[0], MPI_BYTE, &count));
	CHECK(count == (int)n);
	CHECK(tu_verify(r, n, from, round));
	CHECK(r[n] == 0xee);	/* nothing written past the message */
	free(s);
	free(r);
}

static void test_sizes(void)
{
	static const size_t sizes[] = { 0, 1, 7, 8, 100, 4095, 4096, 8192, 8193,
					65536, 65537, 1 << 20, (1 << 20) + 3 };
	int round = 0;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		ring_exchange(sizes[i], round++, 1);
		ring_exchange(sizes[i], round++, 0);
	}
}

static void test_huge(void)
{
	ring_exchange((size_t)64 << 20, 1, 1);
}

static void test_any_source_any_tag(void)
{
	if (rank == 0) {
		int seen[64] = { 0 };

		for (int i = 1; i < size; i++) {
			int v[4], count;
			MPI_Status st;

			CHECK_MPI(MPI_Recv(v, 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
					   world(), &st));
			CHECK(st.MPI_SOURCE > 0 && st.MPI_SOURCE < size);
			CHECK(st.MPI_TAG == 100 + st.MPI_SOURCE);
			CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
			CHECK(count == st.MPI_SOURCE % 4 + 1);
			CHECK(v[0] == st.MPI_SOURCE * 1000);
			CHECK(!seen[st.MPI_SOURCE]);
			seen[st.MPI_SOURCE] = 1;
		}
	} else {
		int v[4] = { rank * 1000, 1, 2, 3 };

		CHECK_MPI(MPI_Send(v, rank % 4 + 1, MPI_INT, 0, 100 + rank, world()));
	}
}

/* Messages from one sender with one tag arrive in the order sent, across
 * eager and rendezvous sizes, also when received with ANY_TAG/ANY_SOURCE. */
/*
 * Blocking sends behind sends that wait for room: rank 1 sends rank 0,
 * which stays outside MPI meanwhile, more nonblocking messages than the
 * channel holds, then small ones with MPI_Send, which has room for them
 * and must still not pass the queued ones (MPI 3.1, section 3.5).
 */
static void test_ordering_full(void)
{
	enum { BIG = 24, SMALL = 4, N = 7000 };

	if (rank == 1) {
		MPI_Request req[BIG];
		static int bufs[BIG][N / sizeof(int)];

		for (int i = 0; i < BIG; i++) {
			bufs[i][0] = i;
			CHECK_MPI(MPI_Isend(bufs[i], N, MPI_BYTE, 0, 12, world(), &req[i]));
		}
		for (int i = BIG; i < BIG + SMALL; i++)
			CHECK_MPI(MPI_Send(&i, 1, MPI_INT, 0, 12, world()));
		CHECK_MPI(MPI_Waitall(BIG, req, MPI_STATUSES_IGNORE));
	} else if (rank == 0) {
		static int b[N / sizeof(int)];

		tu_sleep_ms(100);
		for (int i = 0; i < BIG + SMALL; i++) {
			CHECK_MPI(MPI_Recv(b, N, MPI_BYTE, 1, 12, world(), MPI_STATUS_IGNORE));
			CHECK(b[0] == i);
		}
	}
}

static void test_ordering(void)
{
	const int msgs = 60;

	if (size < 2)
		return;
	if (rank == 1) {
		MPI_Request req[60];
		unsigned char *bufs[60];

		for (int i = 0; i < msgs; i++) {
			size_t n = (i % 3 == 2) ? 100000 : (size_t)i * 10 + 4;

			bufs[i] = malloc(n);
			tu_fill(bufs[i], n, 1, i);
			memcpy(bufs[i], &i, sizeof(i));
			CHECK_MPI(MPI_Isend(bufs[i], (int)n, MPI_BYTE, 0, 9, world(), &req[i]));
		}
		CHECK_MPI(MPI_Waitall(msgs, req, MPI_STATUSES_IGNORE));
		for (int i = 0; i < msgs; i++)
			free(bufs[i]);
	} else if (rank == 0) {
		unsigned char *b = malloc(100000), *want = malloc(100000);

		for (int i = 0; i < msgs; i++) {
			MPI_Status st;
			int seq, count;

			CHECK_MPI(MPI_Recv(b, 100000, MPI_BYTE, i % 2 ? MPI_ANY_SOURCE : 1,
					   i % 3 ? MPI_ANY_TAG : 9, world(), &st));
			memcpy(&seq, b, sizeof(seq));
			CHECK(seq == i);
			MPI_Get_count(&st, MPI_BYTE, &count);
			CHECK(count == ((i % 3 == 2) ? 100000 : i * 10 + 4));
			tu_fill(want, (size_t)count, 1, i);
			memcpy(want, &i, sizeof(i));
			CHECK(memcmp(b, want, (size_t)count) == 0);
		}
		free(b);
		free(want);
	}
	test_ordering_full();
}

/* Different tags may be received in another order than sent. */
static void test_tag_selection(void)
{
	if (size < 2 || rank > 1)
		return;
	for (int big = 0; big < 2; big++) {
		size_t n = big ? 300000 : 16;
		unsigned char *a = malloc(n), *b = malloc(n);

		if (rank == 0) {
			MPI_Request req[2];

			tu_fill(a, n, 0, 1);
			tu_fill(b, n, 0, 2);
			CHECK_MPI(MPI_Isend(a, (int)n, MPI_BYTE, 1, 1, world(), &req[0]));
			CHECK_MPI(MPI_Isend(b, (int)n, MPI_BYTE, 1, 2, world(), &req[1]));
			CHECK_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
		} else {
			CHECK_MPI(MPI_Recv(b, (int)n, MPI_BYTE, 0, 2, world(), MPI_STATUS_IGNORE));
			CHECK_MPI(MPI_Recv(a, (int)n, MPI_BYTE, 0, 1, world(), MPI_STATUS_IGNORE));
			CHECK(tu_verify(a, n, 0, 1) && tu_verify(b, n, 0, 2));
		}
		free(a);
		free(b);
	}
}

static void test_truncation(void)
{
	if (size < 2 || rank > 1)
		return;
	for (int big = 0; big < 2; big++) {
		int n = big ? 100000 : 100, *v = malloc(sizeof(int) * (size_t)n);

		for (int i = 0; i < n; i++)
			v[i] = i;
		if (rank == 0) {
			CHECK_MPI(MPI_Send(v, n, MPI_INT, 1, 5, world()));
			CHECK_MPI(MPI_Send(v, 3, MPI_INT, 1, 6, world()));
		} else {
			int small[11], count, cls;
			MPI_Status st;
			MPI_Request req;

			small[10] = -7;
			MPI_Comm_set_errhandler(world(), MPI_ERRORS_RETURN);
			if (big) {
				CHECK_MPI(MPI_Irecv(small, 10, MPI_INT, 0, 5, world(), &req));
				CHECK(MPI_Wait(&req, &st) == MPI_ERR_TRUNCATE);
			} else {
				CHECK(MPI_Recv(small, 10, MPI_INT, 0, 5, world(), &st) ==
				      MPI_ERR_TRUNCATE);
			}
			MPI_Error_class(st.MPI_ERROR, &cls);
			CHECK(cls == MPI_ERR_TRUNCATE);
			CHECK(small[9] == 9 && small[10] == -7);
			/* the stream goes on after the truncated message */
			CHECK_MPI(MPI_Recv(small, 10, MPI_INT, 0, 6, world(), &st));
			MPI_Get_count(&st, MPI_INT, &count);
			CHECK(count == 3 && small[2] == 2);
			MPI_Comm_set_errhandler(world(), MPI_ERRORS_ARE_FATAL);
		}
		free(v);
	}
}

/* A synchronous send completes only once the receive has started. */
static void test_ssend(void)
{
	if (size < 2 || rank > 1)
		return;
	for (int big = 0; big < 2; big++) {
		size_t n = big ? 500000 : 8;
		unsigned char *b = malloc(n);
		int go = 1, flag = 0;

		if (rank == 0) {
			MPI_Request req;

			tu_fill(b, n, 0, 3);
			CHECK_MPI(MPI_Issend(b, (int)n, MPI_BYTE, 1, 3, world(), &req));
			for (int i = 0; i < 200; i++) {
				CHECK_MPI(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
				CHECK(!flag);
			}
			tu_sleep_ms(20);
			CHECK_MPI(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
			CHECK(!flag);
			/* only now does rank 1 post its receive */
			CHECK_MPI(MPI_Send(&go, 1, MPI_INT, 1, 4, world()));
			CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
			CHECK_MPI(MPI_Ssend(b, (int)n, MPI_BYTE, 1, 3, world()));
		} else {
			CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 0, 4, world(), MPI_STATUS_IGNORE));
			CHECK_MPI(MPI_Recv(b, (int)n, MPI_BYTE, 0, 3, world(), MPI_STATUS_IGNORE));
			CHECK(tu_verify(b, n, 0, 3));
			memset(b, 0, n);
			CHECK_MPI(MPI_Recv(b, (int)n, MPI_BYTE, 0, 3, world(), MPI_STATUS_IGNORE));
			CHECK(tu_verify(b, n, 0, 3));
		}
		free(b);
	}
}

static void test_rsend(void)
{
	if (size < 2 || rank > 1)
		return;
	int v[1000], token = 0;

	if (rank == 1) {
		MPI_Request req[2];

		CHECK_MPI(MPI_Irecv(v, 10, MPI_INT, 0, 21, world(), &req[0]));
		CHECK_MPI(MPI_Irecv(v + 10, 990, MPI_INT, 0, 22, world(), &req[1]));
		CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 0, 20, world()));
		CHECK_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
		for (int i = 0; i < 1000; i++)
			CHECK(v[i] == i);
	} else {
		MPI_Request req;

		for (int i = 0; i < 1000; i++)
			v[i] = i;
		CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 1, 20, world(), MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Rsend(v, 10, MPI_INT, 1, 21, world()));
		CHECK_MPI(MPI_Irsend(v + 10, 990, MPI_INT, 1, 22, world(), &req));
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	}
}

static void test_probe(void)
{
	if (size < 2 || rank > 1)
		return;
	if (rank == 0) {
		int *v = calloc(25000, sizeof(int));

		for (int i = 0; i < 123; i++)
			v[i] = i * 3;
		CHECK_MPI(MPI_Send(v, 123, MPI_INT, 1, 7, world()));
		CHECK_MPI(MPI_Send(v, 25000, MPI_INT, 1, 8, world()));
		free(v);
	} else {
		MPI_Status st;
		int flag = 0, count, *v = malloc(100000);

		CHECK_MPI(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, world(), &st));
		CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 7);
		MPI_Get_count(&st, MPI_INT, &count);
		CHECK(count == 123);
		/* probing again finds the same message */
		CHECK_MPI(MPI_Iprobe(0, 7, world(), &flag, &st));
		CHECK(flag);
		CHECK_MPI(MPI_Iprobe(0, 99, world(), &flag, &st));
		CHECK(!flag);
		CHECK_MPI(MPI_Recv(v, count, MPI_INT, 0, 7, world(), &st));
		CHECK(v[122] == 366);
		/* a rendezvous message is probed before its data moves */
		do
			CHECK_MPI(MPI_Iprobe(0, 8, world(), &flag, &st));
		while (!flag);
		MPI_Get_count(&st, MPI_BYTE, &count);
		CHECK(count == 100000);
		CHECK_MPI(MPI_Recv(v, 25000, MPI_INT, 0, 8, world(), MPI_STATUS_IGNORE));
		free(v);
	}
}

static void test_persistent(void)
{
	int to = (rank + 1) % size, from = (rank + size - 1) % size;
	int sv[300], rv[300];
	MPI_Request req[2];

	CHECK_MPI(MPI_Recv_init(rv, 300, MPI_INT, from, 30, world(), &req[0]));
	CHECK_MPI(MPI_Send_init(sv, 300, MPI_INT, to, 30, world(), &req[1]));
	for (int round = 0; round < 10; round++) {
		for (int i = 0; i < 300; i++)
			sv[i] = rank * 100000 + round * 1000 + i;
		if (round % 2) {
			CHECK_MPI(MPI_Startall(2, req));
		} else {
			CHECK_MPI(MPI_Start(&req[0]));
			CHECK_MPI(MPI_Start(&req[1]));
		}
		CHECK_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
		CHECK(req[0] != MPI_REQUEST_NULL && req[1] != MPI_REQUEST_NULL);
		for (int i = 0; i < 300; i++)
			CHECK(rv[i] == from * 100000 + round * 1000 + i);
	}
	/* an inactive persistent request waits as a null one */
	MPI_Status st;

	CHECK_MPI(MPI_Wait(&req[0], &st));
	CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG);
	CHECK_MPI(MPI_Request_free(&req[0]));
	CHECK_MPI(MPI_Request_free(&req[1]));
	CHECK(req[0] == MPI_REQUEST_NULL);
}

static void test_cancel(void)
{
	MPI_Request req;
	MPI_Status st;
	int v, flag;

	CHECK_MPI(MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 12345, world(), &req));
	CHECK_MPI(MPI_Cancel(&req));
	CHECK_MPI(MPI_Wait(&req, &st));
	CHECK_MPI(MPI_Test_cancelled(&st, &flag));
	CHECK(flag);
	/* a send is not cancelled: it completes normally */
	v = 5;
	CHECK_MPI(MPI_Isend(&v, 1, MPI_INT, rank, 12346, world(), &req));
	CHECK_MPI(MPI_Cancel(&req));
	CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, rank, 12346, world(), MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Wait(&req, &st));
	CHECK_MPI(MPI_Test_cancelled(&st, &flag));
	CHECK(!flag && v == 5);
}

/* Wait/Test families on a mix of null, complete and pending requests. */
static void test_completion_calls(void)
{
	int to = (rank + 1) % size, from = (rank + size - 1) % size;
	int sv[4] = { rank, rank, rank, rank }, rv[4] = { -1, -1, -1, -1 };
	MPI_Request req[5];
	MPI_Status st[5];
	int index, flag, outcount, indices[5];

	for (int i = 0; i < 4; i++)
		CHECK_MPI(MPI_Irecv(&rv[i], 1, MPI_INT, from, 40 + i, world(), &req[i]));
	req[4] = MPI_REQUEST_NULL;
	CHECK_MPI(MPI_Barrier(world()));
	/* nothing has been sent: nothing completes */
	CHECK_MPI(MPI_Testany(5, req, &index, &flag, &st[0]));
	CHECK(!flag && index == MPI_UNDEFINED);
	CHECK_MPI(MPI_Testsome(5, req, &outcount, indices, st));
	CHECK(outcount == 0);
	CHECK_MPI(MPI_Testall(5, req, &flag, st));
	CHECK(!flag);
	CHECK_MPI(MPI_Request_get_status(req[2], &flag, &st[0]));
	CHECK(!flag);
	CHECK_MPI(MPI_Barrier(world()));	/* nobody sends before all looked */

	CHECK_MPI(MPI_Send(&sv[2], 1, MPI_INT, to, 42, world()));
	CHECK_MPI(MPI_Waitany(5, req, &index, &st[0]));
	CHECK(index == 2 && rv[2] == from && st[0].MPI_TAG == 42);
	CHECK(req[2] == MPI_REQUEST_NULL);
	/* hold the sender back until the Waitany above is checked */
	CHECK_MPI(MPI_Sendrecv(&index, 1, MPI_INT, from, 49, &flag, 1, MPI_INT, to, 49,
			       world(), MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Send(&sv[0], 1, MPI_INT, to, 40, world()));
	CHECK_MPI(MPI_Send(&sv[3], 1, MPI_INT, to, 43, world()));
	outcount = 0;
	while (outcount < 2) {
		int n;

		CHECK_MPI(MPI_Waitsome(5, req, &n, indices, st));
		CHECK(n >= 1);
		for (int i = 0; i < n; i++)
			CHECK(indices[i] == 0 || indices[i] == 3);
		outcount += n;
	}
	CHECK_MPI(MPI_Sendrecv(&index, 1, MPI_INT, from, 49, &flag, 1, MPI_INT, to, 49,
			       world(), MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Send(&sv[1], 1, MPI_INT, to, 41, world()));
	do
		CHECK_MPI(MPI_Request_get_status(req[1], &flag, &st[0]));
	while (!flag);
	CHECK(req[1] != MPI_REQUEST_NULL);	/* get_status does not free */
	CHECK_MPI(MPI_Testall(5, req, &flag, st));
	CHECK(flag && req[1] == MPI_REQUEST_NULL);
	for (int i = 0; i < 4; i++)
		CHECK(rv[i] == from);
	/* all null: Waitany gives MPI_UNDEFINED, Waitsome too */
	CHECK_MPI(MPI_Waitany(5, req, &index, &st[0]));
	CHECK(index == MPI_UNDEFINED);
	CHECK_MPI(MPI_Waitsome(5, req, &outcount, indices, st));
	CHECK(outcount == MPI_UNDEFINED);

	/* a freed request still completes and delivers */
	CHECK_MPI(MPI_Isend(sv, 4, MPI_INT, to, 44, world(), &req[0]));
	CHECK_MPI(MPI_Request_free(&req[0]));
	CHECK_MPI(MPI_Recv(rv, 4, MPI_INT, from, 44, world(), MPI_STATUS_IGNORE));
	CHECK(rv[3] == from);
}

/*
 * Small standard and ready sends complete as they are made here (shmpi
 * gives them all one complete request: request.c); every completion call
 * must finish them as it finishes any send, many outstanding at once, and
 * mixed with receives in the same arrays.  Their messages arrive in order.
 */
static void test_sent(void)
{
	enum { N = 12 };
	int to = (rank + 1) % size, from = (rank + size - 1) % size;
	int sv[N], rv[N], index, flag, outcount, indices[2 * N], errclass;
	MPI_Request req[2 * N];
	MPI_Status st[2 * N];

	for (int i = 0; i < N; i++) {
		sv[i] = rank * 100 + i;
		rv[i] = -1;
	}
	/* Wait, Test, get_status, Request_free, Cancel, one send each */
	for (int i = 0; i < 5; i++)
		CHECK_MPI(MPI_Isend(&sv[i], 1, MPI_INT, to, 60, world(), &req[i]));
	for (int i = 0; i < 5; i++)
		CHECK(req[i] != MPI_REQUEST_NULL);
	CHECK_MPI(MPI_Wait(&req[0], &st[0]));
	CHECK(req[0] == MPI_REQUEST_NULL);
	do
		CHECK_MPI(MPI_Test(&req[1], &flag, &st[0]));
	while (!flag);
	CHECK(req[1] == MPI_REQUEST_NULL);
	do
		CHECK_MPI(MPI_Request_get_status(req[2], &flag, &st[0]));
	while (!flag);
	CHECK(req[2] != MPI_REQUEST_NULL);
	CHECK_MPI(MPI_Wait(&req[2], MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Request_free(&req[3]));
	CHECK(req[3] == MPI_REQUEST_NULL);
	CHECK_MPI(MPI_Cancel(&req[4]));	/* a send that went is not cancelled */
	CHECK_MPI(MPI_Wait(&req[4], &st[0]));
	CHECK_MPI(MPI_Test_cancelled(&st[0], &flag));
	CHECK(!flag);
	/* a send request is not persistent: MPI_Start refuses it */
	CHECK_MPI(MPI_Irsend(&sv[5], 1, MPI_INT, to, 60, world(), &req[5]));
	MPI_Comm_set_errhandler(world(), MPI_ERRORS_RETURN);
	MPI_Error_class(MPI_Start(&req[5]), &errclass);
	MPI_Comm_set_errhandler(world(), MPI_ERRORS_ARE_FATAL);
	CHECK(errclass == MPI_ERR_REQUEST);
	CHECK_MPI(MPI_Wait(&req[5], MPI_STATUS_IGNORE));
	for (int i = 0; i < 6; i++) {
		CHECK_MPI(MPI_Recv(&rv[i], 1, MPI_INT, from, 60, world(), MPI_STATUS_IGNORE));
		CHECK(rv[i] == from * 100 + i);
	}

	/* Waitany, Testany, Waitsome, Testsome, Testall and Waitall over arrays
	 * of such sends and receives */
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < N; i++) {
			rv[i] = -1;
			CHECK_MPI(MPI_Irecv(&rv[i], 1, MPI_INT, from, 61, world(), &req[2 * i]));
			CHECK_MPI(MPI_Isend(&sv[i], 1, MPI_INT, to, 61, world(), &req[2 * i + 1]));
		}
		outcount = 0;
		while (outcount < 2 * N) {
			int n = 0;

			switch ((round + outcount) % 4) {
			case 0:
				CHECK_MPI(MPI_Waitany(2 * N, req, &index, &st[0]));
				CHECK(index != MPI_UNDEFINED && req[index] == MPI_REQUEST_NULL);
				n = 1;
				break;
			case 1:
				CHECK_MPI(MPI_Testany(2 * N, req, &index, &flag, &st[0]));
				n = flag && index != MPI_UNDEFINED;
				break;
			case 2:
				CHECK_MPI(MPI_Waitsome(2 * N, req, &n, indices, st));
				break;
			default:
				CHECK_MPI(MPI_Testsome(2 * N, req, &n, indices, st));
			}
			for (int i = 0; i < n && n != MPI_UNDEFINED; i++)
				if (indices[i] % 2 == 0 && (round + outcount) % 4 >= 2)
					CHECK(st[i].MPI_SOURCE == from && st[i].MPI_TAG == 61);
			outcount += n;
			if (round == 2 && outcount >= N) {
				CHECK_MPI(MPI_Testall(2 * N, req, &flag, st));
				if (!flag)
					CHECK_MPI(MPI_Waitall(2 * N, req, st));
				outcount = 2 * N;
			}
		}
		for (int i = 0; i < 2 * N; i++)
			CHECK(req[i] == MPI_REQUEST_NULL);
		for (int i = 0; i < N; i++)
			CHECK(rv[i] == from * 100 + i);
	}
	MPI_Barrier(world());
}

static void test_proc_null(void)
{
	MPI_Status st;
	MPI_Request req;
	int v = 1, count;

	CHECK_MPI(MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, 0, world()));
	CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, world(), &st));
	CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG);
	MPI_Get_count(&st, MPI_INT, &count);
	CHECK(count == 0 && v == 1);
	CHECK_MPI(MPI_Irecv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, world(), &req));
	CHECK_MPI(MPI_Wait(&req, &st));
	CHECK(st.MPI_SOURCE == MPI_PROC_NULL);
	CHECK_MPI(MPI_Sendrecv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, &v, 1, MPI_INT,
			       MPI_PROC_NULL, 0, world(), &st));
}

static void test_sendrecv_replace(void)
{
	int to = (rank + 1) % size, from = (rank + size - 1) % size;
	int n = 50000, *v = malloc(sizeof(int) * (size_t)n);
	MPI_Status st;

	for (int i = 0; i < n; i++)
		v[i] = rank * 7 + i;
	CHECK_MPI(MPI_Sendrecv_replace(v, n, MPI_INT, to, 50, from, 50, world(), &st));
	for (int i = 0; i < n; i++)
		CHECK(v[i] == from * 7 + i);
	CHECK(st.MPI_SOURCE == from);
	free(v);
}

/* Pair types have gaps: only their data travels, and Get_elements counts
 * basic elements. */
static void test_pair_types(void)
{
	int to = (rank + 1) % size, from = (rank + size - 1) % size;
	struct { double v; int i; } s[3], r[3];
	MPI_Status st;
	int count, elems;

	memset(r, 0x55, sizeof(r));
	for (int k = 0; k < 3; k++) {
		s[k].v = rank + k * 0.5;
		s[k].i = rank * 10 + k;
	}
	CHECK_MPI(MPI_Sendrecv(s, 3, MPI_DOUBLE_INT, to, 60, r, 3, MPI_DOUBLE_INT, from,
			       60, world(), &st));
	for (int k = 0; k < 3; k++)
		CHECK(r[k].v == from + k * 0.5 && r[k].i == from * 10 + k);
	MPI_Get_count(&st, MPI_DOUBLE_INT, &count);
	MPI_Get_elements(&st, MPI_DOUBLE_INT, &elems);
	CHECK(count == 3 && elems == 6);
	MPI_Get_count(&st, MPI_INT, &count);
	CHECK(count == 9);	/* 36 bytes of data */
	/* a status set by hand: 5 basic elements are 2 pairs and a half */
	CHECK_MPI(MPI_Status_set_elements(&st, MPI_DOUBLE_INT, 5));
	MPI_Get_elements(&st, MPI_DOUBLE_INT, &elems);
	MPI_Get_count(&st, MPI_DOUBLE_INT, &count);
	CHECK(elems == 5 && count == MPI_UNDEFINED);
	CHECK_MPI(MPI_Status_set_cancelled(&st, 1));
	CHECK_MPI(MPI_Test_cancelled(&st, &count));
	CHECK(count);
}

static void test_errors(void)
{
	MPI_Request req = MPI_REQUEST_NULL;
	int v = 0, w = -1, cls, flag = 0;

	MPI_Comm_set_errhandler(world(), MPI_ERRORS_RETURN);
	CHECK(MPI_Send(&v, 1, MPI_INT, size, 0, world()) == MPI_ERR_RANK);
	CHECK(MPI_Send(&v, 1, MPI_INT, -5, 0, world()) == MPI_ERR_RANK);
	CHECK(MPI_Send(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, world()) == MPI_ERR_RANK);
	CHECK(MPI_Send(&v, 1, MPI_INT, 0, -1, world()) == MPI_ERR_TAG);
	CHECK(MPI_Send(&v, -1, MPI_INT, 0, 0, world()) == MPI_ERR_COUNT);
	CHECK(MPI_Send(&v, 1, MPI_DATATYPE_NULL, 0, 0, world()) == MPI_ERR_TYPE);
	CHECK(MPI_Send(&v, 1, 0x4c0000ff, 0, 0, world()) == MPI_ERR_TYPE);
	CHECK(MPI_Send(NULL, 1, MPI_INT, 0, 0, world()) == MPI_ERR_BUFFER);
	CHECK(MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_NULL) == MPI_ERR_COMM);
	CHECK(MPI_Recv(&v, 1, MPI_INT, size, 0, world(), MPI_STATUS_IGNORE) == MPI_ERR_RANK);
	CHECK(MPI_Irecv(&v, 1, MPI_INT, 0, -7, world(), &req) == MPI_ERR_TAG);
	CHECK(req == MPI_REQUEST_NULL);
	CHECK(MPI_Wait(NULL, MPI_STATUS_IGNORE) == MPI_ERR_ARG);
	req = 0x14000fff;
	CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_ERR_REQUEST);
	CHECK(MPI_Waitall(-1, &req, MPI_STATUSES_IGNORE) == MPI_ERR_COUNT);
	CHECK(MPI_Start(&req) == MPI_ERR_REQUEST);
	CHECK(MPI_Request_free(&req) == MPI_ERR_REQUEST);
	CHECK(MPI_Buffer_detach(&req, &v) == MPI_ERR_BUFFER);	/* none attached */
	MPI_Error_class(MPI_ERR_TRUNCATE, &cls);
	CHECK(cls == MPI_ERR_TRUNCATE);
	/* a stale handle: freed requests no longer resolve */
	CHECK_MPI(MPI_Irecv(&v, 1, MPI_INT, rank, 70, world(), &req));
	MPI_Request stale = req;
	CHECK_MPI(MPI_Cancel(&req));
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	CHECK(MPI_Wait(&stale, MPI_STATUS_IGNORE) == MPI_ERR_REQUEST);
	/* ... nor once another operation took over what the library kept
	 * for it: the stale handle never reaches the new request */
	CHECK_MPI(MPI_Irecv(&w, 1, MPI_INT, rank, 71, world(), &req));
	CHECK(req != stale);
	CHECK(MPI_Test(&stale, &flag, MPI_STATUS_IGNORE) == MPI_ERR_REQUEST);
	CHECK(MPI_Cancel(&stale) == MPI_ERR_REQUEST);
	CHECK(MPI_Request_free(&stale) == MPI_ERR_REQUEST);
	CHECK(MPI_Wait(&stale, MPI_STATUS_IGNORE) == MPI_ERR_REQUEST);
	v = 71;
	CHECK_MPI(MPI_Send(&v, 1, MPI_INT, rank, 71, world()));
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	CHECK(req == MPI_REQUEST_NULL && w == 71);
	MPI_Comm_set_errhandler(world(), MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	tu_init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	TU_RUN("sizes", test_sizes);
	TU_RUN("any", test_any_source_any_tag);
	TU_RUN("ordering", test_ordering);
	TU_RUN("tags", test_tag_selection);
	TU_RUN("truncation", test_truncation);
	TU_RUN("ssend", test_ssend);
	TU_RUN("rsend", test_rsend);
	TU_RUN("probe", test_probe);
	TU_RUN("persistent", test_persistent);
	TU_RUN("cancel", test_cancel);
	TU_RUN("completion", test_completion_calls);
	TU_RUN("sent", test_sent);
	TU_RUN("proc_null", test_proc_null);
	TU_RUN("replace", test_sendrecv_replace);
	TU_RUN("pairs", test_pair_types);
	TU_RUN("errors", test_errors);
	if (!strcmp(which, "huge"))
		TU_RUN("huge", test_huge);
	MPI_Finalize();
	return 0;
}
