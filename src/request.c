/*
 * Request objects and the completion calls: MPI_Wait, MPI_Test and their
 * -all, -any and -some forms, MPI_Request_free, MPI_Request_get_status,
 * MPI_Cancel, MPI_Start(all), and the status queries.
 *
 * The wait forms block in the progress engine; the test forms (and
 * MPI_Request_get_status) run one pass of it: they are the test
 * procedures, which must make progress when called repeatedly.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "bsend.h"
#include "coll_nb.h"
#include "comm.h"
#include "datatype.h"
#include "errhandler.h"
#include "grequest.h"
#include "p2p.h"
#include "part.h"
#include "pool.h"
#include "progress.h"
#include "request.h"
#include "runtime.h"
#include "serial.h"
#include "state.h"

/*
 * The pool of request objects: released requests wait on a free list for
 * the next req_new, so that a message costs no calloc and no free.  Only
 * the threads that call MPI touch it (under MPI_THREAD_MULTIPLE they hold
 * the lock of serial.h); the progress thread of strong progress never
 * does: it allocates no request, and what it would release it hands to the
 * application thread (req_release_async, progress_defer_release).  Every
 * kind shares it, persistent and generalized requests too: what a kind
 * needs beyond struct request hangs off `owner`.
 *
 * A released request is still caught when the program uses its handle
 * again: the handle's slot changes generation at the release and is
 * reused only much later (handle.h), whatever becomes of the object.
 * Under AddressSanitizer a pooled object is poisoned (pool.h).
 */
#define REQ_POOL_MAX 256

static struct {
	struct request *head;
	unsigned n;
} req_pool;

static void req_pool_put(struct request *r)
{
	if (req_pool.n == REQ_POOL_MAX) {
		free(r);
		return;
	}
	r->next = req_pool.head;
	req_pool.head = r;
	req_pool.n++;
	POOL_POISON(r, sizeof(*r));
}

/*
 * The request of every send that completed in its call: an eager MPI_Isend
 * or MPI_Irsend whose record went into the channel at once (p2p.c).  One
 * complete object under a builtin handle stands for all of them, so such a
 * send costs no request and no handle: waiting for it, testing it, freeing
 * it or asking its status finishes it as any complete send (an empty
 * status, MPI_SUCCESS), and since nothing writes the object, threads share
 * it.  Two such sends show the same handle until they are finished, which
 * MPI allows: a request handle names an operation only to the completion
 * calls (MPI 4.1, section 3.7.3).
 */
static struct request req_sent = { .kind = REQ_SEND, .complete = 1 };

void req_init_builtins(void)
{
	req_sent.handle = req_sent_handle();
	req_sent.peer = MPI_PROC_NULL;
	req_sent.peer_world = -1;
	handle_set_builtin(HANDLE_REQUEST, 1, &req_sent);
}

struct request *req_new(enum req_kind kind, int with_handle)
{
	struct request *r = req_pool.head;

	if (r) {
		POOL_UNPOISON(r, sizeof(*r));
		req_pool.head = r->next;
		req_pool.n--;
	} else {
		r = malloc(sizeof(*r));
		if (!r)
			return NULL;
	}
	req_init(r, kind);
	if (with_handle && handle_alloc(HANDLE_REQUEST, r, &r->handle) < 0) {
		req_pool_put(r);
		return NULL;
	}
	return r;
}

void req_pool_fini(void)
{
	while (req_pool.head) {
		struct request *r = req_pool.head;

		POOL_UNPOISON(r, sizeof(*r));
		req_pool.head = r->next;
		free(r);
	}
	req_pool.n = 0;
}

void req_init(struct request *r, enum req_kind kind)
{
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->handle = MPI_REQUEST_NULL;
}

void req_bind(struct request *r, struct comm *c, uint32_t ctx, struct datatype *dt)
{
	r->comm = c;
	r->ctx = ctx;
	r->dt = dt;
	comm_ref(c);
	dt_ref(dt);
}

void req_unbind(struct request *r)
{
	if (r->comm)
		comm_unref(r->comm);
	if (r->dt)
		dt_unref(r->dt);
}

void req_release(struct request *r)
{
	if (!r || r == &req_sent)
		return;
	if (r->handle != MPI_REQUEST_NULL)
		handle_release(r->handle);
	req_unbind(r);
	if (r->owner_free)
		r->owner_free(r->owner);
	req_pool_put(r);
}

/*
 * Nobody waits for a buffered message's internal request nor for a freed
 * one: they go at once.  Any other request is only marked: the store is
 * the last touch, since the application thread may release it right after.
 */
void req_complete(struct request *r)
{
	if (r->kind == REQ_BSEND) {
		bsend_done(r);
		return;
	}
	if (r->freed) {
		req_release_async(r);
		return;
	}
	/* another thread may sleep waiting for it (MPI_THREAD_MULTIPLE) */
	if (rt.multi)
		serial_note_completion();
	/* release: the status and data are written before anyone sees it */
	atomic_store_explicit(&r->complete, 1, memory_order_release);
	/* Strong progress: the application thread may be asleep on the
	 * doorbell waiting for this very request, having looked before the
	 * progress thread took the engine's lock, with nothing left in the
	 * channels to wake it (a partitioned round that a hook opened on a
	 * store in shared memory, not on a record): ring it, after the store
	 * it is to see.  Below MULTIPLE only; there the completion above
	 * counts for the sleepers.  Weak progress, which has no such
	 * thread, pays the test of one flag. */
	if (!rt.multi && rt.progress_strong && progress_in_thread())
		progress_wake_rank(rt.rank);
}

void req_release_async(struct request *r)
{
	if (progress_in_thread())
		progress_defer_release(r);
	else
		req_release(r);
}

void req_status_empty(MPI_Status *status)
{
	if (status == MPI_STATUS_IGNORE)
		return;
	status->MPI_SOURCE = MPI_ANY_SOURCE;
	status->MPI_TAG = MPI_ANY_TAG;
	status->MPI_ERROR = MPI_SUCCESS;
	status->shmpi_count = 0;
	status->shmpi_cancelled = 0;
}

void req_status(const struct request *r, MPI_Status *status)
{
	if (status == MPI_STATUS_IGNORE)
		return;
	if (r->kind != REQ_RECV && r->kind != REQ_PRECV) {
		req_status_empty(status);
		status->MPI_ERROR = r->st_error;
		return;
	}
	status->MPI_SOURCE = r->st_source;
	status->MPI_TAG = r->st_tag;
	status->MPI_ERROR = r->st_error;
	status->shmpi_count = r->st_bytes;
	status->shmpi_cancelled = r->cancelled;
}

/* ---- completion -------------------------------------------------------- */

static int req_active(const struct request *r)
{
	return !r->persistent || r->active;
}

/*
 * The request behind *h for `call`: NULL for MPI_REQUEST_NULL and for an
 * inactive persistent request (*rc = MPI_SUCCESS), NULL with *rc set after
 * raising MPI_ERR_REQUEST for anything else that is not a live request.
 */
static struct request *req_lookup(const char *call, MPI_Request h, int *rc)
{
	struct request *r;

	*rc = MPI_SUCCESS;
	if (h == MPI_REQUEST_NULL)
		return NULL;
	r = req_get(h);
	if (!r || (r->kind == REQ_GREQ && greq_freed(r))) {
		*rc = err_comm(MPI_COMM_WORLD, call, MPI_ERR_REQUEST, "request",
			       "0x%x is not a valid request", (unsigned)h);
		return NULL;
	}
	return req_active(r) ? r : NULL;
}

/* The communicator a request's errors are raised on. */
static MPI_Comm req_comm(const struct request *r)
{
	return r->comm ? r->comm->handle : MPI_COMM_WORLD;
}

/*
 * A generalized request's outcome: the query callback fills the status,
 * then the free callback runs.  MPI-3.1 section 12.2 makes the error of
 * the last callback, the free callback, the request's (returned, or in
 * the status for MPI_ERR_IN_STATUS); should only the query callback fail,
 * its error is, rather than lost.
 */
static int req_finish_greq(MPI_Request *h, struct request *r, MPI_Status *status)
{
	int query_rc = greq_query(r, status);
	int rc = greq_free(r);

	*h = MPI_REQUEST_NULL;
	if (rc == MPI_SUCCESS)
		rc = query_rc;
	if (status != MPI_STATUS_IGNORE)
		status->MPI_ERROR = rc;
	return rc;
}

/* Hand a completed request's outcome to the caller: status, and either
 * free it (*h = MPI_REQUEST_NULL) or make it inactive (persistent). */
static int req_finish(MPI_Request *h, struct request *r, MPI_Status *status)
{
	int rc = r->st_error;

	if (r->kind == REQ_GREQ)
		return req_finish_greq(h, r, status);
	req_status(r, status);
	if (r->persistent) {
		r->active = 0;
	} else {
		req_release(r);
		*h = MPI_REQUEST_NULL;
	}
	return rc;
}

/* Raise a failed request's error on its communicator. */
static int req_raise(const char *call, MPI_Comm comm, int rc)
{
	return err_comm(comm, call, rc, "request", rc == MPI_ERR_TRUNCATE ?
			"the message is longer than the receive buffer" :
			"the operation failed");
}

static int req_done(void *arg)
{
	return req_is_complete(arg);
}

/*
 * Publish the wait for the watchdog.  A generalized request is completed
 * by the program, maybe by a thread of its own: waiting for it is waiting
 * for the program, not for MPI, so the rank publishes no wait and counts
 * as computing.
 */
static void req_block(enum call_id id, const struct request *r)
{
	int peer;

	if (r->kind == REQ_GREQ)
		return;
	peer = r->kind == REQ_RECV ?
	       (r->peer == MPI_ANY_SOURCE ? -1 : comm_world_rank(r->comm, r->peer)) :
	       r->peer_world;
	state_block(id, r->kind == REQ_RECV || r->kind == REQ_PRECV ? WAIT_RECV :
		    r->kind == REQ_COLL ? WAIT_COLL_DATA : WAIT_SEND, peer, r->tag,
		    r->comm ? r->comm->ctx : 0);
}

API(int, Wait, (MPI_Request *request, MPI_Status *status))
{
	struct request *r;
	MPI_Comm comm;
	int rc;

	runtime_check("MPI_Wait");
	if (!request || !status)
		return err_comm(MPI_COMM_WORLD, "MPI_Wait", MPI_ERR_ARG,
				!request ? "request" : "status", "is NULL");
	r = req_lookup("MPI_Wait", *request, &rc);
	if (!r) {
		req_status_empty(status);
		return rc;
	}
	if (!req_is_complete(r)) {
		req_block(CALL_WAIT, r);
		progress_wait(req_done, r);
		state_unblock(CALL_WAIT);
	}
	comm = req_comm(r);
	rc = req_finish(request, r, status);
	return rc == MPI_SUCCESS ? rc : req_raise("MPI_Wait", comm, rc);
}

API(int, Test, (MPI_Request *request, int *flag, MPI_Status *status))
{
	struct request *r;
	MPI_Comm comm;
	int rc;

	runtime_check("MPI_Test");
	if (!request || !flag || !status)
		return err_comm(MPI_COMM_WORLD, "MPI_Test", MPI_ERR_ARG,
				!request ? "request" : !flag ? "flag" : "status",
				"is NULL");
	r = req_lookup("MPI_Test", *request, &rc);
	if (!r) {
		*flag = rc == MPI_SUCCESS;
		req_status_empty(status);
		return rc;
	}
	if (!req_is_complete(r))
		progress_poll();
	/* one look: under strong progress the request may complete between
	 * two, and a flag of 0 with the request released would lose it */
	*flag = req_is_complete(r);
	if (!*flag)
		return MPI_SUCCESS;
	comm = req_comm(r);
	rc = req_finish(request, r, status);
	return rc == MPI_SUCCESS ? rc : req_raise("MPI_Test", comm, rc);
}

/* Check an array argument of the multi-completion calls. */
static int req_check_array(const char *call, int count, const MPI_Request *reqs,
			   const void *out, const char *out_name)
{
	if (count < 0)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_COUNT, "count",
				"%d is negative", count);
	if (count > 0 && !reqs)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG,
				"array_of_requests", "is NULL");
	if (!out)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG, out_name, "is NULL");
	for (int i = 0; i < count; i++) {
		int rc;

		req_lookup(call, reqs[i], &rc);
		if (rc != MPI_SUCCESS)
			return rc;
	}
	return MPI_SUCCESS;
}

/* A wait on several requests publishes the first still pending as what it
 * waits for (the watchdog's view), and returns it (NULL: none); nothing
 * while a generalized request is pending (see req_block). */
static struct request *req_block_set(enum call_id id, const MPI_Request *reqs, int count)
{
	struct request *first = NULL;

	for (int i = 0; i < count; i++) {
		struct request *r = reqs[i] == MPI_REQUEST_NULL ? NULL : req_get(reqs[i]);

		if (!r || !req_active(r) || req_is_complete(r))
			continue;
		if (r->kind == REQ_GREQ)
			return r;
		if (!first && r->comm)
			first = r;
	}
	if (first)
		req_block(id, first);
	else
		state_block(id, WAIT_REQUESTS, -1, count, 0);
	return first;
}

struct req_set {
	const MPI_Request *reqs;
	int count;
	int need;	/* how many must be complete (all, or one) */
	int next;	/* all: the requests before it are complete or inactive */
};

/*
 * Whether set s is done: all its active requests complete (need 0), or at
 * least need of them.  For all, the scan resumes where the last one
 * stopped: while a wait holds the array, a complete request stays complete
 * and an inactive one inactive (only this call finishes them, and MPI 3.1
 * section 3.7.3 lets no other thread use them meanwhile), so a wait for w
 * messages that arrive one by one looks at each request once instead of
 * rescanning the array after every arrival.
 */
static int set_done(void *arg)
{
	struct req_set *s = arg;
	int done = 0, active = 0;

	if (!s->need) {
		int i = s->next;

		for (; i < s->count; i++) {
			struct request *r = s->reqs[i] == MPI_REQUEST_NULL ? NULL :
					    req_get(s->reqs[i]);

			if (r && req_active(r) && !req_is_complete(r))
				break;
		}
		s->next = i;
		return i == s->count;
	}
	for (int i = 0; i < s->count; i++) {
		struct request *r = s->reqs[i] == MPI_REQUEST_NULL ? NULL :
				    req_get(s->reqs[i]);

		if (!r || !req_active(r))
			continue;
		active++;
		done += req_is_complete(r);
	}
	return active == 0 || done >= s->need;
}

static MPI_Status *status_at(MPI_Status *statuses, int i)
{
	return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

/* Finish every complete active request of the array (all of them for the
 * -all forms); returns MPI_ERR_IN_STATUS if any failed. */
static int set_finish_all(MPI_Request *reqs, int count, MPI_Status *statuses,
			  MPI_Comm *err_comm_out)
{
	int rc = MPI_SUCCESS;

	for (int i = 0; i < count; i++) {
		struct request *r = reqs[i] == MPI_REQUEST_NULL ? NULL : req_get(reqs[i]);
		MPI_Status *st = status_at(statuses, i);
		MPI_Comm comm;

		if (!r || !req_active(r)) {
			req_status_empty(st);
			continue;
		}
		comm = req_comm(r);
		if (req_finish(&reqs[i], r, st) != MPI_SUCCESS && rc == MPI_SUCCESS) {
			rc = MPI_ERR_IN_STATUS;
			*err_comm_out = comm;
		}
	}
	return rc;
}

API(int, Waitall, (int count, MPI_Request array_of_requests[],
		   MPI_Status *array_of_statuses))
{
	struct req_set s = { array_of_requests, count, 0, 0 };
	MPI_Comm comm = MPI_COMM_WORLD;
	int rc;

	runtime_check("MPI_Waitall");
	rc = req_check_array("MPI_Waitall", count, array_of_requests,
			     array_of_statuses, "array_of_statuses");
	if (rc != MPI_SUCCESS)
		return rc;
	if (!set_done(&s)) {
		progress_wait_keyed(set_done, &s,
				    req_block_set(CALL_WAITALL, array_of_requests, count));
		state_unblock(CALL_WAITALL);
	}
	rc = set_finish_all(array_of_requests, count, array_of_statuses, &comm);
	if (rc != MPI_SUCCESS)
		return err_comm(comm, "MPI_Waitall", rc, "array_of_requests",
				"an operation failed (see the statuses)");
	return MPI_SUCCESS;
}

API(int, Testall, (int count, MPI_Request array_of_requests[], int *flag,
		   MPI_Status *array_of_statuses))
{
	struct req_set s = { array_of_requests, count, 0, 0 };
	MPI_Comm comm = MPI_COMM_WORLD;
	int rc;

	runtime_check("MPI_Testall");
	rc = req_check_array("MPI_Testall", count, array_of_requests,
			     array_of_statuses, "array_of_statuses");
	if (rc != MPI_SUCCESS)
		return rc;
	if (!flag)
		return err_comm(MPI_COMM_WORLD, "MPI_Testall", MPI_ERR_ARG, "flag",
				"is NULL");
	if (!set_done(&s))
		progress_poll();
	*flag = set_done(&s);
	if (!*flag)
		return MPI_SUCCESS;
	rc = set_finish_all(array_of_requests, count, array_of_statuses, &comm);
	if (rc != MPI_SUCCESS)
		return err_comm(comm, "MPI_Testall", rc, "array_of_requests",
				"an operation failed (see the statuses)");
	return MPI_SUCCESS;
}

/* The first complete active request, or -1 (*any_active: whether any). */
static int set_first_done(const MPI_Request *reqs, int count, int *any_active)
{
	*any_active = 0;
	for (int i = 0; i < count; i++) {
		struct request *r = reqs[i] == MPI_REQUEST_NULL ? NULL : req_get(reqs[i]);

		if (!r || !req_active(r))
			continue;
		*any_active = 1;
		if (req_is_complete(r))
			return i;
	}
	return -1;
}

static int set_finish_one(const char *call, MPI_Request *reqs, int i,
			  MPI_Status *status)
{
	struct request *r = req_get(reqs[i]);
	MPI_Comm comm = req_comm(r);
	int rc = req_finish(&reqs[i], r, status);

	return rc == MPI_SUCCESS ? rc : req_raise(call, comm, rc);
}

API(int, Waitany, (int count, MPI_Request array_of_requests[], int *index,
		   MPI_Status *status))
{
	struct req_set s = { array_of_requests, count, 1, 0 };
	int rc, any, i;

	runtime_check("MPI_Waitany");
	rc = req_check_array("MPI_Waitany", count, array_of_requests, status, "status");
	if (rc != MPI_SUCCESS)
		return rc;
	if (!index)
		return err_comm(MPI_COMM_WORLD, "MPI_Waitany", MPI_ERR_ARG, "index",
				"is NULL");
	i = set_first_done(array_of_requests, count, &any);
	if (i < 0 && any) {
		progress_wait_keyed(set_done, &s,
				    req_block_set(CALL_WAITANY, array_of_requests, count));
		state_unblock(CALL_WAITANY);
		i = set_first_done(array_of_requests, count, &any);
	}
	*index = i < 0 ? MPI_UNDEFINED : i;
	if (i < 0) {
		req_status_empty(status);
		return MPI_SUCCESS;
	}
	return set_finish_one("MPI_Waitany", array_of_requests, i, status);
}

/*
 * The search of MPI_Testany and MPI_Request_get_status_any, after their
 * argument checks (*rc, raised): the first complete active request after
 * one pass of the engine, -1 for none (*flag and *index as MPI_Testany
 * sets them, status empty).
 */
static int set_test_any(const char *call, int count, const MPI_Request *reqs,
			int *index, int *flag, MPI_Status *status, int *rc)
{
	int any, i;

	*rc = req_check_array(call, count, reqs, status, "status");
	if (*rc != MPI_SUCCESS)
		return -1;
	if (!index || !flag) {
		*rc = err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG, !index ? "index" : "flag",
			       "is NULL");
		return -1;
	}
	i = set_first_done(reqs, count, &any);
	if (i < 0 && any) {
		progress_poll();
		i = set_first_done(reqs, count, &any);
	}
	*flag = i >= 0 || !any;
	*index = i < 0 ? MPI_UNDEFINED : i;
	if (i < 0)
		req_status_empty(status);
	return i;
}

API(int, Testany, (int count, MPI_Request array_of_requests[], int *index,
		   int *flag, MPI_Status *status))
{
	int rc, i;

	runtime_check("MPI_Testany");
	i = set_test_any("MPI_Testany", count, array_of_requests, index, flag, status, &rc);
	if (i < 0)
		return rc;
	return set_finish_one("MPI_Testany", array_of_requests, i, status);
}

/* Finish every complete request, reporting indices; outcount MPI_UNDEFINED
 * when no request is active. */
static int set_finish_some(const char *call, int count, MPI_Request *reqs,
			   int *outcount, int *indices, MPI_Status *statuses)
{
	MPI_Comm comm = MPI_COMM_WORLD;
	int n = 0, any = 0, rc = MPI_SUCCESS;

	for (int i = 0; i < count; i++) {
		struct request *r = reqs[i] == MPI_REQUEST_NULL ? NULL : req_get(reqs[i]);
		MPI_Comm r_comm;

		if (!r || !req_active(r))
			continue;
		any = 1;
		if (!req_is_complete(r))
			continue;
		indices[n] = i;
		r_comm = req_comm(r);
		if (req_finish(&reqs[i], r, status_at(statuses, n)) != MPI_SUCCESS &&
		    rc == MPI_SUCCESS) {
			rc = MPI_ERR_IN_STATUS;
			comm = r_comm;
		}
		n++;
	}
	*outcount = any ? n : MPI_UNDEFINED;
	if (rc != MPI_SUCCESS)
		return err_comm(comm, call, rc, "array_of_requests",
				"an operation failed (see the statuses)");
	return MPI_SUCCESS;
}

API(int, Waitsome, (int incount, MPI_Request array_of_requests[], int *outcount,
		    int array_of_indices[], MPI_Status *array_of_statuses))
{
	struct req_set s = { array_of_requests, incount, 1, 0 };
	int rc;

	runtime_check("MPI_Waitsome");
	rc = req_check_array("MPI_Waitsome", incount, array_of_requests,
			     array_of_statuses, "array_of_statuses");
	if (rc != MPI_SUCCESS)
		return rc;
	if (!outcount || (incount > 0 && !array_of_indices))
		return err_comm(MPI_COMM_WORLD, "MPI_Waitsome", MPI_ERR_ARG,
				!outcount ? "outcount" : "array_of_indices", "is NULL");
	if (!set_done(&s)) {
		progress_wait_keyed(set_done, &s,
				    req_block_set(CALL_WAITSOME, array_of_requests, incount));
		state_unblock(CALL_WAITSOME);
	}
	return set_finish_some("MPI_Waitsome", incount, array_of_requests, outcount,
			       array_of_indices, array_of_statuses);
}

API(int, Testsome, (int incount, MPI_Request array_of_requests[], int *outcount,
		    int array_of_indices[], MPI_Status *array_of_statuses))
{
	int rc;

	runtime_check("MPI_Testsome");
	rc = req_check_array("MPI_Testsome", incount, array_of_requests,
			     array_of_statuses, "array_of_statuses");
	if (rc != MPI_SUCCESS)
		return rc;
	if (!outcount || (incount > 0 && !array_of_indices))
		return err_comm(MPI_COMM_WORLD, "MPI_Testsome", MPI_ERR_ARG,
				!outcount ? "outcount" : "array_of_indices", "is NULL");
	progress_poll();
	return set_finish_some("MPI_Testsome", incount, array_of_requests, outcount,
			       array_of_indices, array_of_statuses);
}

/*
 * A complete request's status, leaving the request as it is: a
 * generalized request's query callback runs each time it is asked
 * (MPI-3.1 section 12.2).  Returns the operation's error.
 */
static int req_peek(struct request *r, MPI_Status *status)
{
	int rc;

	if (r->kind != REQ_GREQ) {
		req_status(r, status);
		return r->st_error;
	}
	rc = greq_query(r, status);
	if (status != MPI_STATUS_IGNORE)
		status->MPI_ERROR = rc;
	return rc;
}

API(int, Request_get_status, (MPI_Request request, int *flag, MPI_Status *status))
{
	struct request *r;
	int rc;

	runtime_check("MPI_Request_get_status");
	if (!flag || !status)
		return err_comm(MPI_COMM_WORLD, "MPI_Request_get_status", MPI_ERR_ARG,
				!flag ? "flag" : "status", "is NULL");
	r = req_lookup("MPI_Request_get_status", request, &rc);
	if (!r) {
		*flag = rc == MPI_SUCCESS;
		req_status_empty(status);
		return rc;
	}
	if (!req_is_complete(r))
		progress_poll();
	*flag = req_is_complete(r);
	if (!*flag)
		return MPI_SUCCESS;
	rc = req_peek(r, status);
	if (rc != MPI_SUCCESS && r->kind == REQ_GREQ)
		return err_comm(MPI_COMM_WORLD, "MPI_Request_get_status", rc, "request",
				"the query callback failed");
	return MPI_SUCCESS;
}

/*
 * The MPI 4.1 forms on arrays (section 3.7.5): MPI_Testall, _any and _some
 * that neither free nor deactivate a request.  Every complete active
 * request's status, into statuses (index n of the -some form); returns
 * MPI_ERR_IN_STATUS, with the communicator to raise it on, if any failed.
 */
static int set_peek(const MPI_Request *reqs, int count, MPI_Status *statuses,
		    int *outcount, int *indices, MPI_Comm *err_comm_out)
{
	int n = 0, rc = MPI_SUCCESS;

	for (int i = 0; i < count; i++) {
		struct request *r = reqs[i] == MPI_REQUEST_NULL ? NULL : req_get(reqs[i]);

		if (!r || !req_active(r)) {
			if (!indices)
				req_status_empty(status_at(statuses, i));
			continue;
		}
		if (!req_is_complete(r))
			continue;
		if (indices)
			indices[n] = i;
		if (req_peek(r, status_at(statuses, indices ? n : i)) != MPI_SUCCESS &&
		    rc == MPI_SUCCESS) {
			rc = MPI_ERR_IN_STATUS;
			*err_comm_out = req_comm(r);
		}
		n++;
	}
	if (outcount)
		*outcount = n;
	return rc;
}

API(int, Request_get_status_all, (int count, const MPI_Request array_of_requests[],
				  int *flag, MPI_Status *array_of_statuses))
{
	struct req_set s = { array_of_requests, count, 0, 0 };
	MPI_Comm comm = MPI_COMM_WORLD;
	int rc;

	runtime_check("MPI_Request_get_status_all");
	rc = req_check_array("MPI_Request_get_status_all", count, array_of_requests,
			     array_of_statuses, "array_of_statuses");
	if (rc != MPI_SUCCESS)
		return rc;
	if (!flag)
		return err_comm(MPI_COMM_WORLD, "MPI_Request_get_status_all", MPI_ERR_ARG,
				"flag", "is NULL");
	if (!set_done(&s))
		progress_poll();
	*flag = set_done(&s);
	if (!*flag)
		return MPI_SUCCESS;
	rc = set_peek(array_of_requests, count, array_of_statuses, NULL, NULL, &comm);
	if (rc != MPI_SUCCESS)
		return err_comm(comm, "MPI_Request_get_status_all", rc, "array_of_requests",
				"an operation failed (see the statuses)");
	return MPI_SUCCESS;
}

API(int, Request_get_status_any, (int count, const MPI_Request array_of_requests[],
				  int *index, int *flag, MPI_Status *status))
{
	struct request *r;
	int rc, i;

	runtime_check("MPI_Request_get_status_any");
	i = set_test_any("MPI_Request_get_status_any", count, array_of_requests, index,
			 flag, status, &rc);
	if (i < 0)
		return rc;
	r = req_get(array_of_requests[i]);
	rc = req_peek(r, status);
	return rc == MPI_SUCCESS ? rc :
	       req_raise("MPI_Request_get_status_any", req_comm(r), rc);
}

API(int, Request_get_status_some, (int incount, const MPI_Request array_of_requests[],
				   int *outcount, int array_of_indices[],
				   MPI_Status *array_of_statuses))
{
	MPI_Comm comm = MPI_COMM_WORLD;
	int rc, any;

	runtime_check("MPI_Request_get_status_some");
	rc = req_check_array("MPI_Request_get_status_some", incount, array_of_requests,
			     array_of_statuses, "array_of_statuses");
	if (rc != MPI_SUCCESS)
		return rc;
	if (!outcount || (incount > 0 && !array_of_indices))
		return err_comm(MPI_COMM_WORLD, "MPI_Request_get_status_some", MPI_ERR_ARG,
				!outcount ? "outcount" : "array_of_indices", "is NULL");
	progress_poll();
	set_first_done(array_of_requests, incount, &any);
	rc = set_peek(array_of_requests, incount, array_of_statuses, outcount,
		      array_of_indices, &comm);
	if (!any)
		*outcount = MPI_UNDEFINED;
	if (rc != MPI_SUCCESS)
		return err_comm(comm, "MPI_Request_get_status_some", rc,
				"array_of_requests", "an operation failed (see the statuses)");
	return MPI_SUCCESS;
}

API(int, Request_free, (MPI_Request *request))
{
	struct request *r;

	runtime_check("MPI_Request_free");
	if (!request)
		return err_comm(MPI_COMM_WORLD, "MPI_Request_free", MPI_ERR_ARG,
				"request", "is NULL");
	r = *request == MPI_REQUEST_NULL ? NULL : req_get(*request);
	if (!r || (r->kind == REQ_GREQ && greq_freed(r)))
		return err_comm(MPI_COMM_WORLD, "MPI_Request_free", MPI_ERR_REQUEST,
				"request", "0x%x is not a valid request",
				(unsigned)*request);
	if (r->kind == REQ_GREQ) {
		int rc = greq_user_free(r);

		*request = MPI_REQUEST_NULL;
		if (rc != MPI_SUCCESS)
			return err_comm(MPI_COMM_WORLD, "MPI_Request_free", rc, "request",
					"the free callback failed");
		return MPI_SUCCESS;
	}
	/* a collective under way must complete on every member (MPI 4.1,
	 * sections 6.12 and 6.13) */
	if (r->kind == REQ_COLL && r->persistent && r->active)
		return err_comm(r->comm->handle, "MPI_Request_free", MPI_ERR_REQUEST,
				"request", "is an active persistent collective request");
	/* MPI 4.1, section 4.2.1: freeing an active partitioned request
	 * before it completes is erroneous (its partitions may still be
	 * marked ready) */
	if (part_is(r) && r->active && !req_is_complete(r))
		return err_comm(r->comm->handle, "MPI_Request_free", MPI_ERR_REQUEST,
				"request", "is an active partitioned request: complete "
				"it first");
	/* the operation goes on; the engine releases it when it completes
	 * (under the engine's lock: the progress thread may complete it) */
	progress_lock();
	if (req_is_complete(r) || !req_active(r)) {
		req_release(r);
	} else {
		handle_release(r->handle);
		r->handle = MPI_REQUEST_NULL;
		r->freed = 1;
		r->persistent = 0;
	}
	progress_unlock();
	*request = MPI_REQUEST_NULL;
	return MPI_SUCCESS;
}

/*
 * A receive not yet matched is taken back and completes as cancelled.  A
 * send is never cancelled (the standard lets cancellation fail): it
 * completes normally and MPI_Test_cancelled says false.  A generalized
 * request is the program's to cancel: its cancel callback runs, told
 * whether the request is complete already.
 */
API(int, Cancel, (MPI_Request *request))
{
	struct request *r;
	int rc;

	runtime_check("MPI_Cancel");
	if (!request)
		return err_comm(MPI_COMM_WORLD, "MPI_Cancel", MPI_ERR_ARG, "request",
				"is NULL");
	r = req_lookup("MPI_Cancel", *request, &rc);
	if (!r)
		return rc != MPI_SUCCESS ? rc :
		       err_comm(MPI_COMM_WORLD, "MPI_Cancel", MPI_ERR_REQUEST,
				"request", "is not an active request");
	if (r->kind == REQ_GREQ) {
		rc = greq_cancel(r);
		if (rc != MPI_SUCCESS)
			return err_comm(MPI_COMM_WORLD, "MPI_Cancel", rc, "request",
					"the cancel callback failed");
		return MPI_SUCCESS;
	}
	progress_lock();
	if (r->kind == REQ_RECV && progress_recv_cancel(r)) {
		r->cancelled = 1;
		r->st_source = MPI_ANY_SOURCE;
		r->st_tag = MPI_ANY_TAG;
		r->st_bytes = 0;
		req_complete(r);
	}
	progress_unlock();
	return MPI_SUCCESS;
}

API(int, Test_cancelled, (const MPI_Status *status, int *flag))
{
	runtime_check("MPI_Test_cancelled");
	if (!status || status == MPI_STATUS_IGNORE || !flag)
		return err_comm(MPI_COMM_WORLD, "MPI_Test_cancelled", MPI_ERR_ARG,
				!flag ? "flag" : "status", "is NULL or MPI_STATUS_IGNORE");
	*flag = status->shmpi_cancelled;
	return MPI_SUCCESS;
}

static int status_check(const char *call, const MPI_Status *status,
			MPI_Datatype datatype, const void *count, struct datatype **dt)
{
	if (!status || status == MPI_STATUS_IGNORE || !count)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG,
				!count ? "count" : "status", "is NULL or MPI_STATUS_IGNORE");
	*dt = dt_get(datatype);
	if (!*dt)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_TYPE, "datatype",
				"0x%x is not a valid datatype", (unsigned)datatype);
	return MPI_SUCCESS;
}

/*
 * What the status's data holds of datatype: whole elements (MPI_Get_count,
 * MPI 4.1 section 3.2.5), or basic elements (MPI_Get_elements, section
 * 5.1.11); MPI_UNDEFINED when the data ends inside one.  Every form shares
 * it; the int forms' count is MPI_UNDEFINED, too, when it exceeds max (the
 * int result: MPI 4.1 section 2.5.8).
 */
static int status_count(const char *call, const MPI_Status *status,
			MPI_Datatype datatype, const void *count, int elements,
			MPI_Count max, MPI_Count *n)
{
	struct datatype *dt;
	int rc;

	runtime_check(call);
	rc = status_check(call, status, datatype, count, &dt);
	if (rc != MPI_SUCCESS)
		return rc;
	if (elements)
		*n = dt_count_basic(dt, status->shmpi_count);
	else if (dt->size == 0)
		*n = 0;
	else if (status->shmpi_count % dt->size)
		*n = MPI_UNDEFINED;
	else
		*n = status->shmpi_count / dt->size;
	if (*n > max)
		*n = MPI_UNDEFINED;
	return MPI_SUCCESS;
}

/* The int forms. */
static int status_count_int(const char *call, const MPI_Status *status,
			    MPI_Datatype datatype, int *count, int elements)
{
	MPI_Count n;
	int rc = status_count(call, status, datatype, count, elements, INT_MAX, &n);

	if (rc == MPI_SUCCESS)
		*count = (int)n;
	return rc;
}

/* The MPI_Count forms. */
static int status_count_c(const char *call, const MPI_Status *status,
			  MPI_Datatype datatype, MPI_Count *count, int elements)
{
	MPI_Count n;
	int rc = status_count(call, status, datatype, count, elements, LLONG_MAX, &n);

	if (rc == MPI_SUCCESS)
		*count = n;
	return rc;
}

API(int, Get_count, (const MPI_Status *status, MPI_Datatype datatype, int *count))
{
	return status_count_int("MPI_Get_count", status, datatype, count, 0);
}

API(int, Get_count_c, (const MPI_Status *status, MPI_Datatype datatype,
		       MPI_Count *count))
{
	return status_count_c("MPI_Get_count_c", status, datatype, count, 0);
}

API(int, Get_elements, (const MPI_Status *status, MPI_Datatype datatype, int *count))
{
	return status_count_int("MPI_Get_elements", status, datatype, count, 1);
}

API(int, Get_elements_x, (const MPI_Status *status, MPI_Datatype datatype,
			  MPI_Count *count))
{
	return status_count_c("MPI_Get_elements_x", status, datatype, count, 1);
}

API(int, Get_elements_c, (const MPI_Status *status, MPI_Datatype datatype,
			  MPI_Count *count))
{
	return status_count_c("MPI_Get_elements_c", status, datatype, count, 1);
}

/* Start an inactive persistent request. */
static void req_start_one(struct request *r)
{
	if (r->kind == REQ_COLL)
		sched_start(r);
	else if (part_is(r))
		part_start(r);
	else
		p2p_start(r);
}

static int req_start(const char *call, MPI_Request h)
{
	struct request *r = h == MPI_REQUEST_NULL ? NULL : req_get(h);

	if (!r || !r->persistent)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_REQUEST, "request",
				"0x%x is not a persistent request", (unsigned)h);
	if (r->active)
		return err_comm(r->comm->handle, call, MPI_ERR_REQUEST, "request",
				"is already active");
	req_start_one(r);
	return MPI_SUCCESS;
}

API(int, Start, (MPI_Request *request))
{
	runtime_check("MPI_Start");
	if (!request)
		return err_comm(MPI_COMM_WORLD, "MPI_Start", MPI_ERR_ARG, "request",
				"is NULL");
	return req_start("MPI_Start", *request);
}

API(int, Startall, (int count, MPI_Request array_of_requests[]))
{
	runtime_check("MPI_Startall");
	if (count < 0 || (count > 0 && !array_of_requests))
		return err_comm(MPI_COMM_WORLD, "MPI_Startall", MPI_ERR_ARG,
				count < 0 ? "count" : "array_of_requests",
				count < 0 ? "is negative" : "is NULL");
	/* check them all first: an error starts none */
	for (int i = 0; i < count; i++) {
		struct request *r = req_get(array_of_requests[i]);

		if (!r || !r->persistent || r->active)
			return err_comm(r && r->comm ? r->comm->handle : MPI_COMM_WORLD,
					"MPI_Startall", MPI_ERR_REQUEST,
					"array_of_requests", "element %d is not an "
					"inactive persistent request", i);
	}
	for (int i = 0; i < count; i++)
		req_start_one(req_get(array_of_requests[i]));
	return MPI_SUCCESS;
}

/*
 * For generalized requests and layered libraries: set what a status says
 * (MPI 3.1, section 12.3), so that MPI_Get_elements(_x) then gives count
 * and MPI_Get_count the whole elements of datatype in it.
 */
static int status_set_elements(const char *call, MPI_Status *status,
			       MPI_Datatype datatype, MPI_Count count)
{
	struct datatype *dt;
	int rc;

	runtime_check(call);
	if (!status || status == MPI_STATUS_IGNORE)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG, "status",
				"is NULL or MPI_STATUS_IGNORE");
	if (count < 0)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_COUNT, "count",
				"%lld is negative", (long long)count);
	rc = dt_check_use(MPI_COMM_WORLD, call, datatype, &dt);
	if (rc != MPI_SUCCESS)
		return rc;
	status->shmpi_count = dt_bytes_of_basic(dt, count);
	return MPI_SUCCESS;
}

API(int, Status_set_elements, (MPI_Status *status, MPI_Datatype datatype, int count))
{
	return status_set_elements("MPI_Status_set_elements", status, datatype, count);
}

API(int, Status_set_elements_x, (MPI_Status *status, MPI_Datatype datatype,
				 MPI_Count count))
{
	return status_set_elements("MPI_Status_set_elements_x", status, datatype, count);
}

API(int, Status_set_cancelled, (MPI_Status *status, int flag))
{
	runtime_check("MPI_Status_set_cancelled");
	if (!status || status == MPI_STATUS_IGNORE)
		return err_comm(MPI_COMM_WORLD, "MPI_Status_set_cancelled", MPI_ERR_ARG,
				"status", "is NULL or MPI_STATUS_IGNORE");
	status->shmpi_cancelled = flag != 0;
	return MPI_SUCCESS;
}

/*
 * The fields of a status by call (MPI 4.1, section 3.2.5): for languages
 * that cannot name them, and for generalized requests.  The get calls read
 * what a completion or an earlier set call left.
 */
static int status_field(const char *call, const MPI_Status *status, const int *value,
			const char *valuename)
{
	if (!status || status == MPI_STATUS_IGNORE)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG, "status",
				"is NULL or MPI_STATUS_IGNORE");
	if (!value)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG, valuename, "is NULL");
	return MPI_SUCCESS;
}

#define STATUS_GET(Name, field, arg)                                           \
	API(int, Status_get_##Name, (const MPI_Status *status, int *arg))      \
	{                                                                      \
		int rc;                                                        \
                                                                               \
		runtime_check("MPI_Status_get_" #Name);                        \
		rc = status_field("MPI_Status_get_" #Name, status, arg, #arg); \
		if (rc == MPI_SUCCESS)                                         \
			*arg = status->field;                                  \
		return rc;                                                     \
	}

#define STATUS_SET(Name, field, arg)                                           \
	API(int, Status_set_##Name, (MPI_Status *status, int arg))             \
	{                                                                      \
		int rc;                                                        \
                                                                               \
		runtime_check("MPI_Status_set_" #Name);                        \
		rc = status_field("MPI_Status_set_" #Name, status, &arg, #arg); \
		if (rc == MPI_SUCCESS)                                         \
			status->field = arg;                                   \
		return rc;                                                     \
	}

STATUS_GET(source, MPI_SOURCE, source)
STATUS_GET(tag, MPI_TAG, tag)
STATUS_GET(error, MPI_ERROR, error)
STATUS_SET(source, MPI_SOURCE, source)
STATUS_SET(tag, MPI_TAG, tag)
STATUS_SET(error, MPI_ERROR, error)
