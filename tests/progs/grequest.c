/*
 * Generalized requests (MPI-3.1 section 12.2): the callbacks run when the
 * standard says (query at each completion and MPI_Request_get_status of a
 * complete request, free after it, cancel with the complete flag, free in
 * whichever of MPI_Request_free and MPI_Grequest_complete comes last), the
 * status the query callback makes (derived datatype counts, cancelled),
 * every completion call, requests completed by a thread of the program
 * while the rank sleeps in MPI_Wait and mixed with point-to-point requests
 * of derived datatypes, and the error cases.
 *   grequest [all|callbacks|thread|sets|cancel|free|errors]
 *   grequest slow MS   rank 0 waits in MPI_Wait for a request that a thread
 *                      completes after MS milliseconds while the others
 *                      wait in MPI_Barrier
 */
#include <pthread.h>

#include "testutil.h"

/* What MPI-3.1 section 12.2 asks for that not every MPI library does:
 * the free callback of a request freed before its completion runs in
 * MPI_Grequest_complete, not before; the free callback's error is the
 * completion's.  Checked where the library is known to do it. */
#ifdef SHMPI
#define STRICT_GREQ 1
#else
#define STRICT_GREQ 0
#endif

static int rank, size;
static MPI_Datatype pair;	/* 2 ints */

/* One generalized request and what its callbacks saw. */
struct greq {
	MPI_Request req;
	int id;
	int delay_ms;		/* the thread that completes it waits this long */
	int queries, frees, cancels, cancel_complete;
	int cancel_asked;	/* the query then says cancelled */
	int query_rc, free_rc, cancel_rc;
	char log[16];		/* 'q' query, 'f' free, 'c'/'C' cancel (not) complete */
	int nlog;
	int complete_rc;	/* what MPI_Grequest_complete returned in the thread */
	pthread_t thread;
};

static void logit(struct greq *g, char c)
{
	CHECK(g->nlog < (int)sizeof(g->log) - 1);
	g->log[g->nlog++] = c;
}

/* Source and tag say which request; 2 * id + 1 ints: id whole pairs and
 * half of one more. */
static int query_fn(void *extra, MPI_Status *status)
{
	struct greq *g = extra;

	CHECK(status != NULL && status != MPI_STATUS_IGNORE);
	g->queries++;
	logit(g, 'q');
	status->MPI_SOURCE = g->id;
	status->MPI_TAG = 100 + g->id;
	CHECK_MPI(MPI_Status_set_elements(status, MPI_INT, 2 * g->id + 1));
	CHECK_MPI(MPI_Status_set_cancelled(status, g->cancel_asked));
	return g->query_rc;
}

static int free_fn(void *extra)
{
	struct greq *g = extra;

	g->frees++;
	logit(g, 'f');
	return g->free_rc;
}

static int cancel_fn(void *extra, int complete)
{
	struct greq *g = extra;

	g->cancels++;
	g->cancel_complete = complete;
	g->cancel_asked = 1;
	logit(g, complete ? 'C' : 'c');
	return g->cancel_rc;
}

static void start(struct greq *g, int id)
{
	memset(g, 0, sizeof(*g));
	g->id = id;
	CHECK_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, g, &g->req));
	CHECK(g->req != MPI_REQUEST_NULL);
}

/* What the query callback of g makes of status. */
static void check_status(const struct greq *g, const MPI_Status *st)
{
	int n, flag;

	CHECK(st->MPI_SOURCE == g->id && st->MPI_TAG == 100 + g->id);
	CHECK_MPI(MPI_Get_elements(st, pair, &n));
	CHECK(n == 2 * g->id + 1);
	CHECK_MPI(MPI_Get_count(st, MPI_INT, &n));
	CHECK(n == 2 * g->id + 1);
	CHECK_MPI(MPI_Get_count(st, pair, &n));
	CHECK(n == MPI_UNDEFINED);
	CHECK_MPI(MPI_Test_cancelled(st, &flag));
	CHECK(flag == g->cancel_asked);
}

/* Completed by a waiting or testing call: one query, then one free (a
 * library may query more often, and does here only where it must). */
static int queried_freed(const struct greq *g)
{
	if (STRICT_GREQ)
		return !strcmp(g->log, "qf");
	return g->queries >= 1 && g->frees == 1 && g->log[g->nlog - 1] == 'f';
}

/* ---- completion by a thread of the program ------------------------------- */

static void *completer(void *arg)
{
	struct greq *g = arg;

	tu_sleep_ms(g->delay_ms);
	g->complete_rc = MPI_Grequest_complete(g->req);
	return NULL;
}

/* The delays order the completions: stretched where everything is slower. */
static void complete_later(struct greq *g, int delay_ms)
{
	g->delay_ms = delay_ms * tu_time_scale();
	CHECK(pthread_create(&g->thread, NULL, completer, g) == 0);
}

static void joined(struct greq *g)
{
	CHECK(pthread_join(g->thread, NULL) == 0);
	CHECK(g->complete_rc == MPI_SUCCESS);
}

/* ---- the callbacks, on one request at a time ---------------------------- */

static void test_callbacks(void)
{
	struct greq g;
	MPI_Status st;
	int flag;

	/* not complete: MPI_Test and MPI_Request_get_status say so and ask
	 * nothing of the program */
	start(&g, 3);
	CHECK_MPI(MPI_Test(&g.req, &flag, &st));
	CHECK(!flag && g.req != MPI_REQUEST_NULL);
	CHECK_MPI(MPI_Request_get_status(g.req, &flag, &st));
	CHECK(!flag && g.queries == 0);
	CHECK_MPI(MPI_Grequest_complete(g.req));
	CHECK(g.queries == 0 && g.frees == 0);

	/* complete: each MPI_Request_get_status queries, the request stays */
	CHECK_MPI(MPI_Request_get_status(g.req, &flag, &st));
	CHECK(flag && g.queries == 1 && g.frees == 0);
	check_status(&g, &st);
	CHECK_MPI(MPI_Request_get_status(g.req, &flag, MPI_STATUS_IGNORE));
	CHECK(flag && g.queries == 2);
	/* the completing call queries, then frees */
	memset(&st, 0, sizeof(st));
	CHECK_MPI(MPI_Test(&g.req, &flag, &st));
	CHECK(flag && g.req == MPI_REQUEST_NULL);
	check_status(&g, &st);
	CHECK(!strcmp(g.log, "qqqf"));

	/* MPI_Wait, with MPI_STATUS_IGNORE: the callback still gets a status */
	start(&g, 0);
	CHECK_MPI(MPI_Grequest_complete(g.req));
	CHECK_MPI(MPI_Wait(&g.req, MPI_STATUS_IGNORE));
	CHECK(g.req == MPI_REQUEST_NULL && queried_freed(&g));
}

/* ---- completed by threads, while the rank waits ---------------------------- */

static void test_thread(void)
{
	static const int delays[] = { 0, 1, 30, 120 };
	int to = (rank + 1) % size, from = (rank + size - 1) % size;
	struct greq g[3];
	MPI_Request reqs[5];
	MPI_Status sts[5];
	int send[9], recv[9];
	double t0;

	/* MPI_Wait: spinning, yielding, or asleep on the rank's doorbell when
	 * the thread completes the request */
	for (size_t i = 0; i < sizeof(delays) / sizeof(delays[0]); i++) {
		MPI_Status st;

		start(&g[0], (int)i);
		/* before the thread starts: its delay runs from there */
		t0 = MPI_Wtime();
		complete_later(&g[0], delays[i]);
		CHECK_MPI(MPI_Wait(&g[0].req, &st));
		CHECK(MPI_Wtime() - t0 >= delays[i] / 1000.0 * 0.9);
		joined(&g[0]);
		CHECK(g[0].req == MPI_REQUEST_NULL && queried_freed(&g[0]));
		check_status(&g[0], &st);
	}

	/* with point-to-point requests of a derived type around the ring */
	for (int i = 0; i < 9; i++) {
		send[i] = rank * 10 + i;
		recv[i] = -1;
	}
	for (int i = 0; i < 3; i++) {
		start(&g[i], i + 1);
		reqs[i] = g[i].req;
	}
	CHECK_MPI(MPI_Irecv(recv, 4, pair, from, 3, MPI_COMM_WORLD, &reqs[3]));
	CHECK_MPI(MPI_Isend(send, 4, pair, to, 3, MPI_COMM_WORLD, &reqs[4]));
	complete_later(&g[0], 40);
	complete_later(&g[1], 5);
	complete_later(&g[2], 80);
	CHECK_MPI(MPI_Waitall(5, reqs, sts));
	for (int i = 0; i < 3; i++) {
		joined(&g[i]);
		CHECK(reqs[i] == MPI_REQUEST_NULL && queried_freed(&g[i]));
		check_status(&g[i], &sts[i]);
	}
	CHECK(reqs[3] == MPI_REQUEST_NULL && reqs[4] == MPI_REQUEST_NULL);
	CHECK(sts[3].MPI_SOURCE == from && sts[3].MPI_TAG == 3);
	for (int i = 0; i < 9; i++)
		CHECK(recv[i] == (i < 8 ? from * 10 + i : -1));
}

/* ---- the multiple-completion calls ----------------------------------------- */

static void test_sets(void)
{
	struct greq g[4];
	MPI_Request reqs[4];
	MPI_Status sts[4];
	int idx, flag, outcount, indices[4], seen = 0;

	/* MPI_Waitany: in the order the threads complete them */
	for (int i = 0; i < 4; i++) {
		start(&g[i], i);
		reqs[i] = g[i].req;
		complete_later(&g[i], 10 + 40 * (3 - i));
	}
	for (int k = 0; k < 4; k++) {
		CHECK_MPI(MPI_Waitany(4, reqs, &idx, &sts[0]));
		CHECK(idx == 3 - k && reqs[idx] == MPI_REQUEST_NULL);
		check_status(&g[idx], &sts[0]);
	}
	CHECK_MPI(MPI_Waitany(4, reqs, &idx, &sts[0]));
	CHECK(idx == MPI_UNDEFINED);
	for (int i = 0; i < 4; i++)
		joined(&g[i]);

	/* MPI_Testany, MPI_Testsome, MPI_Testall, MPI_Waitsome */
	for (int i = 0; i < 4; i++) {
		start(&g[i], i);
		reqs[i] = g[i].req;
	}
	CHECK_MPI(MPI_Testany(4, reqs, &idx, &flag, &sts[0]));
	CHECK(!flag && idx == MPI_UNDEFINED);
	CHECK_MPI(MPI_Grequest_complete(g[2].req));
	CHECK_MPI(MPI_Testany(4, reqs, &idx, &flag, &sts[0]));
	CHECK(flag && idx == 2 && reqs[2] == MPI_REQUEST_NULL);
	check_status(&g[2], &sts[0]);
	CHECK_MPI(MPI_Testsome(4, reqs, &outcount, indices, sts));
	CHECK(outcount == 0);
	CHECK_MPI(MPI_Grequest_complete(g[0].req));
	CHECK_MPI(MPI_Grequest_complete(g[3].req));
	CHECK_MPI(MPI_Testall(4, reqs, &flag, sts));
	CHECK(!flag && g[0].frees == 0 && g[3].frees == 0);
	CHECK_MPI(MPI_Testsome(4, reqs, &outcount, indices, sts));
	CHECK(outcount == 2 && indices[0] == 0 && indices[1] == 3);
	check_status(&g[0], &sts[0]);
	check_status(&g[3], &sts[1]);
	complete_later(&g[1], 30);
	CHECK_MPI(MPI_Waitsome(4, reqs, &outcount, indices, MPI_STATUSES_IGNORE));
	CHECK(outcount == 1 && indices[0] == 1 && reqs[1] == MPI_REQUEST_NULL);
	joined(&g[1]);
	CHECK_MPI(MPI_Waitsome(4, reqs, &outcount, indices, sts));
	CHECK(outcount == MPI_UNDEFINED);
	for (int i = 0; i < 4; i++) {
		CHECK(queried_freed(&g[i]));
		seen += g[i].frees;
	}
	CHECK(seen == 4);

	/* MPI_Testall once all are complete */
	for (int i = 0; i < 3; i++) {
		start(&g[i], i);
		reqs[i] = g[i].req;
		CHECK_MPI(MPI_Grequest_complete(g[i].req));
	}
	CHECK_MPI(MPI_Testall(3, reqs, &flag, sts));
	CHECK(flag);
	for (int i = 0; i < 3; i++) {
		CHECK(reqs[i] == MPI_REQUEST_NULL && queried_freed(&g[i]));
		check_status(&g[i], &sts[i]);
	}
}

/* ---- MPI_Cancel -------------------------------------------------------------- */

static void test_cancel(void)
{
	struct greq g;
	MPI_Status st;

	/* before completion: the callback hears complete = false */
	start(&g, 1);
	CHECK_MPI(MPI_Cancel(&g.req));
	CHECK(g.cancels == 1 && !g.cancel_complete && g.req != MPI_REQUEST_NULL);
	complete_later(&g, 20);
	CHECK_MPI(MPI_Wait(&g.req, &st));
	joined(&g);
	check_status(&g, &st);		/* says cancelled */
	CHECK(!strcmp(g.log, "cqf"));

	/* after it: complete = true */
	start(&g, 2);
	CHECK_MPI(MPI_Grequest_complete(g.req));
	CHECK_MPI(MPI_Cancel(&g.req));
	CHECK(g.cancels == 1 && g.cancel_complete);
	CHECK_MPI(MPI_Wait(&g.req, &st));
	check_status(&g, &st);
	CHECK(!strcmp(g.log, "Cqf"));
}

/* ---- MPI_Request_free ------------------------------------------------------- */

static void test_free(void)
{
	struct greq g;
	MPI_Request copy;

	/* freed first: the free callback runs in MPI_Grequest_complete, which
	 * the program calls with its own copy of the handle (here from a
	 * thread), and never a query */
	start(&g, 1);
	copy = g.req;
	CHECK_MPI(MPI_Request_free(&g.req));
	CHECK(g.req == MPI_REQUEST_NULL && (g.frees == 0 || !STRICT_GREQ));
	g.req = copy;
	complete_later(&g, 15);
	joined(&g);
	CHECK(!strcmp(g.log, "f"));

	/* the same from this thread */
	start(&g, 2);
	copy = g.req;
	CHECK_MPI(MPI_Request_free(&g.req));
	CHECK(g.frees == 0 || !STRICT_GREQ);
	CHECK_MPI(MPI_Grequest_complete(copy));
	CHECK(!strcmp(g.log, "f"));

	/* complete first: MPI_Request_free runs it */
	start(&g, 3);
	CHECK_MPI(MPI_Grequest_complete(g.req));
	CHECK(g.frees == 0);
	CHECK_MPI(MPI_Request_free(&g.req));
	CHECK(g.req == MPI_REQUEST_NULL && !strcmp(g.log, "f"));

	/* and on: a new request works as ever */
	start(&g, 4);
	CHECK_MPI(MPI_Grequest_complete(g.req));
	CHECK_MPI(MPI_Wait(&g.req, MPI_STATUS_IGNORE));
	CHECK(queried_freed(&g));
}

/* ---- errors ------------------------------------------------------------------ */

static void test_errors(void)
{
	struct greq g[3];
	MPI_Request reqs[3], copy, recv;
	MPI_Status sts[3], st;
	int code, cls, flag, x;

	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Add_error_class(&cls));
	CHECK_MPI(MPI_Add_error_code(cls, &code));

	/* a query callback's error is the completion's */
	start(&g[0], 1);
	g[0].query_rc = code;
	CHECK_MPI(MPI_Grequest_complete(g[0].req));
	CHECK(MPI_Wait(&g[0].req, &st) == code);
	CHECK(g[0].req == MPI_REQUEST_NULL && queried_freed(&g[0]));

	if (STRICT_GREQ) {
		/* a free callback's too, and it is the last callback: its error
		 * wins over the query's */
		start(&g[0], 1);
		g[0].free_rc = MPI_ERR_OTHER;
		CHECK_MPI(MPI_Grequest_complete(g[0].req));
		CHECK(tu_check_class(MPI_Test(&g[0].req, &flag, &st), MPI_ERR_OTHER));
		CHECK(g[0].req == MPI_REQUEST_NULL && queried_freed(&g[0]));
		start(&g[0], 1);
		g[0].query_rc = code;
		g[0].free_rc = MPI_ERR_OTHER;
		CHECK_MPI(MPI_Grequest_complete(g[0].req));
		CHECK(tu_check_class(MPI_Wait(&g[0].req, &st), MPI_ERR_OTHER));

		/* in MPI_Waitall: MPI_ERR_IN_STATUS, each code in its status */
		for (int i = 0; i < 3; i++) {
			start(&g[i], i);
			reqs[i] = g[i].req;
			CHECK_MPI(MPI_Grequest_complete(g[i].req));
		}
		g[1].query_rc = code;
		g[2].free_rc = MPI_ERR_OTHER;
		CHECK(tu_check_class(MPI_Waitall(3, reqs, sts), MPI_ERR_IN_STATUS));
		CHECK(sts[0].MPI_ERROR == MPI_SUCCESS && sts[1].MPI_ERROR == code &&
		      sts[2].MPI_ERROR == MPI_ERR_OTHER);
		for (int i = 0; i < 3; i++)
			CHECK(reqs[i] == MPI_REQUEST_NULL && queried_freed(&g[i]));
	}

	/* MPI_Request_get_status and MPI_Cancel return their callback's error */
	start(&g[0], 1);
	CHECK_MPI(MPI_Grequest_complete(g[0].req));
	g[0].query_rc = code;
	CHECK(MPI_Request_get_status(g[0].req, &flag, &st) == code);
	g[0].query_rc = MPI_SUCCESS;
	g[0].cancel_rc = MPI_ERR_OTHER;
	CHECK(tu_check_class(MPI_Cancel(&g[0].req), MPI_ERR_OTHER));
	g[0].cancel_asked = 0;
	CHECK_MPI(MPI_Wait(&g[0].req, &st));
	check_status(&g[0], &st);

	/* completing twice, or what is no generalized request */
	start(&g[0], 1);
	CHECK_MPI(MPI_Grequest_complete(g[0].req));
	CHECK(tu_check_class(MPI_Grequest_complete(g[0].req), MPI_ERR_REQUEST));
	CHECK_MPI(MPI_Wait(&g[0].req, &st));
	CHECK(queried_freed(&g[0]));
	CHECK(tu_check_class(MPI_Grequest_complete(MPI_REQUEST_NULL), MPI_ERR_REQUEST));
	CHECK_MPI(MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 77, MPI_COMM_WORLD, &recv));
	CHECK(tu_check_class(MPI_Grequest_complete(recv), MPI_ERR_REQUEST));
	CHECK_MPI(MPI_Cancel(&recv));
	CHECK_MPI(MPI_Wait(&recv, MPI_STATUS_IGNORE));
	CHECK(tu_check_class(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &g[0], NULL),
			     MPI_ERR_ARG));
#ifdef SHMPI
	/* no callback may be NULL: MPI has no null value for them */
	copy = MPI_REQUEST_NULL;
	CHECK(tu_check_class(MPI_Grequest_start(NULL, free_fn, cancel_fn, NULL, &copy),
			     MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Grequest_start(query_fn, NULL, cancel_fn, NULL, &copy),
			     MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Grequest_start(query_fn, free_fn, NULL, NULL, &copy),
			     MPI_ERR_ARG));
	CHECK(copy == MPI_REQUEST_NULL);

	/* the handle of a freed request serves MPI_Grequest_complete alone */
	start(&g[0], 1);
	copy = g[0].req;
	CHECK_MPI(MPI_Request_free(&g[0].req));
	CHECK(tu_check_class(MPI_Wait(&copy, &st), MPI_ERR_REQUEST));
	CHECK(tu_check_class(MPI_Request_free(&copy), MPI_ERR_REQUEST));
	CHECK(copy != MPI_REQUEST_NULL && g[0].frees == 0);
	CHECK_MPI(MPI_Grequest_complete(copy));
	CHECK(tu_check_class(MPI_Grequest_complete(copy), MPI_ERR_REQUEST));
	CHECK(!strcmp(g[0].log, "f"));
#else
	(void)copy;
#endif
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

/* A wait for the program's own thread, not for MPI (see the top). */
static void slow(int ms)
{
	struct greq g;

	if (rank == 0) {
		start(&g, 1);
		complete_later(&g, ms);
		CHECK_MPI(MPI_Wait(&g.req, MPI_STATUS_IGNORE));
		joined(&g);
		CHECK(queried_freed(&g));
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0)
		printf("ok slow\n");
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";
	int provided;

	/* a thread completes requests while this one waits in MPI */
	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	tu_rank = rank;
	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &pair));
	CHECK_MPI(MPI_Type_commit(&pair));
	if (!strcmp(which, "slow"))
		slow(argc > 2 ? atoi(argv[2]) : 1000);
	TU_RUN("callbacks", test_callbacks);
	TU_RUN("thread", test_thread);
	TU_RUN("sets", test_sets);
	TU_RUN("cancel", test_cancel);
	TU_RUN("free", test_free);
	TU_RUN("errors", test_errors);
	CHECK_MPI(MPI_Type_free(&pair));
	MPI_Finalize();
	return 0;
}
