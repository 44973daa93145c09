/*
 * A bounded single-producer, single-consumer ring of variable-size records
 * in shared memory: one per (sender, receiver) pair of ranks.
 *
 * Protocol.  `tail` counts the bytes the producer has ever published, `head`
 * the bytes the consumer has ever released; both only grow, so tail - head
 * is the space in use and no wrap-around ambiguity exists.  Each record is
 * an 8-byte header (length, flags) and its payload, padded to a whole
 * cache line (SHM_CACHE_LINE), so every record starts a line.  A record
 * never wraps: when it does not fit before the end, the producer publishes
 * a pad record that fills the rest and starts again at offset 0.
 *
 * The consumer learns of a record from its header alone, in the line that
 * carries a short record's payload too: a record of up to 56 bytes is one
 * line, one cache-line transfer per short message, where polling tail took
 * two in a row.  Records padded only to 8 bytes spread a short message
 * over two lines most of the time, and the consumer then waited for the
 * second one after the first: a ping-pong of 8-byte records between two
 * processes here took 200 ns one way that way, 167 with records on lines
 * of their own (the bare handoff of one line: 129).  A header is nonzero once
 * published (RING_VALID), and the producer keeps the place of the next
 * header zero: it clears those 8 bytes (a record needs them free besides
 * its own span) before it release-stores the header of the record before
 * them.  The consumer acquire-loads the header at head, reads the record,
 * then release-stores head, after which the producer (acquire-loading
 * head) may overwrite it.  tail lives on a line of the producer's own with
 * the head it last loaded, which it loads again only when the room it
 * knows of is too small; head on the consumer's line, which the producer
 * thus seldom pulls away.
 *
 * A record of up to shm_ring_max_record() bytes always fits once the ring
 * has drained, wherever tail stands.
 *
 * A producer that finds no room and wants to sleep sets producer_waiting
 * (then a full fence) and checks for room again before sleeping; a consumer
 * that released records takes the flag back (shm_ring_take_waiting, after a
 * full fence) and, if it was set, wakes the producer.  The consumer may take
 * a flag raised for room it had released before the producer filled the
 * ring again, so the producer raises it again before every last look that
 * may end in sleep.
 */
#ifndef SHM_RING_H
#define SHM_RING_H

#include <stddef.h>

#include "atomic.h"

struct shm_ring {
	/* the producer's line; the consumer reads none of it */
	shm_atomic_u64 tail;
	uint64_t head_seen;		/* head as the producer last loaded it */
	uint64_t pcap;			/* cap, for the producer */
	uint32_t reserved;		/* length of the record reserved, for commit */
	uint32_t tag;			/* what commits stamp on their records */
	char pad0_[SHM_CACHE_LINE - 32];
	/* the consumer's line */
	shm_atomic_u64 head;
	uint64_t cap;			/* data bytes: a power of two, >= 2 lines */
	shm_atomic_u32 producer_waiting; /* set by a producer that found no room */
	char pad1_[SHM_CACHE_LINE - 20];
	char data[];
};

_Static_assert(sizeof(struct shm_ring) == 2 * SHM_CACHE_LINE,
	       "producer and consumer indices on separate lines");

/* Bytes a ring of cap data bytes takes (header included). */
static inline size_t shm_ring_size(uint64_t cap)
{
	return sizeof(struct shm_ring) + cap;
}

/* Lay out an empty ring (cap: a power of two, at least two cache lines)
 * on zeroed memory. */
void shm_ring_init(struct shm_ring *r, uint64_t cap);

/* Producer: the largest payload a record may carry. */
static inline uint32_t shm_ring_max_record(const struct shm_ring *r)
{
	return (uint32_t)(r->pcap / 2 - 8);
}

/*
 * Producer: space for a record of len bytes (len <= max_record), or NULL
 * when the ring has no room now.  Nothing is visible to the consumer until
 * shm_ring_commit() of the returned pointer.
 */
void *shm_ring_reserve(struct shm_ring *r, uint32_t len);

/* Producer: whether a record of len bytes would fit now. */
int shm_ring_fits(struct shm_ring *r, uint32_t len);

/* Producer: publish the record reserved at payload. */
void shm_ring_commit(struct shm_ring *r, void *payload);

/* Producer: the tag (below 2^24) that the following commits stamp on their
 * records, for the consumer to read with shm_ring_peek_tag(); 0 until set.
 * A ring shared by several producers under a lock carries each record's
 * producer this way. */
static inline void shm_ring_set_tag(struct shm_ring *r, uint32_t tag)
{
	r->tag = tag;
}

/* Producer: bytes in use (records not yet released by the consumer). */
uint64_t shm_ring_used(struct shm_ring *r);

/* Consumer: the oldest record and its length, or NULL when empty. */
void *shm_ring_peek(struct shm_ring *r, uint32_t *len);

/* Consumer: the tag of the record last returned by shm_ring_peek(). */
uint32_t shm_ring_peek_tag(struct shm_ring *r);

/* Consumer: release the record last returned by shm_ring_peek(). */
void shm_ring_release(struct shm_ring *r);

/* The 8-byte header at byte pos (any count; taken modulo cap, which the
 * producer passes as pcap, the consumer as cap). */
static inline shm_atomic_u64 *shm_ring_header(struct shm_ring *r, uint64_t cap,
					      uint64_t pos)
{
	return (shm_atomic_u64 *)(void *)(r->data + (pos & (cap - 1)));
}

/* From outside (neither producer nor consumer, on a snapshot): whether
 * records are unread, and whether one of them carries tag. */
int shm_ring_unread(struct shm_ring *r);
int shm_ring_unread_tag(struct shm_ring *r, uint32_t tag);

/* Consumer: whether the ring holds a record (a cheap look, no side effect:
 * to read the record, shm_ring_peek). */
static inline int shm_ring_nonempty(struct shm_ring *r)
{
	/* relaxed: head is the consumer's own word */
	uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);

	/* relaxed: a hint that reads nothing of the record; shm_ring_peek
	 * acquire-loads the header again before the record is read */
	return atomic_load_explicit(shm_ring_header(r, r->cap, head),
				    memory_order_relaxed) != 0;
}

/* Producer: announce that it waits for room (then look for room again). */
static inline void shm_ring_set_waiting(struct shm_ring *r)
{
	atomic_store_explicit(&r->producer_waiting, 1, memory_order_relaxed);
	/* the flag before our next look at head; pairs with the fence in
	 * shm_ring_take_waiting() */
	shm_fence();
}

/* Consumer, after releasing records: whether a producer waits for room
 * (the flag is cleared; the caller wakes the producer). */
static inline int shm_ring_take_waiting(struct shm_ring *r)
{
	/* seq_cst: our head store before the look at the flag */
	shm_fence();
	if (!atomic_load_explicit(&r->producer_waiting, memory_order_relaxed))
		return 0;
	return atomic_exchange_explicit(&r->producer_waiting, 0,
					memory_order_relaxed);
}

#endif
