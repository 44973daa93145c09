/*
 * A rank's incoming channels: one ring that any sender may use under a
 * lock, and a pool of rings of one sender each, handed out on first use.
 *
 * Why: one ring per ordered pair of ranks, all laid out at start, costs
 * memory that grows with the square of the ranks (4 GiB at 1024).  Here a
 * rank's channels take a fixed amount of the job segment (shm/job.h sizes
 * it so that the whole job stays within a bound), of which only what is
 * written is ever backed by memory: the pool's rings are claimed by the
 * senders that talk to the rank, in the order they first do, and a sender
 * that finds the pool used up sends through the shared ring for the rest of
 * the job.  A pair therefore uses one ring for its whole life, so records
 * of a pair stay in order.
 *
 * Pool ring i (0 <= i < nrings):
 *  - a sender claims it with a fetch-and-add on `claimed` (a value at or
 *    past nrings means the pool is used up: the sender uses the shared
 *    ring), has its pages backed (shm/seg.h: they are not, until then),
 *    lays the ring out on the zeroed memory, then release-stores its rank
 *    + 1 in owner[i]; if no memory is left for the pages, it stores
 *    SHM_INBOX_ABANDONED there instead and uses the shared ring;
 *  - the receiver learns of it by acquire-loading owner[i] for the first
 *    i it does not know yet: a nonzero owner means the ring is laid out
 *    (the release above), and its records come from that sender.
 *
 * The shared ring: producers take `lock` (a spin lock held from reserve to
 * commit, the time to copy one record in, never across a wait), and stamp
 * their rank + 1 as the record's tag (shm_ring_set_tag).  A producer that
 * finds no room sets its bit in `waiting` (then a release fence) before it
 * raises the ring's producer_waiting flag; the consumer that takes the
 * flag (which orders with an acquire fence) takes the bits as well and
 * wakes each rank in them.
 */
#ifndef SHM_INBOX_H
#define SHM_INBOX_H

#include <stddef.h>
#include <stdint.h>

#include "atomic.h"
#include "ring.h"

struct shm_inbox {
	/* written at layout, then only by claims (once per sender) */
	uint32_t nranks, nrings;
	uint64_t cap;			/* data bytes of every ring */
	uint64_t rings_off;		/* offset of the shared ring from the inbox */
	uint64_t waiting_off;		/* offset of the waiting bits */
	shm_atomic_u32 claimed;		/* pool rings claimed so far (may pass nrings) */
	char pad0_[SHM_CACHE_LINE - 36];
	/* the shared ring's producers' lock, on a line of its own */
	shm_atomic_u32 lock;
	char pad1_[SHM_CACHE_LINE - 4];
	shm_atomic_u32 owner[];		/* [nrings]: sender + 1, 0 until laid out */
};

_Static_assert(sizeof(struct shm_inbox) == 2 * SHM_CACHE_LINE, "an inbox's fixed lines");

/* Bytes an inbox of nrings pool rings of cap data bytes takes in a job of
 * nranks ranks (the shared ring and the pool included). */
size_t shm_inbox_size(uint32_t nranks, uint32_t nrings, uint64_t cap);

/* Lay out an inbox on zeroed memory (the pool's rings stay untouched). */
void shm_inbox_init(struct shm_inbox *ib, uint32_t nranks, uint32_t nrings, uint64_t cap);

/* The shared ring, and pool ring i. */
static inline struct shm_ring *shm_inbox_shared(struct shm_inbox *ib)
{
	return (struct shm_ring *)((char *)ib + ib->rings_off);
}

static inline struct shm_ring *shm_inbox_ring(struct shm_inbox *ib, uint32_t i)
{
	return (struct shm_ring *)((char *)shm_inbox_shared(ib) +
				   (size_t)(i + 1) * shm_ring_size(ib->cap));
}

/* Sender: claim a pool ring of ib; its index, or -1 when the pool is used
 * up (then use the shared ring, for good).  Then publish it, or abandon
 * it when its pages cannot be backed. */
int shm_inbox_claim(struct shm_inbox *ib);
struct shm_ring *shm_inbox_publish(struct shm_inbox *ib, uint32_t i, uint32_t from);
void shm_inbox_abandon(struct shm_inbox *ib, uint32_t i);

/* Where pool ring i lies, from the inbox's first byte. */
static inline size_t shm_inbox_ring_off(struct shm_inbox *ib, uint32_t i)
{
	return (size_t)((char *)shm_inbox_ring(ib, i) - (char *)ib);
}

#define SHM_INBOX_ABANDONED (-2)

/* Receiver: the sender of pool ring i, -1 while it is not published, or
 * SHM_INBOX_ABANDONED. */
static inline int shm_inbox_owner(struct shm_inbox *ib, uint32_t i)
{
	/* acquire: pairs with the release in shm_inbox_publish, so the ring's
	 * layout is seen */
	uint32_t o = atomic_load_explicit(&ib->owner[i], memory_order_acquire);

	return o == UINT32_MAX ? SHM_INBOX_ABANDONED : (int)o - 1;
}

/* Receiver: pool rings handed out (published or about to be). */
static inline uint32_t shm_inbox_claimed(struct shm_inbox *ib)
{
	/* relaxed: a hint; shm_inbox_owner() is what publishes a ring */
	uint32_t c = atomic_load_explicit(&ib->claimed, memory_order_relaxed);

	return c < ib->nrings ? c : ib->nrings;
}

/* Producers of the shared ring: its lock. */
void shm_inbox_lock(struct shm_inbox *ib);

static inline void shm_inbox_unlock(struct shm_inbox *ib)
{
	/* release: our record (and the ring's producer fields) before the next
	 * holder's acquire */
	atomic_store_explicit(&ib->lock, 0, memory_order_release);
}

/* Producer `from` of the shared ring: ask to be woken when room frees
 * (then look for room again before sleeping). */
void shm_inbox_want_room(struct shm_inbox *ib, uint32_t from);

/* Consumer of the shared ring, after releasing records: call wake(rank)
 * for every producer that waits for room; how many there were. */
int shm_inbox_wake_waiting(struct shm_inbox *ib, void (*wake)(int rank));

/* From outside (the launcher's watchdog, on a snapshot): the ring that
 * carries records from rank `from` into ib (its pool ring, else the shared
 * ring), and whether one of them is unread. */
struct shm_ring *shm_inbox_ring_of(struct shm_inbox *ib, uint32_t from, int *shared);
int shm_inbox_unread_from(struct shm_inbox *ib, uint32_t from);

#endif
