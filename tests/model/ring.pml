/*
 * The ring of shm/ring.c: a record published by its header, read, released
 * by head, and its place written again by the producer's next lap.  The
 * producer writes the payload, clears the next header (which holds a stale
 * header of an earlier lap) and release-stores the record's header; the
 * consumer looks at the header with a relaxed load (shm_ring_nonempty),
 * acquire-loads it (shm_ring_peek), reads the payload and the next header,
 * and release-stores head (shm_ring_release); the producer acquire-loads
 * head and, once the record is released, writes its next record's
 * payload in the same place.  A consumer that sees the header must read
 * the record's payload, not an older one nor the next lap's, and the
 * cleared next header, not the stale one.
 * mutants: HDR_RELAXED PEEK_RELAXED HEAD_RELAXED
 */
#include "ppo.h"

#define VALID 2
#define STALE 5		/* a header left from an earlier lap */

byte payload0, hdr0, hdr1 = STALE, head;

#ifdef HDR_RELAXED
#define HDR_AFTER true
#else
#define HDR_AFTER (p1 && p2)
#endif
#ifdef PEEK_RELAXED
#define PEEK_BEFORE c1
#else
#define PEEK_BEFORE c2
#endif
#ifdef HEAD_RELAXED
#define HEAD_AFTER c2
#else
#define HEAD_AFTER (c1 && c2 && c3 && c5)
#endif

active proctype producer()
{
	bool p1, p2, p3, p4, p5;
	byte h;

	do
	EVENT(p1, true, payload0 = 1)			/* the record */
	EVENT(p2, true, hdr1 = 0)			/* relaxed: the next header */
	EVENT(p3, HDR_AFTER, hdr0 = VALID)		/* release */
	EVENT(p4, p3, h = head)				/* acquire (load_head) */
	EVENT(p5, p4, if :: h >= 1 -> payload0 = 2 :: else fi)	/* the next lap */
	:: p5 -> break
	od
}

active proctype consumer()
{
	bool c1, c2, c3, c4, c5;
	byte hint, h, d, n;

	do
	EVENT(c1, true, hint = hdr0)			/* relaxed: nonempty */
	EVENT(c2, c1, h = hdr0)				/* acquire: peek */
	EVENT(c3, PEEK_BEFORE, d = payload0)
	EVENT(c5, PEEK_BEFORE, n = hdr1)
	EVENT(c4, HEAD_AFTER, if :: h == VALID -> head = 1 :: else fi)	/* release */
	:: c4 -> break
	od;
	assert(h != VALID || (d == 1 && n == 0))
}
