#include <string.h>

#include "ring.h"

#define RING_HDR 8u
#define RING_PAD 1u	/* flag of a pad record */
#define RING_VALID 2u	/* flag of every published header: never zero */
#define RING_TAG_SHIFT 8	/* the producer's tag above the flags */

/* A header as one 64-bit word: the length low, the flags and the tag high. */
static inline uint64_t hdr_word(uint32_t len, uint32_t flags)
{
	return (uint64_t)len | (uint64_t)(flags | RING_VALID) << 32;
}

/* A record's bytes in the ring: header and payload, to a whole line. */
static inline uint64_t ring_span(uint32_t len)
{
	return ((uint64_t)RING_HDR + len + SHM_CACHE_LINE - 1) & ~(uint64_t)(SHM_CACHE_LINE - 1);
}

void shm_ring_init(struct shm_ring *r, uint64_t cap)
{
	memset(r, 0, sizeof(*r));
	r->cap = cap;
	r->pcap = cap;
}

/* Producer: head as the consumer last stored it. */
static uint64_t load_head(struct shm_ring *r)
{
	/* acquire: pairs with the consumer's release of head */
	r->head_seen = atomic_load_explicit(&r->head, memory_order_acquire);
	return r->head_seen;
}

uint64_t shm_ring_used(struct shm_ring *r)
{
	/* relaxed: tail is the producer's own word (so in every producer
	 * function below); nobody else reads it */
	return atomic_load_explicit(&r->tail, memory_order_relaxed) - load_head(r);
}

/* Producer: whether span bytes and the next header's 8 fit at tail when
 * room bytes remain before the end (a pad fills those first if span does
 * not), by the head it knows of, loading head again when that is too
 * little. */
static int room_for(struct shm_ring *r, uint64_t tail, uint64_t span, uint64_t room)
{
	uint64_t need = (room < span ? room + span : span) + RING_HDR;

	return r->pcap - (tail - r->head_seen) >= need ||
	       r->pcap - (tail - load_head(r)) >= need;
}

int shm_ring_fits(struct shm_ring *r, uint32_t len)
{
	uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);

	if (len > shm_ring_max_record(r))
		return 0;
	return room_for(r, tail, ring_span(len), r->pcap - (tail & (r->pcap - 1)));
}

void *shm_ring_reserve(struct shm_ring *r, uint32_t len)
{
	uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	uint64_t span = ring_span(len);
	uint64_t room = r->pcap - (tail & (r->pcap - 1));

	if (len > shm_ring_max_record(r) || !room_for(r, tail, span, room))
		return NULL;
	if (room < span) {
		/* no wrapping: a pad to the end, then start over at 0, whose
		 * header the consumer looks at next, so it is cleared first
		 * (relaxed: the release below publishes it) */
		atomic_store_explicit(shm_ring_header(r, r->pcap, 0), 0, memory_order_relaxed);
		/* release: the cleared header before the pad that leads to it */
		atomic_store_explicit(shm_ring_header(r, r->pcap, tail),
				      hdr_word((uint32_t)room, RING_PAD), memory_order_release);
		tail += room;
		atomic_store_explicit(&r->tail, tail, memory_order_relaxed);
	}
	r->reserved = len;
	return (char *)shm_ring_header(r, r->pcap, tail) + RING_HDR;
}

void shm_ring_commit(struct shm_ring *r, void *payload)
{
	uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	uint64_t next = tail + ring_span(r->reserved);

	(void)payload;	/* always the record reserve returned last */
	/* a long record may have been copied in with non-temporal stores,
	 * which the release below does not order (shm/atomic.h) */
	if (r->reserved >= SHM_NT_MIN)
		shm_nt_fence();
	/* the next header stays zero until its record is published: reserve
	 * left room for it (relaxed: the release below publishes it) */
	atomic_store_explicit(shm_ring_header(r, r->pcap, next), 0, memory_order_relaxed);
	/* release: the record and the cleared next header before this one */
	atomic_store_explicit(shm_ring_header(r, r->pcap, tail),
			      hdr_word(r->reserved, r->tag << RING_TAG_SHIFT),
			      memory_order_release);
	atomic_store_explicit(&r->tail, next, memory_order_relaxed);
}

void *shm_ring_peek(struct shm_ring *r, uint32_t *len)
{
	/* relaxed: head is the consumer's own word (so in release) */
	uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);

	for (;;) {
		/* acquire: pairs with the producer's release of the header */
		uint64_t h = atomic_load_explicit(shm_ring_header(r, r->cap, head),
						  memory_order_acquire);

		if (h == 0)
			return NULL;
		if (!((h >> 32) & RING_PAD)) {
			*len = (uint32_t)h;
			return (char *)shm_ring_header(r, r->cap, head) + RING_HDR;
		}
		head += (uint32_t)h;
		/* release: our load of the pad's header before the producer,
		 * which acquires head, may write a new record there */
		atomic_store_explicit(&r->head, head, memory_order_release);
	}
}

uint32_t shm_ring_peek_tag(struct shm_ring *r)
{
	uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
	/* relaxed: shm_ring_peek() acquired this header already */
	uint64_t h = atomic_load_explicit(shm_ring_header(r, r->cap, head), memory_order_relaxed);

	return (uint32_t)(h >> 32) >> RING_TAG_SHIFT;
}

void shm_ring_release(struct shm_ring *r)
{
	uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
	/* relaxed: the header peek acquired */
	uint64_t h = atomic_load_explicit(shm_ring_header(r, r->cap, head), memory_order_relaxed);

	/* release: we finished reading the record before the producer reuses it */
	atomic_store_explicit(&r->head, head + ring_span((uint32_t)h),
			      memory_order_release);
}

int shm_ring_unread(struct shm_ring *r)
{
	/* relaxed: a look from outside, acted on only if it lasts */
	return atomic_load_explicit(&r->tail, memory_order_relaxed) !=
	       atomic_load_explicit(&r->head, memory_order_relaxed);
}

int shm_ring_unread_tag(struct shm_ring *r, uint32_t tag)
{
	/* relaxed: as in shm_ring_unread; records may change under us, so
	 * the walk stops after a ring's worth of bytes whatever it reads */
	uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
	uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);

	for (uint64_t pos = head; pos != tail && pos - head < r->cap;) {
		uint64_t h = atomic_load_explicit(shm_ring_header(r, r->cap, pos),
						  memory_order_relaxed);
		uint32_t flags = (uint32_t)(h >> 32);

		if (!h)
			return 0;
		if (flags & RING_PAD) {
			pos += (uint32_t)h;
			continue;
		}
		if (flags >> RING_TAG_SHIFT == tag)
			return 1;
		pos += ring_span((uint32_t)h);
	}
	return 0;
}
