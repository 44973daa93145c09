/*
 * Weak progress inside MPI: data moves whenever the sender is in any MPI
 * call, blocked or testing (MPI 4.1, section 2.9: blocked procedures and repeatedly
 * called test procedures guarantee progress).  Two ranks; large messages,
 * so the data needs the sender's engine chunk by chunk.
 *   p2p_progress [test]
 */
#include <stdatomic.h>
#include <time.h>

#include "testutil.h"

#define BIG ((size_t)8 << 20)

static int rank, size;

/* The sender blocks in an unrelated receive; its engine still pushes the
 * chunks of its earlier Isend, which the peer needs before it can send the
 * message that ends the sender's receive. */
static void test_blocked_sender(void)
{
	unsigned char *b = malloc(BIG);
	int token = 0;

	if (rank == 0) {
		MPI_Request req;

		tu_fill(b, BIG, 0, 1);
		CHECK_MPI(MPI_Isend(b, (int)BIG, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &req));
		CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK(token == 42);
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	} else if (rank == 1) {
		CHECK_MPI(MPI_Recv(b, (int)BIG, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK(tu_verify(b, BIG, 0, 1));
		token = 42;
		CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 0, 2, MPI_COMM_WORLD));
	}
	free(b);
}

/* The same with a buffered message and the sender blocked in a barrier. */
static void test_bsend_then_barrier(void)
{
	unsigned char *b = malloc(BIG);
	char *buf = malloc(BIG + MPI_BSEND_OVERHEAD), *got;
	int got_size;

	if (rank == 0) {
		tu_fill(b, BIG, 0, 2);
		CHECK_MPI(MPI_Buffer_attach(buf, (int)(BIG + MPI_BSEND_OVERHEAD)));
		CHECK_MPI(MPI_Bsend(b, (int)BIG, MPI_BYTE, 1, 3, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		CHECK_MPI(MPI_Buffer_detach(&got, &got_size));
	} else if (rank == 1) {
		CHECK_MPI(MPI_Recv(b, (int)BIG, MPI_BYTE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK(tu_verify(b, BIG, 0, 2));
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	} else {
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	}
	free(b);
	free(buf);
}

/* A sender that only calls one test procedure in a loop gets its data out:
 * which procedure is the argument. */
static void test_sender_only_tests(const char *how)
{
	unsigned char *b = malloc(BIG);

	if (rank == 0) {
		MPI_Request req;
		MPI_Status st;
		int flag = 0, index, outcount, idx[1], token;

		tu_fill(b, BIG, 0, 4);
		CHECK_MPI(MPI_Isend(b, (int)BIG, MPI_BYTE, 1, 4, MPI_COMM_WORLD, &req));
		while (!flag) {
			if (!strcmp(how, "test")) {
				CHECK_MPI(MPI_Test(&req, &flag, &st));
			} else if (!strcmp(how, "testany")) {
				CHECK_MPI(MPI_Testany(1, &req, &index, &flag, &st));
			} else if (!strcmp(how, "testall")) {
				CHECK_MPI(MPI_Testall(1, &req, &flag, MPI_STATUSES_IGNORE));
			} else if (!strcmp(how, "testsome")) {
				CHECK_MPI(MPI_Testsome(1, &req, &outcount, idx, MPI_STATUSES_IGNORE));
				flag = outcount == 1;
			} else if (!strcmp(how, "iprobe")) {
				/* rank 1 answers only once it has all the data,
				 * which only Iprobe's engine passes push out */
				CHECK_MPI(MPI_Iprobe(1, 5, MPI_COMM_WORLD, &flag, &st));
			} else {
				CHECK_MPI(MPI_Request_get_status(req, &flag, &st));
			}
		}
		if (!strcmp(how, "iprobe"))
			CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 1, 5, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
		if (req != MPI_REQUEST_NULL)
			CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	} else if (rank == 1) {
		int token = 1;

		CHECK_MPI(MPI_Recv(b, (int)BIG, MPI_BYTE, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK(tu_verify(b, BIG, 0, 4));
		if (!strcmp(how, "iprobe"))
			CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 0, 5, MPI_COMM_WORLD));
	}
	free(b);
}

/* Which progress the job runs under (shmpi's info key; weak elsewhere). */
static int strong_progress(void)
{
	char value[64];
	MPI_Info info;
	int flag;

	CHECK_MPI(MPI_Comm_get_info(MPI_COMM_WORLD, &info));
	CHECK_MPI(MPI_Info_get(info, "shmpi_progress", sizeof(value) - 1, value, &flag));
	CHECK_MPI(MPI_Info_free(&info));
	return flag && !strcmp(value, "strong");
}

/* Seconds since the first call (the test's own clock, not MPI_Wtime:
 * the sender must make no MPI call while it computes). */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One message of `bytes` from rank 0 to rank 1 while rank 0 computes
 * outside MPI (see test_outside_mpi), after a small one of `lead` bytes
 * that shifts where the big one's records fall in the ring.  Returns
 * whether the receive ended while the sender still computed. */
static int outside_once(_Atomic int *flag, unsigned char *b, size_t bytes, int lead,
			double limit, int tag)
{
	int seen = 0;

	if (rank == 0)
		atomic_store(flag, 0);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0) {
		MPI_Request req[2];
		double end;

		tu_fill(b, bytes, 0, tag);
		CHECK_MPI(MPI_Isend(b, lead, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &req[0]));
		CHECK_MPI(MPI_Isend(b, (int)bytes, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &req[1]));
		/* "computing" */
		end = now_s() + limit;
		while (!(seen = atomic_load(flag)) && now_s() < end)
			tu_sleep_ms(1);
		CHECK_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
	} else if (rank == 1) {
		CHECK_MPI(MPI_Recv(b, lead, MPI_BYTE, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Recv(b, (int)bytes, MPI_BYTE, 0, tag, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE));
		atomic_store(flag, 1);
		CHECK(tu_verify(b, bytes, 0, tag));
	}
	return seen;
}

/* A flag in rank 0's shared memory that every rank can reach. */
static _Atomic int *shared_flag(MPI_Win *win)
{
	MPI_Aint size = rank == 0 ? (MPI_Aint)sizeof(int) : 0;
	_Atomic int *flag;

	CHECK_MPI(MPI_Win_allocate_shared(size, (int)sizeof(int), MPI_INFO_NULL,
					  MPI_COMM_WORLD, &flag, win));
	if (rank != 0) {
		MPI_Aint qsize;
		int disp;

		CHECK_MPI(MPI_Win_shared_query(*win, 0, &qsize, &disp, &flag));
	}
	return flag;
}

/* While the sender computes outside MPI, its message does not move under
 * weak progress: the receive ends only after the sender calls MPI again.
 * Under strong progress it arrives while the sender still computes.  The
 * receiver raises a flag in shared memory once its receive is done, and the
 * sender, computing, watches it (plain loads, no MPI call): under weak
 * progress it must stay down for the whole second the sender computes,
 * under strong progress it must come up long before ten seconds, however
 * slowly a loaded machine schedules the two ranks. */
static void test_outside_mpi(void)
{
	unsigned char *b = malloc(BIG);
	int strong = strong_progress();
	MPI_Win win;
	_Atomic int *flag = shared_flag(&win);
	int seen = outside_once(flag, b, BIG, 1, strong ? 10.0 : 1.0, 6);

	if (rank == 0)
		CHECK(strong ? seen : !seen);
	CHECK_MPI(MPI_Win_free(&win));
	free(b);
}

/* The same, many times over and with the records of the big message
 * falling on ever other places of the ring, under strong progress only:
 * every wait of the sender's progress thread for room in the ring must be
 * woken by the receiver's releases (a lost wake-up shows as a flag that
 * stays down). */
static void test_outside_many(void)
{
	size_t bytes = (size_t)1 << 20;
	unsigned char *b = malloc(bytes + 4096);
	MPI_Win win;
	_Atomic int *flag = shared_flag(&win);

	CHECK(strong_progress());
	for (int i = 0; i < 300; i++) {
		int seen = outside_once(flag, b, bytes + (size_t)(i % 7) * 520, 1 + (i * 37) % 3000,
					10.0, 7);

		if (rank == 0 && !seen)
			fprintf(stderr, "rank 0: message %d did not arrive while the sender "
				"computed\n", i);
		if (rank == 0)
			CHECK(seen);
	}
	CHECK_MPI(MPI_Win_free(&win));
	free(b);
}

static void test_via_test(void) { test_sender_only_tests("test"); }
static void test_via_testany(void) { test_sender_only_tests("testany"); }
static void test_via_testall(void) { test_sender_only_tests("testall"); }
static void test_via_testsome(void) { test_sender_only_tests("testsome"); }
static void test_via_iprobe(void) { test_sender_only_tests("iprobe"); }
static void test_via_get_status(void) { test_sender_only_tests("get_status"); }

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK(size >= 2);
	TU_RUN("blocked", test_blocked_sender);
	TU_RUN("bsend_barrier", test_bsend_then_barrier);
	TU_RUN("test", test_via_test);
	TU_RUN("testany", test_via_testany);
	TU_RUN("testall", test_via_testall);
	TU_RUN("testsome", test_via_testsome);
	TU_RUN("iprobe", test_via_iprobe);
	TU_RUN("get_status", test_via_get_status);
	TU_RUN("outside", test_outside_mpi);
	/* not part of "all": strong progress only */
	if (!strcmp(which, "outside_many")) {
		test_outside_many();
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 0)
			printf("ok outside_many\n");
	}
	MPI_Finalize();
	return 0;
}
