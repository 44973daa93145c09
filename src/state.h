/*
 * What this rank publishes about itself for the launcher's watchdog: the MPI
 * call it blocks in and what it waits for, or that it is outside MPI and
 * since when; and, from the progress engine, what the engine owes others.
 * A few relaxed stores to this rank's own cache line of its control block;
 * no system call, no lock, no fence.  shm/rankstate.h is the protocol: the
 * call ids, the wait kinds and what each field means.
 */
#ifndef SRC_STATE_H
#define SRC_STATE_H

#include <time.h>

#include "../shm/rankstate.h"
#include "pvar.h"
#include "runtime.h"

/* The watchdog judges in tenths of seconds: the coarse clock (a few ms
 * resolution, the same base as shmrun's CLOCK_MONOTONIC, never ahead of
 * it) costs a third of the precise one, and every blocking call reads it
 * twice. */
static inline uint64_t state_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Entering a blocking wait in `call`, for `kind` from peer (job rank). */
static inline void state_block(enum call_id call, enum wait_kind kind, int peer,
			       int tag, uint32_t ctx)
{
	struct shm_rank_state *s = &rt.self->state;

	pvar_c.waits[kind]++;	/* what the watchdog sees, counted for MPI_T */
	atomic_store_explicit(&s->call, call, memory_order_relaxed);
	atomic_store_explicit(&s->wait_kind, kind, memory_order_relaxed);
	atomic_store_explicit(&s->peer, peer, memory_order_relaxed);
	atomic_store_explicit(&s->tag, tag, memory_order_relaxed);
	atomic_store_explicit(&s->ctx, ctx, memory_order_relaxed);
	atomic_store_explicit(&s->holder, -1, memory_order_relaxed);
	atomic_store_explicit(&s->blocker, 0, memory_order_relaxed);
	atomic_store_explicit(&s->since_ns, state_now_ns(), memory_order_relaxed);
}

/* While waiting for a lock: who keeps it from us (job rank, or -1) and how
 * (SHM_BLOCKER). */
static inline void state_lock_blocker(int rank, uint32_t blocker)
{
	atomic_store_explicit(&rt.self->state.holder, rank, memory_order_relaxed);
	atomic_store_explicit(&rt.self->state.blocker, blocker, memory_order_relaxed);
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

/*
 * The progress engine, while the rank waits on one request: that request's
 * data now depends on peer's engine (WAIT_RECV_DATA: the receive is matched
 * and the sender pushes; WAIT_SEND_DATA: the receiver matched and drains).
 * From the progress thread too, under the engine's lock, which orders these
 * stores before state_unblock's.
 */
static inline void state_wait_refine(enum wait_kind kind, int peer)
{
	struct shm_rank_state *s = &rt.self->state;

	atomic_store_explicit(&s->wait_kind, kind, memory_order_relaxed);
	atomic_store_explicit(&s->peer, peer, memory_order_relaxed);
}

/* Leaving a call that left work behind for the engine (a buffered send):
 * the watchdog names it as the last call if the rank stays outside MPI. */
static inline void state_left(enum call_id call)
{
	struct shm_rank_state *s = &rt.self->state;

	atomic_store_explicit(&s->last_call, call, memory_order_relaxed);
	atomic_store_explicit(&s->since_ns, state_now_ns(), memory_order_relaxed);
}

/* The progress engine after a pass: how many peers it has records queued
 * for that only its next pass can push (0: it owes nothing). */
static inline void state_owes(uint32_t npeers)
{
	atomic_store_explicit(&rt.self->state.owes, npeers, memory_order_relaxed);
}

/* Once at MPI_Init: whether a progress thread runs this rank's engine,
 * and whether several threads may call MPI at once. */
static inline void state_strong(int strong, int threads)
{
	atomic_store_explicit(&rt.self->state.strong,
			      (strong ? SHM_RANK_STRONG : 0) | (threads ? SHM_RANK_THREADS : 0),
			      memory_order_relaxed);
}

#endif
