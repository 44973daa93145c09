/*
 * MPI_Request_get_status_all, _any and _some (MPI 4.1, section 3.7.5),
 * checked by their results: they say what MPI_Testall, _any and _some
 * would, and leave every request as it was (neither freed nor
 * deactivated), so that a wait still finishes it with the same status; a
 * generalized request's query callback runs at each call; a failed
 * operation is MPI_ERR_IN_STATUS (the array forms); and the argument
 * errors under MPI_ERRORS_RETURN.  Prints one "ok" line per part on rank
 * 0.  A plain MPI 4.1 program.
 */
#include "testutil.h"

static int size, right, left;

/* A receive from the left (tag) that cannot complete before the barrier
 * that precedes every send. */
static MPI_Request post_recv(int *buf, int count, int tag)
{
	MPI_Request r;

	CHECK_MPI(MPI_Irecv(buf, count, MPI_INT, left, tag, MPI_COMM_WORLD, &r));
	return r;
}

static void send_right(int n, int tag)
{
	int v[2] = { tu_rank, tu_rank + 1 };

	CHECK_MPI(MPI_Send(v, n, MPI_INT, right, tag, MPI_COMM_WORLD));
}

static int is_empty(const MPI_Status *st)
{
	int count;

	MPI_Get_count(st, MPI_INT, &count);
	return st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG &&
	       count == 0;
}

static void check_all(void)
{
	MPI_Request reqs[3], kept[3];
	MPI_Status st[3];
	int a[2], b[2], flag = 1, idle;

	/* a null handle and an inactive persistent request count as done */
	CHECK_MPI(MPI_Recv_init(&idle, 1, MPI_INT, left, 9, MPI_COMM_WORLD, &reqs[2]));
	reqs[0] = post_recv(a, 2, 1);
	reqs[1] = MPI_REQUEST_NULL;
	memcpy(kept, reqs, sizeof(kept));
	CHECK_MPI(MPI_Request_get_status_all(3, reqs, &flag, st));
	CHECK(!flag);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	send_right(2, 1);
	do {
		CHECK_MPI(MPI_Request_get_status_all(3, reqs, &flag, st));
	} while (!flag);
	CHECK(!memcmp(kept, reqs, sizeof(kept)));
	CHECK(st[0].MPI_SOURCE == left && st[0].MPI_TAG == 1);
	CHECK(is_empty(&st[1]) && is_empty(&st[2]));
	/* asked again: the same */
	CHECK_MPI(MPI_Request_get_status_all(3, reqs, &flag, MPI_STATUSES_IGNORE));
	CHECK(flag && !memcmp(kept, reqs, sizeof(kept)));
	CHECK_MPI(MPI_Wait(&reqs[0], &st[0]));
	CHECK(reqs[0] == MPI_REQUEST_NULL && st[0].MPI_SOURCE == left);
	CHECK(a[0] == left && a[1] == left + 1);

	/* a failed operation: MPI_ERR_IN_STATUS, the request still there */
	reqs[0] = post_recv(b, 1, 2);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	send_right(2, 2);
	do {
		int rc = MPI_Request_get_status_all(3, reqs, &flag, st);

		CHECK(tu_check_class(rc, flag ? MPI_ERR_IN_STATUS : MPI_SUCCESS));
	} while (!flag);
	CHECK(st[0].MPI_ERROR == MPI_ERR_TRUNCATE && st[2].MPI_ERROR == MPI_SUCCESS);
	CHECK(reqs[0] != MPI_REQUEST_NULL);
	CHECK(tu_check_class(MPI_Wait(&reqs[0], MPI_STATUS_IGNORE), MPI_ERR_TRUNCATE));
	CHECK_MPI(MPI_Request_free(&reqs[2]));

	/* nothing at all */
	CHECK_MPI(MPI_Request_get_status_all(0, NULL, &flag, st));
	CHECK(flag);
}

static void check_any_some(void)
{
	MPI_Request reqs[3], kept[3];
	MPI_Status st, sts[3];
	int a, b, index = 0, flag = 1, out = 0, idx[3];

	reqs[0] = MPI_REQUEST_NULL;
	reqs[1] = post_recv(&a, 1, 3);
	reqs[2] = post_recv(&b, 1, 4);
	memcpy(kept, reqs, sizeof(kept));
	CHECK_MPI(MPI_Request_get_status_any(3, reqs, &index, &flag, &st));
	CHECK(!flag && index == MPI_UNDEFINED);
	CHECK_MPI(MPI_Request_get_status_some(3, reqs, &out, idx, sts));
	CHECK(out == 0);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	send_right(1, 4);
	do {
		CHECK_MPI(MPI_Request_get_status_any(3, reqs, &index, &flag, &st));
	} while (!flag);
	CHECK(index == 2 && st.MPI_SOURCE == left && st.MPI_TAG == 4);
	CHECK_MPI(MPI_Request_get_status_some(3, reqs, &out, idx, sts));
	CHECK(out == 1 && idx[0] == 2 && sts[0].MPI_TAG == 4);
	/* again: the same, nothing was freed */
	CHECK_MPI(MPI_Request_get_status_some(3, reqs, &out, idx, MPI_STATUSES_IGNORE));
	CHECK(out == 1 && idx[0] == 2 && !memcmp(kept, reqs, sizeof(kept)));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	send_right(1, 3);
	do {
		CHECK_MPI(MPI_Request_get_status_some(3, reqs, &out, idx, sts));
	} while (out < 2);
	CHECK(out == 2 && idx[0] == 1 && idx[1] == 2 && sts[0].MPI_TAG == 3);
	CHECK_MPI(MPI_Waitall(3, reqs, sts));
	CHECK(a == left && b == left && sts[1].MPI_TAG == 3 && sts[2].MPI_TAG == 4);

	/* only null handles: done at once, nothing to say */
	CHECK_MPI(MPI_Request_get_status_any(3, reqs, &index, &flag, &st));
	CHECK(flag && index == MPI_UNDEFINED && is_empty(&st));
	CHECK_MPI(MPI_Request_get_status_some(3, reqs, &out, idx, sts));
	CHECK(out == MPI_UNDEFINED);
}

static int queries;

static int query_fn(void *extra, MPI_Status *st)
{
	(void)extra;
	queries++;
	MPI_Status_set_elements(st, MPI_INT, 5);
	MPI_Status_set_cancelled(st, 0);
	st->MPI_SOURCE = 77;
	st->MPI_TAG = 78;
	return MPI_SUCCESS;
}

static int free_fn(void *extra)
{
	(void)extra;
	return MPI_SUCCESS;
}

static int cancel_fn(void *extra, int complete)
{
	(void)extra;
	(void)complete;
	return MPI_SUCCESS;
}

/* A generalized request: its query callback answers each call. */
static void check_greq(void)
{
	MPI_Request r;
	MPI_Status st;
	int flag = 0, index = -1, out = 0, idx[1], count;

	CHECK_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, NULL, &r));
	CHECK_MPI(MPI_Request_get_status_any(1, &r, &index, &flag, &st));
	CHECK(!flag && queries == 0);
	CHECK_MPI(MPI_Grequest_complete(r));
	CHECK_MPI(MPI_Request_get_status_all(1, &r, &flag, &st));
	CHECK(flag && queries == 1 && st.MPI_SOURCE == 77);
	CHECK_MPI(MPI_Request_get_status_any(1, &r, &index, &flag, &st));
	CHECK(flag && index == 0 && queries == 2 && st.MPI_TAG == 78);
	CHECK_MPI(MPI_Request_get_status_some(1, &r, &out, idx, &st));
	CHECK(out == 1 && queries == 3);
	MPI_Get_count(&st, MPI_INT, &count);
	CHECK(count == 5);
	CHECK_MPI(MPI_Wait(&r, &st));
	CHECK(r == MPI_REQUEST_NULL && queries == 4);
}

static void check_errors(void)
{
	MPI_Request bad = (MPI_Request)0x5a5a5a5a, ok = MPI_REQUEST_NULL;
	MPI_Status st;
	int flag, index, out, idx[1];

	CHECK(tu_check_class(MPI_Request_get_status_all(1, &bad, &flag, &st),
			     MPI_ERR_REQUEST));
	CHECK(tu_check_class(MPI_Request_get_status_any(1, &bad, &index, &flag, &st),
			     MPI_ERR_REQUEST));
	CHECK(tu_check_class(MPI_Request_get_status_some(1, &bad, &out, idx, &st),
			     MPI_ERR_REQUEST));
	CHECK(tu_check_class(MPI_Request_get_status_all(-1, &ok, &flag, &st),
			     MPI_ERR_COUNT));
	CHECK(tu_check_class(MPI_Request_get_status_any(1, &ok, NULL, &flag, &st),
			     MPI_ERR_ARG));
	CHECK(tu_check_class(MPI_Request_get_status_some(1, &ok, NULL, idx, &st),
			     MPI_ERR_ARG));
}

int main(int argc, char **argv)
{
	tu_init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	right = (tu_rank + 1) % size;
	left = (tu_rank + size - 1) % size;
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	if (argc > 1 && !strcmp(argv[1], "fatal")) {
		MPI_Request bad = (MPI_Request)0x5a5a5a5a;
		int flag;

		MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
		MPI_Request_get_status_all(1, &bad, &flag, MPI_STATUSES_IGNORE);
		return 1;
	}
	check_all();
	if (tu_rank == 0)
		printf("ok get_status_all\n");
	check_any_some();
	if (tu_rank == 0)
		printf("ok get_status_any_some\n");
	check_greq();
	if (tu_rank == 0)
		printf("ok get_status_greq\n");
	check_errors();
	if (tu_rank == 0)
		printf("ok get_status_errors\n");
	MPI_Finalize();
	return 0;
}
