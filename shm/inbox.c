#include <sched.h>

#include "inbox.h"

/* The waiting bits: one per rank, after the owners. */
static inline shm_atomic_u64 *waiting_word(struct shm_inbox *ib, uint32_t rank)
{
	return (shm_atomic_u64 *)(void *)((char *)ib + ib->waiting_off) + rank / 64;
}

static size_t waiting_off(uint32_t nrings)
{
	size_t off = sizeof(struct shm_inbox) + (size_t)nrings * sizeof(shm_atomic_u32);

	return (off + 7) & ~(size_t)7;
}

static size_t rings_off(uint32_t nranks, uint32_t nrings)
{
	size_t end = waiting_off(nrings) + (size_t)(nranks + 63) / 64 * sizeof(uint64_t);

	return (end + SHM_CACHE_LINE - 1) & ~(size_t)(SHM_CACHE_LINE - 1);
}

size_t shm_inbox_size(uint32_t nranks, uint32_t nrings, uint64_t cap)
{
	return rings_off(nranks, nrings) + (size_t)(nrings + 1) * shm_ring_size(cap);
}

void shm_inbox_init(struct shm_inbox *ib, uint32_t nranks, uint32_t nrings, uint64_t cap)
{
	ib->nranks = nranks;
	ib->nrings = nrings;
	ib->cap = cap;
	ib->rings_off = rings_off(nranks, nrings);
	ib->waiting_off = waiting_off(nrings);
	shm_ring_init(shm_inbox_shared(ib), cap);
}

int shm_inbox_claim(struct shm_inbox *ib)
{
	/* relaxed: the claim only picks a ring; owner[] publishes it */
	uint32_t i = atomic_fetch_add_explicit(&ib->claimed, 1, memory_order_relaxed);

	return i < ib->nrings ? (int)i : -1;
}

struct shm_ring *shm_inbox_publish(struct shm_inbox *ib, uint32_t i, uint32_t from)
{
	struct shm_ring *r = shm_inbox_ring(ib, i);

	shm_ring_init(r, ib->cap);
	/* release: the layout before the receiver's acquire of the owner */
	atomic_store_explicit(&ib->owner[i], from + 1, memory_order_release);
	return r;
}

void shm_inbox_abandon(struct shm_inbox *ib, uint32_t i)
{
	/* relaxed: nothing of the ring is to be seen */
	atomic_store_explicit(&ib->owner[i], UINT32_MAX, memory_order_relaxed);
}

/* A holder keeps the lock for one record's copy: spin a little, then give
 * the CPU away (the holder may be waiting for it). */
#define INBOX_SPINS 64

void shm_inbox_lock(struct shm_inbox *ib)
{
	unsigned i = 0;

	/* acquire: pairs with the release in shm_inbox_unlock, so the last
	 * holder's record and producer fields are seen */
	while (atomic_exchange_explicit(&ib->lock, 1, memory_order_acquire)) {
		/* relaxed: only a hint that the exchange may succeed */
		while (atomic_load_explicit(&ib->lock, memory_order_relaxed)) {
			if (++i < INBOX_SPINS)
				shm_cpu_relax();
			else
				sched_yield();
		}
	}
}

void shm_inbox_want_room(struct shm_inbox *ib, uint32_t from)
{
	atomic_fetch_or_explicit(waiting_word(ib, from), (uint64_t)1 << (from % 64),
				 memory_order_relaxed);
	/* release: the bit before the flag, for the consumer that sees the
	 * flag (its acquire fence in shm_inbox_wake_waiting) */
	atomic_thread_fence(memory_order_release);
	shm_ring_set_waiting(shm_inbox_shared(ib));
}

int shm_inbox_wake_waiting(struct shm_inbox *ib, void (*wake)(int rank))
{
	int woken = 0;

	if (!shm_ring_take_waiting(shm_inbox_shared(ib)))
		return 0;
	/* acquire: pairs with the release fence in shm_inbox_want_room */
	atomic_thread_fence(memory_order_acquire);
	for (uint32_t w = 0; w < (ib->nranks + 63) / 64; w++) {
		/* relaxed: the fence above ordered it */
		uint64_t bits = atomic_exchange_explicit(waiting_word(ib, w * 64), 0,
							 memory_order_relaxed);

		for (; bits; bits &= bits - 1, woken++)
			wake((int)(w * 64 + (uint32_t)__builtin_ctzll(bits)));
	}
	return woken;
}

struct shm_ring *shm_inbox_ring_of(struct shm_inbox *ib, uint32_t from, int *shared)
{
	uint32_t n = shm_inbox_claimed(ib);

	for (uint32_t i = 0; i < n; i++)
		if (shm_inbox_owner(ib, i) == (int)from) {
			*shared = 0;
			return shm_inbox_ring(ib, i);
		}
	*shared = 1;
	return shm_inbox_shared(ib);
}

int shm_inbox_unread_from(struct shm_inbox *ib, uint32_t from)
{
	int shared;
	struct shm_ring *r = shm_inbox_ring_of(ib, from, &shared);

	return shared ? shm_ring_unread_tag(r, from + 1) : shm_ring_unread(r);
}
