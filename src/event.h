/*
 * Raising the MPI_T events (MPI 4.1, section 15.3.8; src/mpit_event.c
 * delivers them, the README lists them).  A path that can raise an event
 * tests one bit of a word that is nonzero only while a tool holds a handle
 * for the event type, and calls the raise function only then:
 *
 *	if (event_wanted(EVENT_P2P_UNEXPECTED))
 *		event_p2p_unexpected(ctx, src, tag, bytes);
 *
 * so a process whose tool allocated no handle pays one predictable branch
 * per site and nothing else.
 */
#ifndef SRC_EVENT_H
#define SRC_EVENT_H

#include <stdatomic.h>
#include <stdint.h>

#include <mpi.h>

/* The event types, in the order of their indices. */
enum event_type {
	EVENT_P2P_UNEXPECTED,	/* a message went on the unexpected queue */
	EVENT_P2P_RNDV,		/* a rendezvous message's data was moved */
	EVENT_RMA_LOCK_WAIT_BEGIN,	/* a passive-target lock was not granted at once */
	EVENT_RMA_LOCK_WAIT_END,	/* ... and now is */
	EVENT_COUNT
};

/* How a rendezvous message's data came (the enumeration p2p_rndv_how). */
enum event_rndv_how { EVENT_RNDV_MAPPED, EVENT_RNDV_CMA, EVENT_RNDV_PIPELINE };

/* Bit t is set while a handle for event type t is allocated.  Written under
 * the events' lock (mpit_event.c), read anywhere without it: a raise that
 * misses a handle allocated at this very moment is an event that came
 * before the handle, and one that sees a handle being freed finds it gone
 * under the lock. */
extern _Atomic unsigned event_on __attribute__((visibility("hidden")));

static inline int event_wanted(enum event_type t)
{
	return __builtin_expect((atomic_load_explicit(&event_on, memory_order_relaxed) >> t) & 1,
				0);
}

/* Events buffered for a later safe point: the end of the outermost MPI
 * call (runtime_leave_slow) delivers them. */
extern _Atomic int event_pending __attribute__((visibility("hidden")));

/* The raise functions (any thread; the engine's events under its lock). */
struct request;
struct win;
void event_p2p_unexpected(uint32_t ctx, int src_world, int tag, uint64_t bytes);
void event_p2p_rndv(const struct request *r, enum event_rndv_how how);
void event_rma_lock(enum event_type t, const struct win *w, int target, int mode,
		    uint64_t waited_ns);

/* Deliver what is buffered, at a safe point of the application thread: no
 * lock of the library held, outside every MPI call. */
void event_deliver(void);

/* Whether some event handle is allocated (the gate of runtime.h stays up
 * while one is, so that each call ends at runtime_leave_slow). */
extern int event_gated __attribute__((visibility("hidden")));

#endif
