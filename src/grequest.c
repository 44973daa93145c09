/*
 * Generalized requests (MPI-3.1 section 12.2): MPI_Grequest_start,
 * MPI_Grequest_complete, and the program's callbacks that the completion
 * calls run (see grequest.h).
 *
 * The program may complete a request from a thread of its own while the
 * rank waits for it in MPI_Wait or its kin: MPI_Grequest_complete is then
 * the one call that thread makes, concurrently with the application
 * thread's calls.  So that call touches nothing the application thread
 * changes without a lock, the handle table least of all (it grows by
 * realloc):
 *  - it finds the request by its handle in this file's list of live
 *    generalized requests, under greq_lock;
 *  - it marks the request complete with req_complete()'s release store,
 *    which the waiters' acquire load pairs with, and then rings the rank's
 *    own doorbell, so that a waiter asleep in progress_wait wakes (the
 *    ring touches the control block only: once complete, the request may
 *    be released by the waiter at any moment);
 *  - should the program have freed the request before (MPI_Request_free),
 *    it runs the free callback, as the standard says for whichever of the
 *    two calls comes last, and leaves the request on the dead list; the
 *    application thread releases it (its handle goes back to the table)
 *    at its next MPI_Grequest_start or at MPI_Finalize.
 * Whether a request is complete, and whether freed, are decided under
 * greq_lock, so exactly one of MPI_Request_free and MPI_Grequest_complete
 * sees the other's mark and runs the free callback.
 *
 * Errors of the callbacks and of these calls are raised on
 * MPI_COMM_WORLD: a generalized request belongs to no communicator.
 */
#include <pthread.h>
#include <stdlib.h>

#include "api.h"
#include "errhandler.h"
#include "grequest.h"
#include "progress.h"
#include "request.h"
#include "runtime.h"

struct greq {
	MPI_Request handle;
	struct request *r;
	MPI_Grequest_query_function *query_fn;
	MPI_Grequest_free_function *free_fn;
	MPI_Grequest_cancel_function *cancel_fn;
	void *extra;
	int completed;		/* MPI_Grequest_complete was called (greq_lock) */
	int freed;		/* MPI_Request_free was called (greq_lock; the
				 * application thread alone writes it) */
	struct greq *next;	/* on greq_live or greq_dead */
};

static pthread_mutex_t greq_lock = PTHREAD_MUTEX_INITIALIZER;
static struct greq *greq_live;	/* what MPI_Grequest_complete may name */
static struct greq *greq_dead;	/* freed, then completed: to release */

/* Under greq_lock. */
static void greq_unlink(struct greq *g)
{
	struct greq **p = &greq_live;

	while (*p != g)
		p = &(*p)->next;
	*p = g->next;
}

/* The application thread: release the requests on the dead list. */
static void greq_reap(void)
{
	struct greq *g;

	pthread_mutex_lock(&greq_lock);
	g = greq_dead;
	greq_dead = NULL;
	pthread_mutex_unlock(&greq_lock);
	while (g) {
		struct greq *next = g->next;

		req_release(g->r);	/* frees g too: it is the request's owner */
		g = next;
	}
}

void greq_fini(void)
{
	greq_reap();
}

int greq_query(struct request *r, MPI_Status *status)
{
	struct greq *g = r->owner;
	MPI_Status scratch;
	MPI_Status *st = status == MPI_STATUS_IGNORE ? &scratch : status;

	/* what the callback does not set reads as an empty status */
	req_status_empty(st);
	return g->query_fn(g->extra, st);
}

int greq_free(struct request *r)
{
	struct greq *g = r->owner;
	int rc;

	pthread_mutex_lock(&greq_lock);
	greq_unlink(g);
	pthread_mutex_unlock(&greq_lock);
	rc = g->free_fn(g->extra);
	/* "the request is not deallocated until after free_fn completes" */
	req_release(r);
	return rc;
}

int greq_user_free(struct request *r)
{
	struct greq *g = r->owner;
	int completed;

	pthread_mutex_lock(&greq_lock);
	completed = g->completed;
	g->freed = !completed;
	pthread_mutex_unlock(&greq_lock);
	return completed ? greq_free(r) : MPI_SUCCESS;
}

int greq_freed(const struct request *r)
{
	const struct greq *g = r->owner;

	return g->freed;
}

int greq_cancel(struct request *r)
{
	struct greq *g = r->owner;
	int completed;

	pthread_mutex_lock(&greq_lock);
	completed = g->completed;
	pthread_mutex_unlock(&greq_lock);
	return g->cancel_fn(g->extra, completed);
}

API(int, Grequest_start, (MPI_Grequest_query_function *query_fn,
			  MPI_Grequest_free_function *free_fn,
			  MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
			  MPI_Request *request))
{
	struct request *r;
	struct greq *g;

	runtime_check("MPI_Grequest_start");
	if (!query_fn || !free_fn || !cancel_fn || !request)
		return err_comm(MPI_COMM_WORLD, "MPI_Grequest_start", MPI_ERR_ARG,
				!query_fn ? "query_fn" : !free_fn ? "free_fn" :
				!cancel_fn ? "cancel_fn" : "request", "is NULL");
	greq_reap();
	g = calloc(1, sizeof(*g));
	r = g ? req_new(REQ_GREQ, 1) : NULL;
	if (!r) {
		free(g);
		return err_comm(MPI_COMM_WORLD, "MPI_Grequest_start", MPI_ERR_NO_MEM,
				NULL, "out of memory");
	}
	g->handle = r->handle;
	g->r = r;
	g->query_fn = query_fn;
	g->free_fn = free_fn;
	g->cancel_fn = cancel_fn;
	g->extra = extra_state;
	r->peer = MPI_PROC_NULL;
	r->peer_world = -1;
	r->owner = g;
	r->owner_free = free;
	pthread_mutex_lock(&greq_lock);
	g->next = greq_live;
	greq_live = g;
	pthread_mutex_unlock(&greq_lock);
	*request = r->handle;
	return MPI_SUCCESS;
}

/* From any thread of the process (see the top of this file). */
API(int, Grequest_complete, (MPI_Request request))
{
	struct greq *g;
	int rc;

	runtime_check("MPI_Grequest_complete");
	pthread_mutex_lock(&greq_lock);
	for (g = greq_live; g && g->handle != request; g = g->next)
		;
	if (!g || g->completed) {
		pthread_mutex_unlock(&greq_lock);
		if (g)
			return err_comm(MPI_COMM_WORLD, "MPI_Grequest_complete",
					MPI_ERR_REQUEST, "request",
					"0x%x is complete already", (unsigned)request);
		return err_comm(MPI_COMM_WORLD, "MPI_Grequest_complete", MPI_ERR_REQUEST,
				"request", "0x%x is not an active generalized request",
				(unsigned)request);
	}
	g->completed = 1;
	if (!g->freed) {
		req_complete(g->r);
		pthread_mutex_unlock(&greq_lock);
		progress_wake_rank(rt.rank);
		return MPI_SUCCESS;
	}
	greq_unlink(g);
	pthread_mutex_unlock(&greq_lock);
	rc = g->free_fn(g->extra);
	pthread_mutex_lock(&greq_lock);
	g->next = greq_dead;
	greq_dead = g;
	pthread_mutex_unlock(&greq_lock);
	if (rc != MPI_SUCCESS)
		return err_comm(MPI_COMM_WORLD, "MPI_Grequest_complete", rc, "request",
				"the free callback failed");
	return MPI_SUCCESS;
}
