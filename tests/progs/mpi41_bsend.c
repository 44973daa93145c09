/*
 * The buffers of buffered sends of MPI 4.1 (section 3.6.1), checked by
 * their results: which buffer a buffered send uses (its communicator's,
 * else its session's, else the process's), MPI_BUFFER_AUTOMATIC, the
 * flushes (blocking and not) and detaching, with the int and the MPI_Count
 * forms, and the errors the calls report under MPI_ERRORS_RETURN.
 * Prints one "ok" line per part on rank 0.  A plain MPI 4.1 program.
 *
 *   mpi41_bsend          the checks
 *   mpi41_bsend fatal    a second MPI_Comm_attach_buffer under the default
 *                        handler: the job ends naming the call
 */
#include "testutil.h"

/*
 * Messages above the eager limit: each stays in its buffer until its
 * receive is posted (shmpi sends them by rendezvous; another MPI may
 * move them sooner, which only the checks marked "stays" rely on).
 */
#define MSG 16384
#define SLOT (MSG * (int)sizeof(int) + MPI_BSEND_OVERHEAD)

static int size, right, left;
static int msg[MSG], msg2[MSG];
/* what bsend_some fills and sends: never a receive buffer, which a
 * receive still under way may be writing */
static int out[MSG];

/* Send n messages with tag `tag` to the right on comm, buffered. */
static int bsend_some(MPI_Comm comm, int n, int tag)
{
	int rc = MPI_SUCCESS;

	for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
		for (int k = 0; k < MSG; k++)
			out[k] = tu_rank * 1000 + tag * 100 + i * 10 + k;
		rc = MPI_Bsend(out, MSG, MPI_INT, right, tag, comm);
	}
	return rc;
}

/* Receive n of them from the left and check them. */
static void recv_some(MPI_Comm comm, int n, int tag)
{
	for (int i = 0; i < n; i++) {
		CHECK_MPI(MPI_Recv(msg, MSG, MPI_INT, left, tag, comm, MPI_STATUS_IGNORE));
		for (int k = 0; k < MSG; k++)
			CHECK(msg[k] == left * 1000 + tag * 100 + i * 10 + k);
	}
}

/* A flush request is pending while a message stays, done once it left. */
static void check_iflush_waits(MPI_Request *reqs, int n)
{
	int flag;

	for (int i = 0; i < n; i++) {
		CHECK_MPI(MPI_Test(&reqs[i], &flag, MPI_STATUS_IGNORE));
		CHECK(!flag);	/* stays */
	}
}

/* A communicator's buffer serves its sends, and only them; a full one is
 * MPI_ERR_BUFFER; a flush waits for its messages and the buffer stays
 * attached. */
static void check_comm_buffer(void)
{
	static char cbuf[2 * SLOT], pbuf[SLOT];
	MPI_Request req[2];
	MPI_Comm dup;
	void *addr;
	int n;

	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
	MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
	CHECK_MPI(MPI_Comm_attach_buffer(dup, cbuf, sizeof(cbuf)));
	CHECK_MPI(MPI_Buffer_attach(pbuf, sizeof(pbuf)));

	/* two fit in dup's buffer, one in the process's (they stay) */
	CHECK_MPI(bsend_some(dup, 2, 1));
	CHECK(tu_check_class(bsend_some(dup, 1, 1), MPI_ERR_BUFFER));
	CHECK_MPI(bsend_some(MPI_COMM_WORLD, 1, 2));
	CHECK(tu_check_class(bsend_some(MPI_COMM_WORLD, 1, 2), MPI_ERR_BUFFER));
	CHECK_MPI(MPI_Comm_iflush_buffer(dup, &req[0]));
	CHECK_MPI(MPI_Buffer_iflush(&req[1]));
	check_iflush_waits(req, 2);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	recv_some(dup, 2, 1);
	recv_some(MPI_COMM_WORLD, 1, 2);
	CHECK_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
	CHECK(req[0] == MPI_REQUEST_NULL && req[1] == MPI_REQUEST_NULL);

	/* flushed, each buffer takes as much again */
	CHECK_MPI(bsend_some(dup, 2, 3));
	CHECK_MPI(bsend_some(MPI_COMM_WORLD, 1, 4));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Irecv(msg, MSG, MPI_INT, left, 3, dup, &req[0]));
	CHECK_MPI(MPI_Irecv(msg2, MSG, MPI_INT, left, 3, dup, &req[1]));
	CHECK_MPI(MPI_Comm_flush_buffer(dup));
	/* the flush returned: both left, and the buffer has room for two */
	CHECK_MPI(bsend_some(dup, 2, 16));
	CHECK_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
	CHECK(msg2[MSG - 1] == left * 1000 + 300 + 10 + MSG - 1);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	recv_some(dup, 2, 16);
	CHECK_MPI(MPI_Irecv(msg, MSG, MPI_INT, left, 4, MPI_COMM_WORLD, &req[0]));
	CHECK_MPI(MPI_Buffer_flush());
	CHECK_MPI(MPI_Wait(&req[0], MPI_STATUS_IGNORE));

	/* detached, dup's sends fall back on the process's buffer */
	CHECK_MPI(MPI_Comm_detach_buffer(dup, &addr, &n));
	CHECK(addr == cbuf && n == (int)sizeof(cbuf));
	CHECK_MPI(bsend_some(dup, 1, 5));
	CHECK(tu_check_class(bsend_some(dup, 1, 5), MPI_ERR_BUFFER));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	recv_some(dup, 1, 5);
	CHECK_MPI(MPI_Buffer_detach(&addr, &n));
	CHECK(addr == pbuf && n == (int)sizeof(pbuf));

	/* no buffer anywhere */
	CHECK(tu_check_class(bsend_some(dup, 1, 6), MPI_ERR_BUFFER));
	/* nothing attached: flushing is nothing, detaching an error */
	CHECK_MPI(MPI_Comm_flush_buffer(dup));
	CHECK_MPI(MPI_Buffer_flush());
	CHECK(tu_check_class(MPI_Comm_detach_buffer(dup, &addr, &n), MPI_ERR_BUFFER));
	CHECK(tu_check_class(MPI_Buffer_detach(&addr, &n), MPI_ERR_BUFFER));
	CHECK_MPI(MPI_Comm_attach_buffer(dup, cbuf, sizeof(cbuf)));
	CHECK(tu_check_class(MPI_Comm_attach_buffer(dup, cbuf, sizeof(cbuf)),
			     MPI_ERR_BUFFER));
	CHECK_MPI(MPI_Comm_detach_buffer(dup, &addr, &n));
	CHECK(tu_check_class(MPI_Comm_attach_buffer(dup, cbuf, -1), MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Comm_flush_buffer(MPI_COMM_NULL), MPI_ERR_COMM));
	CHECK_MPI(MPI_Comm_free(&dup));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* MPI_BUFFER_AUTOMATIC: as many messages as memory holds, and it comes
 * back from the detach; the MPI_Count forms. */
static void check_automatic(void)
{
	static char cbuf[SLOT];
	MPI_Request req;
	MPI_Count n;
	void *addr;
	int ni;

	CHECK_MPI(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0));
	CHECK_MPI(bsend_some(MPI_COMM_WORLD, 40, 7));
	CHECK_MPI(MPI_Buffer_iflush(&req));
	check_iflush_waits(&req, 1);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	recv_some(MPI_COMM_WORLD, 40, 7);
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Buffer_detach(&addr, &ni));
	CHECK(addr == MPI_BUFFER_AUTOMATIC && ni == 0);

	CHECK_MPI(MPI_Comm_attach_buffer_c(MPI_COMM_WORLD, MPI_BUFFER_AUTOMATIC, 0));
	CHECK_MPI(bsend_some(MPI_COMM_WORLD, 20, 8));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	recv_some(MPI_COMM_WORLD, 20, 8);
	CHECK_MPI(MPI_Comm_detach_buffer_c(MPI_COMM_WORLD, &addr, &n));
	CHECK(addr == MPI_BUFFER_AUTOMATIC && n == 0);

	CHECK_MPI(MPI_Buffer_attach_c(cbuf, (MPI_Count)sizeof(cbuf)));
	CHECK_MPI(bsend_some(MPI_COMM_WORLD, 1, 9));
	CHECK(tu_check_class(bsend_some(MPI_COMM_WORLD, 1, 9), MPI_ERR_BUFFER));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Irecv(msg, MSG, MPI_INT, left, 9, MPI_COMM_WORLD, &req));
	CHECK_MPI(MPI_Buffer_detach_c(&addr, &n));
	CHECK(addr == cbuf && n == (MPI_Count)sizeof(cbuf));
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

/* A session's buffer serves the communicators made from its process
 * sets (and their duplicates), not the others; a communicator's own
 * buffer comes first. */
static void check_session_buffer(void)
{
	static char sbuf[2 * SLOT], cbuf[SLOT];
	MPI_Session session;
	MPI_Group g;
	MPI_Comm sc, dup;
	MPI_Request req, reqs[2];
	MPI_Count nc;
	void *addr;
	int n;

	CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session));
	CHECK_MPI(MPI_Group_from_session_pset(session, "mpi://WORLD", &g));
	CHECK_MPI(MPI_Comm_create_from_group(g, "mpi41_bsend", MPI_INFO_NULL,
					     MPI_ERRORS_RETURN, &sc));
	CHECK_MPI(MPI_Group_free(&g));
	CHECK_MPI(MPI_Comm_dup(sc, &dup));
	CHECK_MPI(MPI_Session_attach_buffer(session, sbuf, sizeof(sbuf)));

	/* the session's buffer: a message from sc and one from its duplicate,
	 * none from MPI_COMM_WORLD, which has no buffer (they stay) */
	CHECK_MPI(bsend_some(sc, 1, 10));
	CHECK_MPI(bsend_some(dup, 1, 11));
	CHECK(tu_check_class(bsend_some(sc, 1, 10), MPI_ERR_BUFFER));
	CHECK(tu_check_class(bsend_some(MPI_COMM_WORLD, 1, 12), MPI_ERR_BUFFER));
	CHECK_MPI(MPI_Session_iflush_buffer(session, &req));
	check_iflush_waits(&req, 1);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	recv_some(sc, 1, 10);
	recv_some(dup, 1, 11);
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));

	/* sc's own buffer comes first: one message, whatever the session has */
	CHECK_MPI(MPI_Comm_attach_buffer(sc, cbuf, sizeof(cbuf)));
	CHECK_MPI(bsend_some(sc, 1, 13));
	CHECK(tu_check_class(bsend_some(sc, 1, 13), MPI_ERR_BUFFER));
	CHECK_MPI(bsend_some(dup, 2, 14));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Irecv(msg, MSG, MPI_INT, left, 13, sc, &req));
	CHECK_MPI(MPI_Comm_detach_buffer(sc, &addr, &n));
	CHECK(addr == cbuf && n == (int)sizeof(cbuf));
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Irecv(msg, MSG, MPI_INT, left, 14, dup, &reqs[0]));
	CHECK_MPI(MPI_Irecv(msg2, MSG, MPI_INT, left, 14, dup, &reqs[1]));
	CHECK_MPI(MPI_Session_flush_buffer(session));
	CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
	CHECK_MPI(MPI_Session_detach_buffer_c(session, &addr, &nc));
	CHECK(addr == sbuf && nc == (MPI_Count)sizeof(sbuf));
	CHECK(tu_check_class(MPI_Session_detach_buffer(session, &addr, &n),
			     MPI_ERR_BUFFER));

	/* attached again, the session's finalize waits for its messages */
	CHECK_MPI(MPI_Session_attach_buffer_c(session, sbuf, (MPI_Count)sizeof(sbuf)));
	CHECK_MPI(bsend_some(sc, 2, 15));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Irecv(msg, MSG, MPI_INT, left, 15, sc, &reqs[0]));
	CHECK_MPI(MPI_Irecv(msg2, MSG, MPI_INT, left, 15, sc, &reqs[1]));
	CHECK_MPI(MPI_Comm_free(&dup));
	CHECK_MPI(MPI_Comm_free(&sc));
	CHECK_MPI(MPI_Session_finalize(&session));
	CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
	CHECK(msg2[MSG - 1] == left * 1000 + 1500 + 10 + MSG - 1);
	CHECK(tu_check_class(MPI_Session_flush_buffer(MPI_SESSION_NULL), MPI_ERR_SESSION));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
	tu_init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	right = (tu_rank + 1) % size;
	left = (tu_rank + size - 1) % size;
	if (argc > 1 && !strcmp(argv[1], "fatal")) {
		static char buf[SLOT];

		MPI_Comm_attach_buffer(MPI_COMM_WORLD, buf, sizeof(buf));
		MPI_Comm_attach_buffer(MPI_COMM_WORLD, buf, sizeof(buf));
		return 1;
	}
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	check_comm_buffer();
	if (tu_rank == 0)
		printf("ok comm_buffer\n");
	check_automatic();
	if (tu_rank == 0)
		printf("ok automatic\n");
	check_session_buffer();
	if (tu_rank == 0)
		printf("ok session_buffer\n");
	MPI_Finalize();
	return 0;
}
