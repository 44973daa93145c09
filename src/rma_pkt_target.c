/*
 * RMA on private memory, the target's side (see rma_pkt.h): the lock table
 * and the handlers that apply operations to this rank's window
 * memory.  They run in this rank's progress engine, under its lock, so the
 * operations of all origins are applied one at a time: that is what makes
 * accumulates atomic here (plain kernels will do).  But in dynamic
 * windows, where an operation may also reach this rank's shared memory,
 * which origins reach directly too: there accumulates and compare-and-swap
 * take the stripe locks as those origins do (rma_atomic.c, keyed by
 * address as in rma_dynamic.c).
 *
 * The lock table, per window: the current lock (none, shared, exclusive),
 * how many hold it shared, and the requests not granted yet, in arrival
 * order.  An incoming request is granted when the table allows it:
 *
 *	incoming	existing		action
 *	shared		exclusive		queue
 *	shared		none or shared		grant
 *	exclusive	none			grant
 *	exclusive	shared or exclusive	queue
 *
 * One addition to the seed's table keeps writers from starving: while
 * requests are queued, a new one queues behind them whatever the table
 * says (a stream of shared requests would otherwise hold an exclusive one
 * off for ever, and a program waiting for the writer would hang).
 *
 * When a lock is released (by the operation that carries the release, or
 * by an unlock packet), queued requests are granted from the head for as
 * long as the table allows.  A granted request gets a grant packet, or, if
 * it carried its single operation, that operation is applied and the lock
 * released again at once.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adversary.h"
#include "comm.h"
#include "datatype.h"
#include "op.h"
#include "progress.h"
#include "rma.h"
#include "rma_pkt.h"
#include "win_dyn.h"

/* A lock request waiting in the table (with its operation, single-op). */
struct lock_req {
	struct lock_req *next;
	int origin;		/* job rank */
	int type;		/* RMA_LOCK_* */
	uint64_t tcookie;
	struct pkt pkt;		/* PKT_RMA_LOCK, or the PKT_RMA_OP it came with */
	uint32_t len;
	/* the operation packet's payload, aligned as in a ring record */
	char data[] __attribute__((aligned(8)));
};

struct tgt_win {
	struct tgt_win *next;
	struct win *w;
	uint32_t *acks;		/* [w->size] given to each origin (win_shm_ack) */
	uint32_t ctx;
	int type;		/* RMA_LOCK_* held now */
	int shared;		/* holders of the shared lock */
	struct lock_req *head, *tail;
};

static struct tgt_win *tgt_list;	/* under the engine's lock */
static char *scratch;			/* one reply record's payload */
static char *aligned_in;		/* accumulate input, aligned for the kernels */

static struct tgt_win *tgt_find(uint32_t ctx, int src)
{
	for (struct tgt_win *t = tgt_list; t; t = t->next)
		if (t->ctx == ctx)
			return t;
	fprintf(stderr, "shmpi: rank %d: RMA packet from rank %d for no window of "
		"this rank (context %u)\n", rt.rank, src, ctx);
	runtime_abort_job(MPI_ERR_INTERN);
}

static void corrupt(int src, const char *what)
{
	fprintf(stderr, "shmpi: rank %d: corrupt RMA packet from rank %d: %s\n",
		rt.rank, src, what);
	runtime_abort_job(MPI_ERR_INTERN);
}

/* ---- the lock table ------------------------------------------------------ */

/* The seed's table. */
static int lt_grantable(const struct tgt_win *t, int type)
{
	if (t->type == RMA_LOCK_NONE)
		return 1;
	return type == RMA_LOCK_SHARED && t->type == RMA_LOCK_SHARED;
}

/* An incoming request: the table, behind those already waiting. */
static int lt_admits(const struct tgt_win *t, int type)
{
	return !t->head && lt_grantable(t, type);
}

static void lt_take(struct tgt_win *t, int type)
{
	t->type = type;
	if (type == RMA_LOCK_SHARED)
		t->shared++;
}

static void lt_drop(struct tgt_win *t)
{
	if (t->type == RMA_LOCK_SHARED && --t->shared > 0)
		return;
	t->type = RMA_LOCK_NONE;
	t->shared = 0;
}

static void send_to(int dst, uint16_t type, uint32_t ctx, uint64_t cookie)
{
	struct pkt p = { .type = type, .ctx = ctx, .cookie = cookie };

	progress_send_ctl(dst, &p, NULL, 0);
}

/* Acknowledge to origin src (job rank) everything applied for it so far:
 * a count in the window segment that its synchronization call polls, with
 * no record in the ring to take and release. */
static void ack(struct tgt_win *t, int src)
{
	int o = comm_rank_of_world(t->w->comm, src);

	if (o < 0)
		corrupt(src, "from a process outside the window");
	/* release: the operations applied before the origin sees the count */
	atomic_store_explicit(win_shm_ack(t->w, o, t->w->rank), ++t->acks[o],
			      memory_order_release);
	progress_wake_rank(src);
}

static void apply(struct tgt_win *t, int src, const void *payload, uint32_t len);

/* The adversarial mode: a random one of the requests the table would
 * grant now, unlinked, or NULL. */
static struct lock_req *lt_pick_random(struct tgt_win *t)
{
	struct lock_req *q, **p, *prev = NULL;
	uint64_t n = 0, k;

	for (q = t->head; q; q = q->next)
		n += lt_grantable(t, q->type);
	if (!n)
		return NULL;
	k = adv_below(n, 1);
	for (p = &t->head; *p; prev = *p, p = &(*p)->next)
		if (lt_grantable(t, (*p)->type) && k-- == 0)
			break;
	q = *p;
	*p = q->next;
	if (t->tail == q)
		t->tail = prev;
	return q;
}

/* After a release: grant from the head of the queue while the table allows
 * (in the adversarial mode: any grantable request, at random). */
static void lt_grant_queued(struct tgt_win *t)
{
	for (;;) {
		struct lock_req *q;

		if (adv_on()) {
			if (!(q = lt_pick_random(t)))
				break;
		} else {
			if (!t->head || !lt_grantable(t, t->head->type))
				break;
			q = t->head;
			t->head = q->next;
			if (!t->head)
				t->tail = NULL;
		}
		lt_take(t, q->type);
		if (q->pkt.type == PKT_RMA_OP)
			apply(t, q->origin, q->data, q->len);
		else
			send_to(q->origin, PKT_RMA_GRANT, t->ctx, q->tcookie);
		free(q);
	}
}

static void lt_queue(struct tgt_win *t, int src, int type, uint64_t tcookie,
		     const struct pkt *pkt, const void *payload, uint32_t len)
{
	struct lock_req *q = malloc(sizeof(*q) + len);

	if (!q) {
		fprintf(stderr, "shmpi: rank %d: out of memory for a lock request\n",
			rt.rank);
		runtime_abort_job(MPI_ERR_NO_MEM);
	}
	*q = (struct lock_req){ .origin = src, .type = type, .tcookie = tcookie,
				.pkt = *pkt, .len = len };
	if (len)
		memcpy(q->data, payload, len);
	if (t->tail)
		t->tail->next = q;
	else
		t->head = q;
	t->tail = q;
}

/* ---- applying operations ------------------------------------------------- */

/* The window bytes [off, off + len) of this rank, or NULL (in a dynamic
 * window off is an address of memory attached here). */
static char *tgt_addr(const struct tgt_win *t, uint64_t off, uint64_t len)
{
	uint64_t size = (uint64_t)t->w->my_size;

	if (t->w->flavor == MPI_WIN_FLAVOR_DYNAMIC)
		return win_dyn_attached(t->w, off, len) ? (char *)(uintptr_t)off : NULL;
	if (off > size || len > size - off)
		return NULL;
	return (char *)t->w->base + off;
}

static void reply(int dst, const struct rma_wire_op *h, size_t n)
{
	struct pkt p = { .type = PKT_RMA_REPLY };
	struct rma_wire_reply *r = (struct rma_wire_reply *)scratch;

	r->cookie = h->cookie;
	r->stream_off = h->stream_off;
	progress_send_ctl(dst, &p, scratch, (uint32_t)(sizeof(*r) + n));
}

/* Apply one operation packet (its lock, if it carried one, is held). */
static void apply(struct tgt_win *t, int src, const void *payload, uint32_t len)
{
	const struct rma_wire_op *h = payload;
	const struct rma_wire_seg *seg = (const struct rma_wire_seg *)(h + 1);
	const char *d = (const char *)(seg + h->nseg);
	char *out = scratch + sizeof(struct rma_wire_reply);
	size_t room = progress_record_max() - sizeof(struct pkt) -
		      sizeof(struct rma_wire_reply);
	/* (the adversarial mode sends everything here: nobody else accumulates) */
	struct rma_acc acc = { .w = t->w, .target = t->w->rank,
			       .plain = t->w->flavor != MPI_WIN_FLAVOR_DYNAMIC || adv_on() };
	size_t total = 0, data;
	unsigned mask;

	if (len < sizeof(*h) || h->nseg > (len - sizeof(*h)) / sizeof(*seg))
		corrupt(src, "truncated");
	/* the data the segments call for is all in the record */
	data = 0;
	for (uint32_t i = 0; i < h->nseg; i++)
		data += (size_t)seg[i].len;
	if (h->kind == RMA_CAS)
		data *= 2;
	else if (h->kind == RMA_GET || (h->kind == RMA_GACC && h->op == (int32_t)MPI_NO_OP))
		data = 0;
	if (data > len - (size_t)(d - (const char *)payload))
		corrupt(src, "truncated data");
	if (h->kind == RMA_ACC || h->kind == RMA_GACC || h->kind == RMA_CAS) {
		struct op *op = op_get((MPI_Op)h->op);
		struct datatype *bt = dt_get((MPI_Datatype)h->basic);

		if (!bt || !handle_is_builtin(bt->handle) ||
		    (h->kind == RMA_CAS && (h->nseg != 1 ||
					    seg[0].len != (uint64_t)bt->size ||
					    !rma_cas_bytes(bt->handle))) ||
		    (h->kind != RMA_CAS && (!op || rma_acc_prepare(&acc, op, bt->handle) < 0)))
			corrupt(src, "bad op or type");
		/* records are 8-byte aligned; the kernels of long double want 16 */
		if (h->kind != RMA_CAS && ((uintptr_t)d & 15)) {
			size_t n = len - (size_t)(d - (const char *)payload);

			memcpy(aligned_in, d, n);
			d = aligned_in;
		}
	}
	for (uint32_t i = 0; i < h->nseg; i++) {
		char *at = tgt_addr(t, seg[i].off, seg[i].len);
		size_t n = (size_t)seg[i].len, w;

		if (!at)
			corrupt(src, "outside the window");
		if (h->kind == RMA_GET || h->kind == RMA_GACC || h->kind == RMA_CAS) {
			if (n > room - total)
				corrupt(src, "reply too large");
		}
		switch (h->kind) {
		case RMA_PUT:
			memcpy(at, d, n);
			d += n;
			break;
		case RMA_GET:
			memcpy(out + total, at, n);
			break;
		case RMA_ACC:
		case RMA_GACC:
			w = (size_t)dt_get((MPI_Datatype)h->basic)->extent;
			rma_acc_run(&acc, h->kind == RMA_GACC && h->op == (int32_t)MPI_NO_OP ?
				    at : d, at, n / w, w,
				    h->kind == RMA_GACC ? out + total : NULL, seg[i].off);
			if (!(h->kind == RMA_GACC && h->op == (int32_t)MPI_NO_OP))
				d += n;
			break;
		case RMA_CAS:
			mask = rma_acc_lock(&acc, seg[i].off, seg[i].off);
			rma_cas_apply(at, d, d + n, out, n,
				      rma_cas_bytes((MPI_Datatype)h->basic));
			rma_acc_unlock(&acc, mask);
			break;
		default:
			corrupt(src, "unknown operation");
		}
		total += n;
	}
	if (h->kind == RMA_GET || h->kind == RMA_GACC || h->kind == RMA_CAS)
		reply(src, h, total);
	if (h->flags & RMA_F_UNLOCK)
		lt_drop(t);
	if (h->flags & RMA_F_ACK)
		ack(t, src);
	if (h->flags & RMA_F_UNLOCK)
		lt_grant_queued(t);
}

/* ---- the handlers --------------------------------------------------------- */

static void on_op(int src, const struct pkt *pkt, const void *payload, uint32_t len)
{
	struct tgt_win *t = tgt_find(pkt->ctx, src);
	const struct rma_wire_op *h = payload;

	if (len < sizeof(*h))
		corrupt(src, "truncated");
	if (h->lock != RMA_LOCK_NONE) {
		/* a lone short operation: it comes with its lock request */
		if (h->lock != RMA_LOCK_SHARED && h->lock != RMA_LOCK_EXCLUSIVE)
			corrupt(src, "bad lock type");
		if (!lt_admits(t, h->lock)) {
			lt_queue(t, src, h->lock, h->tcookie, pkt, payload, len);
			return;
		}
		lt_take(t, h->lock);
	}
	apply(t, src, payload, len);
}

static void on_lock(int src, const struct pkt *pkt, const void *payload, uint32_t len)
{
	struct tgt_win *t = tgt_find(pkt->ctx, src);

	(void)payload;
	(void)len;
	if (pkt->tag != RMA_LOCK_SHARED && pkt->tag != RMA_LOCK_EXCLUSIVE)
		corrupt(src, "bad lock type");
	if (!lt_admits(t, pkt->tag)) {
		lt_queue(t, src, pkt->tag, pkt->cookie, pkt, NULL, 0);
		return;
	}
	lt_take(t, pkt->tag);
	send_to(src, PKT_RMA_GRANT, t->ctx, pkt->cookie);
}

static void on_unlock(int src, const struct pkt *pkt, const void *payload, uint32_t len)
{
	struct tgt_win *t = tgt_find(pkt->ctx, src);

	(void)payload;
	(void)len;
	if (t->type == RMA_LOCK_NONE)
		corrupt(src, "unlock without a lock");
	lt_drop(t);
	ack(t, src);
	lt_grant_queued(t);
}

/* ---- set-up ------------------------------------------------------------ */

int rma_pkt_target_add(struct win *w)
{
	struct tgt_win *t = calloc(1, sizeof(*t));

	if (!t || !(t->acks = calloc((size_t)w->size, sizeof(*t->acks)))) {
		free(t);
		return -ENOMEM;
	}
	progress_lock();
	if (!scratch) {
		size_t n = (progress_record_max() + 63) / 64 * 64;

		scratch = aligned_alloc(64, n);
		aligned_in = aligned_alloc(64, n);
		if (!scratch || !aligned_in) {
			free(scratch);
			free(aligned_in);
			scratch = aligned_in = NULL;
			progress_unlock();
			free(t->acks);
			free(t);
			return -ENOMEM;
		}
	}
	t->w = w;
	t->ctx = w->comm->ctx;
	t->next = tgt_list;
	tgt_list = t;
	progress_unlock();
	return 0;
}

void rma_pkt_target_remove(struct win *w)
{
	progress_lock();
	for (struct tgt_win **p = &tgt_list; *p; p = &(*p)->next) {
		struct tgt_win *t = *p;

		if (t->w != w)
			continue;
		*p = t->next;
		while (t->head) {
			struct lock_req *q = t->head;

			t->head = q->next;
			free(q);
		}
		free(t->acks);
		free(t);
		break;
	}
	if (!tgt_list) {
		free(scratch);
		free(aligned_in);
		scratch = aligned_in = NULL;
	}
	progress_unlock();
}

int rma_pkt_target_queued(const struct win *w)
{
	int n = 0;

	progress_lock();
	for (struct tgt_win *t = tgt_list; t; t = t->next)
		if (t->w == w)
			for (struct lock_req *q = t->head; q; q = q->next)
				n++;
	progress_unlock();
	return n;
}

void rma_pkt_init(void)
{
	progress_register((enum pkt_type)PKT_RMA_OP, on_op);
	progress_register((enum pkt_type)PKT_RMA_LOCK, on_lock);
	progress_register((enum pkt_type)PKT_RMA_UNLOCK, on_unlock);
	rma_pkt_origin_init();
}
