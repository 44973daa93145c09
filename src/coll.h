/*
 * The machinery of collective operations on a communicator's collective
 * area (shm/coll.h): numbered steps, publishing into this member's slot,
 * reading other members' slots, and the barrier.  Every wait keeps the
 * progress engine running (a blocked MPI procedure must make progress).
 *
 * Step numbers: collective number s of a communicator (counted alike by
 * every member) owns the steps (s << 24) + 1 ... (s << 24) + 2^24 - 1; its
 * k-th publication of a member is step (s << 24) + k + 1.  Members may
 * publish different numbers of chunks in one collective (the v-variants)
 * and still agree on the next collective's steps.
 */
#ifndef SRC_COLL_H
#define SRC_COLL_H

#include <stddef.h>
#include <stdint.h>

#include "comm.h"
#include "datatype.h"
#include "state.h"

#define COLL_STEP_BITS 24

/* Begin a collective on c: its base step. */
static inline uint64_t coll_begin(struct comm *c)
{
	return ++c->coll_seq << COLL_STEP_BITS;
}

static inline uint32_t coll_slot_bytes(const struct comm *c)
{
	return c->coll->slot_bytes;
}

/* This member's slot, once every reader of its last publication is done. */
void *coll_slot_acquire(struct comm *c, enum call_id call);

/* Publish this member's slot as `step`, for `readers` other members. */
void coll_slot_publish(struct comm *c, uint64_t step, int readers);

/* Member m's data of `step` (m != this member), waiting until it is there. */
const void *coll_slot_read(struct comm *c, int m, uint64_t step, enum call_id call);

/* Done reading member m's slot. */
void coll_slot_release(struct comm *c, int m);

/* Every member of c has arrived (progress runs while waiting). */
void coll_barrier(struct comm *c, enum call_id call);

/*
 * Every member's count elements of dt from buf, packed, member after member
 * (count and dt may differ per member if the packed sizes agree: `bytes`
 * gives the packed size of member j's part).  Returns a malloc'd buffer,
 * NULL when out of memory.
 */
char *coll_allgather_packed(struct comm *c, enum call_id call, const void *buf,
			    MPI_Count count, const struct datatype *dt, size_t bytes);

/* Broadcast `bytes` packed bytes from root (the library's own use). */
void coll_bcast_bytes(struct comm *c, enum call_id call, void *buf, size_t bytes,
		      int root);

#endif
