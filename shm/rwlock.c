/*
 * The window locks: a fair ticket reader/writer lock and a two-kind group
 * lock.  The protocols are described in rwlock.h; the memory-ordering story
 * in short: a lock is handed over by a seq_cst fetch_add on the departure
 * counter the next holder waits for (a release, and the store half of the
 * waitword's no-lost-wake-up protocol), and the next holder sees it with an
 * acquire load, so each critical section happens before the next one that
 * excludes it (every change of a departure counter is a read-modify-write,
 * so an acquire load synchronizes with all the departures before it).  The
 * tickets themselves (fetch_add on the dispenser) need no ordering: only
 * their values, which the modification order of the dispenser fixes, decide
 * who waits for whom.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rwlock.h"

#define SEQ_MASK 0x7fffffffu	/* tickets are compared modulo 2^31 */

/* Shared lock words that break the protocol mean corrupt shared memory (or
 * an unlock by a non-holder): stop loudly. */
static void __attribute__((noreturn, cold)) lock_corrupt(const char *what)
{
	fprintf(stderr, "shmpi: corrupt shared lock: %s\n", what);
	abort();
}

/* a == b modulo 2^31 */
static inline int seq_eq(uint32_t a, uint32_t b)
{
	return ((a - b) & SEQ_MASK) == 0;
}

/*
 * Wait until the word's value equals want modulo 2^31.  Spin (at most
 * `spins` rounds in all) only while the value is within `near` of want,
 * that is while we are next in line: a waiter further back has no chance of
 * a grant soon and would only take the CPU from the holder (eight ranks on
 * two cores).  Otherwise sleep through the waitword protocol until the value
 * changes, then look again (wake-ups may also be spurious).
 */
static void await_value(struct shm_waitword *w, uint32_t want, uint32_t near,
			unsigned spins)
{
	/* acquire: pairs with the seq_cst fetch_add that hands the lock over */
	uint32_t now = atomic_load_explicit(&w->value, memory_order_acquire);

	while (!seq_eq(now, want)) {
		if (spins > 0 && ((want - now) & SEQ_MASK) <= near) {
			spins--;
			shm_cpu_relax();
			/* acquire: as above */
			now = atomic_load_explicit(&w->value, memory_order_acquire);
			continue;
		}
		/* returns an acquire-loaded value that differs from now */
		now = shm_waitword_wait(w, now, 0);
	}
}

/* ------------------------------------------------------------------ */
/* two arrival counters in one word                                     */

/*
 * Both locks count arrivals of two kinds in one 64-bit word, half 0 in the
 * low 32 bits and half 1 in the high ones: 31 bits of count and a guard bit
 * that absorbs the carry when the count wraps.
 */
static inline unsigned pair_shift(unsigned half)
{
	return half ? 32 : 0;
}

/* The arrival count of a half (31 bits, guard bit masked off). */
static inline uint32_t pair_count(uint64_t word, unsigned half)
{
	return (uint32_t)(word >> pair_shift(half)) & SEQ_MASK;
}

static inline uint64_t pair_one(unsigned half)
{
	return 1ull << pair_shift(half);
}

/*
 * We added one to a half of *word, which held `prev`.  If that carried into
 * the guard bit, take the guard back (only this arrival set it: the next
 * carry is 2^31 arrivals away).  Readers of the word mask the guard off.
 */
static void pair_arrived(shm_atomic_u64 *word, unsigned half, uint64_t prev)
{
	uint64_t guard = 1ull << (pair_shift(half) + 31);

	if (pair_count(prev, half) != SEQ_MASK)
		return;
	if (prev & guard)
		lock_corrupt("arrival counter: guard bit already set");
	/* relaxed: the guard carries no count; everybody masks it off */
	atomic_fetch_sub_explicit(word, guard, memory_order_relaxed);
}

void shm_pair_wrapped_(shm_atomic_u64 *word, unsigned half, uint64_t prev)
{
	pair_arrived(word, half, prev);
}

/* Add one arrival to a half; returns the word as it was before. */
static inline uint64_t pair_arrive(shm_atomic_u64 *word, unsigned half)
{
	return shm_pair_arrive_(word, half);
}

/* ------------------------------------------------------------------ */
/* reader/writer lock                                                   */

#define RW_READERS 0u	/* halves of `issued` */
#define RW_WRITERS 1u

void shm_rwlock_init(struct shm_rwlock *l)
{
	memset(l, 0, sizeof(*l));
}

/* A reader's ticket: the writers before it.  A writer's: everybody before it. */
static inline uint32_t rw_writer_ticket(uint64_t before)
{
	return (pair_count(before, RW_READERS) +
		pair_count(before, RW_WRITERS)) & SEQ_MASK;
}

/* A granted writer marks writers_done odd, unless an earlier ready call did.
 * Nobody waits for an odd value, so there is nobody to wake. */
static void rwlock_write_enter(struct shm_rwlock *l)
{
	/* relaxed: only the holding writer changes writers_done, and our
	 * acquire of all_done ordered us after the last writer's departure */
	uint32_t wd = atomic_load_explicit(&l->writers_done.value,
					   memory_order_relaxed);

	if (wd & 1)
		return;
	/* relaxed: a mark for the snapshot; the grant came through all_done */
	atomic_fetch_add_explicit(&l->writers_done.value, 1, memory_order_relaxed);
}

uint32_t shm_rwlock_read_begin(struct shm_rwlock *l)
{
	return pair_count(pair_arrive(&l->issued, RW_READERS), RW_WRITERS);
}

uint32_t shm_rwlock_write_begin(struct shm_rwlock *l)
{
	return rw_writer_ticket(pair_arrive(&l->issued, RW_WRITERS));
}

int shm_rwlock_read_ready(struct shm_rwlock *l, uint32_t ticket)
{
	/* acquire: pairs with the seq_cst fetch_add of the last writer to
	 * leave, so its critical section happens before ours */
	uint32_t wd = atomic_load_explicit(&l->writers_done.value,
					   memory_order_acquire);

	return seq_eq(wd, 2 * ticket);
}

int shm_rwlock_write_ready(struct shm_rwlock *l, uint32_t ticket)
{
	/* acquire: pairs with the seq_cst fetch_add of everybody who left */
	if (!seq_eq(atomic_load_explicit(&l->all_done.value, memory_order_acquire),
		    ticket))
		return 0;
	rwlock_write_enter(l);
	return 1;
}

void shm_rwlock_read_wait(struct shm_rwlock *l, uint32_t ticket, unsigned spins)
{
	/* next in line: the writer before us holds (odd) or was just granted */
	await_value(&l->writers_done, 2 * ticket, 2, spins);
}

void shm_rwlock_write_wait(struct shm_rwlock *l, uint32_t ticket, unsigned spins)
{
	/* next in line: one holder has yet to leave */
	await_value(&l->all_done, ticket, 1, spins);
	rwlock_write_enter(l);
}

void shm_rwlock_read_lock(struct shm_rwlock *l, unsigned spins)
{
	shm_rwlock_read_wait(l, shm_rwlock_read_begin(l), spins);
}

void shm_rwlock_write_lock(struct shm_rwlock *l, unsigned spins)
{
	shm_rwlock_write_wait(l, shm_rwlock_write_begin(l), spins);
}

void shm_rwlock_read_unlock(struct shm_rwlock *l)
{
	/* seq_cst (in bump): releases our reads to the next writer's acquire of
	 * all_done, and pairs with its announce-then-look if it sleeps */
	shm_waitword_bump(&l->all_done, 1);
}

void shm_rwlock_write_unlock(struct shm_rwlock *l)
{
	/* seq_cst: releases our writes to the next readers' acquire of
	 * writers_done; pairs with their announce-then-look in shm_waitword_wait */
	uint32_t wd = atomic_fetch_add_explicit(&l->writers_done.value, 1,
						memory_order_seq_cst);

	if (!(wd & 1))
		lock_corrupt("rwlock: write_unlock without a writer");
	shm_waitword_wake(&l->writers_done);
	/* seq_cst (in bump): the same for the next writer on all_done */
	shm_waitword_bump(&l->all_done, 1);
}

int shm_rwlock_try_read(struct shm_rwlock *l)
{
	/* relaxed: the compare-and-swap below decides */
	uint64_t v = atomic_load_explicit(&l->issued, memory_order_relaxed);

	/* acquire: as in shm_rwlock_read_ready */
	while (seq_eq(atomic_load_explicit(&l->writers_done.value,
					   memory_order_acquire),
		      2 * pair_count(v, RW_WRITERS))) {
		/* relaxed: success means every writer that ever came has left
		 * and none came since we looked: ours is granted */
		if (atomic_compare_exchange_weak_explicit(&l->issued, &v,
							  v + pair_one(RW_READERS),
							  memory_order_relaxed,
							  memory_order_relaxed)) {
			pair_arrived(&l->issued, RW_READERS, v);
			return 0;
		}
	}
	return -EBUSY;
}

int shm_rwlock_try_write(struct shm_rwlock *l)
{
	/* relaxed: the compare-and-swap below decides */
	uint64_t v = atomic_load_explicit(&l->issued, memory_order_relaxed);

	/* acquire: as in shm_rwlock_write_ready */
	while (seq_eq(atomic_load_explicit(&l->all_done.value,
					   memory_order_acquire),
		      rw_writer_ticket(v))) {
		/* relaxed: success means everybody who ever came has left and
		 * nobody came since we looked: ours is granted */
		if (atomic_compare_exchange_weak_explicit(&l->issued, &v,
							  v + pair_one(RW_WRITERS),
							  memory_order_relaxed,
							  memory_order_relaxed)) {
			pair_arrived(&l->issued, RW_WRITERS, v);
			rwlock_write_enter(l);
			return 0;
		}
	}
	return -EBUSY;
}

void shm_rwlock_state(const struct shm_rwlock *l, struct shm_rwlock_snapshot *out)
{
	const shm_atomic_u32 *wdw = &l->writers_done.value;
	const shm_atomic_u32 *adw = &l->all_done.value;
	uint32_t wd, ad, writers_left, readers_left;
	uint64_t issued;

	for (int tries = 0; ; tries++) {
		/* acquire (each load): keeps the five loads in program order, so
		 * when the re-reads match, the three values held together at
		 * the moment `issued` was read (the counters only grow) */
		wd = atomic_load_explicit(wdw, memory_order_acquire);
		ad = atomic_load_explicit(adw, memory_order_acquire);
		issued = atomic_load_explicit(&l->issued, memory_order_acquire);
		if (tries == 3 ||
		    (atomic_load_explicit(wdw, memory_order_acquire) == wd &&
		     atomic_load_explicit(adw, memory_order_acquire) == ad))
			break;
	}
	writers_left = wd >> 1;
	readers_left = ad - writers_left;
	out->writer = wd & 1;
	out->writers = (pair_count(issued, RW_WRITERS) - writers_left) & SEQ_MASK;
	out->readers = (pair_count(issued, RW_READERS) - readers_left) & SEQ_MASK;
}

/* ------------------------------------------------------------------ */
/* group lock                                                           */

static inline enum shm_group_kind gl_other(enum shm_group_kind kind)
{
	return kind == SHM_GROUP_A ? SHM_GROUP_B : SHM_GROUP_A;
}

void shm_grouplock_init(struct shm_grouplock *g)
{
	memset(g, 0, sizeof(*g));
}

uint32_t shm_grouplock_begin(struct shm_grouplock *g, enum shm_group_kind kind)
{
	return pair_count(pair_arrive(&g->issued, kind), gl_other(kind));
}

int shm_grouplock_ready(struct shm_grouplock *g, enum shm_group_kind kind,
			uint32_t ticket)
{
	/* acquire: pairs with the seq_cst fetch_add in the other kind's
	 * unlock, so their critical sections happen before ours */
	uint32_t done = atomic_load_explicit(&g->done[gl_other(kind)].value,
					     memory_order_acquire);

	return seq_eq(done, ticket);
}

void shm_grouplock_wait(struct shm_grouplock *g, enum shm_group_kind kind,
			uint32_t ticket, unsigned spins)
{
	/* next in line: one holder of the other kind has yet to leave */
	await_value(&g->done[gl_other(kind)], ticket, 1, spins);
}

void shm_grouplock_lock(struct shm_grouplock *g, enum shm_group_kind kind,
			unsigned spins)
{
	shm_grouplock_wait(g, kind, shm_grouplock_begin(g, kind), spins);
}

void shm_grouplock_unlock(struct shm_grouplock *g, enum shm_group_kind kind)
{
	/* seq_cst (in bump): releases our critical section to the other kind's
	 * acquire of done, and pairs with their announce-then-look */
	shm_waitword_bump(&g->done[kind], 1);
}

int shm_grouplock_try(struct shm_grouplock *g, enum shm_group_kind kind)
{
	enum shm_group_kind other = gl_other(kind);
	/* relaxed: the compare-and-swap below decides */
	uint64_t v = atomic_load_explicit(&g->issued, memory_order_relaxed);

	/* acquire: as in shm_grouplock_ready */
	while (seq_eq(atomic_load_explicit(&g->done[other].value,
					   memory_order_acquire),
		      pair_count(v, other))) {
		/* relaxed: success means no arrival of the other kind since we
		 * saw all of theirs released: ours is granted */
		if (atomic_compare_exchange_weak_explicit(&g->issued, &v,
							  v + pair_one(kind),
							  memory_order_relaxed,
							  memory_order_relaxed)) {
			pair_arrived(&g->issued, kind, v);
			return 0;
		}
	}
	return -EBUSY;
}

void shm_grouplock_state(const struct shm_grouplock *g,
			 struct shm_grouplock_snapshot *out)
{
	/* acquire, acquire, acquire: releases loaded before arrivals, so that
	 * released <= arrived in what we read */
	uint32_t done_a = atomic_load_explicit(&g->done[SHM_GROUP_A].value,
					       memory_order_acquire);
	uint32_t done_b = atomic_load_explicit(&g->done[SHM_GROUP_B].value,
					       memory_order_acquire);
	uint64_t issued = atomic_load_explicit(&g->issued, memory_order_acquire);

	out->pending[SHM_GROUP_A] =
		(pair_count(issued, SHM_GROUP_A) - done_a) & SEQ_MASK;
	out->pending[SHM_GROUP_B] =
		(pair_count(issued, SHM_GROUP_B) - done_b) & SEQ_MASK;
}
