#include <string.h>

#include "ring.h"

#define RING_HDR 8u
#define RING_PAD 1u	/* flag of a pad record */

struct ring_hdr {
	uint32_t len;	/* payload bytes; for a pad: bytes to skip, header included */
	uint32_t flags;
};

static inline uint64_t ring_span(uint32_t len)
{
	return RING_HDR + (((uint64_t)len + 7) & ~(uint64_t)7);
}

void shm_ring_init(struct shm_ring *r, uint64_t cap)
{
	memset(r, 0, sizeof(*r));
	r->cap = cap;
}

uint64_t shm_ring_used(struct shm_ring *r)
{
	/* acquire: pairs with the consumer's release of head */
	return atomic_load_explicit(&r->tail, memory_order_relaxed) -
	       atomic_load_explicit(&r->head, memory_order_acquire);
}

int shm_ring_fits(struct shm_ring *r, uint32_t len)
{
	uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	uint64_t span = ring_span(len);
	uint64_t room = r->cap - (tail & (r->cap - 1));
	uint64_t free_bytes = r->cap - shm_ring_used(r);

	if (len > shm_ring_max_record(r))
		return 0;
	return free_bytes >= (room < span ? room + span : span);
}

void *shm_ring_reserve(struct shm_ring *r, uint32_t len)
{
	uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	uint64_t span = ring_span(len);
	uint64_t pos = tail & (r->cap - 1);
	uint64_t room = r->cap - pos;
	uint64_t free_bytes = r->cap - shm_ring_used(r);
	struct ring_hdr *h;

	if (len > shm_ring_max_record(r))
		return NULL;
	if (room < span) {
		/* no wrapping: pad to the end, then start over at 0 */
		if (free_bytes < room + span)
			return NULL;
		h = (struct ring_hdr *)(r->data + pos);
		h->len = (uint32_t)room;
		h->flags = RING_PAD;
		tail += room;
		/* release: the pad header is written before it is published */
		atomic_store_explicit(&r->tail, tail, memory_order_release);
		pos = 0;
	} else if (free_bytes < span) {
		return NULL;
	}
	h = (struct ring_hdr *)(r->data + pos);
	h->len = len;
	h->flags = 0;
	return h + 1;
}

void shm_ring_commit(struct shm_ring *r, void *payload)
{
	struct ring_hdr *h = (struct ring_hdr *)payload - 1;
	uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);

	/* a long record may have been copied in with non-temporal stores,
	 * which the release below does not order (shm/atomic.h) */
	if (h->len >= SHM_NT_MIN)
		shm_nt_fence();
	/* release: the record is written before the consumer can see it */
	atomic_store_explicit(&r->tail, tail + ring_span(h->len),
			      memory_order_release);
}

void *shm_ring_peek(struct shm_ring *r, uint32_t *len)
{
	uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);

	for (;;) {
		/* acquire: pairs with the producer's release of tail */
		uint64_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);
		struct ring_hdr *h;

		if (head == tail)
			return NULL;
		h = (struct ring_hdr *)(r->data + (head & (r->cap - 1)));
		if (!(h->flags & RING_PAD)) {
			*len = h->len;
			return h + 1;
		}
		head += h->len;
		/* release: we are done reading the pad (nothing to protect, but
		 * keep every head store a release for the producer's acquire) */
		atomic_store_explicit(&r->head, head, memory_order_release);
	}
}

void shm_ring_release(struct shm_ring *r)
{
	uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
	struct ring_hdr *h = (struct ring_hdr *)(r->data + (head & (r->cap - 1)));

	/* release: we finished reading the record before the producer reuses it */
	atomic_store_explicit(&r->head, head + ring_span(h->len),
			      memory_order_release);
}
