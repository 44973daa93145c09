/*
 * RMA on private memory (passive target over messages): windows whose memory at a target the
 * other processes cannot map (MPI_Win_create on stack or malloc memory).
 * Operations travel as packets through the channels and the target's
 * progress engine performs them, one at a time.
 *
 * Origin side (rma_pkt_origin.c): every (window, target) pair served this
 * way has a queue.  Communication calls append to it; the synchronization
 * calls (flush, unlock, fence, complete) send it out and wait until the
 * target has applied everything.  In a lock epoch nothing leaves before
 * that: at the first flush or at unlock a lock request goes to the target,
 * the queued operations follow its grant, the last one carries the release
 * (no separate unlock packet) and asks for an acknowledgement, which a
 * reply with data (get) makes unnecessary.  An acknowledgement is no
 * packet: the target raises a count in the window segment (win_shm_ack)
 * that the origin polls.  A lone short operation at unlock travels with
 * the lock request itself (the single-operation optimization).
 *
 * Target side (rma_pkt_target.c): a lock table per window
 * (the current lock, the count of shared holders and a queue of requests
 * not yet granted), and the handlers that apply operations to the memory.
 *
 * The wire: every packet from origin to target is self-contained, a header
 * (struct rma_wire_op) and a list of segments of the target's window (byte
 * offsets, or addresses in a dynamic window) followed by the data for
 * those segments in order; large operations become several packets.  The
 * packets of one (window, origin, target) leave in order through one stream
 * (progress.h), so a lock request is always ahead of the operations it
 * covers.  Replies (grant, data) and acknowledgements need no order among
 * themselves beyond what the channel gives.
 */
#ifndef SRC_RMA_PKT_H
#define SRC_RMA_PKT_H

#include <stdint.h>

#include "progress.h"
#include "win.h"

enum {
	PKT_RMA_OP = PKT_USER,	/* an operation (or a piece of one) */
	PKT_RMA_LOCK,		/* a lock request: tag = lock type */
	PKT_RMA_UNLOCK,		/* release without an operation; acknowledged */
	PKT_RMA_GRANT,		/* to the origin: the lock is granted */
	PKT_RMA_REPLY,		/* to the origin: data of a get-type operation */
};

enum rma_kind {
	RMA_PUT = 1,
	RMA_GET,
	RMA_ACC,
	RMA_GACC,	/* get_accumulate and fetch_and_op */
	RMA_CAS,
	RMA_LOCKREQ,	/* queue items only: a lock request */
	RMA_UNLOCKREQ,	/* a release without an operation */
};

/* Lock types on the wire and in the target's table. */
enum { RMA_LOCK_NONE = 0, RMA_LOCK_SHARED, RMA_LOCK_EXCLUSIVE };

#define RMA_F_ACK 1u		/* acknowledge once applied */
#define RMA_F_UNLOCK 2u		/* release the origin's lock once applied */

struct rma_wire_op {
	uint8_t kind;		/* enum rma_kind */
	uint8_t lock;		/* single-op: the lock it asks for, else NONE */
	uint16_t flags;		/* RMA_F_* */
	uint32_t nseg;
	int32_t basic;		/* accumulates: the MPI_Datatype of the elements */
	int32_t op;		/* accumulates: the MPI_Op */
	uint64_t stream_off;	/* of this packet's data in the operation */
	uint64_t cookie;	/* the origin's operation (replies) */
	uint64_t tcookie;	/* the origin's state for this target (grant, ack) */
};

struct rma_wire_seg {
	uint64_t off;		/* byte offset in the window, or address (dynamic) */
	uint64_t len;		/* bytes */
};

struct rma_wire_reply {
	uint64_t cookie;	/* the origin's operation */
	uint64_t stream_off;	/* of this data in the operation's result */
};

/* Register the packet handlers with the engine (at MPI_Init): both sides'. */
void rma_pkt_init(void);
void rma_pkt_origin_init(void);

/* Window set-up and teardown: origin state, and the target's table if this
 * rank's own memory is served this way.  0 or -ENOMEM. */
int rma_pkt_win_init(struct win *w);
void rma_pkt_win_fini(struct win *w);

/* Active target: send every queued operation of w and wait until all are
 * applied (MPI_Win_fence; MPI_Win_complete for the targets in ranks). */
void rma_pkt_complete(struct win *w, enum call_id call, const int *ranks, int n);

/* Passive target, all targets served this way: flush, unlock_all. */
void rma_pkt_flush_all(struct win *w, enum call_id call);
void rma_pkt_unlock_all(struct win *w);

/* Take target's lock now if it is a private target whose epoch is open and
 * whose lock is not held yet; the same for every target below `below`, in
 * ascending order (rma_pkt_origin.c says why). */
void rma_pkt_acquire(struct win *w, int target, enum call_id call);
void rma_pkt_acquire_below(struct win *w, int below, enum call_id call);

/* Whether this rank has operations for target queued on w, not yet sent
 * (application thread). */
int rma_pkt_queued(const struct win *w, int target);

/* Whether this rank has operations queued or outstanding on w. */
int rma_pkt_busy(const struct win *w);

/* The target side: serve w's packets (this rank's memory is private);
 * 0 or -ENOMEM.  Removal frees what it still holds. */
int rma_pkt_target_add(struct win *w);
void rma_pkt_target_remove(struct win *w);

/* Counters of this rank as origin, for MPI_Win_get_info (tests, tuning). */
struct rma_pkt_stats {
	uint64_t lock_requests;	/* lock packets sent */
	uint64_t single_ops;	/* unlocks that sent lock and operation together */
	uint64_t single_copies;	/* puts and gets moved in one copy (rma_pkt_origin.c) */
};
void rma_pkt_stats(const struct win *w, struct rma_pkt_stats *out);

/* Lock requests waiting in this rank's table for w (its memory is private). */
int rma_pkt_target_queued(const struct win *w);

#endif
