/*
 * The transport of the progress engine: this rank's channels to and from
 * every rank of the job (itself included) in the job's shared memory.
 *
 * A channel carries records, each a struct pkt and its payload, from one
 * sender to one receiver in the order they were committed (the order
 * non-overtaking needs, MPI 3.1 section 3.5).  A record is reserved, filled
 * and committed; nothing of it is visible before the commit, and nothing
 * may happen between the two but filling it in.  Every call here is made
 * under the engine's lock (progress.c).
 */
#ifndef SRC_CHAN_H
#define SRC_CHAN_H

#include <stdint.h>

#include "../shm/ring.h"
#include "progress.h"

/* Set up this rank's side (after the job segment is mapped); -errno. */
int chan_init(void);
void chan_fini(void);

/* The size of record (struct pkt included) that a long transfer should
 * cut its data into. */
uint32_t chan_chunk(void);

/* How this rank reaches one destination (chan.c). */
struct chan_out {
	struct shm_ring *ring;	/* NULL until the first use */
	int shared;		/* ring is dst's shared ring: take its lock */
};

extern struct chan_out *chan_outs;	/* [job size] */

void *chan_reserve_slow(int dst, uint32_t len);
void chan_commit_shared(int dst, void *rec);

/* Space for a record of len bytes to dst, or NULL when there is no room
 * now; then chan_want_room(dst) before sleeping on it. */
static inline void *chan_reserve(int dst, uint32_t len)
{
	struct chan_out *o = &chan_outs[dst];

	if (__builtin_expect(o->ring != NULL && !o->shared, 1))
		return shm_ring_reserve(o->ring, len);
	return chan_reserve_slow(dst, len);
}

/* Publish the record chan_reserve(dst, ...) returned last.  The caller
 * rings dst's doorbell (progress_wake_rank) once it has committed what it
 * had for dst. */
static inline void chan_commit(int dst, void *rec)
{
	struct chan_out *o = &chan_outs[dst];

	if (__builtin_expect(!o->shared, 1))
		shm_ring_commit(o->ring, rec);
	else
		chan_commit_shared(dst, rec);
}

/* Whether a record of len bytes to dst would fit now. */
int chan_fits(int dst, uint32_t len);

/* Ask dst to ring this rank's doorbell when it frees room; look again
 * (chan_fits) after this and before sleeping. */
void chan_want_room(int dst);

/*
 * Hand every record waiting for this rank to fn, oldest first per sender,
 * and wake the senders waiting for the room that frees; records handled.
 * A pass ends early, after the record, when fn returns nonzero: the record
 * completed what the caller waits for, and what it does next (a reply, on
 * the critical path of a ping-pong) should not wait for the records
 * behind it, whose lines the senders may still be writing.
 */
typedef int (*chan_record_fn)(int src, const struct pkt *pkt, const void *payload,
			      uint32_t len);
int chan_drain(chan_record_fn fn);

/* Whether a record waits for this rank (a look without side effects). */
int chan_incoming(void);

#endif
