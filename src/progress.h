/*
 * The progress engine: the one place where this rank's messages move.
 *
 * It drains the rank's incoming channels (matching messages to posted
 * receives), pushes the rank's own pending outgoing data (queued headers,
 * rendezvous data, buffered messages, control packets) and hands packet
 * types it does not know to the handlers later layers register.  It runs
 * only when called: from every blocked MPI procedure (progress_wait) and
 * from the test procedures (progress_poll).  That is weak progress.
 */
#ifndef SRC_PROGRESS_H
#define SRC_PROGRESS_H

#include <stdint.h>
#include <time.h>

#include "request.h"
#include "state.h"

/* Packet types on the channels; later layers add theirs from PKT_USER. */
enum pkt_type {
	PKT_EAGER = 1,	/* header and the whole message */
	PKT_RTS,	/* rendezvous: header (and where the data is, p2p_copy.h);
			 * FIN, or CTS and the data, follow */
	PKT_CTS,	/* rendezvous: the receiver matched, send the data */
	PKT_DATA,	/* rendezvous: a chunk of data */
	PKT_ACK,	/* a synchronous eager send was matched */
	PKT_FIN,	/* rendezvous: the receiver copied the data itself */
	PKT_HELP,	/* rendezvous: the receiver asks the sender to copy
			 * part of the data too (p2p_copy.c) */
	PKT_USER = 8,
	PKT_NTYPES = 32
};

struct pkt {
	uint16_t type;
	uint16_t flags;
	int32_t tag;
	uint32_t ctx;
	uint32_t reserved;
	uint64_t size;		/* EAGER, RTS: message bytes; DATA: offset */
	uint64_t cookie;	/* the request this packet is about, at its receiver */
	uint64_t cookie2;	/* CTS: the receiver's request */
};

#define PKT_F_SYNC 1u

/* Set up (and start the progress thread under strong progress). */
int progress_init(void);
void progress_fini(void);
int progress_thread_start(void);

/* The engine's lock (a no-op under weak progress), for the few callers
 * outside this file that touch what the engine touches. */
void progress_lock(void);
void progress_unlock(void);

/* Whether the caller is the progress thread; whether one runs. */
int progress_in_thread(void);
int progress_is_strong(void);

/* From the progress thread: release r in the application thread later. */
void progress_defer_release(struct request *r);

/* Queue a send (request filled in) and push what fits now. */
void progress_send_start(struct request *r);

/* An eager message of the application's (standard or ready mode) of bytes
 * from (buf, ., dt) on context ctx to job rank dst, if it can leave now
 * without a request: returns 1 when it left (the send is complete), 0 when
 * it must go through progress_send_start. */
struct datatype;
int progress_send_eager(uint32_t ctx, int dst, int tag, const void *buf,
			const struct datatype *dt, size_t bytes);

/* Post a receive: match it against unexpected messages, else queue it
 * (or receive the message it was given, r->taken). */
void progress_recv_post(struct request *r);

/* Take back a posted receive not yet matched; returns whether it was. */
int progress_recv_cancel(struct request *r);

/* One pass of the engine; returns nonzero when something moved. */
int progress_poll(void);

/*
 * Run the engine until done(arg) holds: spin a little, then sleep on this
 * rank's doorbell, which peers ring when they give it something to do.
 */
void progress_wait(int (*done)(void *), void *arg);

/* The same, publishing for the watchdog what request `key` comes to depend
 * on (a wait on several requests names one of them). */
void progress_wait_keyed(int (*done)(void *), void *arg, const void *key);

/* The same, but a sleep lasts `nap` at most: done(arg) is asked again
 * after it even if nobody rang (for a waiter that keeps what it publishes
 * about its wait up to date). */
void progress_wait_napping(int (*done)(void *), void *arg, const struct timespec *nap);

/* Whether an unexpected message matches (source in comm or ANY, tag or
 * ANY); fills status (source, tag, size) if so. */
struct comm;
int progress_probe(struct comm *c, uint32_t ctx, int source, int tag,
		   MPI_Status *status);

/*
 * Matched probe (MPI 3.1, section 3.8.2): take the message progress_probe
 * would report out of the unexpected queue, so that no other receive or
 * probe can match it any more; NULL if there is none.  A receive posted
 * with request->taken set to it receives it (progress_recv_post), and
 * frees it; progress_unexp_free drops one that is never received.
 */
struct unexp;
struct unexp *progress_mprobe(struct comm *c, uint32_t ctx, int source, int tag,
			      MPI_Status *status);
void progress_unexp_free(struct unexp *u);

/* Outgoing work this rank still has to do (queued or unfinished sends). */
int progress_sends_pending(void);

/* Wake the ranks waiting in MPI (after making their condition true). */
void progress_wake_rank(int world_rank);

/* A handler for a packet type >= PKT_USER, from rank src. */
typedef void (*progress_handler_t)(int src, const struct pkt *pkt,
				   const void *payload, uint32_t len);
void progress_register(enum pkt_type type, progress_handler_t fn);

/*
 * For later layers (private-memory RMA): records of their own on the
 * channels.  A control packet with payload leaves at once or is copied and
 * queued (no order with anything else).  A stream is pushed, in the order
 * streams were added per peer, by its push(), which reserves records with
 * progress_reserve() (NULL when the ring is full: the engine then retries
 * the stream once room frees up) and commits them with progress_commit();
 * push returns 1 when the stream is through, 0 when it must wait for room.
 * done (if set) is called once the stream is through; it may free it.
 * Everything here runs under the engine's lock.
 */
struct progress_stream {
	struct progress_stream *next;
	int (*push)(struct progress_stream *st, int dst);
	void (*done)(struct progress_stream *st);
};

void progress_send_ctl(int dst, const struct pkt *pkt, const void *payload,
		       uint32_t len);
void progress_stream_add(int dst, struct progress_stream *st);
void *progress_reserve(int dst, uint32_t len);
void progress_commit(int dst, void *rec);

/* The largest record the channels take (packet header included). */
uint32_t progress_record_max(void);

/*
 * Work of another layer that the engine advances on every pass, after
 * draining and pushing, under its lock, in both progress modes (schedules
 * of nonblocking collectives).  The hook returns nonzero when it moved
 * something; it must take each piece of work as far as it can go, since the
 * progress thread then sleeps until a peer rings the doorbell.  Adding the
 * same hook twice adds it once.
 */
typedef int (*progress_hook_t)(void);
void progress_hook_add(progress_hook_t fn);

#endif
