/*
 * RMA on private memory, the origin's side (see rma_pkt.h for the design).
 *
 * Per (window, target) a struct pkt_target holds three lists of operations:
 * `queue` (appended by the communication calls, nothing sent yet),
 * `waiting` (issued in a lock epoch whose lock request is out: they leave
 * once the grant arrives) and `outbox` (pushed, in order, by the pair's
 * stream as the ring to the target has room).  An operation whose data is
 * in the ring is done at the origin, unless a reply is to come (get-type
 * operations), which then finds it by its cookie.  `pending` counts the
 * replies still to come, and the target's count of acknowledgements in the
 * window segment must reach `acks_due`: a synchronization call is over
 * when both hold.  Everything here that the engine's handlers touch
 * (the lists, pending, lock_state) is changed under the engine's lock, since
 * under strong progress the handlers run in the progress thread;
 * lock_state is read without it only where no grant can be on its way
 * (rma_pkt_acquire).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adversary.h"
#include "datatype.h"
#include "errhandler.h"
#include "op.h"
#include "p2p_copy.h"
#include "progress.h"
#include "event.h"
#include "pvar.h"
#include "rma.h"
#include "rma_pkt.h"
#include "state.h"

/* Where the next packet of an operation begins in the target's layout:
 * element e of the target datatype, its run r, bytes in of that run. */
struct seg_iter {
	MPI_Count e;
	int r;
	MPI_Aint in;
};

/* Operations carrying at most this many bytes copy them at the call, so
 * their buffers are free at once (as with the direct path). */
#define RMA_IMMED 256

struct rma_op {
	struct rma_op *next;
	struct pkt_target *pt;
	uint8_t kind;		/* enum rma_kind */
	uint8_t lock;		/* single-op: the lock it carries */
	uint16_t flags;		/* RMA_F_* of its last packet */
	MPI_Op op;
	const void *obuf;
	struct datatype *odt;	/* referenced */
	void *rbuf;		/* where replies go */
	struct datatype *rdt;	/* referenced */
	struct datatype *bt;	/* accumulates: the basic type */
	struct datatype *tdt;	/* referenced */
	MPI_Count tcount;
	uint64_t toff;
	size_t bytes;		/* of the operation's stream */
	size_t esize;		/* packets split at multiples of it */
	size_t sent;		/* stream bytes pushed */
	size_t got;		/* reply bytes received */
	struct seg_iter it;
	char cas[32];		/* compare-and-swap: compare, then origin value */
	char *data;		/* a short operation's data, copied at the call */
	char *owned;		/* or a longer one's, allocated (priv_acc) */
	char immed[RMA_IMMED];
};

struct op_list {
	struct rma_op *head, *tail;
	int n;
};

enum { LS_NONE, LS_REQUESTED, LS_HELD };

struct pkt_target {
	struct progress_stream st;	/* first: the stream's callbacks get it */
	struct win *w;
	int target, world;
	int streaming;		/* st is on the engine's list */
	int lock_state;		/* of this epoch's lock at the target */
	int lock_type;		/* RMA_LOCK_* asked for (LS_REQUESTED, LS_HELD) */
	struct op_list queue, waiting, outbox;
	uint32_t pending;	/* replies to come */
	uint32_t acks_due;	/* acknowledgements asked for, ever (win_shm_ack) */
};

struct rma_pkt_win {
	struct pkt_target *t;	/* [w->size]; used for private targets only */
	struct rma_pkt_stats stats;
};

/* ---- operations ------------------------------------------------------- */

static int op_has_reply(const struct rma_op *op)
{
	return op->kind == RMA_GET || op->kind == RMA_GACC || op->kind == RMA_CAS;
}

static int op_has_data(const struct rma_op *op)
{
	return op->kind == RMA_PUT || op->kind == RMA_ACC || op->kind == RMA_CAS ||
	       (op->kind == RMA_GACC && op->op != MPI_NO_OP);
}

/* Operations done with wait here for the next ones (under the engine's
 * lock): no allocation on the way of a put. */
#define OP_POOL_MAX 64
static struct rma_op *op_pool;
static int op_pooled;

/* A zeroed operation (under the engine's lock); NULL when out of memory. */
static struct rma_op *op_alloc(void)
{
	struct rma_op *op = op_pool;

	if (!op)
		return calloc(1, sizeof(*op));
	op_pool = op->next;
	op_pooled--;
	/* all but the data area, which is written before it is read */
	memset(op, 0, offsetof(struct rma_op, immed));
	return op;
}

static void op_free(struct rma_op *op)
{
	free(op->owned);
	dt_unref(op->odt);
	dt_unref(op->rdt);
	dt_unref(op->tdt);
	if (op_pooled == OP_POOL_MAX) {
		free(op);
		return;
	}
	op->next = op_pool;
	op_pool = op;
	op_pooled++;
}

static void list_add(struct op_list *l, struct rma_op *op)
{
	op->next = NULL;
	if (l->tail)
		l->tail->next = op;
	else
		l->head = op;
	l->tail = op;
	l->n++;
}

/* Move everything of from to the end of to. */
static void list_move(struct op_list *to, struct op_list *from)
{
	if (!from->head)
		return;
	if (to->tail)
		to->tail->next = from->head;
	else
		to->head = from->head;
	to->tail = from->tail;
	to->n += from->n;
	*from = (struct op_list){ 0 };
}

/* Run r of one target element: its displacement and bytes.  Put and get
 * move the datatype's bytes; accumulates its basic elements (C arrays of
 * the basic type, so a pair type's padding travels too). */
static void op_run(const struct rma_op *op, int r, MPI_Aint *disp, MPI_Aint *len)
{
	if (op->bt) {
		*disp = op->tdt->rruns[r].disp;
		*len = op->tdt->rruns[r].count * op->bt->extent;
	} else {
		*disp = op->tdt->blocks[r].disp;
		*len = op->tdt->blocks[r].len;
	}
}

static int op_nruns(const struct rma_op *op)
{
	return op->bt ? op->tdt->nrruns : op->tdt->nblocks;
}

/* The next piece of the target's layout from *it, contiguous in the
 * target's window and at most max bytes: its offset and length (0 when the
 * layout is through).  Adjacent runs merge. */
static size_t seg_next(const struct rma_op *op, struct seg_iter *it, size_t max,
		       uint64_t *off)
{
	int nruns = op_nruns(op);
	size_t n = 0;

	while (it->e < op->tcount && n < max) {
		MPI_Aint disp, len;
		uint64_t at;
		size_t take;

		op_run(op, it->r, &disp, &len);
		at = op->toff + (uint64_t)(it->e * op->tdt->extent + disp + it->in);
		if (n == 0)
			*off = at;
		else if (at != *off + n)
			break;
		take = (size_t)(len - it->in);
		if (take > max - n)
			take = max - n;
		n += take;
		it->in += (MPI_Aint)take;
		if (it->in == len) {
			it->in = 0;
			if (++it->r == nruns) {
				it->r = 0;
				it->e++;
			}
		}
	}
	return n;
}

/* The next packet of op: how many segments and stream bytes it carries.
 * Both directions must fit a record: the request with its data, and the
 * reply with the data it returns. */
static void op_plan(const struct rma_op *op, uint32_t *nseg, size_t *bytes)
{
	size_t rec = progress_record_max() - sizeof(struct pkt);
	size_t req_room = rec - sizeof(struct rma_wire_op);
	size_t reply_room = rec - sizeof(struct rma_wire_reply);
	struct seg_iter it = op->it;
	size_t total = 0;
	uint32_t n = 0;

	if (op->kind == RMA_CAS) {
		*nseg = 1;
		*bytes = op->bytes;
		return;
	}
	/* a gapless target: one segment, as much as both records hold */
	if (op->tdt->contig) {
		size_t room = op->bytes - op->sent;

		if (op_has_data(op) && room > req_room - sizeof(struct rma_wire_seg))
			room = req_room - sizeof(struct rma_wire_seg);
		if (op_has_reply(op) && room > reply_room)
			room = reply_room;
		if (room < op->bytes - op->sent)
			room -= room % op->esize;
		*nseg = 1;
		*bytes = room;
		return;
	}
	for (;;) {
		size_t room = req_room - (n + 1) * sizeof(struct rma_wire_seg), got;
		uint64_t off;

		if ((n + 1) * sizeof(struct rma_wire_seg) >= req_room)
			break;
		if (!op_has_data(op))
			room = SIZE_MAX;
		if (op_has_reply(op) && room > reply_room - total)
			room = reply_room - total;
		if (op_has_data(op))
			room -= total < room ? total : room;
		room -= room % op->esize;
		if (room == 0 || !(got = seg_next(op, &it, room, &off)))
			break;
		total += got;
		n++;
	}
	*nseg = n;
	*bytes = total;
}

/* Write the next packet of op to the ring to dst; 0 when it has no room. */
static int op_emit_one(struct pkt_target *pt, struct rma_op *op, int dst)
{
	uint32_t nseg;
	size_t bytes, data, len;
	struct pkt *pkt;
	struct rma_wire_op *h;
	struct rma_wire_seg *seg;
	char *d;
	int last;

	op_plan(op, &nseg, &bytes);
	/* the adversarial mode: a put in pieces (not one that carries its lock) */
	if (adv_on() && op->kind == RMA_PUT && op->tdt->contig && op->lock == RMA_LOCK_NONE &&
	    bytes > 1)
		bytes = 1 + (size_t)adv_below(bytes, 1);
	data = !op_has_data(op) ? 0 : op->kind == RMA_CAS ? 2 * bytes : bytes;
	len = sizeof(*pkt) + sizeof(*h) + nseg * sizeof(*seg) + data;
	if (!(pkt = progress_reserve(dst, (uint32_t)len)))
		return 0;
	last = op->sent + bytes == op->bytes;
	h = (struct rma_wire_op *)(pkt + 1);
	seg = (struct rma_wire_seg *)(h + 1);
	d = (char *)(seg + nseg);
	*pkt = (struct pkt){ .type = PKT_RMA_OP, .ctx = pt->w->comm->ctx };
	*h = (struct rma_wire_op){
		.kind = op->kind,
		.lock = op->sent == 0 ? op->lock : RMA_LOCK_NONE,
		.flags = last ? op->flags : 0,
		.nseg = nseg,
		.basic = op->bt ? (int32_t)op->bt->handle : 0,
		.op = (int32_t)op->op,
		.stream_off = op->sent,
		.cookie = (uint64_t)(uintptr_t)op,
		.tcookie = (uint64_t)(uintptr_t)pt,
	};
	if (op->kind == RMA_CAS) {
		seg[0].off = op->toff;
		seg[0].len = bytes;
		memcpy(d, op->cas, data);
	} else {
		size_t left = bytes;

		/* a gapless target: from its first byte on */
		if (op->tdt->contig) {
			seg[0].off = op->toff + (uint64_t)op->tdt->blocks[0].disp + op->sent;
			seg[0].len = bytes;
			left = 0;
		}
		/* the plan's pieces again, in the same order */
		for (uint32_t i = 0; left && i < nseg; i++) {
			uint64_t off = 0;

			seg[i].len = seg_next(op, &op->it, left, &off);
			seg[i].off = off;
			left -= seg[i].len;
		}
		if (op->data && data)
			memcpy(d, op->data + op->sent, bytes);
		else if (op->kind == RMA_PUT)
			dt_pack(op->odt, op->obuf, op->sent, d, bytes);
		else if (data)
			dt_basic_copy(op->odt, op->bt, op->obuf, NULL,
				      op->sent / op->esize, bytes / op->esize, d, 1);
	}
	op->sent += bytes;
	progress_commit(dst, pkt);
	return 1;
}

/* A lock request or a release without an operation. */
static int op_emit_ctl(struct pkt_target *pt, struct rma_op *op, int dst)
{
	struct pkt *pkt = progress_reserve(dst, sizeof(*pkt));

	if (!pkt)
		return 0;
	*pkt = (struct pkt){
		.type = op->kind == RMA_LOCKREQ ? PKT_RMA_LOCK : PKT_RMA_UNLOCK,
		.tag = op->lock,
		.ctx = pt->w->comm->ctx,
		.cookie = (uint64_t)(uintptr_t)pt,
	};
	progress_commit(dst, pkt);
	return 1;
}

/* The stream of pt: push the outbox in order. */
static int pt_push(struct progress_stream *st, int dst)
{
	struct pkt_target *pt = (struct pkt_target *)st;

	while (pt->outbox.head) {
		struct rma_op *op = pt->outbox.head;

		if (op->kind == RMA_LOCKREQ || op->kind == RMA_UNLOCKREQ) {
			if (!op_emit_ctl(pt, op, dst))
				return 0;
		} else {
			do {
				if (!op_emit_one(pt, op, dst))
					return 0;
			} while (op->sent < op->bytes);
		}
		pt->outbox.head = op->next;
		if (!pt->outbox.head)
			pt->outbox.tail = NULL;
		pt->outbox.n--;
		/* a reply finds the operation by its cookie */
		if (!op_has_reply(op))
			op_free(op);
	}
	pt->streaming = 0;
	return 1;
}

/* Under the engine's lock: hand the outbox to the engine. */
static void pt_kick(struct pkt_target *pt)
{
	if (pt->outbox.head && !pt->streaming) {
		pt->streaming = 1;
		progress_stream_add(pt->world, &pt->st);
	}
}

/* ---- issuing and waiting ----------------------------------------------- */

/* The lock this rank's epoch holds on target (RMA_LOCK_NONE: an active
 * target epoch, MPI_MODE_NOCHECK, or a dynamic window, whose targets the
 * direct path locks). */
static int pt_epoch_lock(const struct win *w, int target)
{
	if (w->flavor == MPI_WIN_FLAVOR_DYNAMIC)
		return RMA_LOCK_NONE;
	switch (w->locked[target]) {
	case WIN_LOCKED_SHARED:
		return RMA_LOCK_SHARED;
	case WIN_LOCKED_EXCLUSIVE:
		return RMA_LOCK_EXCLUSIVE;
	case WIN_UNLOCKED:
		return w->lock_all == 1 ? RMA_LOCK_SHARED : RMA_LOCK_NONE;
	default:
		return RMA_LOCK_NONE;
	}
}

static struct rma_op *op_ctl(struct pkt_target *pt, int kind, int lock)
{
	struct rma_op *op = op_alloc();

	if (!op) {
		fprintf(stderr, "shmpi: rank %d: out of memory in RMA synchronization\n",
			rt.rank);
		runtime_abort_job(MPI_ERR_NO_MEM);
	}
	op->pt = pt;
	op->kind = (uint8_t)kind;
	op->lock = (uint8_t)lock;
	return op;
}

static int op_is_acc(const struct rma_op *op)
{
	return op->kind == RMA_ACC || op->kind == RMA_GACC || op->kind == RMA_CAS;
}

/* The adversarial mode: shuffle the queue, accumulates keeping their order
 * among themselves (the standard orders them, not puts and gets). */
static void queue_shuffle(struct op_list *l)
{
	struct rma_op *stack[64], **v = l->n <= 64 ? stack : malloc((size_t)l->n * sizeof(*v));
	struct rma_op *op;
	int n = 0;

	if (!v)
		return;		/* no memory: the order stays, which is legal too */
	for (op = l->head; op; op = op->next)
		v[n++] = op;
	for (int i = n - 1; i > 0; i--) {
		int j = (int)adv_below((uint64_t)i + 1, 0);

		op = v[i];
		v[i] = v[j];
		v[j] = op;
	}
	/* the accumulates back into the slots they landed in, in order */
	op = l->head;
	for (int i = 0; i < n; i++) {
		if (!op_is_acc(v[i]))
			continue;
		while (!op_is_acc(op))
			op = op->next;
		v[i] = op;
		op = op->next;
	}
	for (int i = 0; i < n; i++)
		v[i]->next = i + 1 < n ? v[i + 1] : NULL;
	l->head = v[0];
	l->tail = v[n - 1];
	if (v != stack)
		free(v);
}

/* Whether op leaves in one packet. */
static int op_fits_one(const struct rma_op *op)
{
	uint32_t nseg;
	size_t bytes;

	op_plan(op, &nseg, &bytes);
	return bytes == op->bytes;
}

/*
 * Send pt's queue under the epoch's lock (RMA_LOCK_NONE: none); with
 * unlock, the last operation releases it.  Under the engine's lock.
 */
static void pt_issue(struct pkt_target *pt, int lock, int unlock)
{
	struct rma_pkt_win *pw = pt->w->pkt;
	struct rma_op *last;

	if (lock == RMA_LOCK_NONE && !pt->queue.head)
		return;
	if (adv_on() && pt->queue.n > 1)
		queue_shuffle(&pt->queue);
	if (!pt->queue.head && !(unlock && pt->lock_state == LS_HELD)) {
		/* no operation, and no lock at the target to release */
		return;
	}
	if (!pt->queue.head)
		list_add(&pt->queue, op_ctl(pt, RMA_UNLOCKREQ, lock));
	last = pt->queue.tail;
	if (unlock && lock != RMA_LOCK_NONE)
		last->flags |= RMA_F_UNLOCK;
	if (!op_has_reply(last)) {
		last->flags |= RMA_F_ACK;
		pt->acks_due++;
	}
	for (struct rma_op *op = pt->queue.head; op; op = op->next)
		pt->pending += op_has_reply(op);
	if (lock == RMA_LOCK_NONE || pt->lock_state == LS_HELD) {
		list_move(&pt->outbox, &pt->queue);
	} else if (unlock && pt->queue.n == 1 && last->kind != RMA_UNLOCKREQ &&
		   op_fits_one(last)) {
		/* a lone short operation travels with the lock request */
		last->lock = (uint8_t)lock;
		pw->stats.single_ops++;
		pvar_c.locks_private++;	/* granted by the target as it arrives */
		list_move(&pt->outbox, &pt->queue);
	} else {
		pt->lock_type = lock;
		pt->lock_state = LS_REQUESTED;
		pw->stats.lock_requests++;
		list_add(&pt->outbox, op_ctl(pt, RMA_LOCKREQ, lock));
		list_move(&pt->waiting, &pt->queue);
	}
	pt_kick(pt);
}

/* Whether the target has acknowledged all that pt asked it to. */
static int pt_acked(const struct pkt_target *pt)
{
	/* acquire: pairs with the target's release of the count */
	return atomic_load_explicit(win_shm_ack(pt->w, pt->w->rank, pt->target),
				    memory_order_acquire) == pt->acks_due;
}

static int pt_done(void *arg)
{
	const struct pkt_target *pt = arg;

	return pt->pending == 0 && pt->lock_state != LS_REQUESTED && pt_acked(pt);
}

/* Wait in the engine until pt_done, telling the watchdog. */
static void pt_wait(struct pkt_target *pt, enum call_id call)
{
	int done;

	progress_lock();
	done = pt_done(pt);
	progress_unlock();
	if (done)
		return;
	state_block(call, WAIT_RMA_TARGET, pt->world, 0, pt->w->comm->ctx);
	progress_wait(pt_done, pt);
	state_unblock(call);
}

static struct pkt_target *pt_of(struct win *w, int target)
{
	return &w->pkt->t[target];
}

/* Ask for the epoch's lock on pt's target alone and wait for the grant;
 * the lock is then held until the epoch's unlock. */
static void pt_acquire(struct pkt_target *pt, int lock, enum call_id call)
{
	int granted;

	progress_lock();
	pt->lock_type = lock;
	pt->lock_state = LS_REQUESTED;
	pt->w->pkt->stats.lock_requests++;
	list_add(&pt->outbox, op_ctl(pt, RMA_LOCKREQ, lock));
	pt_kick(pt);
	granted = pt_done(pt);
	progress_unlock();
	if (!granted) {
		uint64_t start = pvar_now_ns();	/* the slow path: the clock is for it */
		int mode = lock == RMA_LOCK_EXCLUSIVE ? SHM_RANK_LOCK_EXCLUSIVE :
			   SHM_RANK_LOCK_SHARED;

		if (event_wanted(EVENT_RMA_LOCK_WAIT_BEGIN))
			event_rma_lock(EVENT_RMA_LOCK_WAIT_BEGIN, pt->w, pt->target, mode, 0);
		pt_wait(pt, call);
		pvar_lock_waited(start);
		if (event_wanted(EVENT_RMA_LOCK_WAIT_END))
			event_rma_lock(EVENT_RMA_LOCK_WAIT_END, pt->w, pt->target, mode,
				       pvar_now_ns() - start);
	}
}

/* Whether a flush of target would ask for a lock and keep it past the call:
 * its epoch has a lock not taken yet, and operations to take it for. */
static int pt_flush_locks(struct win *w, int target)
{
	const struct pkt_target *pt = pt_of(w, target);

	return w->t[target].path == WIN_PATH_PRIVATE &&
	       pt_epoch_lock(w, target) != RMA_LOCK_NONE && pt->lock_state == LS_NONE &&
	       pt->queue.head;
}

/*
 * Take the locks of the targets below `below` whose epochs are open and
 * whose locks are not held yet, in ascending order, one at a time: before
 * a flush keeps a lock past the call, and before a lock is taken at once
 * (a direct target of the same window, this rank itself, rma_passive.c).
 * Every lock this rank keeps is then taken after every lower one of its
 * open epochs, as MPI_Win_lock_all and nested ascending MPI_Win_lock calls
 * take them on the direct path: held locks never wait for lower targets,
 * and such programs never deadlock from locks.  The price: such a flush
 * or lock waits for the lower targets' engines too.  Requests that travel
 * with their unlock need not wait: the target releases them by itself.
 * lock_state is read outside the engine's lock: only this thread changes
 * it from LS_NONE (the engine's grant changes LS_REQUESTED, and nothing of
 * ours is requested here).  Not under MPI_THREAD_MULTIPLE (below).
 */
void rma_pkt_acquire_below(struct win *w, int below, enum call_id call)
{
	/* Under MPI_THREAD_MULTIPLE the open epochs may be other threads',
	 * whose locks this thread must not take or wait for (their state is
	 * theirs to change, and their order is not this thread's program
	 * order): each lock is then taken by its own epoch's calls alone. */
	if (rt.multi)
		return;
	for (int r = 0; r < below; r++)
		rma_pkt_acquire(w, r, call);
}

void rma_pkt_acquire(struct win *w, int target, enum call_id call)
{
	struct pkt_target *pt = pt_of(w, target);
	int lock = pt_epoch_lock(w, target);

	if (w->t[target].path == WIN_PATH_PRIVATE && lock != RMA_LOCK_NONE &&
	    pt->lock_state == LS_NONE)
		pt_acquire(pt, lock, call);
}

/* Send what is queued for target and wait until it is applied; unlock: the
 * epoch's lock goes with it. */
static void pt_sync(struct win *w, int target, int unlock, enum call_id call)
{
	struct pkt_target *pt = pt_of(w, target);

	if (!unlock && pt_flush_locks(w, target))
		rma_pkt_acquire_below(w, target, call);
	progress_lock();
	pt_issue(pt, pt_epoch_lock(w, target), unlock);
	progress_unlock();
	pt_wait(pt, call);
	if (unlock) {
		pt->lock_state = LS_NONE;
		pt->lock_type = RMA_LOCK_NONE;
	}
}

/* ---- the table of operations (win.h) ------------------------------------ */

static int priv_locate(struct win *w, int target, MPI_Aint disp, MPI_Aint lo,
		       MPI_Aint hi, struct rma_args *a)
{
	MPI_Aint at;

	if (win_target_offset(&w->t[target], disp, lo, hi, &at) != MPI_SUCCESS)
		return MPI_ERR_RMA_RANGE;
	a->toff = (uint64_t)at;
	return MPI_SUCCESS;
}

/* A new operation on a's target; NULL when out of memory. */
static struct rma_op *op_new(struct rma_args *a, int kind)
{
	struct rma_op *op;

	progress_lock();
	op = op_alloc();
	progress_unlock();
	if (!op)
		return NULL;
	op->pt = pt_of(a->w, a->target);
	op->kind = (uint8_t)kind;
	op->op = MPI_OP_NULL;
	op->obuf = a->obuf;
	op->odt = a->odt;
	op->tdt = a->tdt;
	op->tcount = a->tcount;
	op->toff = a->toff;
	op->bytes = a->bytes;
	op->esize = 1;
	dt_ref(op->odt);
	dt_ref(op->tdt);
	return op;
}

static void op_queue(struct rma_op *op)
{
	progress_lock();
	list_add(&op->pt->queue, op);
	progress_unlock();
}

/*
 * Single copy.  A put or get of at least SHMPI_SINGLE_COPY_RMA_MIN bytes to
 * another rank's private memory moves in one copy, during the call: the
 * origin writes the target's window memory itself with process_vm_writev,
 * or reads it with process_vm_readv, at the address the target gave at
 * the window's creation (win_target.addr; in a dynamic window the address
 * is the displacement), the runs of both datatypes as the two iovecs
 * (p2p_copy.h).  The access obeys the epoch and keeps the order of this
 * origin's operations to the target:
 *
 *   allowed   a fence, a PSCW start (which waited for the target's post)
 *             or MPI_MODE_NOCHECK allows it at once; in a lock or lock_all
 *             epoch the lock is taken first and kept to the unlock, after
 *             the locks of the lower targets' open epochs, as a flush that
 *             keeps its lock takes them (rma_pkt_acquire_below).  The call
 *             then waits for the target's engine, as such a flush does.
 *   ordered   what this origin queued for the target before (packets not
 *             sent yet, or sent and not yet applied) is sent and waited for
 *             first, a flush of that target alone: a packet put issued
 *             earlier never lands after the direct write, and a get after
 *             a put reads what the put wrote, as with packets alone (in
 *             order, applied one at a time).  Operations issued later find
 *             the copy done.
 *
 * When process_vm_* returns, the data is in place at the target (a put)
 * or here (a get): the operation is complete at both ends (MPI 3.1,
 * section 11.5), so flush, unlock, fence and complete have nothing left
 * to do for it.  Not taken: to this rank itself (its engine applies
 * those), for accumulates (the target's engine applies them one at a
 * time: atomic per element), in the adversarial mode (where every
 * operation waits for the synchronization that completes it), under
 * SHMPI_SINGLE_COPY=mapped or pipeline, and once the kernel refused a
 * process_vm_* call to this rank (p2p_copy.c): packets then, as before.
 * 1 when the copy is done, 0 when packets are to carry the operation.
 */
static int pt_single_copy(struct rma_args *a, void *obuf, int to_target)
{
	struct win *w = a->w;
	struct pkt_target *pt = pt_of(w, a->target);
	enum call_id call = to_target ? CALL_PUT : CALL_GET;
	int lock = pt_epoch_lock(w, a->target);
	uint64_t raddr = a->priv ? a->toff : w->t[a->target].addr + a->toff;

	if (a->target == w->rank || adv_on() || (!a->priv && !w->t[a->target].addr) ||
	    !copy_rma_usable(a->bytes))
		return 0;
	if (lock != RMA_LOCK_NONE && pt->lock_state == LS_NONE) {
		rma_pkt_acquire_below(w, a->target, call);
		pt_acquire(pt, lock, call);
	}
	pt_sync(w, a->target, 0, call);
	if (copy_rma(pt->world, to_target, obuf, a->ocount, a->odt, raddr, a->tcount,
		     a->tdt, a->bytes) < 0)
		return 0;
	w->pkt->stats.single_copies++;
	return 1;
}

static int priv_copy(struct rma_args *a, void *obuf, int to_target)
{
	size_t immed = to_target && a->bytes <= RMA_IMMED ? a->bytes : 0;
	struct rma_op *op;

	if (pt_single_copy(a, obuf, to_target))
		return MPI_SUCCESS;
	op = op_new(a, to_target ? RMA_PUT : RMA_GET);
	if (!op)
		return win_err(a->w, to_target ? "MPI_Put" : "MPI_Get", MPI_ERR_NO_MEM,
			       NULL, "out of memory");
	if (!to_target) {
		op->rbuf = obuf;
		op->rdt = a->odt;
		dt_ref(op->rdt);
	} else if (immed) {
		op->data = op->immed;
		dt_pack(a->odt, obuf, 0, op->data, immed);
	}
	op_queue(op);
	return MPI_SUCCESS;
}

/* Whether a get-accumulate's result buffer overlaps its origin buffer. */
static int acc_overlaps(const struct rma_args *a, const struct rma_accargs *x)
{
	MPI_Aint olo, ohi, rlo, rhi;

	if (!x->rdt || x->op_h == MPI_NO_OP ||
	    dt_span(a->odt, a->ocount, &olo, &ohi) < 0 ||
	    dt_span(x->rdt, x->rcount, &rlo, &rhi) < 0 || olo == ohi || rlo == rhi)
		return 0;
	return (uintptr_t)a->obuf + (uintptr_t)olo < (uintptr_t)x->result + (uintptr_t)rhi &&
	       (uintptr_t)x->result + (uintptr_t)rlo < (uintptr_t)a->obuf + (uintptr_t)ohi;
}

static int priv_acc(const char *call, struct rma_args *a, const struct rma_accargs *x)
{
	size_t bytes = x->n * (size_t)x->bt->extent;
	size_t immed = bytes <= RMA_IMMED && x->op_h != MPI_NO_OP ? bytes : 0;
	struct rma_op *op = op_new(a, x->rdt ? RMA_GACC : RMA_ACC);

	if (!op)
		return win_err(a->w, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	op->op = x->op_h;
	op->bt = x->bt;
	op->esize = (size_t)x->bt->extent;
	op->bytes = bytes;
	if (immed) {
		op->data = op->immed;
		dt_basic_copy(a->odt, x->bt, a->obuf, NULL, 0, x->n, op->data, 1);
	} else if (acc_overlaps(a, x)) {
		/* replies land in the result buffer while later pieces still
		 * read the origin buffer: the origin data is copied now
		 * (README, "Types and ops in RMA": overlapping buffers) */
		if (!(op->owned = malloc(bytes))) {
			progress_lock();
			op_free(op);
			progress_unlock();
			return win_err(a->w, call, MPI_ERR_NO_MEM, NULL, "out of memory");
		}
		op->data = op->owned;
		dt_basic_copy(a->odt, x->bt, a->obuf, NULL, 0, x->n, op->data, 1);
	}
	if (x->rdt) {
		op->rbuf = x->result;
		op->rdt = x->rdt;
		dt_ref(op->rdt);
	}
	op_queue(op);
	return MPI_SUCCESS;
}

static int priv_cas(const char *call, struct rma_args *a, const void *compare,
		    void *result)
{
	struct rma_op *op = op_new(a, RMA_CAS);
	size_t w = (size_t)a->odt->size;

	if (!op)
		return win_err(a->w, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	/* a type of MPI_Type_create_f90_* travels as its named type */
	op->bt = dt_get(a->odt->basic);
	op->esize = w;
	op->bytes = w;
	op->rbuf = result;
	memcpy(op->cas, compare, w);
	memcpy(op->cas + w, a->obuf, w);
	op_queue(op);
	return MPI_SUCCESS;
}

/* MPI_Win_lock: the request leaves at the first flush or at unlock; a lock
 * on this rank itself is taken now, since it guards local accesses too. */
static void priv_lock(struct win *w, int target, int type)
{
	struct pkt_target *pt = pt_of(w, target);
	int lock = type == MPI_LOCK_SHARED ? RMA_LOCK_SHARED : RMA_LOCK_EXCLUSIVE;

	if (target != w->rank)
		return;
	rma_pkt_acquire_below(w, target, CALL_WIN_LOCK);
	pt_acquire(pt, lock, CALL_WIN_LOCK);
}

static void priv_unlock(struct win *w, int target)
{
	pt_sync(w, target, 1, CALL_WIN_UNLOCK);
}

static void priv_flush(struct win *w, int target, enum call_id call)
{
	pt_sync(w, target, 0, call);
}

const struct win_ops win_ops_private = {
	.memory = "private",
	.locate = priv_locate,
	.range_err = win_range_err_static,
	.copy = priv_copy,
	.acc = priv_acc,
	.cas = priv_cas,
	.lock = priv_lock,
	.unlock = priv_unlock,
	.flush = priv_flush,
};

/* ---- synchronization over many targets ---------------------------------- */

/* Issue to every private target (ranks: those of a group, or all), then
 * wait for each. */
static void pkt_sync_many(struct win *w, enum call_id call, const int *ranks, int n,
			  int unlock)
{
	int count = ranks ? n : w->size;

	/* a flush of every target: the locks it keeps, in ascending order */
	for (int r = w->size - 1; !ranks && !unlock && r >= 0; r--)
		if (pt_flush_locks(w, r)) {
			rma_pkt_acquire_below(w, r + 1, call);
			break;
		}
	progress_lock();
	for (int i = 0; i < count; i++) {
		int r = ranks ? ranks[i] : i;

		if (w->t[r].path != WIN_PATH_DIRECT)
			pt_issue(pt_of(w, r), pt_epoch_lock(w, r), unlock);
	}
	progress_unlock();
	for (int i = 0; i < count; i++) {
		int r = ranks ? ranks[i] : i;

		if (w->t[r].path == WIN_PATH_DIRECT)
			continue;
		pt_wait(pt_of(w, r), call);
		if (unlock) {
			pt_of(w, r)->lock_state = LS_NONE;
			pt_of(w, r)->lock_type = RMA_LOCK_NONE;
		}
	}
}

void rma_pkt_complete(struct win *w, enum call_id call, const int *ranks, int n)
{
	if (w->npriv)
		pkt_sync_many(w, call, ranks, n, 0);
}

void rma_pkt_flush_all(struct win *w, enum call_id call)
{
	pkt_sync_many(w, call, NULL, 0, 0);
}

void rma_pkt_unlock_all(struct win *w)
{
	pkt_sync_many(w, CALL_WIN_UNLOCK_ALL, NULL, 0, 1);
}

int rma_pkt_queued(const struct win *w, int target)
{
	/* the queue is this thread's: the engine takes nothing from it */
	return w->pkt && w->pkt->t[target].queue.head;
}

int rma_pkt_busy(const struct win *w)
{
	int busy = 0;

	if (!w->pkt)
		return 0;
	progress_lock();
	for (int r = 0; r < w->size && !busy; r++) {
		const struct pkt_target *pt = &w->pkt->t[r];

		busy = pt->queue.head || pt->waiting.head || pt->outbox.head ||
		       pt->pending || pt->lock_state != LS_NONE || !pt_acked(pt);
	}
	progress_unlock();
	return busy;
}

void rma_pkt_stats(const struct win *w, struct rma_pkt_stats *out)
{
	*out = w->pkt ? w->pkt->stats : (struct rma_pkt_stats){ 0 };
}

/* ---- replies (the engine's handlers, under its lock) -------------------- */

static void on_grant(int src, const struct pkt *pkt, const void *payload, uint32_t len)
{
	struct pkt_target *pt = (struct pkt_target *)(uintptr_t)pkt->cookie;

	(void)src;
	(void)payload;
	(void)len;
	pt->lock_state = LS_HELD;
	pvar_c.locks_private++;
	list_move(&pt->outbox, &pt->waiting);
	pt_kick(pt);
}

static void on_reply(int src, const struct pkt *pkt, const void *payload, uint32_t len)
{
	const struct rma_wire_reply *h = payload;
	struct rma_op *op = (struct rma_op *)(uintptr_t)h->cookie;
	const char *d = (const char *)(h + 1);
	size_t n = len - sizeof(*h);

	(void)src;
	(void)pkt;
	if (op->kind == RMA_GET)
		dt_unpack(op->rdt, op->rbuf, h->stream_off, d, n);
	else if (op->kind == RMA_GACC)
		dt_basic_copy(op->rdt, op->bt, NULL, op->rbuf, h->stream_off / op->esize,
			      n / op->esize, (char *)d, 0);
	else
		memcpy(op->rbuf, d, n);
	op->got += n;
	if (op->got == op->bytes) {
		op->pt->pending--;
		op_free(op);
	}
}

/* ---- set-up ------------------------------------------------------------ */

int rma_pkt_win_init(struct win *w)
{
	struct rma_pkt_win *pw = calloc(1, sizeof(*pw));

	if (!pw || !(pw->t = calloc((size_t)w->size, sizeof(*pw->t)))) {
		free(pw);
		return -ENOMEM;
	}
	for (int r = 0; r < w->size; r++) {
		struct pkt_target *pt = &pw->t[r];

		pt->st.push = pt_push;
		pt->w = w;
		pt->target = r;
		pt->world = comm_world_rank(w->comm, r);
	}
	w->pkt = pw;
	return 0;
}

void rma_pkt_win_fini(struct win *w)
{
	if (!w->pkt)
		return;
	free(w->pkt->t);
	free(w->pkt);
	w->pkt = NULL;
}

void rma_pkt_origin_init(void)
{
	progress_register((enum pkt_type)PKT_RMA_GRANT, on_grant);
	progress_register((enum pkt_type)PKT_RMA_REPLY, on_reply);
}
