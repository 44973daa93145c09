/*
 * Partitioned point-to-point communication (MPI 4.1, chapter 4), checked
 * by result.  Every rank sends to rank + 1 and receives from rank - 1 (a
 * ring; one rank sends to itself).  Prints "ok TEST" when it passes.
 *
 *   part ring SP RP [how]   SP send and RP receive partitions of one
 *                           message of 192 ints, 3 rounds of the same
 *                           requests with new data each; how: one (MPI_Pready
 *                           in reverse order), range (MPI_Pready_range in two
 *                           halves), list (MPI_Pready_list, odd then even)
 *   part threads T          MPI_THREAD_MULTIPLE: T threads mark the 64
 *                           partitions (thread t those with i % T == t),
 *                           all at once, 20 rounds
 *   part dtype              a vector send type, received into a vector
 *                           type and into plain ints
 *   part procnull           MPI_PROC_NULL on both sides (MPICH 4.0 crashes)
 *   part early P            rank 0 marks partition 0 of P, then waits until
 *                           rank 1 saw it arrive (MPI_Parrived) before it
 *                           marks the others: the consumer sees an early
 *                           partition before the last is ready (MPICH 4.0
 *                           moves nothing before every partition is ready,
 *                           as the standard allows: it hangs)
 *   part order              two partitioned sends of one (source, tag)
 *                           match the receives in initialization order
 *   part empty              partitions of no element, and no partition
 *   part inter              across an intercommunicator (an even number
 *                           of ranks), new requests each round
 *   part errors             MPI_ERRORS_RETURN: MPI_Pready twice, out of
 *                           range, on an inactive or a non-partitioned
 *                           request, MPI_Parrived on a send request
 *   part fatal WHAT         the error WHAT (twice, range) under the default
 *                           handler: the job ends, naming call and argument
 */
#include <pthread.h>

#include "testutil.h"

#define TOTAL 192	/* ints per message: divisible by 1, 3, 8 and 64 */
#define ROUNDS 3

static int rank, size;

static int value(int round, int src, int i)
{
	return round * 1000003 + src * 10007 + i;
}

static void fill(int *buf, int n, int round, int src)
{
	for (int i = 0; i < n; i++)
		buf[i] = value(round, src, i);
}

/* Mark every partition of req ready, as `how` says. */
static void mark_all(MPI_Request req, int parts, const char *how)
{
	if (!strcmp(how, "range")) {
		CHECK_MPI(MPI_Pready_range(parts / 2, parts - 1, req));
		if (parts / 2 > 0)
			CHECK_MPI(MPI_Pready_range(0, parts / 2 - 1, req));
	} else if (!strcmp(how, "list")) {
		int list[TOTAL] = { 0 }, n = 0;

		for (int i = 1; i < parts; i += 2)
			list[n++] = i;
		CHECK_MPI(MPI_Pready_list(n, list, req));
		n = 0;
		for (int i = 0; i < parts; i += 2)
			list[n++] = i;
		CHECK_MPI(MPI_Pready_list(n, list, req));
	} else {
		for (int i = parts - 1; i >= 0; i--)
			CHECK_MPI(MPI_Pready(i, req));
	}
}

static void test_ring(int sp, int rp, const char *how)
{
	int sbuf[TOTAL] = { 0 }, rbuf[TOTAL];
	int to = (rank + 1) % size, from = (rank + size - 1) % size;
	MPI_Request sreq, rreq, both[2];
	MPI_Status st;
	int count;

	CHECK_MPI(MPI_Psend_init(sbuf, sp, TOTAL / sp, MPI_INT, to, 7, MPI_COMM_WORLD,
				 MPI_INFO_NULL, &sreq));
	CHECK_MPI(MPI_Precv_init(rbuf, rp, TOTAL / rp, MPI_INT, from, 7, MPI_COMM_WORLD,
				 MPI_INFO_NULL, &rreq));
	for (int round = 1; round <= ROUNDS; round++) {
		int flag;

		fill(sbuf, TOTAL, round, rank);
		memset(rbuf, 0xff, sizeof(rbuf));
		/* the receive first on odd rounds, the send first on even ones */
		if (round % 2) {
			CHECK_MPI(MPI_Start(&rreq));
			CHECK_MPI(MPI_Start(&sreq));
		} else {
			both[0] = sreq;
			both[1] = rreq;
			CHECK_MPI(MPI_Startall(2, both));
		}
		mark_all(sreq, sp, how);
		CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
		/* poll the partitions before completion, every one must come */
		for (int j = 0; j < rp; j++) {
			do
				CHECK_MPI(MPI_Parrived(rreq, j, &flag));
			while (!flag);
			for (int i = j * (TOTAL / rp); i < (j + 1) * (TOTAL / rp); i++)
				CHECK(rbuf[i] == value(round, from, i));
		}
		CHECK_MPI(MPI_Wait(&rreq, &st));
		CHECK(st.MPI_SOURCE == from && st.MPI_TAG == 7);
		CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
		CHECK(count == TOTAL);
		for (int i = 0; i < TOTAL; i++)
			CHECK(rbuf[i] == value(round, from, i));
#ifdef SHMPI
		/* inactive now: MPI_Parrived says true (MPI 4.1, section
		 * 4.2.2; MPICH 4.0 raises an error) */
		CHECK_MPI(MPI_Parrived(rreq, 0, &flag));
		CHECK(flag);
#endif
		/* the sender may not write the next round before this one's
		 * receive buffer was read */
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	}
	CHECK_MPI(MPI_Request_free(&sreq));
	CHECK_MPI(MPI_Request_free(&rreq));
	CHECK(sreq == MPI_REQUEST_NULL && rreq == MPI_REQUEST_NULL);
}

#define TPARTS 64

#define TROUNDS 20

struct marker {
	MPI_Request req;
	int t, nthreads;
	pthread_barrier_t *go;
};

static void *mark_some(void *arg)
{
	struct marker *m = arg;

	/* every thread marks at once */
	pthread_barrier_wait(m->go);
	for (int i = m->t; i < TPARTS; i += m->nthreads)
		CHECK_MPI(MPI_Pready(i, m->req));
	return NULL;
}

static void test_threads(int nthreads)
{
	static int sbuf[TPARTS * 100], rbuf[TPARTS * 100];
	int to = (rank + 1) % size, from = (rank + size - 1) % size;
	MPI_Request sreq, rreq;
	pthread_t th[4];
	struct marker m[4];
	pthread_barrier_t go;

	CHECK(nthreads >= 1 && nthreads <= 4);
	CHECK(pthread_barrier_init(&go, NULL, (unsigned)nthreads) == 0);
	CHECK_MPI(MPI_Psend_init(sbuf, TPARTS, 100, MPI_INT, to, 3, MPI_COMM_WORLD,
				 MPI_INFO_NULL, &sreq));
	CHECK_MPI(MPI_Precv_init(rbuf, TPARTS, 100, MPI_INT, from, 3, MPI_COMM_WORLD,
				 MPI_INFO_NULL, &rreq));
	for (int round = 1; round <= TROUNDS; round++) {
		fill(sbuf, TPARTS * 100, round, rank);
		memset(rbuf, 0, sizeof(rbuf));
		CHECK_MPI(MPI_Start(&rreq));
		CHECK_MPI(MPI_Start(&sreq));
		for (int t = 0; t < nthreads; t++) {
			m[t] = (struct marker){ sreq, t, nthreads, &go };
			CHECK(pthread_create(&th[t], NULL, mark_some, &m[t]) == 0);
		}
		/* the receive completes while the threads still mark (with
		 * one rank, they mark its own partitions) */
		CHECK_MPI(MPI_Wait(&rreq, MPI_STATUS_IGNORE));
		for (int t = 0; t < nthreads; t++)
			CHECK(pthread_join(th[t], NULL) == 0);
		CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
		for (int i = 0; i < TPARTS * 100; i++)
			CHECK(rbuf[i] == value(round, from, i));
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	}
	CHECK_MPI(MPI_Request_free(&sreq));
	CHECK_MPI(MPI_Request_free(&rreq));
	CHECK(pthread_barrier_destroy(&go) == 0);
}

static void test_dtype(void)
{
	/* send: 8 partitions of 3 vectors of 4 ints out of every 6 */
	static int sbuf[8 * 3 * 6], rvec[8 * 3 * 6], rflat[8 * 3 * 4];
	int to = (rank + 1) % size, from = (rank + size - 1) % size;
	MPI_Datatype four, vec;
	MPI_Request req[3];

	CHECK_MPI(MPI_Type_vector(1, 4, 6, MPI_INT, &four));
	CHECK_MPI(MPI_Type_create_resized(four, 0, 6 * sizeof(int), &vec));
	CHECK_MPI(MPI_Type_free(&four));
	CHECK_MPI(MPI_Type_commit(&vec));
	/* two sends to `to`: the first matches the vector receive, the second
	 * the flat one (4 partitions of 24 ints) */
	CHECK_MPI(MPI_Psend_init(sbuf, 8, 3, vec, to, 5, MPI_COMM_WORLD, MPI_INFO_NULL,
				 &req[0]));
	CHECK_MPI(MPI_Precv_init(rvec, 2, 12, vec, from, 5, MPI_COMM_WORLD, MPI_INFO_NULL,
				 &req[1]));
	for (int round = 1; round <= 2; round++) {
		for (int i = 0; i < 8 * 3 * 6; i++)
			sbuf[i] = value(round, rank, i);
		memset(rvec, 0, sizeof(rvec));
		CHECK_MPI(MPI_Startall(2, req));
		mark_all(req[0], 8, "one");
		CHECK_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
		for (int i = 0; i < 8 * 3 * 6; i++)
			CHECK(rvec[i] == (i % 6 < 4 ? value(round, from, i) : 0));
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	}
	CHECK_MPI(MPI_Request_free(&req[1]));
	CHECK_MPI(MPI_Precv_init(rflat, 4, 24, MPI_INT, from, 5, MPI_COMM_WORLD,
				 MPI_INFO_NULL, &req[1]));
	CHECK_MPI(MPI_Request_free(&req[0]));
	CHECK_MPI(MPI_Psend_init(sbuf, 8, 3, vec, to, 5, MPI_COMM_WORLD, MPI_INFO_NULL,
				 &req[0]));
	CHECK_MPI(MPI_Startall(2, req));
	mark_all(req[0], 8, "list");
	CHECK_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
	for (int i = 0, k = 0; i < 8 * 3 * 6; i++)
		if (i % 6 < 4)
			CHECK(rflat[k++] == value(2, from, i));
	CHECK_MPI(MPI_Request_free(&req[0]));
	CHECK_MPI(MPI_Request_free(&req[1]));
	CHECK_MPI(MPI_Type_free(&vec));
}

static void test_procnull(void)
{
	int buf[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	MPI_Request req[2];
	MPI_Status st;
	int flag;

	CHECK_MPI(MPI_Psend_init(buf, 2, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD,
				 MPI_INFO_NULL, &req[0]));
	CHECK_MPI(MPI_Precv_init(buf, 2, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD,
				 MPI_INFO_NULL, &req[1]));
	for (int round = 0; round < 2; round++) {
		CHECK_MPI(MPI_Startall(2, req));
		CHECK_MPI(MPI_Pready_range(0, 1, req[0]));
		CHECK_MPI(MPI_Parrived(req[1], 1, &flag));
		CHECK(flag);
		CHECK_MPI(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Wait(&req[1], &st));
		CHECK(st.MPI_SOURCE == MPI_PROC_NULL);
	}
	for (int i = 0; i < 8; i++)
		CHECK(buf[i] == i + 1);
	CHECK_MPI(MPI_Request_free(&req[0]));
	CHECK_MPI(MPI_Request_free(&req[1]));
}

static void test_early(int parts)
{
	int n = parts * 16, ack = 0, flag;
	int *buf = malloc(sizeof(int) * (size_t)n);
	MPI_Request req;

	CHECK(buf && size >= 2);
	if (rank == 0) {
		fill(buf, n, 1, 0);
		CHECK_MPI(MPI_Psend_init(buf, parts, 16, MPI_INT, 1, 9, MPI_COMM_WORLD,
					 MPI_INFO_NULL, &req));
		CHECK_MPI(MPI_Start(&req));
		CHECK_MPI(MPI_Pready(0, req));
		/* the rest only once rank 1 saw partition 0 */
		CHECK_MPI(MPI_Recv(&ack, 1, MPI_INT, 1, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK(ack == 1);
		if (parts > 1)
			CHECK_MPI(MPI_Pready_range(1, parts - 1, req));
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	} else if (rank == 1) {
		memset(buf, 0, sizeof(int) * (size_t)n);
		CHECK_MPI(MPI_Precv_init(buf, parts, 16, MPI_INT, 0, 9, MPI_COMM_WORLD,
					 MPI_INFO_NULL, &req));
		CHECK_MPI(MPI_Start(&req));
		do
			CHECK_MPI(MPI_Parrived(req, 0, &flag));
		while (!flag);
		for (int i = 0; i < 16; i++)
			CHECK(buf[i] == value(1, 0, i));
		if (parts > 1) {
			CHECK_MPI(MPI_Parrived(req, parts - 1, &flag));
			CHECK(!flag);	/* not marked yet: rank 0 waits for us */
		}
		ack = 1;
		CHECK_MPI(MPI_Send(&ack, 1, MPI_INT, 0, 10, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		for (int i = 0; i < n; i++)
			CHECK(buf[i] == value(1, 0, i));
	}
	if (rank < 2)
		CHECK_MPI(MPI_Request_free(&req));
	free(buf);
}

static void test_order(void)
{
	int a[4] = { 1, 2, 3, 4 }, b[4] = { 5, 6, 7, 8 }, ra[4], rb[4];
	int to = (rank + 1) % size, from = (rank + size - 1) % size;
	MPI_Request req[4];

	/* initialized in this order on both sides: a matches ra, b rb, even
	 * though b's round is started and completed first */
	CHECK_MPI(MPI_Psend_init(a, 1, 4, MPI_INT, to, 1, MPI_COMM_WORLD, MPI_INFO_NULL,
				 &req[0]));
	CHECK_MPI(MPI_Psend_init(b, 2, 2, MPI_INT, to, 1, MPI_COMM_WORLD, MPI_INFO_NULL,
				 &req[1]));
	CHECK_MPI(MPI_Precv_init(ra, 4, 1, MPI_INT, from, 1, MPI_COMM_WORLD, MPI_INFO_NULL,
				 &req[2]));
	CHECK_MPI(MPI_Precv_init(rb, 1, 4, MPI_INT, from, 1, MPI_COMM_WORLD, MPI_INFO_NULL,
				 &req[3]));
	CHECK_MPI(MPI_Start(&req[1]));
	CHECK_MPI(MPI_Start(&req[3]));
	CHECK_MPI(MPI_Pready_range(0, 1, req[1]));
	CHECK_MPI(MPI_Wait(&req[1], MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Wait(&req[3], MPI_STATUS_IGNORE));
	CHECK(rb[0] == 5 && rb[3] == 8);
	CHECK_MPI(MPI_Start(&req[0]));
	CHECK_MPI(MPI_Start(&req[2]));
	CHECK_MPI(MPI_Pready(0, req[0]));
	CHECK_MPI(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Wait(&req[2], MPI_STATUS_IGNORE));
	CHECK(ra[0] == 1 && ra[3] == 4);
	for (int i = 0; i < 4; i++)
		CHECK_MPI(MPI_Request_free(&req[i]));
}

static void test_inter(void)
{
	int half = size / 2, low = rank < half, buf[64];
	MPI_Comm local, inter;
	MPI_Request req;

	CHECK(size % 2 == 0);
	CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, low, rank, &local));
	CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, low ? half : 0, 11,
				       &inter));
	/* member i of the low group sends to member i of the high one,
	 * ranks of the remote group */
	for (int round = 1; round <= 2; round++) {
		if (low) {
			fill(buf, 64, round, rank);
			CHECK_MPI(MPI_Psend_init(buf, 8, 8, MPI_INT, rank, 6, inter,
						 MPI_INFO_NULL, &req));
			CHECK_MPI(MPI_Start(&req));
			CHECK_MPI(MPI_Pready_range(0, 7, req));
		} else {
			memset(buf, 0, sizeof(buf));
			CHECK_MPI(MPI_Precv_init(buf, 2, 32, MPI_INT, rank - half, 6, inter,
						 MPI_INFO_NULL, &req));
			CHECK_MPI(MPI_Start(&req));
		}
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		if (!low)
			for (int i = 0; i < 64; i++)
				CHECK(buf[i] == value(round, rank - half, i));
		CHECK_MPI(MPI_Request_free(&req));
	}
	CHECK_MPI(MPI_Comm_free(&inter));
	CHECK_MPI(MPI_Comm_free(&local));
}

static void test_empty(void)
{
	int buf[1] = { 7 }, flag;
	int to = (rank + 1) % size, from = (rank + size - 1) % size;
	MPI_Request s, r;

	/* partitions of no element: they arrive all the same */
	CHECK_MPI(MPI_Psend_init(buf, 4, 0, MPI_INT, to, 8, MPI_COMM_WORLD, MPI_INFO_NULL,
				 &s));
	CHECK_MPI(MPI_Precv_init(buf, 2, 0, MPI_INT, from, 8, MPI_COMM_WORLD, MPI_INFO_NULL,
				 &r));
	for (int round = 0; round < 3; round++) {
		CHECK_MPI(MPI_Start(&r));
		CHECK_MPI(MPI_Start(&s));
		CHECK_MPI(MPI_Pready_range(0, 3, s));
		do
			CHECK_MPI(MPI_Parrived(r, 1, &flag));
		while (!flag);
		CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
	}
	CHECK_MPI(MPI_Request_free(&s));
	CHECK_MPI(MPI_Request_free(&r));
#ifdef SHMPI
	/* no partition at all (MPI 4.1 allows it; MPICH 4.0 refuses it) */
	CHECK_MPI(MPI_Psend_init(buf, 0, 4, MPI_INT, to, 9, MPI_COMM_WORLD, MPI_INFO_NULL,
				 &s));
	CHECK_MPI(MPI_Precv_init(buf, 0, 4, MPI_INT, from, 9, MPI_COMM_WORLD, MPI_INFO_NULL,
				 &r));
	for (int round = 0; round < 2; round++) {
		CHECK_MPI(MPI_Start(&r));
		CHECK_MPI(MPI_Start(&s));
		CHECK_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
	}
	CHECK_MPI(MPI_Request_free(&s));
	CHECK_MPI(MPI_Request_free(&r));
#endif
	CHECK(buf[0] == 7);
}

static void test_errors(void)
{
	int buf[4] = { 0 }, list[2] = { 1, 1 }, flag;
	int to = (rank + 1) % size, from = (rank + size - 1) % size;
	MPI_Request sreq, rreq, preq;

	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Psend_init(buf, 4, 1, MPI_INT, to, 2, MPI_COMM_WORLD, MPI_INFO_NULL,
				 &sreq));
	CHECK_MPI(MPI_Precv_init(buf, 4, 1, MPI_INT, from, 2, MPI_COMM_WORLD, MPI_INFO_NULL,
				 &rreq));
	CHECK_MPI(MPI_Send_init(buf, 1, MPI_INT, to, 3, MPI_COMM_WORLD, &preq));
#ifdef SHMPI
	/* inactive */
	CHECK(tu_check_class(MPI_Pready(0, sreq), MPI_ERR_REQUEST));
	/* not partitioned, not a send */
	CHECK(tu_check_class(MPI_Pready(0, preq), MPI_ERR_REQUEST));
	CHECK(tu_check_class(MPI_Pready(0, rreq), MPI_ERR_REQUEST));
	CHECK(tu_check_class(MPI_Parrived(sreq, 0, &flag), MPI_ERR_REQUEST));
#endif
	CHECK_MPI(MPI_Start(&rreq));
	CHECK_MPI(MPI_Start(&sreq));
	CHECK_MPI(MPI_Pready(0, sreq));
#ifdef SHMPI
	CHECK(tu_check_class(MPI_Pready(0, sreq), MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Pready(4, sreq), MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Pready(-1, sreq), MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Pready_range(2, 1, sreq), MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Pready_range(1, 4, sreq), MPI_ERR_ARG));
	/* a duplicate in the list: nothing of it is marked */
	CHECK(tu_check_class(MPI_Pready_list(2, list, sreq), MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Parrived(rreq, 4, &flag), MPI_ERR_ARG));
	/* active, not complete (three partitions are not ready): freeing
	 * it is erroneous */
	CHECK(tu_check_class(MPI_Request_free(&sreq), MPI_ERR_REQUEST));
#endif
	(void)list;
	(void)flag;
	/* every error left the request as it was: the rest goes through */
	CHECK_MPI(MPI_Pready_range(1, 3, sreq));
	CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Wait(&rreq, MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Request_free(&sreq));
	CHECK_MPI(MPI_Request_free(&rreq));
	CHECK_MPI(MPI_Request_free(&preq));
#ifdef SHMPI
	/* sizes that differ: both sides complete with the error, the receive
	 * buffer untouched */
	{
		int big[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, small[4] = { 0 };

		CHECK_MPI(MPI_Psend_init(big, 2, 4, MPI_INT, to, 4, MPI_COMM_WORLD,
					 MPI_INFO_NULL, &sreq));
		CHECK_MPI(MPI_Precv_init(small, 2, 2, MPI_INT, from, 4, MPI_COMM_WORLD,
					 MPI_INFO_NULL, &rreq));
		CHECK_MPI(MPI_Start(&rreq));
		CHECK_MPI(MPI_Start(&sreq));
		CHECK_MPI(MPI_Pready_range(0, 1, sreq));
		CHECK(tu_check_class(MPI_Wait(&sreq, MPI_STATUS_IGNORE), MPI_ERR_TRUNCATE));
		CHECK(tu_check_class(MPI_Wait(&rreq, MPI_STATUS_IGNORE), MPI_ERR_TRUNCATE));
		for (int i = 0; i < 4; i++)
			CHECK(small[i] == 0);
		CHECK_MPI(MPI_Request_free(&sreq));
		CHECK_MPI(MPI_Request_free(&rreq));
	}
#endif
}

static void test_fatal(const char *what)
{
	int buf[4] = { 0 };
	MPI_Request sreq, rreq;

	CHECK_MPI(MPI_Psend_init(buf, 4, 1, MPI_INT, rank, 2, MPI_COMM_WORLD,
				 MPI_INFO_NULL, &sreq));
	CHECK_MPI(MPI_Precv_init(buf, 4, 1, MPI_INT, rank, 2, MPI_COMM_WORLD,
				 MPI_INFO_NULL, &rreq));
	CHECK_MPI(MPI_Start(&rreq));
	CHECK_MPI(MPI_Start(&sreq));
	if (!strcmp(what, "twice")) {
		CHECK_MPI(MPI_Pready(1, sreq));
		MPI_Pready(1, sreq);
	} else {
		MPI_Pready_range(0, 4, sreq);
	}
	printf("not reached\n");
}

int main(int argc, char **argv)
{
	const char *test = argc > 1 ? argv[1] : "";
	int provided;

	if (!strcmp(test, "threads")) {
		MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
		MPI_Comm_rank(MPI_COMM_WORLD, &tu_rank);
		CHECK(provided == MPI_THREAD_MULTIPLE);
	} else {
		tu_init(&argc, &argv);
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (!strcmp(test, "ring") && argc >= 4)
		test_ring(atoi(argv[2]), atoi(argv[3]), argc > 4 ? argv[4] : "one");
	else if (!strcmp(test, "threads") && argc >= 3)
		test_threads(atoi(argv[2]));
	else if (!strcmp(test, "dtype"))
		test_dtype();
	else if (!strcmp(test, "procnull"))
		test_procnull();
	else if (!strcmp(test, "early") && argc >= 3)
		test_early(atoi(argv[2]));
	else if (!strcmp(test, "order"))
		test_order();
	else if (!strcmp(test, "empty"))
		test_empty();
	else if (!strcmp(test, "inter"))
		test_inter();
	else if (!strcmp(test, "errors"))
		test_errors();
	else if (!strcmp(test, "fatal") && argc >= 3)
		test_fatal(argv[2]);
	else
		CHECK(!"usage: part ring SP RP [one|range|list] | threads T | dtype | "
		       "procnull | early P | order | empty | inter | errors | fatal twice|range");
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0)
		printf("ok %s\n", test);
	MPI_Finalize();
	return 0;
}
