/*
 * A collective area: the shared memory that the members of one group of
 * processes use to run collective operations on each other.
 *
 * It holds a barrier and one slot per member.  A collective runs in steps
 * that every member numbers alike (1, 2, ...).  In a step a member may
 * publish up to slot_bytes of data in its own slot: it first waits until
 * every reader of its previous publication has acknowledged it (`acks`
 * reaches the total it expects), writes the data, then release-stores the
 * step number in `seq`.  A reader waits for seq == step (acquire), reads,
 * and adds one to the writer's `acks` (release).  The writer counts, in its
 * own memory, how many acknowledgements all its publications call for, so
 * neither counter is ever reset.
 *
 * The barrier: for more than two members a central one (shm/barrier.h),
 * where every member sleeps at most once, which counts when ranks share
 * CPUs.  Two members instead exchange flags: each raises its own word of
 * `pair` to the barrier's number and waits until the other's gets there,
 * one one-way signal on the critical path against two.  Both words share
 * one line, which then moves between the two caches once a barrier (two
 * lines, one a member, each also go back to their writer: a fifth slower
 * here).  The numbers only grow, so a member a barrier ahead raising its
 * word early only lets the other pass what it would pass anyway.
 *
 * The waiting itself is the caller's business (the MPI library keeps its
 * progress engine running); this file only lays the area out and says
 * whether a condition holds.
 */
#ifndef SHM_COLL_H
#define SHM_COLL_H

#include <stddef.h>
#include <stdint.h>

#include "atomic.h"
#include "barrier.h"

#define SHM_COLL_MAGIC 0x6c6c6f63696d6873ULL /* "shmicoll" */

struct shm_coll_slot {
	shm_atomic_u64 seq;	/* the last step published here */
	shm_atomic_u64 acks;	/* reads of this slot, ever */
	char pad_[SHM_CACHE_LINE - 16];
	char data[];
};

_Static_assert(sizeof(struct shm_coll_slot) == SHM_CACHE_LINE,
	       "a slot's header is one line; its data starts on the next");

struct shm_coll {
	uint64_t magic;
	uint32_t nmembers;
	uint32_t slot_bytes;
	char pad_[SHM_CACHE_LINE - 16];
	/* two members: the barrier number each has reached */
	shm_atomic_u32 pair[2] __attribute__((aligned(SHM_CACHE_LINE)));
	struct shm_barrier barrier;	/* more than two members */
	/* nmembers slots of sizeof(struct shm_coll_slot) + slot_bytes follow */
};

/* Data bytes of each slot for a group of n members. */
uint32_t shm_coll_slot_bytes(uint32_t nmembers);

/* Bytes a collective area for n members takes. */
size_t shm_coll_size(uint32_t nmembers);

/* Lay out a zeroed area. */
void shm_coll_init(struct shm_coll *c, uint32_t nmembers);

/* Check a mapped area: -EPROTO or -EINVAL when it is not one for n members. */
int shm_coll_check(const struct shm_coll *c, size_t mapped, uint32_t nmembers);

static inline struct shm_coll_slot *shm_coll_slot(struct shm_coll *c, uint32_t member)
{
	size_t stride = sizeof(struct shm_coll_slot) + c->slot_bytes;

	return (struct shm_coll_slot *)((char *)(c + 1) + member * stride);
}

/* Reader: whether the member's slot holds the data of step `step`. */
static inline int shm_coll_published(struct shm_coll_slot *s, uint64_t step)
{
	/* acquire: pairs with the writer's release of seq */
	return atomic_load_explicit(&s->seq, memory_order_acquire) == step;
}

/* Reader: done with the slot's data of this step. */
static inline void shm_coll_ack(struct shm_coll_slot *s)
{
	/* release: our reads of the data happen before the writer reuses it */
	atomic_fetch_add_explicit(&s->acks, 1, memory_order_release);
}

/* Writer: whether all `expected` acknowledgements so far have come. */
static inline int shm_coll_free(struct shm_coll_slot *s, uint64_t expected)
{
	/* acquire: pairs with the readers' release increments */
	return atomic_load_explicit(&s->acks, memory_order_acquire) >= expected;
}

/* Writer: publish the data now in the slot as step `step`. */
static inline void shm_coll_publish(struct shm_coll_slot *s, uint64_t step)
{
	/* the data may have been copied in with non-temporal stores, which
	 * the release below does not order (shm/atomic.h) */
	shm_nt_fence();
	/* release: the data is written before a reader can see the step */
	atomic_store_explicit(&s->seq, step, memory_order_release);
}

/* Two-member barrier: member m reached barrier `seq`. */
static inline void shm_coll_arrive(struct shm_coll *c, uint32_t m, uint32_t seq)
{
	/* release: what this member did before is seen after the barrier */
	atomic_store_explicit(&c->pair[m], seq, memory_order_release);
}

/* Two-member barrier: whether member m has reached barrier `seq`. */
static inline int shm_coll_arrived(struct shm_coll *c, uint32_t m, uint32_t seq)
{
	/* acquire: pairs with the release in shm_coll_arrive */
	uint32_t v = atomic_load_explicit(&c->pair[m], memory_order_acquire);

	return (int32_t)(v - seq) >= 0;
}

#endif
