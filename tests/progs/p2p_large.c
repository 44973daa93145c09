/*
 * The large-count point-to-point calls (MPI 4.1, section 2.5.8) and
 * MPI_Isendrecv(_replace) (section 3.10), checked by their results at any
 * number of ranks: each "_c" call moves around a ring what its int form
 * moves, with the same statuses; the count queries say MPI_UNDEFINED where
 * a count does not fit their int result; a negative count is
 * MPI_ERR_COUNT.  The nonblocking send-receives go around the ring, to
 * this rank itself, to and from MPI_PROC_NULL and from MPI_ANY_SOURCE.
 * Prints one "ok" line per part on rank 0.  A plain MPI program.
 *
 *   p2p_large            every part
 *   p2p_large fatal      MPI_Send_c with a negative count under the fatal
 *                        handler (the message names call and argument)
 */
#include "testutil.h"

#define N 4096		/* ints of a message: past the eager size */

static int size, right, left;

static void fill(int *b, int n, int from, int salt)
{
	for (int i = 0; i < n; i++)
		b[i] = from * 100000 + salt * 1000 + i;
}

static void expect(const int *b, int n, int from, int salt)
{
	for (int i = 0; i < n; i++)
		CHECK(b[i] == from * 100000 + salt * 1000 + i);
}

/* A status of n ints from `from` with tag `tag`, by both count queries. */
static void expect_status(const MPI_Status *st, int n, int from, int tag)
{
	MPI_Count c = -1, e = -1;
	int ic = -1;

	CHECK(st->MPI_SOURCE == from && st->MPI_TAG == tag);
	CHECK_MPI(MPI_Get_count_c(st, MPI_INT, &c));
	CHECK_MPI(MPI_Get_elements_c(st, MPI_INT, &e));
	CHECK_MPI(MPI_Get_count(st, MPI_INT, &ic));
	CHECK(c == n && e == n && ic == n);
}

/* Every send form with a large count, each to the right, received from
 * the left by a receive form with a large count. */
static void check_p2p_c(void)
{
	static int sbuf[N], rbuf[N];
	char *attach;
	MPI_Request sr, rr;
	MPI_Status st;
	MPI_Message msg;
	int bsize, flag;

	MPI_Pack_size(N, MPI_INT, MPI_COMM_WORLD, &bsize);
	/* room for every buffered message of the loop at once */
	bsize = 4 * (bsize + MPI_BSEND_OVERHEAD);
	attach = malloc((size_t)bsize);
	CHECK(attach);
	CHECK_MPI(MPI_Buffer_attach(attach, bsize));
	for (int form = 0; form < 13; form++) {
		fill(sbuf, N, tu_rank, form);
		memset(rbuf, 0xff, sizeof(rbuf));
		/* the receive first: ready and synchronous sends need it */
		switch (form % 3) {
		case 0:
			CHECK_MPI(MPI_Irecv_c(rbuf, N, MPI_INT, left, form, MPI_COMM_WORLD,
					      &rr));
			break;
		case 1:
			CHECK_MPI(MPI_Recv_init_c(rbuf, N, MPI_INT, left, form,
						  MPI_COMM_WORLD, &rr));
			CHECK_MPI(MPI_Start(&rr));
			break;
		default:
			rr = MPI_REQUEST_NULL;
			break;
		}
		MPI_Barrier(MPI_COMM_WORLD);
		sr = MPI_REQUEST_NULL;
		switch (form) {
		case 0: CHECK_MPI(MPI_Send_c(sbuf, N, MPI_INT, right, form, MPI_COMM_WORLD)); break;
		case 1: CHECK_MPI(MPI_Ssend_c(sbuf, N, MPI_INT, right, form, MPI_COMM_WORLD)); break;
		case 2: CHECK_MPI(MPI_Isend_c(sbuf, N, MPI_INT, right, form, MPI_COMM_WORLD, &sr)); break;
		case 3: CHECK_MPI(MPI_Rsend_c(sbuf, N, MPI_INT, right, form, MPI_COMM_WORLD)); break;
		case 4: CHECK_MPI(MPI_Bsend_c(sbuf, N, MPI_INT, right, form, MPI_COMM_WORLD)); break;
		case 5: CHECK_MPI(MPI_Issend_c(sbuf, N, MPI_INT, right, form, MPI_COMM_WORLD, &sr)); break;
		case 6: CHECK_MPI(MPI_Irsend_c(sbuf, N, MPI_INT, right, form, MPI_COMM_WORLD, &sr)); break;
		case 7: CHECK_MPI(MPI_Ibsend_c(sbuf, N, MPI_INT, right, form, MPI_COMM_WORLD, &sr)); break;
		case 8: CHECK_MPI(MPI_Send_init_c(sbuf, N, MPI_INT, right, form, MPI_COMM_WORLD, &sr)); break;
		case 9: CHECK_MPI(MPI_Ssend_init_c(sbuf, N, MPI_INT, right, form, MPI_COMM_WORLD, &sr)); break;
		case 10: CHECK_MPI(MPI_Rsend_init_c(sbuf, N, MPI_INT, right, form, MPI_COMM_WORLD, &sr)); break;
		case 11: CHECK_MPI(MPI_Bsend_init_c(sbuf, N, MPI_INT, right, form, MPI_COMM_WORLD, &sr)); break;
		default: CHECK_MPI(MPI_Isend_c(sbuf, N, MPI_INT, right, form, MPI_COMM_WORLD, &sr)); break;
		}
		if (form >= 8 && form <= 11)
			CHECK_MPI(MPI_Start(&sr));
		if (rr == MPI_REQUEST_NULL && form % 2) {
			CHECK_MPI(MPI_Mprobe(left, form, MPI_COMM_WORLD, &msg, &st));
			CHECK_MPI(MPI_Mrecv_c(rbuf, N, MPI_INT, &msg, &st));
		} else if (rr == MPI_REQUEST_NULL && form == 2) {
			do {
				CHECK_MPI(MPI_Improbe(left, form, MPI_COMM_WORLD, &flag, &msg,
						      &st));
			} while (!flag);
			CHECK_MPI(MPI_Imrecv_c(rbuf, N, MPI_INT, &msg, &rr));
			CHECK_MPI(MPI_Wait(&rr, &st));
		} else if (rr == MPI_REQUEST_NULL) {
			CHECK_MPI(MPI_Recv_c(rbuf, N, MPI_INT, left, form, MPI_COMM_WORLD, &st));
		} else {
			CHECK_MPI(MPI_Wait(&rr, &st));
		}
		CHECK_MPI(MPI_Wait(&sr, MPI_STATUS_IGNORE));
		if (sr != MPI_REQUEST_NULL)
			CHECK_MPI(MPI_Request_free(&sr));
		if (rr != MPI_REQUEST_NULL)
			CHECK_MPI(MPI_Request_free(&rr));
		expect(rbuf, N, left, form);
		expect_status(&st, N, left, form);
	}
	CHECK_MPI(MPI_Buffer_detach(&attach, &bsize));
	free(attach);

	/* the blocking send-receives */
	fill(sbuf, N, tu_rank, 20);
	CHECK_MPI(MPI_Sendrecv_c(sbuf, N, MPI_INT, right, 20, rbuf, N, MPI_INT, left, 20,
				 MPI_COMM_WORLD, &st));
	expect(rbuf, N, left, 20);
	expect_status(&st, N, left, 20);
	fill(rbuf, N, tu_rank, 21);
	CHECK_MPI(MPI_Sendrecv_replace_c(rbuf, N, MPI_INT, right, 21, left, 21,
					 MPI_COMM_WORLD, &st));
	expect(rbuf, N, left, 21);
	expect_status(&st, N, left, 21);
}

/* The int count queries on a count that does not fit an int (MPI 4.1,
 * section 3.2.5: MPI_UNDEFINED); the large ones give it whole. */
static void check_undefined(void)
{
	const MPI_Count big = 3000000000LL;
	MPI_Status st;
	MPI_Count c;
	int ic;

	memset(&st, 0, sizeof(st));
	CHECK_MPI(MPI_Status_set_elements_x(&st, MPI_BYTE, big));
	CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &ic));
	CHECK(ic == MPI_UNDEFINED);
	CHECK_MPI(MPI_Get_elements(&st, MPI_BYTE, &ic));
	CHECK(ic == MPI_UNDEFINED);
	CHECK_MPI(MPI_Get_count_c(&st, MPI_BYTE, &c));
	CHECK(c == big);
	CHECK_MPI(MPI_Get_elements_c(&st, MPI_BYTE, &c));
	CHECK(c == big);
	/* 1.5e9 shorts: the count of shorts fits, of bytes it does not */
	CHECK_MPI(MPI_Get_count(&st, MPI_SHORT, &ic));
	CHECK(ic == (int)(big / 2));
	/* a count that is no whole number of elements */
	CHECK_MPI(MPI_Status_set_elements_x(&st, MPI_BYTE, 7));
	CHECK_MPI(MPI_Get_count_c(&st, MPI_INT, &c));
	CHECK(c == MPI_UNDEFINED);
}

/* Negative counts are MPI_ERR_COUNT in the large forms too. */
static void check_errors(void)
{
	MPI_Request req;
	MPI_Status st;
	int v = 0;

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	CHECK(tu_check_class(MPI_Send_c(&v, -1, MPI_INT, right, 0, MPI_COMM_WORLD),
			     MPI_ERR_COUNT));
	CHECK(tu_check_class(MPI_Recv_c(&v, -5000000000LL, MPI_INT, left, 0,
					MPI_COMM_WORLD, &st), MPI_ERR_COUNT));
	TU_EXPECT_REQ_ERR(MPI_ERR_COUNT, req,
			  MPI_Isend_c(&v, -1, MPI_INT, right, 0, MPI_COMM_WORLD, &req));
	TU_EXPECT_REQ_ERR(MPI_ERR_COUNT, req,
			  MPI_Isendrecv_c(&v, 1, MPI_INT, right, 0, &v, -1, MPI_INT, left, 0,
					  MPI_COMM_WORLD, &req));
	TU_EXPECT_REQ_ERR(MPI_ERR_RANK, req,
			  MPI_Isendrecv(&v, 1, MPI_INT, size, 0, &v, 1, MPI_INT, left, 0,
					MPI_COMM_WORLD, &req));
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* Wait for r by testing (the test procedures drive progress) or at once. */
static void complete(MPI_Request *r, MPI_Status *st, int by_test)
{
	int flag = 0;

	if (!by_test) {
		CHECK_MPI(MPI_Wait(r, st));
		return;
	}
	while (!flag)
		CHECK_MPI(MPI_Test(r, &flag, st));
	CHECK(*r == MPI_REQUEST_NULL);
}

static void check_isendrecv(void)
{
	static int sbuf[N], rbuf[N];
	MPI_Request req, reqs[2];
	MPI_Status st, sts[2];
	MPI_Count c;
	int v, w;

	for (int round = 0; round < 4; round++) {
		/* around the ring, int and large forms, waited or tested */
		fill(sbuf, N, tu_rank, round);
		memset(rbuf, 0xff, sizeof(rbuf));
		if (round % 2)
			CHECK_MPI(MPI_Isendrecv_c(sbuf, N, MPI_INT, right, round, rbuf, N,
						  MPI_INT, left, round, MPI_COMM_WORLD, &req));
		else
			CHECK_MPI(MPI_Isendrecv(sbuf, N, MPI_INT, right, round, rbuf, N,
						MPI_INT, left, round, MPI_COMM_WORLD, &req));
		complete(&req, &st, round >= 2);
		expect(rbuf, N, left, round);
		expect_status(&st, N, left, round);

		/* the replace forms: the buffer is sent, then overwritten */
		fill(rbuf, N, tu_rank, 10 + round);
		if (round % 2)
			CHECK_MPI(MPI_Isendrecv_replace_c(rbuf, N, MPI_INT, right, 10 + round,
							  left, 10 + round, MPI_COMM_WORLD,
							  &req));
		else
			CHECK_MPI(MPI_Isendrecv_replace(rbuf, N, MPI_INT, right, 10 + round,
							left, 10 + round, MPI_COMM_WORLD,
							&req));
		complete(&req, &st, round >= 2);
		expect(rbuf, N, left, 10 + round);
		expect_status(&st, N, left, 10 + round);
	}

	/* to this rank itself */
	v = tu_rank + 7;
	w = -1;
	CHECK_MPI(MPI_Isendrecv(&v, 1, MPI_INT, tu_rank, 30, &w, 1, MPI_INT, tu_rank, 30,
				MPI_COMM_WORLD, &req));
	CHECK_MPI(MPI_Wait(&req, &st));
	CHECK(w == tu_rank + 7);
	expect_status(&st, 1, tu_rank, 30);
	v = tu_rank + 8;
	CHECK_MPI(MPI_Isendrecv_replace(&v, 1, MPI_INT, tu_rank, 31, tu_rank, 31,
					MPI_COMM_WORLD, &req));
	CHECK_MPI(MPI_Wait(&req, &st));
	CHECK(v == tu_rank + 8);
	expect_status(&st, 1, tu_rank, 31);

	/* MPI_PROC_NULL both ways: done, with the empty status of section 3.11 */
	w = -1;
	CHECK_MPI(MPI_Isendrecv(&v, 1, MPI_INT, MPI_PROC_NULL, 32, &w, 1, MPI_INT,
				MPI_PROC_NULL, 32, MPI_COMM_WORLD, &req));
	CHECK_MPI(MPI_Wait(&req, &st));
	CHECK(w == -1 && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG);
	CHECK_MPI(MPI_Get_count_c(&st, MPI_INT, &c));
	CHECK(c == 0);
	/* sending to MPI_PROC_NULL, receiving from the left; and the other way */
	v = tu_rank;
	CHECK_MPI(MPI_Isendrecv_replace_c(&v, 1, MPI_INT, MPI_PROC_NULL, 33, MPI_PROC_NULL,
					  33, MPI_COMM_WORLD, &req));
	CHECK_MPI(MPI_Wait(&req, &st));
	CHECK(v == tu_rank && st.MPI_SOURCE == MPI_PROC_NULL);
	CHECK_MPI(MPI_Isendrecv(&v, 1, MPI_INT, right, 34, NULL, 0, MPI_INT,
				MPI_PROC_NULL, 34, MPI_COMM_WORLD, &reqs[0]));
	CHECK_MPI(MPI_Isendrecv(NULL, 0, MPI_INT, MPI_PROC_NULL, 34, &w, 1, MPI_INT, left,
				34, MPI_COMM_WORLD, &reqs[1]));
	CHECK_MPI(MPI_Waitall(2, reqs, sts));
	CHECK(w == left && sts[1].MPI_SOURCE == left && sts[0].MPI_SOURCE == MPI_PROC_NULL);

	/* from MPI_ANY_SOURCE and MPI_ANY_TAG: the status names the sender */
	v = tu_rank;
	w = -1;
	CHECK_MPI(MPI_Isendrecv(&v, 1, MPI_INT, right, 40 + tu_rank, &w, 1, MPI_INT,
				MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req));
	CHECK_MPI(MPI_Wait(&req, &st));
	CHECK(w == left);
	expect_status(&st, 1, left, 40 + left);

	/* a freed request still completes, and releases what it holds (the
	 * sanitizer builds see a leak or a use after free); the messages of
	 * tag 51 are matched after those of tag 50 (non-overtaking) */
	fill(sbuf, N, tu_rank, 50);
	CHECK_MPI(MPI_Isendrecv(sbuf, N, MPI_INT, right, 50, rbuf, N, MPI_INT, left, 50,
				MPI_COMM_WORLD, &req));
	CHECK_MPI(MPI_Request_free(&req));
	CHECK(req == MPI_REQUEST_NULL);
	CHECK_MPI(MPI_Sendrecv(&v, 1, MPI_INT, right, 51, &w, 1, MPI_INT, left, 51,
			       MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
	int v = 0;

	tu_init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	right = (tu_rank + 1) % size;
	left = (tu_rank + size - 1) % size;
	if (argc > 1 && strcmp(argv[1], "fatal") == 0) {
		MPI_Send_c(&v, -3, MPI_INT, right, 0, MPI_COMM_WORLD);
		MPI_Finalize();
		return 0;
	}
	check_p2p_c();
	if (tu_rank == 0)
		printf("ok p2p_c\n");
	check_undefined();
	check_errors();
	if (tu_rank == 0)
		printf("ok counts\n");
	check_isendrecv();
	MPI_Barrier(MPI_COMM_WORLD);
	if (tu_rank == 0)
		printf("ok isendrecv\n");
	MPI_Finalize();
	return 0;
}
