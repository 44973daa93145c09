/*
 * A fair reader/writer lock in shared memory, between processes, for callers
 * that wait their own way (the MPI library keeps its progress engine running
 * and sleeps on its doorbell): the passive-target lock of one window target.
 *
 * Tickets.  `issued` is the ticket dispenser: it counts the readers (low
 * half) and the writers (high half) that ever arrived, each half 31 bits
 * plus a guard bit that absorbs the carry when the count wraps (the arrival
 * that sets a low guard takes it back; a high guard's carry leaves the word).
 * An arrival adds one to its half with fetch_add and so learns how many of
 * each kind came before it.  `done` counts departures the same way: every
 * departure in the low half, the writers' in the high half, so that a
 * writer leaves with one fetch_add of both.  A reader is granted when every
 * writer that came before it has left (writer departures == writers before
 * it); a writer when everybody who came before it has left (departures ==
 * arrivals before it).  Nobody who comes after a waiter can leave before it
 * has entered, so the counts never run past a waiter's value.  Grants
 * follow arrival order between the kinds (no writer starvation, no reader
 * starvation), readers in a row share, and a grant depends on departures
 * only: a ticket becomes granted by an unlock (or at once), never by
 * another waiter.  Every change is an atomic read-modify-write.
 *
 * Uncontended costs: a shared or an exclusive lock is one fetch_add and one
 * load, its unlock one fetch_add and one load, all on the lock's one line.
 *
 * Holder.  A writer that sees its grant stores its id + 1 in `holder` and
 * clears it before it leaves: the truth about who holds the lock
 * exclusively, for diagnosis only (the grants never read it).
 *
 * The waiter list.  A waiter that will sleep elsewhere puts its node on the
 * lock's list (shm_rwlock_enlist) and sleeps until woken; whoever unlocks
 * takes the nodes whose tickets it granted off the list and gets their ids
 * back to wake them (shm_rwlock_granted).  The nodes live in memory every
 * party maps, one per waiter id, in an array the callers agree on (base and
 * stride); a node is on at most one list at a time.  `waiters` holds the
 * list: the id + 1 of the first node (0: empty) and bit 31, a spin lock over
 * the list and the nodes on it, held for a walk of the list at most.  No
 * lost wake-up: the unlocker's departure is a seq_cst read-modify-write
 * followed by a seq_cst load of `waiters`; the waiter publishes its node
 * with a seq_cst read-modify-write of `waiters` followed by a seq_cst load
 * of `done`; in the single order of those four, one side sees the other.
 *
 * Counters are compared modulo 2^31: fewer than 2^30 acquirers may wait at
 * once.  Ids are below 2^31 - 1.
 */
#ifndef SHM_RWLOCK_H
#define SHM_RWLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "atomic.h"

struct shm_rwlock {
	shm_atomic_u64 issued;	/* reader | writer arrivals << 32 */
	shm_atomic_u64 done;	/* departures | writer departures << 32 */
	shm_atomic_u32 waiters;	/* the waiter list: bit 31 busy, first id + 1 */
	shm_atomic_u32 holder;	/* id + 1 of the writer inside, or 0 */
	char pad_[SHM_CACHE_LINE - 2 * sizeof(shm_atomic_u64) -
		  2 * sizeof(shm_atomic_u32)];
} __attribute__((aligned(SHM_CACHE_LINE)));

_Static_assert(sizeof(struct shm_rwlock) == SHM_CACHE_LINE,
	       "a window's per-target lock takes one cache line");

/* A waiter's node (see the top).  Changed under the list's spin lock only. */
struct shm_rwlock_node {
	shm_atomic_u32 next;	/* id + 1 of the next node on the list, or 0 */
	shm_atomic_u32 listed;	/* 1 while on a list */
	shm_atomic_u32 want;	/* the departure count that grants its ticket */
	shm_atomic_u32 writer;	/* want counts all departures (1) or writers' (0) */
	shm_atomic_u32 pos;	/* arrivals before it (modulo 2^31), for diagnosis */
};

/* Where the nodes are: node id at base + id * stride. */
struct shm_rwlock_nodes {
	char *base;
	size_t stride;
};

/*
 * A ticket: what begin returned.  `want` is the departure count that
 * grants it, `pos` the number of arrivals before it (modulo 2^31).
 */
struct shm_rwlock_ticket {
	uint32_t want;
	uint32_t pos;
	uint32_t writer;
};

/* What the counts say: arrivals not yet departed, by kind; whether a
 * writer is inside and who (id + 1, 0: none).  A look without locking,
 * for diagnosis. */
struct shm_rwlock_snapshot {
	uint32_t readers;	/* readers holding or waiting */
	uint32_t writers;	/* writers holding or waiting */
	uint32_t holder;	/* id + 1 of the writer inside, or 0 */
	uint32_t departed;	/* departures, modulo 2^31 */
};

/* Lay out a free lock (all counters zero). */
void shm_rwlock_init(struct shm_rwlock *l);

/* Lay out a node that is on no list. */
void shm_rwlock_node_init(struct shm_rwlock_node *n);

/* The rest of this header is the hot path inline: tickets taken, asked
 * after and given back in a few instructions. */
void shm_pair_wrapped_(shm_atomic_u64 *word, uint64_t prev);

/* Add `add` to a word of two counters (1: the low one, 1 << 32: the high
 * one, both: one each); returns the word as it was.  A high count's carry
 * leaves the word; a low one's, into the guard bit, is taken back. */
static inline uint64_t shm_pair_add_(shm_atomic_u64 *word, uint64_t add,
				     memory_order mo)
{
	uint64_t prev = atomic_fetch_add_explicit(word, add, mo);

	if (__builtin_expect(((uint32_t)prev & 0x7fffffffu) == 0x7fffffffu &&
			     (add & 0xffffffffu), 0))
		shm_pair_wrapped_(word, prev);
	return prev;
}

static inline uint32_t shm_rwlock_seq_(uint64_t word, unsigned half)
{
	return (uint32_t)(word >> (half ? 32 : 0)) & 0x7fffffffu;
}

static inline struct shm_rwlock_ticket shm_rwlock_read_begin(struct shm_rwlock *l)
{
	/* relaxed: only the ticket's value matters (rwlock.c) */
	uint64_t prev = shm_pair_add_(&l->issued, 1, memory_order_relaxed);
	uint32_t w = shm_rwlock_seq_(prev, 1);

	return (struct shm_rwlock_ticket){ w, (shm_rwlock_seq_(prev, 0) + w) & 0x7fffffffu,
					   0 };
}

static inline struct shm_rwlock_ticket shm_rwlock_write_begin(struct shm_rwlock *l)
{
	/* relaxed: as in read_begin */
	uint64_t prev = shm_pair_add_(&l->issued, 1ull << 32, memory_order_relaxed);
	uint32_t all = (shm_rwlock_seq_(prev, 0) + shm_rwlock_seq_(prev, 1)) & 0x7fffffffu;

	return (struct shm_rwlock_ticket){ all, all, 1 };
}

/* Whether the ticket is granted by the departures in `done`. */
static inline int shm_rwlock_granted_by(uint64_t done, uint32_t want, uint32_t writer)
{
	return ((shm_rwlock_seq_(done, !writer) - want) & 0x7fffffffu) == 0;
}

/* Whether t is granted; once it is, the caller holds the lock (it may ask
 * again: the answer stays yes until it leaves). */
static inline int shm_rwlock_ready(struct shm_rwlock *l, const struct shm_rwlock_ticket *t)
{
	/* acquire: pairs with the seq_cst fetch_add of the departures that
	 * granted us, so their critical sections happen before ours */
	return shm_rwlock_granted_by(atomic_load_explicit(&l->done, memory_order_acquire),
				     t->want, t->writer);
}

/* A granted writer says who it is (diagnosis); before leaving, it clears. */
static inline void shm_rwlock_set_holder(struct shm_rwlock *l, uint32_t id_plus_1)
{
	/* relaxed: read for diagnosis only */
	atomic_store_explicit(&l->holder, id_plus_1, memory_order_relaxed);
}

/* Leave (a reader), or leave (a writer, holder cleared before); then ask
 * shm_rwlock_has_waiters() whether to call shm_rwlock_granted(). */
static inline void shm_rwlock_read_leave(struct shm_rwlock *l)
{
	/* seq_cst: releases our reads to the writer that we grant, and is
	 * the unlocker's half of the no-lost-wake-up order (see the top) */
	shm_pair_add_(&l->done, 1, memory_order_seq_cst);
}

static inline void shm_rwlock_write_leave(struct shm_rwlock *l)
{
	/* seq_cst: as in read_leave, for readers and writers alike */
	shm_pair_add_(&l->done, 1 | 1ull << 32, memory_order_seq_cst);
}

static inline int shm_rwlock_has_waiters(struct shm_rwlock *l)
{
	/* seq_cst: after the departure's seq_cst fetch_add (see the top) */
	return atomic_load_explicit(&l->waiters, memory_order_seq_cst) != 0;
}

/*
 * After a departure that found waiters: take off the list the nodes whose
 * tickets are granted now and store their ids in ids[]; returns how many.
 * max must be at least the number of nodes.  The caller wakes them.
 */
unsigned shm_rwlock_granted(struct shm_rwlock *l, const struct shm_rwlock_nodes *nodes,
			    uint32_t *ids, unsigned max);

/*
 * Before sleeping on ticket t: put node id on the list, then look at the
 * ticket again; returns 1 if it is granted (the node may stay listed: call
 * shm_rwlock_delist once granted in any case).
 */
int shm_rwlock_enlist(struct shm_rwlock *l, const struct shm_rwlock_nodes *nodes,
		      uint32_t id, const struct shm_rwlock_ticket *t);

/* Once granted: take node id off the list if an unlocker has not. */
void shm_rwlock_delist(struct shm_rwlock *l, const struct shm_rwlock_nodes *nodes,
		       uint32_t id);

static inline struct shm_rwlock_node *shm_rwlock_node(const struct shm_rwlock_nodes *n,
						      uint32_t id)
{
	return (struct shm_rwlock_node *)(void *)(n->base + (size_t)id * n->stride);
}

/* The ids on the list, first first, at most max; returns how many were
 * copied.  list: a consistent copy, under the list's spin lock.  peek:
 * without taking or changing anything, for diagnosis, which must not delay
 * an unlocker; the list may change under it (ids stay below the node
 * count, but may be stale or from another lock's list). */
unsigned shm_rwlock_list(struct shm_rwlock *l, const struct shm_rwlock_nodes *nodes,
			 uint32_t *ids, unsigned max);
unsigned shm_rwlock_peek(const struct shm_rwlock *l, const struct shm_rwlock_nodes *nodes,
			 uint32_t *ids, unsigned max);

/* A snapshot for diagnosis, without locking (see the struct). */
void shm_rwlock_state(const struct shm_rwlock *l, struct shm_rwlock_snapshot *out);

#endif
