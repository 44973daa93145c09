/*
 * Messages (MPI 3.1, chapter 3) over the progress engine's channels.
 *
 * Protocol, per (sender, receiver) pair:
 *  - a message of up to eager_max bytes travels as one EAGER record; a
 *    synchronous one carries PKT_F_SYNC and the receiver answers ACK once it
 *    matched;
 *  - a larger message travels as RTS; once the receiver matched it, it
 *    copies the data itself from the sender's buffer when the RTS says
 *    where that is and the memory or the kernel lets it (p2p_copy.c), and
 *    answers FIN; otherwise it answers CTS naming its receive, and the
 *    sender's engine pushes DATA chunks as room frees up.  That data
 *    moves only while the sender's engine runs: a buffered message, which
 *    always goes this way, sits in the sender's attach buffer until then
 *    (a progress chunk, MPI 4.1 section 2.9).
 * Headers leave in the order the sends started (non-overtaking per pair);
 * DATA and control packets (CTS, FIN, ACK) need no order.  A receiver drains its
 * channels completely on every pass: an unmatched EAGER message is copied to
 * the unexpected queue, an unmatched RTS is queued as is, so channels never
 * stay full while their receiver is inside MPI.  A matched probe takes an
 * unexpected message out of that queue at once (MPI 3.1, section 3.8.2);
 * the receive later given it (MPI_Mrecv) binds it as if it had just
 * matched it.
 *
 * Publishing (state.h, for shmrun's watchdog): while the application thread
 * waits on one request (the `arg` of progress_wait, compared as a pointer
 * only), the engine says when that request comes to depend on the other
 * side's engine: a receive whose rendezvous message is matched (CTS sent:
 * only the sender's engine pushes the data) or a send that got its CTS (the
 * receiver's engine drains the data).  The matched receives still waiting
 * for data are kept on eng.receiving so that a wait that begins after the
 * match is told as well.
 *
 * Everything here runs under the engine's lock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chan.h"
#include "comm.h"
#include "datatype.h"
#include "p2p_copy.h"
#include "pool.h"
#include "progress_int.h"
#include "event.h"
#include "pvar.h"
#include "runtime.h"


/* An unmatched incoming message: a copied EAGER one, or an RTS.  What
 * matching reads (src, pkt.ctx, pkt.tag, next) lies in its first line. */
struct unexp {
	int src;		/* job rank */
	uint32_t len;		/* of data */
	int small;		/* from the free list: room for UNEXP_SMALL bytes */
	struct pkt pkt;
	struct unexp *next;
	char data[];		/* the payload: EAGER data, RTS description */
};

/*
 * Unexpected messages of up to UNEXP_SMALL bytes (an RTS counts the
 * description of its data it carries) are taken from a free list of at
 * most UNEXP_POOL_MAX entries, under the engine's lock; larger ones from
 * malloc.
 */
#define UNEXP_SMALL 256
#define UNEXP_POOL_MAX 64

static struct {
	struct unexp *head;
	unsigned n;
} unexp_pool;

static struct unexp *unexp_alloc(uint32_t n)
{
	struct unexp *u = unexp_pool.head;

	if (n > UNEXP_SMALL) {
		u = malloc(sizeof(*u) + n);
		if (u)
			u->small = 0;
		return u;
	}
	if (u) {
		POOL_UNPOISON(u, sizeof(*u) + UNEXP_SMALL);
		unexp_pool.head = u->next;
		unexp_pool.n--;
		return u;
	}
	u = malloc(sizeof(*u) + UNEXP_SMALL);
	if (u)
		u->small = 1;
	return u;
}

static void unexp_release(struct unexp *u)
{
	if (!u->small || unexp_pool.n == UNEXP_POOL_MAX) {
		free(u);
		return;
	}
	u->next = unexp_pool.head;
	unexp_pool.head = u;
	unexp_pool.n++;
	POOL_POISON(u, sizeof(*u) + UNEXP_SMALL);
}

/* ---- lists ----------------------------------------------------------- */

void req_list_append(struct req_list *l, struct request *r)
{
	r->next = NULL;
	r->prev = l->tail;
	if (l->tail)
		l->tail->next = r;
	else
		l->head = r;
	l->tail = r;
}

void req_list_remove(struct req_list *l, struct request *r)
{
	if (r->prev)
		r->prev->next = r->next;
	else
		l->head = r->next;
	if (r->next)
		r->next->prev = r->prev;
	else
		l->tail = r->prev;
	r->next = r->prev = NULL;
}

/* ---- sending ----------------------------------------------------------- */

/* Complete r; if the application thread waits on it and a record did it,
 * the engine's pass may end after that record (chan.h). */
static void proto_complete(struct request *r)
{
	if ((const void *)r == eng.wait_arg)
		eng.wait_met = 1;
	req_complete(r);
}

static void send_finish(struct request *r)
{
	r->stage = SEND_DONE;
	eng.nsends--;
	proto_complete(r);
}

/* Fill pkt, reserved to dst, with a message's header (and, eager, the
 * message itself, packed straight into the record), and commit it. */
static void msg_fill(struct pkt *pkt, int eager, uint16_t flags, int tag, uint32_t ctx,
		     const void *buf, const struct datatype *dt, size_t bytes, uint64_t cookie)
{
	*pkt = (struct pkt){
		.type = eager ? PKT_EAGER : PKT_RTS,
		.flags = flags,
		.tag = tag,
		.ctx = ctx,
		.size = bytes,
		.cookie = cookie,
	};
	if (eager)
		dt_pack(dt, buf, 0, pkt + 1, bytes);
}


/* Push the header (and, EAGER, the data) of the oldest queued send. */
static int push_header(int dst, struct request *r)
{
	int eager = r->bytes <= eng.eager_max;
	/* an RTS says where the data is, for the receiver to copy it once */
	uint32_t dlen = eager ? 0 : copy_desc_len(r, eng.chunk), len;
	struct pkt *pkt;

	len = (uint32_t)sizeof(struct pkt) + (eager ? (uint32_t)r->bytes : dlen);
	pkt = chan_reserve(dst, len);
	if (!pkt) {
		peer_block(dst, len);
		return 0;
	}
	msg_fill(pkt, eager, r->mode == SEND_SYNC ? PKT_F_SYNC : 0, r->tag, r->ctx,
		 r->sbuf, r->dt, r->bytes, (uint64_t)(uintptr_t)r);
	if (!eager && dlen)
		copy_describe(r, pkt + 1);
	chan_commit(dst, pkt);
	req_list_remove(&eng.out[dst].queued, r);
	if (!eager)
		r->stage = SEND_WAIT_CTS;
	else if (r->mode == SEND_SYNC)
		r->stage = SEND_WAIT_ACK;
	else
		send_finish(r);
	return 1;
}

/* Push DATA chunks of a rendezvous send; returns records pushed. */
static int push_data(int dst, struct request *r)
{
	int pushed = 0;

	while (r->done < r->bytes) {
		size_t left = r->bytes - r->done;
		uint32_t n = left < eng.chunk ? (uint32_t)left : eng.chunk;
		uint32_t len = (uint32_t)sizeof(struct pkt) + n;
		struct pkt *pkt = chan_reserve(dst, len);

		if (!pkt) {
			peer_block(dst, len);
			return pushed;
		}
		*pkt = (struct pkt){
			.type = PKT_DATA,
			.size = r->done,
			.cookie = r->peer_cookie,
		};
		dt_pack(r->dt, r->sbuf, r->done, pkt + 1, n);
		chan_commit(dst, pkt);
		r->done += n;
		pushed++;
	}
	req_list_remove(&eng.out[dst].data, r);
	send_finish(r);
	return pushed;
}

/* Push the headers of dst's queued sends, then the data of its rendezvous
 * sends, as far as room allows; returns records pushed. */
int proto_push(int dst)
{
	struct peer_out *o = &eng.out[dst];
	int pushed = 0;

	while (o->queued.head) {
		if (!push_header(dst, o->queued.head))
			return pushed;
		pushed++;
	}
	while (o->data.head) {
		pushed += push_data(dst, o->data.head);
		if (o->blocked)
			break;
	}
	return pushed;
}

void progress_send_start(struct request *r)
{
	struct peer_out *o = &eng.out[r->peer_world];

	eng_lock();
	r->stage = SEND_QUEUED;
	r->done = 0;
	eng.nsends++;
	/* the application's messages, not the library's own (ctx + 1) */
	if (r->ctx == r->comm->ctx) {
		pvar_c.sent++;
		pvar_c.sent_bytes += r->bytes;
	}
	req_list_append(&o->queued, r);
	peer_activate(r->peer_world);
	/* the header (and small data) leaves now unless others are ahead */
	if (o->queued.head == r && !o->ctl_head && !o->blocked)
		push_peer(r->peer_world);
	owes_publish();
	eng_unlock();
}

/*
 * A message that leaves now or not at all: only when nothing waits to go
 * to dst (a queued header it must not overtake, MPI 3.1 section 3.5, or a
 * control packet or stream that push_peer would send first) and its record
 * fits.  Once committed, the data is in the channel: the send is complete.
 * The receiver needs no cookie: an eager message that is not synchronous
 * is never answered.
 */
int progress_send_eager(uint32_t ctx, int dst, int tag, const void *buf,
			const struct datatype *dt, size_t bytes)
{
	struct peer_out *o = &eng.out[dst];
	struct pkt *pkt;
	int sent = 0;

	if (bytes > eng.eager_max)
		return 0;
	eng_lock();
	if (!o->queued.head && !o->ctl_head && !o->st_head &&
	    (pkt = chan_reserve(dst, (uint32_t)(sizeof(*pkt) + bytes)))) {
		msg_fill(pkt, 1, 0, tag, ctx, buf, dt, bytes, 0);
		chan_commit(dst, pkt);
		pvar_c.sent++;
		pvar_c.sent_bytes += bytes;
		progress_wake_rank(dst);
		sent = 1;
	}
	eng_unlock();
	return sent;
}

int progress_sends_pending(void)
{
	int pending;

	eng_lock();
	pending = eng.nsends > 0 || eng.nactive > 0;
	eng_unlock();
	return pending;
}

/* ---- receiving --------------------------------------------------------- */

static int recv_matches(const struct request *r, int src, uint32_t ctx, int tag)
{
	return r->ctx == ctx &&
	       (r->peer == MPI_ANY_SOURCE || r->src_world == src) &&
	       (r->tag == MPI_ANY_TAG || r->tag == tag);
}

static struct request *match_posted(int src, const struct pkt *pkt)
{
	for (struct request *r = eng.posted.head; r; r = r->next)
		if (recv_matches(r, src, pkt->ctx, pkt->tag)) {
			req_list_remove(&eng.posted, r);
			return r;
		}
	return NULL;
}

/* Bind message (src, pkt) to receive r: status, truncation. */
static void recv_bind(struct request *r, int src, const struct pkt *pkt)
{
	r->matched = 1;
	r->src_world = src;
	r->msg_bytes = pkt->size;
	r->st_source = comm_rank_of_world(r->comm, src);
	r->st_tag = pkt->tag;
	r->st_bytes = (MPI_Count)(pkt->size < r->bytes ? pkt->size : r->bytes);
	r->st_error = pkt->size > r->bytes ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
	r->done = 0;
	if (r->ctx == r->comm->ctx) {	/* as in progress_send_start */
		pvar_c.received++;
		pvar_c.received_bytes += pkt->size;
	}
}

static void recv_eager(struct request *r, int src, const struct pkt *pkt,
		       const void *data)
{
	recv_bind(r, src, pkt);
	dt_unpack(r->dt, r->rbuf, 0, data, (size_t)r->st_bytes);
	if (pkt->flags & PKT_F_SYNC) {
		struct pkt ack = { .type = PKT_ACK, .cookie = pkt->cookie };

		send_ctl(src, &ack);
	}
	proto_complete(r);
}

/* Message (src, pkt) to receive r: copied at once (desc, n bytes, says
 * where the data is: p2p_copy.h), or asked for through the channels. */
static void recv_rts(struct request *r, int src, const struct pkt *pkt,
		     const void *desc, uint32_t n)
{
	struct pkt cts = {
		.type = PKT_CTS,
		.cookie = pkt->cookie,
		.cookie2 = (uint64_t)(uintptr_t)r,
	};

	recv_bind(r, src, pkt);
	if (n && copy_pull(r, src, pkt, desc, n, send_ctl)) {
		struct pkt fin = { .type = PKT_FIN, .cookie = pkt->cookie };

		send_ctl(src, &fin);
		proto_complete(r);
		return;
	}
	pvar_c.rndv_pipeline++;
	if (event_wanted(EVENT_P2P_RNDV))
		event_p2p_rndv(r, EVENT_RNDV_PIPELINE);
	req_list_append(&eng.receiving, r);
	if ((const void *)r == eng.wait_arg)
		state_wait_refine(WAIT_RECV_DATA, src);
	send_ctl(src, &cts);
}

static void unexp_add(int src, const struct pkt *pkt, const void *data, uint32_t n)
{
	struct unexp *u = unexp_alloc(n);

	if (!u) {
		fprintf(stderr, "shmpi: rank %d: out of memory for an unexpected message\n",
			eng.me);
		runtime_abort_job(MPI_ERR_NO_MEM);
	}
	u->src = src;
	u->len = n;
	u->pkt = *pkt;
	u->next = NULL;
	if (n)
		memcpy(u->data, data, n);
	if (eng.unexp_tail)
		eng.unexp_tail->next = u;
	else
		eng.unexp_head = u;
	eng.unexp_tail = u;
	pvar_unexpected_add();
	if (event_wanted(EVENT_P2P_UNEXPECTED))
		event_p2p_unexpected(pkt->ctx, src, pkt->tag, pkt->size);
}

/* The oldest unexpected message that a receive of (src_world or -1 for any
 * source, tag or MPI_ANY_TAG) on ctx matches, and the one before it. */
static struct unexp *unexp_find(uint32_t ctx, int src_world, int tag,
				struct unexp **prev_out)
{
	struct unexp *prev = NULL;

	for (struct unexp *u = eng.unexp_head; u; prev = u, u = u->next)
		if (u->pkt.ctx == ctx && (src_world < 0 || u->src == src_world) &&
		    (tag == MPI_ANY_TAG || u->pkt.tag == tag)) {
			*prev_out = prev;
			return u;
		}
	return NULL;
}

/* Take u, found after prev, out of the unexpected queue. */
static void unexp_unlink(struct unexp *u, struct unexp *prev)
{
	if (prev)
		prev->next = u->next;
	else
		eng.unexp_head = u->next;
	if (eng.unexp_tail == u)
		eng.unexp_tail = prev;
	u->next = NULL;
	pvar_unexpected_remove();
}

static void recv_post_locked(struct request *r)
{
	struct unexp *u = r->taken, *prev;

	r->matched = 0;
	r->src_world = r->peer == MPI_ANY_SOURCE ? -1 :
		       comm_world_rank(r->comm, r->peer);
	r->taken = NULL;
	if (!u) {
		u = unexp_find(r->ctx, r->src_world, r->tag, &prev);
		if (!u) {
			req_list_append(&eng.posted, r);
			return;
		}
		unexp_unlink(u, prev);
	}
	if (u->pkt.type == PKT_EAGER)
		recv_eager(r, u->src, &u->pkt, u->data);
	else
		recv_rts(r, u->src, &u->pkt, u->data, u->len);
	unexp_release(u);
}

void progress_recv_post(struct request *r)
{
	eng_lock();
	recv_post_locked(r);
	owes_publish();
	eng_unlock();
}

int progress_recv_cancel(struct request *r)
{
	int taken = 0;

	eng_lock();
	if (!r->matched && !req_is_complete(r)) {
		req_list_remove(&eng.posted, r);
		taken = 1;
	}
	eng_unlock();
	return taken;
}

/* The status of a receive of unexpected message u on c. */
static void unexp_status(const struct comm *c, const struct unexp *u, MPI_Status *status)
{
	if (status == MPI_STATUS_IGNORE)
		return;
	status->MPI_SOURCE = comm_rank_of_world(c, u->src);
	status->MPI_TAG = u->pkt.tag;
	status->MPI_ERROR = MPI_SUCCESS;
	status->shmpi_count = (MPI_Count)u->pkt.size;
	status->shmpi_cancelled = 0;
}

int progress_probe(struct comm *c, uint32_t ctx, int source, int tag,
		   MPI_Status *status)
{
	int src_world = source == MPI_ANY_SOURCE ? -1 : comm_world_rank(c, source);
	struct unexp *u, *prev;

	eng_lock();
	u = unexp_find(ctx, src_world, tag, &prev);
	if (u)
		unexp_status(c, u, status);
	eng_unlock();
	return u != NULL;
}

struct unexp *progress_mprobe(struct comm *c, uint32_t ctx, int source, int tag,
			      MPI_Status *status)
{
	int src_world = source == MPI_ANY_SOURCE ? -1 : comm_world_rank(c, source);
	struct unexp *u, *prev;

	eng_lock();
	u = unexp_find(ctx, src_world, tag, &prev);
	if (u) {
		unexp_unlink(u, prev);
		unexp_status(c, u, status);
	}
	eng_unlock();
	return u;
}

void progress_unexp_free(struct unexp *u)
{
	progress_lock();
	unexp_release(u);
	progress_unlock();
}

/* A record of the protocol's (EAGER, RTS, CTS, DATA, ACK, FIN, HELP) from src: handle
 * it and return 1; 0 for any other type. */
int proto_packet(int src, const struct pkt *pkt, const void *payload, uint32_t n)
{
	struct request *r;

	switch (pkt->type) {
	case PKT_EAGER:
		r = match_posted(src, pkt);
		if (r)
			recv_eager(r, src, pkt, payload);
		else
			unexp_add(src, pkt, payload, n);
		break;
	case PKT_RTS:
		r = match_posted(src, pkt);
		if (r)
			recv_rts(r, src, pkt, payload, n);
		else
			unexp_add(src, pkt, payload, n);
		break;
	case PKT_CTS:
		r = (struct request *)(uintptr_t)pkt->cookie;
		r->peer_cookie = pkt->cookie2;
		r->stage = SEND_DATA;
		req_list_append(&eng.out[src].data, r);
		peer_activate(src);
		if ((const void *)r == eng.wait_arg)
			state_wait_refine(WAIT_SEND_DATA, src);
		break;
	case PKT_DATA:
		r = (struct request *)(uintptr_t)pkt->cookie;
		/* bytes past the receive buffer are dropped: MPI_ERR_TRUNCATE */
		if (pkt->size < r->bytes) {
			size_t keep = r->bytes - pkt->size;

			dt_unpack(r->dt, r->rbuf, pkt->size, payload,
				  n < keep ? n : keep);
		}
		r->done += n;
		if (r->done == r->msg_bytes) {
			req_list_remove(&eng.receiving, r);
			proto_complete(r);
		}
		break;
	case PKT_HELP:
		copy_help((struct request *)(uintptr_t)pkt->cookie, src, pkt);
		break;
	case PKT_ACK:
	case PKT_FIN:
		r = (struct request *)(uintptr_t)pkt->cookie;
		send_finish(r);
		break;
	default:
		return 0;
	}
	return 1;
}

/* The application thread begins to wait on arg: if it is a request whose
 * data already depends on the other side's engine, say so (see the top). */
void proto_wait_begin(const void *arg)
{
	eng.wait_arg = arg;
	for (struct request *r = eng.receiving.head; r; r = r->next)
		if ((const void *)r == arg) {
			state_wait_refine(WAIT_RECV_DATA, r->src_world);
			return;
		}
	for (int i = 0; i < eng.nactive; i++)
		for (struct request *r = eng.out[eng.active[i]].data.head; r; r = r->next)
			if ((const void *)r == arg) {
				state_wait_refine(WAIT_SEND_DATA, eng.active[i]);
				return;
			}
}

void proto_fini(void)
{
	struct unexp *u = eng.unexp_head;

	while (u) {
		struct unexp *next = u->next;

		free(u);
		pvar_unexpected_remove();
		u = next;
	}
	while (unexp_pool.head) {
		u = unexp_pool.head;
		POOL_UNPOISON(u, sizeof(*u) + UNEXP_SMALL);
		unexp_pool.head = u->next;
		free(u);
	}
	unexp_pool.n = 0;
}
