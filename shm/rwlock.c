/*
 * The window locks: a fair ticket reader/writer lock and a two-kind group
 * lock.  The protocols are described in rwlock.h; the memory-ordering story
 * in short: a lock is handed over by a seq_cst fetch_add on the word the next
 * holder waits for (a release, and the store half of the waitword's
 * no-lost-wake-up protocol), and the next holder sees it with an acquire
 * load, so each critical section happens before the next one that excludes
 * it.  The tickets themselves (fetch_add on the dispenser) need no ordering:
 * only their values, which the modification order of the dispenser fixes,
 * decide who waits for whom.
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
/* reader/writer lock                                                   */

void shm_rwlock_init(struct shm_rwlock *l)
{
	memset(l, 0, sizeof(*l));
}

/* Reader `ticket` has seen read_serving == 2 * ticket: pass the gate, which
 * lets the next ticket in if it is a reader. */
static void rwlock_read_enter(struct shm_rwlock *l)
{
	/* seq_cst (in bump): publishes the pass to the next reader's acquire
	 * load, and pairs with the sleepers' announce-then-look */
	shm_waitword_bump(&l->read_serving, 2);
}

/* Writer `ticket` has seen write_serving == ticket: mark it held (odd
 * read_serving), unless an earlier ready call did.  Nobody waits for an odd
 * value, so there is nobody to wake. */
static void rwlock_write_enter(struct shm_rwlock *l, uint32_t ticket)
{
	/* relaxed: only ticket `ticket` moves read_serving from 2 * ticket, and
	 * our acquire of write_serving ordered us after every earlier pass */
	uint32_t rs = atomic_load_explicit(&l->read_serving.value,
					   memory_order_relaxed);

	if (rs == 2 * ticket + 1)
		return;
	if (rs != 2 * ticket)
		lock_corrupt("rwlock: writer granted with readers' gate elsewhere");
	/* relaxed: a mark for the snapshot; the grant came through write_serving */
	atomic_fetch_add_explicit(&l->read_serving.value, 1, memory_order_relaxed);
}

uint32_t shm_rwlock_read_begin(struct shm_rwlock *l)
{
	/* relaxed: the ticket's value is all that matters (see top of file) */
	return atomic_fetch_add_explicit(&l->next, 1, memory_order_relaxed);
}

uint32_t shm_rwlock_write_begin(struct shm_rwlock *l)
{
	/* relaxed: the ticket's value is all that matters (see top of file) */
	return atomic_fetch_add_explicit(&l->next, 1, memory_order_relaxed);
}

int shm_rwlock_read_ready(struct shm_rwlock *l, uint32_t ticket)
{
	/* acquire: pairs with the seq_cst pass of the previous ticket (the
	 * release of the last writer before us) */
	uint32_t rs = atomic_load_explicit(&l->read_serving.value,
					   memory_order_acquire);

	if (rs == 2 * ticket) {
		rwlock_read_enter(l);
		return 1;
	}
	/* past our gate already: an earlier call entered */
	return (int32_t)(rs - 2 * ticket) > 0;
}

int shm_rwlock_write_ready(struct shm_rwlock *l, uint32_t ticket)
{
	/* acquire: pairs with the seq_cst fetch_add of the last ticket to leave */
	if (atomic_load_explicit(&l->write_serving.value,
				 memory_order_acquire) != ticket)
		return 0;
	rwlock_write_enter(l, ticket);
	return 1;
}

void shm_rwlock_read_wait(struct shm_rwlock *l, uint32_t ticket, unsigned spins)
{
	/* an earlier ready call may have entered already */
	if ((int32_t)(atomic_load_explicit(&l->read_serving.value,
					   memory_order_acquire) - 2 * ticket) > 0)
		return;
	/* next in line: the ticket before ours is at the gate or writing */
	await_value(&l->read_serving, 2 * ticket, 2, spins);
	rwlock_read_enter(l);
}

void shm_rwlock_write_wait(struct shm_rwlock *l, uint32_t ticket, unsigned spins)
{
	/* next in line: one ticket has yet to leave */
	await_value(&l->write_serving, ticket, 1, spins);
	rwlock_write_enter(l, ticket);
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
	 * write_serving, and pairs with its announce-then-look if it sleeps */
	shm_waitword_bump(&l->write_serving, 1);
}

void shm_rwlock_write_unlock(struct shm_rwlock *l)
{
	/* seq_cst: releases our writes to the next readers' acquire of
	 * read_serving; pairs with their announce-then-look in shm_waitword_wait */
	uint32_t rs = atomic_fetch_add_explicit(&l->read_serving.value, 1,
						memory_order_seq_cst);

	if (!(rs & 1))
		lock_corrupt("rwlock: write_unlock without a writer");
	shm_waitword_wake(&l->read_serving);
	/* seq_cst (in bump): the same for the next writer on write_serving */
	shm_waitword_bump(&l->write_serving, 1);
}

int shm_rwlock_try_read(struct shm_rwlock *l)
{
	/* relaxed: the compare-and-swap below decides */
	uint32_t n = atomic_load_explicit(&l->next, memory_order_relaxed);

	/* acquire: pairs with the seq_cst pass of the previous ticket */
	while (atomic_load_explicit(&l->read_serving.value,
				    memory_order_acquire) == 2 * n) {
		/* relaxed: success means nobody took ticket n since we saw the
		 * gate at 2n, and only ticket n can move it: ours is granted */
		if (atomic_compare_exchange_weak_explicit(&l->next, &n, n + 1,
							  memory_order_relaxed,
							  memory_order_relaxed)) {
			rwlock_read_enter(l);
			return 0;
		}
	}
	return -EBUSY;
}

int shm_rwlock_try_write(struct shm_rwlock *l)
{
	/* relaxed: the compare-and-swap below decides */
	uint32_t n = atomic_load_explicit(&l->next, memory_order_relaxed);

	/* acquire: pairs with the seq_cst fetch_add of the last ticket to leave */
	while (atomic_load_explicit(&l->write_serving.value,
				    memory_order_acquire) == n) {
		/* relaxed: success means every ticket before n has left and
		 * nobody took n since: ours is granted */
		if (atomic_compare_exchange_weak_explicit(&l->next, &n, n + 1,
							  memory_order_relaxed,
							  memory_order_relaxed)) {
			rwlock_write_enter(l, n);
			return 0;
		}
	}
	return -EBUSY;
}

void shm_rwlock_state(const struct shm_rwlock *l, struct shm_rwlock_snapshot *out)
{
	/* acquire, acquire, acquire: keep the three loads in this order, so
	 * that what we read satisfies left <= passed <= issued (each ticket
	 * passes before it leaves, and is issued before it passes) */
	uint32_t left = atomic_load_explicit(&l->write_serving.value,
					     memory_order_acquire);
	uint32_t rs = atomic_load_explicit(&l->read_serving.value,
					   memory_order_acquire);
	uint32_t issued = atomic_load_explicit(&l->next, memory_order_acquire);
	uint32_t writer = rs & 1;
	uint32_t passed = rs >> 1;

	out->readers = (passed - left) & SEQ_MASK;
	out->writer = writer;
	out->waiting = (issued - passed - writer) & SEQ_MASK;
}

/* ------------------------------------------------------------------ */
/* group lock                                                           */

static inline unsigned gl_shift(enum shm_group_kind kind)
{
	return kind == SHM_GROUP_A ? 0 : 32;
}

/* The arrival count of a kind (31 bits, guard bit masked off). */
static inline uint32_t gl_count(uint64_t issued, enum shm_group_kind kind)
{
	return (uint32_t)(issued >> gl_shift(kind)) & SEQ_MASK;
}

static inline enum shm_group_kind gl_other(enum shm_group_kind kind)
{
	return kind == SHM_GROUP_A ? SHM_GROUP_B : SHM_GROUP_A;
}

void shm_grouplock_init(struct shm_grouplock *g)
{
	memset(g, 0, sizeof(*g));
}

/*
 * We added one to our half of `issued`, which held `prev`.  If that carried
 * into the guard bit, take the guard back (only this arrival set it: the
 * next carry is 2^31 arrivals away).  Decoders mask the guard off meanwhile.
 */
static void gl_arrived(struct shm_grouplock *g, enum shm_group_kind kind,
		       uint64_t prev)
{
	uint64_t guard = 1ull << (gl_shift(kind) + 31);

	if (gl_count(prev, kind) != SEQ_MASK)
		return;
	if (prev & guard)
		lock_corrupt("grouplock: guard bit already set");
	/* relaxed: the guard carries no count; everybody masks it off */
	atomic_fetch_sub_explicit(&g->issued, guard, memory_order_relaxed);
}

uint32_t shm_grouplock_begin(struct shm_grouplock *g, enum shm_group_kind kind)
{
	/* relaxed: the ticket's value is all that matters (see top of file) */
	uint64_t prev = atomic_fetch_add_explicit(&g->issued,
						  1ull << gl_shift(kind),
						  memory_order_relaxed);

	gl_arrived(g, kind, prev);
	return gl_count(prev, gl_other(kind));
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
	uint64_t inc = 1ull << gl_shift(kind);
	/* relaxed: the compare-and-swap below decides */
	uint64_t v = atomic_load_explicit(&g->issued, memory_order_relaxed);

	/* acquire: as in shm_grouplock_ready */
	while (seq_eq(atomic_load_explicit(&g->done[other].value,
					   memory_order_acquire),
		      gl_count(v, other))) {
		/* relaxed: success means no arrival of the other kind since we
		 * saw all of theirs released: ours is granted */
		if (atomic_compare_exchange_weak_explicit(&g->issued, &v, v + inc,
							  memory_order_relaxed,
							  memory_order_relaxed)) {
			gl_arrived(g, kind, v);
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

	out->pending[SHM_GROUP_A] = (gl_count(issued, SHM_GROUP_A) - done_a) & SEQ_MASK;
	out->pending[SHM_GROUP_B] = (gl_count(issued, SHM_GROUP_B) - done_b) & SEQ_MASK;
}
