/*
 * The window target lock (protocol in rwlock.h).  Memory ordering in
 * short: the lock is handed over by the seq_cst fetch_add on `done` of the
 * departure the next holder waits for (a release), and the next holder sees
 * it with an acquire load, so each critical section happens before the next
 * one that excludes it (every change of `done` is a read-modify-write, so an
 * acquire load synchronizes with all the departures before it).  The
 * tickets themselves (fetch_add on `issued`) need no ordering: only their
 * values, which the modification order of `issued` fixes, decide who waits
 * for whom.  The waiter list is guarded by the spin lock in bit 31 of
 * `waiters`: taken with an acquire compare-and-swap, given back with a
 * release exchange (seq_cst when it publishes a waiter), so everything done
 * to the list and its nodes under it happens before the next holder's walk.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rwlock.h"

#define SEQ_MASK 0x7fffffffu	/* counts are compared modulo 2^31 */
#define LIST_BUSY 0x80000000u	/* bit 31 of `waiters` */
#define LIST_SPINS 64		/* rounds on a busy list before yielding */

/* Shared lock words that break the protocol mean corrupt shared memory:
 * stop loudly. */
static void __attribute__((noreturn, cold)) lock_corrupt(const char *what)
{
	fprintf(stderr, "shmpi: corrupt shared lock: %s\n", what);
	abort();
}

void shm_rwlock_init(struct shm_rwlock *l)
{
	memset(l, 0, sizeof(*l));
}

void shm_rwlock_node_init(struct shm_rwlock_node *n)
{
	memset(n, 0, sizeof(*n));
}

/*
 * We added to the low half of *word, which held `prev`, and the low count
 * carried into its guard bit: take the guard back (only this change set it:
 * the next carry is 2^31 changes away).  Readers of the word mask it off.
 */
void shm_pair_wrapped_(shm_atomic_u64 *word, uint64_t prev)
{
	uint64_t guard = 1ull << 31;

	if (prev & guard)
		lock_corrupt("counter: guard bit already set");
	/* relaxed: the guard carries no count; everybody masks it off */
	atomic_fetch_sub_explicit(word, guard, memory_order_relaxed);
}

/* ---- the waiter list ---------------------------------------------------- */

/* Take the list's spin lock; returns the first id + 1 (0: empty).  The
 * holder of the spin lock is a process that may lose its CPU: spin a
 * little, then yield. */
static uint32_t list_lock(struct shm_rwlock *l)
{
	/* relaxed: the compare-and-swap below decides */
	uint32_t v = atomic_load_explicit(&l->waiters, memory_order_relaxed);

	for (unsigned i = 0; ; i++) {
		/* acquire: everything the last holder did to the list and its
		 * nodes happens before our walk */
		if (!(v & LIST_BUSY) &&
		    atomic_compare_exchange_weak_explicit(&l->waiters, &v, v | LIST_BUSY,
							  memory_order_acquire,
							  memory_order_relaxed))
			return v;
		if (i < LIST_SPINS)
			shm_cpu_relax();
		else
			sched_yield();
		/* relaxed: as above */
		v = atomic_load_explicit(&l->waiters, memory_order_relaxed);
	}
}

/* mo: release, which hands the list and its nodes to the next holder; or
 * seq_cst, when the exchange publishes a waiter's node (shm_rwlock_enlist):
 * the waiter's half of the no-lost-wake-up order (rwlock.h) */
static void list_unlock(struct shm_rwlock *l, uint32_t first, memory_order mo)
{
	uint32_t v = atomic_exchange_explicit(&l->waiters, first, mo);

	if (!(v & LIST_BUSY))
		lock_corrupt("waiter list: unlocked without its lock");
}

/* Load and store node fields under the list's spin lock: relaxed, the
 * spin lock orders them. */
static inline uint32_t nget(shm_atomic_u32 *p)
{
	return atomic_load_explicit(p, memory_order_relaxed);
}

static inline void nset(shm_atomic_u32 *p, uint32_t v)
{
	atomic_store_explicit(p, v, memory_order_relaxed);
}

unsigned shm_rwlock_granted(struct shm_rwlock *l, const struct shm_rwlock_nodes *nodes,
			    uint32_t *ids, unsigned max)
{
	uint32_t first = list_lock(l), prev = 0, cur = first;
	/* acquire: as in shm_rwlock_ready, for each node we grant; and at
	 * least our own departure, which came before */
	uint64_t done = atomic_load_explicit(&l->done, memory_order_acquire);
	unsigned count = 0;

	while (cur != 0) {
		struct shm_rwlock_node *n = shm_rwlock_node(nodes, cur - 1);
		uint32_t next = nget(&n->next);

		if (count < max && shm_rwlock_granted_by(done, nget(&n->want),
							 nget(&n->writer))) {
			if (prev)
				nset(&shm_rwlock_node(nodes, prev - 1)->next, next);
			else
				first = next;
			ids[count++] = cur - 1;
			/* release: our last touch of the node; its owner, who
			 * reads 0 with acquire, may reuse it at once */
			atomic_store_explicit(&n->listed, 0, memory_order_release);
		} else {
			prev = cur;
		}
		cur = next;
	}
	list_unlock(l, first, memory_order_release);
	return count;
}

int shm_rwlock_enlist(struct shm_rwlock *l, const struct shm_rwlock_nodes *nodes,
		      uint32_t id, const struct shm_rwlock_ticket *t)
{
	struct shm_rwlock_node *n = shm_rwlock_node(nodes, id);
	uint32_t first;

	/* relaxed: only this rank lists its node, and delist (or granted's
	 * release, which delist's acquire saw) took it off */
	if (atomic_load_explicit(&n->listed, memory_order_relaxed))
		lock_corrupt("waiter list: node listed twice");
	first = list_lock(l);
	nset(&n->next, first);
	nset(&n->want, t->want);
	nset(&n->writer, t->writer);
	nset(&n->pos, t->pos);
	nset(&n->listed, 1);
	list_unlock(l, id + 1, memory_order_seq_cst);
	/* seq_cst: after the seq_cst exchange that published the node (see
	 * rwlock.h); acquire too, as in shm_rwlock_ready */
	return shm_rwlock_granted_by(atomic_load_explicit(&l->done, memory_order_seq_cst),
				     t->want, t->writer);
}

void shm_rwlock_delist(struct shm_rwlock *l, const struct shm_rwlock_nodes *nodes,
		       uint32_t id)
{
	struct shm_rwlock_node *n = shm_rwlock_node(nodes, id);
	uint32_t first, prev = 0, cur;

	/* acquire: pairs with the release of an unlocker that took it off */
	if (!atomic_load_explicit(&n->listed, memory_order_acquire))
		return;
	first = list_lock(l);
	for (cur = first; cur != 0 && cur != id + 1;
	     cur = nget(&shm_rwlock_node(nodes, cur - 1)->next))
		prev = cur;
	if (nget(&n->listed)) {
		if (cur == 0)
			lock_corrupt("waiter list: a listed node is not on it");
		if (prev)
			nset(&shm_rwlock_node(nodes, prev - 1)->next, nget(&n->next));
		else
			first = nget(&n->next);
		nset(&n->listed, 0);
	}
	list_unlock(l, first, memory_order_release);
}

unsigned shm_rwlock_list(struct shm_rwlock *l, const struct shm_rwlock_nodes *nodes,
			 uint32_t *ids, unsigned max)
{
	uint32_t first = list_lock(l);
	unsigned count = 0;

	for (uint32_t cur = first; cur != 0 && count < max;
	     cur = nget(&shm_rwlock_node(nodes, cur - 1)->next))
		ids[count++] = cur - 1;
	list_unlock(l, first, memory_order_release);
	return count;
}

unsigned shm_rwlock_peek(const struct shm_rwlock *l, const struct shm_rwlock_nodes *nodes,
			 uint32_t *ids, unsigned max)
{
	/* relaxed, every load: a look for diagnosis that takes no lock (it
	 * must not delay an unlocker); the list may change under it, so it
	 * stops after max nodes, and an id it copies may be stale */
	uint32_t cur = atomic_load_explicit(&l->waiters, memory_order_relaxed) & ~LIST_BUSY;
	unsigned count = 0;

	for (; cur != 0 && count < max;
	     cur = atomic_load_explicit(&shm_rwlock_node(nodes, cur - 1)->next,
					memory_order_relaxed))
		ids[count++] = cur - 1;
	return count;
}

/* ---- diagnosis ------------------------------------------------------------ */

void shm_rwlock_state(const struct shm_rwlock *l, struct shm_rwlock_snapshot *out)
{
	uint64_t done, issued;

	/* acquire: departures loaded before arrivals, so that departed <=
	 * arrived in what we read (the counts only grow): it synchronizes
	 * with every departure it counts, each after its own arrival */
	done = atomic_load_explicit(&l->done, memory_order_acquire);
	/* relaxed: the acquire above orders it */
	issued = atomic_load_explicit(&l->issued, memory_order_relaxed);
	/* relaxed: diagnosis only */
	out->holder = atomic_load_explicit(&l->holder, memory_order_relaxed);
	out->departed = shm_rwlock_seq_(done, 0);
	out->writers = (shm_rwlock_seq_(issued, 1) - shm_rwlock_seq_(done, 1)) & SEQ_MASK;
	out->readers = (shm_rwlock_seq_(issued, 0) - (shm_rwlock_seq_(done, 0) -
						      shm_rwlock_seq_(done, 1))) & SEQ_MASK;
}
