/*
 * What this rank publishes about itself for the launcher's watchdog: the MPI
 * call it blocks in and what it waits for, or that it is outside MPI and
 * since when.  A few relaxed stores to this rank's own cache line of its
 * control block; no system call, no lock, no fence.
 */
#ifndef SRC_STATE_H
#define SRC_STATE_H

#include <time.h>

#include "runtime.h"

/* What a blocked call waits for. */
enum wait_kind {
	WAIT_NONE = 0,
	WAIT_RECV,		/* a message: peer, tag, communicator */
	WAIT_SEND,		/* a send to complete: peer, tag, communicator */
	WAIT_REQUESTS,		/* some of several requests */
	WAIT_PROBE,		/* a message to arrive for a probe */
	WAIT_BSEND_DRAIN,	/* buffered messages to leave (detach, finalize) */
	WAIT_BARRIER,		/* everybody of a communicator */
	WAIT_COLL_DATA,		/* a member's contribution to a collective */
	WAIT_COLL_ACK,		/* members to read this rank's contribution */
	WAIT_WIN_POST,		/* MPI_Win_start: a target's post */
	WAIT_WIN_COMPLETE,	/* MPI_Win_wait: the origins' completes */
	WAIT_WIN_LOCK,		/* a passive-target lock on a target */
};

/* The blocking calls, by id (0 means outside MPI). */
enum call_id {
	CALL_NONE = 0,
	CALL_SEND, CALL_SSEND, CALL_RSEND, CALL_BSEND, CALL_RECV,
	CALL_SENDRECV, CALL_SENDRECV_REPLACE, CALL_PROBE,
	CALL_WAIT, CALL_WAITALL, CALL_WAITANY, CALL_WAITSOME,
	CALL_BUFFER_DETACH, CALL_FINALIZE, CALL_BARRIER,
	CALL_BCAST, CALL_REDUCE, CALL_ALLREDUCE, CALL_GATHER, CALL_GATHERV,
	CALL_SCATTER, CALL_SCATTERV, CALL_ALLGATHER, CALL_ALLGATHERV,
	CALL_ALLTOALL, CALL_ALLTOALLV, CALL_REDUCE_SCATTER_BLOCK,
	CALL_REDUCE_SCATTER, CALL_SCAN, CALL_EXSCAN, CALL_COMM_CREATE,
	CALL_WIN_CREATE, CALL_WIN_FREE, CALL_WIN_FENCE, CALL_WIN_START,
	CALL_WIN_COMPLETE, CALL_WIN_WAIT, CALL_WIN_LOCK, CALL_WIN_LOCK_ALL,
	CALL_WIN_UNLOCK,
	CALL_COUNT
};

static inline uint64_t state_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Entering a blocking wait in `call`, for `kind` from peer (job rank). */
static inline void state_block(enum call_id call, enum wait_kind kind, int peer,
			       int tag, uint32_t ctx)
{
	struct shm_rank_state *s = &rt.self->state;

	atomic_store_explicit(&s->call, call, memory_order_relaxed);
	atomic_store_explicit(&s->wait_kind, kind, memory_order_relaxed);
	atomic_store_explicit(&s->peer, peer, memory_order_relaxed);
	atomic_store_explicit(&s->tag, tag, memory_order_relaxed);
	atomic_store_explicit(&s->ctx, ctx, memory_order_relaxed);
	atomic_store_explicit(&s->since_ns, state_now_ns(), memory_order_relaxed);
}

/* Leaving the blocking call: outside MPI from now on, after `call`. */
static inline void state_unblock(enum call_id call)
{
	struct shm_rank_state *s = &rt.self->state;

	atomic_store_explicit(&s->call, CALL_NONE, memory_order_relaxed);
	atomic_store_explicit(&s->wait_kind, WAIT_NONE, memory_order_relaxed);
	atomic_store_explicit(&s->last_call, call, memory_order_relaxed);
	atomic_store_explicit(&s->since_ns, state_now_ns(), memory_order_relaxed);
}

#endif
