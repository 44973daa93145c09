/*
 * Buffered sends: attach/detach, the buffer-full error, a buffered message
 * far larger than a channel, detach blocking until delivery, Ibsend and
 * Bsend_init, out-of-order completion reusing freed space.
 *   p2p_bsend [test]
 */
#include "testutil.h"

static int rank, size;

static void test_attach_detach(void)
{
	char *buf = malloc(1000), *got;
	int got_size;

	CHECK_MPI(MPI_Buffer_attach(buf, 1000));
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	CHECK(MPI_Buffer_attach(buf, 1000) == MPI_ERR_BUFFER);	/* one at a time */
	CHECK(MPI_Buffer_attach(NULL, -1) != MPI_SUCCESS);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	CHECK_MPI(MPI_Buffer_detach(&got, &got_size));
	CHECK(got == buf && got_size == 1000);
	free(buf);
}

/* A message that does not fit is MPI_ERR_BUFFER and leaves the buffer
 * usable; without a buffer, Bsend fails the same way.  The messages are
 * large enough to stay in the buffer until they are received. */
static void test_buffer_full(void)
{
	const int n = 4000;
	int size_needed = n * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
	char *buf = malloc((size_t)size_needed);
	int *v = malloc(sizeof(int) * 2 * (size_t)n), *got, got_size;

	for (int i = 0; i < 2 * n; i++)
		v[i] = i;
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	CHECK(MPI_Bsend(v, 1, MPI_INT, rank, 1, MPI_COMM_WORLD) == MPI_ERR_BUFFER);
	CHECK_MPI(MPI_Buffer_attach(buf, size_needed));
	CHECK(MPI_Bsend(v, n + 1, MPI_INT, rank, 1, MPI_COMM_WORLD) == MPI_ERR_BUFFER);
	CHECK_MPI(MPI_Bsend(v, n, MPI_INT, rank, 1, MPI_COMM_WORLD));
	/* full now (the message waits for its receive): one more int fails */
	CHECK(MPI_Bsend(v, 1, MPI_INT, rank, 2, MPI_COMM_WORLD) == MPI_ERR_BUFFER);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	memset(v, 0, sizeof(int) * (size_t)n);
	CHECK_MPI(MPI_Recv(v, 2 * n, MPI_INT, rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	CHECK(v[n - 1] == n - 1);
	/* the space came back */
	CHECK_MPI(MPI_Bsend(v, n, MPI_INT, rank, 3, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Recv(v, 2 * n, MPI_INT, rank, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Buffer_detach(&got, &got_size));
	free(buf);
	free(v);
}

/* 16 MiB buffered to the next rank (channels hold 64 KiB at most), received
 * late; detach returns only after the receiver has it all. */
static void test_large_and_detach_blocks(void)
{
	size_t n = (size_t)16 << 20;
	int to = (rank + 1) % size, from = (rank + size - 1) % size, token = 0;
	unsigned char *msg = malloc(n), *in = malloc(n);
	char *buf = malloc(n + MPI_BSEND_OVERHEAD), *got;
	double t0, held;
	int got_size;

	tu_fill(msg, n, rank, 5);
	CHECK_MPI(MPI_Buffer_attach(buf, (int)(n + MPI_BSEND_OVERHEAD)));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Bsend(msg, (int)n, MPI_BYTE, to, 5, MPI_COMM_WORLD));
	memset(msg, 0, n);	/* the message was copied: the buffer is ours again */
	if (rank % 2 == 0 && size > 1) {
		/* the receiver sleeps 300 ms before posting its receive:
		 * detach must wait for it */
		t0 = MPI_Wtime();
		CHECK_MPI(MPI_Buffer_detach(&got, &got_size));
		held = MPI_Wtime() - t0;
		CHECK(got == buf && got_size == (int)(n + MPI_BSEND_OVERHEAD));
		CHECK(to % 2 == 0 || held > 0.2);
		CHECK_MPI(MPI_Recv(in, (int)n, MPI_BYTE, from, 5, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE));
	} else {
		tu_sleep_ms(300);
		CHECK_MPI(MPI_Recv(in, (int)n, MPI_BYTE, from, 5, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Buffer_detach(&got, &got_size));
	}
	CHECK(tu_verify(in, n, from, 5));
	(void)token;
	free(msg);
	free(in);
	free(buf);
}

static void test_ibsend_and_persistent(void)
{
	int to = (rank + 1) % size, from = (rank + size - 1) % size;
	int bufsize = 10 * (4000 + MPI_BSEND_OVERHEAD);
	char *buf = malloc((size_t)bufsize), *got;
	int v[1000], w[1000], got_size, flag;
	MPI_Request req;

	CHECK_MPI(MPI_Buffer_attach(buf, bufsize));
	for (int i = 0; i < 1000; i++)
		v[i] = rank + i;
	CHECK_MPI(MPI_Ibsend(v, 1000, MPI_INT, to, 6, MPI_COMM_WORLD, &req));
	/* complete at once: the data is in the attach buffer */
	CHECK_MPI(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
	CHECK(flag && req == MPI_REQUEST_NULL);
	CHECK_MPI(MPI_Bsend_init(v, 1000, MPI_INT, to, 7, MPI_COMM_WORLD, &req));
	for (int round = 0; round < 5; round++) {
		v[0] = round;
		CHECK_MPI(MPI_Start(&req));
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	}
	CHECK_MPI(MPI_Request_free(&req));
	CHECK_MPI(MPI_Recv(w, 1000, MPI_INT, from, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	CHECK(w[999] == from + 999);
	for (int round = 0; round < 5; round++) {
		CHECK_MPI(MPI_Recv(w, 1000, MPI_INT, from, 7, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE));
		CHECK(w[0] == round && w[1] == from + 1);
	}
	CHECK_MPI(MPI_Buffer_detach(&got, &got_size));
	free(buf);
}

/* Blocks freed out of order are reused: three messages to different
 * receivers, the middle one received first. */
static void test_reuse(void)
{
	int bufsize = 3 * (8000 + MPI_BSEND_OVERHEAD);
	char *buf = malloc((size_t)bufsize), *got;
	int got_size, v[2000];

	if (size < 3) {
		free(buf);
		return;
	}
	for (int i = 0; i < 2000; i++)
		v[i] = i;
	if (rank == 0) {
		CHECK_MPI(MPI_Buffer_attach(buf, bufsize));
		CHECK_MPI(MPI_Bsend(v, 2000, MPI_INT, 1, 8, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Bsend(v, 2000, MPI_INT, 2, 8, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Bsend(v, 2000, MPI_INT, 1, 9, MPI_COMM_WORLD));
		/* rank 2 takes its message first; then its block is free */
		CHECK_MPI(MPI_Recv(&got_size, 1, MPI_INT, 2, 10, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Bsend(v, 2000, MPI_INT, 2, 11, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Send(&got_size, 1, MPI_INT, 1, 12, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Buffer_detach(&got, &got_size));
	} else if (rank == 1) {
		CHECK_MPI(MPI_Recv(&got_size, 1, MPI_INT, 0, 12, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Recv(v, 2000, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Recv(v, 2000, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK(v[1999] == 1999);
	} else if (rank == 2) {
		CHECK_MPI(MPI_Recv(v, 2000, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Send(&got_size, 1, MPI_INT, 0, 10, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Recv(v, 2000, MPI_INT, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK(v[1999] == 1999);
	}
	free(buf);
}

/* Finalize delivers buffered messages that are still in the buffer. */
static void test_finalize_delivers(void)
{
	static char buf[100000];
	int v[1000];

	if (size < 2)
		return;
	if (rank == 0) {
		for (int i = 0; i < 1000; i++)
			v[i] = 7 * i;
		CHECK_MPI(MPI_Buffer_attach(buf, sizeof(buf)));
		CHECK_MPI(MPI_Bsend(v, 1000, MPI_INT, 1, 13, MPI_COMM_WORLD));
	} else if (rank == 1) {
		tu_sleep_ms(100);
		CHECK_MPI(MPI_Recv(v, 1000, MPI_INT, 0, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK(v[999] == 6993);
	}
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	TU_RUN("attach", test_attach_detach);
	TU_RUN("full", test_buffer_full);
	TU_RUN("large", test_large_and_detach_blocks);
	TU_RUN("ibsend", test_ibsend_and_persistent);
	TU_RUN("reuse", test_reuse);
	TU_RUN("finalize", test_finalize_delivers);
	MPI_Finalize();
	return 0;
}
