/*
 * The progress engine (see progress.h for its place).
 *
 * Protocol on the channel rings, per (sender, receiver) pair:
 *  - a message of up to eager_max bytes travels as one EAGER record; a
 *    synchronous one carries PKT_F_SYNC and the receiver answers ACK once it
 *    matched;
 *  - a larger message travels as RTS; once the receiver matched it, it
 *    answers CTS naming its receive, and the sender's engine pushes DATA
 *    chunks as room frees up.  Data therefore moves only while the sender's
 *    engine runs: a buffered message sits in the sender's attach buffer
 *    until then (a progress chunk, MPI 4.1 section 2.9).
 * Headers leave in the order the sends started (non-overtaking per pair);
 * DATA and control packets (CTS, ACK) need no order.  A receiver drains its
 * rings completely on every pass: an unmatched EAGER message is copied to
 * the unexpected queue, an unmatched RTS is queued as is, so rings never
 * stay full while their receiver is inside MPI.  A matched probe takes an
 * unexpected message out of that queue at once (MPI 3.1, section 3.8.2);
 * the receive later given it (MPI_Mrecv) binds it as if it had just
 * matched it.
 *
 * Sleeping: a waiter sleeps on its doorbell after its wait condition and
 * ready() both failed; a peer that commits records to it, that releases
 * room it waits for (the ring's producer_waiting flag), that completes a
 * barrier or raises a PSCW or acknowledgement count it waits for, rings the
 * doorbell.
 *
 * Strong progress (SHMPI_PROGRESS=strong): a progress thread sleeps on the
 * same doorbell and runs the engine whenever it is rung, so data moves while
 * the application computes outside MPI.  The engine's state is then guarded
 * by one recursive lock, taken by every entry point of this file (and by the
 * few callers that touch what the engine touches: buffered-send blocks,
 * freeing and cancelling requests); requests the thread would release are
 * handed to the application thread's next pass instead (the release touches
 * communicators and handles, which only the application thread changes).
 * Under weak progress there is no thread and the lock is skipped.
 *
 * Publishing (state.h, for shmrun's watchdog): after each pass the engine
 * stores how many peers it owes records to, when that changed.  While the
 * application thread waits on one request (the `arg` of progress_wait,
 * compared as a pointer only), the engine says when that request comes to
 * depend on the other side's engine: a receive whose rendezvous message is
 * matched (CTS sent: only the sender's engine pushes the data) or a send
 * that got its CTS (the receiver's engine drains the data).  The matched
 * receives still waiting for data are kept on eng.receiving so that a wait
 * that begins after the match is told as well.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../shm/futex.h"
#include "bsend.h"
#include "comm.h"
#include "datatype.h"
#include "progress.h"
#include "pvar.h"
#include "runtime.h"
#include "serial.h"
#include "state.h"

/* Control packets (and their payload) that found no room and wait for it,
 * per peer. */
struct ctl_pkt {
	struct ctl_pkt *next;
	uint32_t len;		/* payload bytes */
	struct pkt pkt;
	char data[];
};

/* An unmatched incoming message: a copied EAGER one, or an RTS. */
struct unexp {
	int src;		/* job rank */
	struct pkt pkt;
	struct unexp *next;
	char data[];		/* EAGER payload */
};

struct req_list {
	struct request *head, *tail;
};

struct peer_out {
	struct ctl_pkt *ctl_head, *ctl_tail;
	struct req_list queued;	/* sends whose header is not out yet */
	struct req_list data;	/* rendezvous sends pushing data */
	struct progress_stream *st_head, *st_tail;	/* later layers' streams */
	uint32_t need;		/* bytes of the record that found no room */
	int blocked;		/* the ring was full: wait for room */
	int active;		/* on eng.active */
};

static struct {
	int n, me;
	uint32_t eager_max;	/* largest message sent EAGER */
	uint32_t chunk;		/* DATA payload per record */
	struct peer_out *out;
	int *active;		/* peers with outgoing work */
	int nactive;
	int nsends;		/* sends not yet complete on the out queues */
	struct req_list posted;
	struct req_list receiving;	/* matched rendezvous receives, data to come */
	struct unexp *unexp_head, *unexp_tail;
	progress_handler_t handlers[PKT_NTYPES];
	int strong;		/* a progress thread runs */
	pthread_mutex_t lock;	/* recursive; taken only when strong */
	pthread_t thread;
	atomic_int stop;	/* tells the thread to end */
	struct request *zombies;	/* released by the application thread */
	const void *wait_arg;	/* what the application thread waits on, or NULL */
	uint32_t owes_published;	/* the last eng.nactive stored in the state */
	uint64_t commits;	/* records committed through progress_commit() */
} eng;

static __thread int eng_in_thread;

/* Other layers' work that every pass advances (progress_hook_add); kept
 * apart from eng, which progress_fini clears. */
#define PROGRESS_MAX_HOOKS 4
static progress_hook_t hooks[PROGRESS_MAX_HOOKS];
static int nhooks;

/* Under MPI_THREAD_MULTIPLE the engine's lock is the lock of serial.h,
 * which every call holds already (rt.multi is set before the progress
 * thread starts and kept until it has ended). */
void progress_lock(void)
{
	if (rt.multi)
		serial_lock();
	else if (eng.strong)
		pthread_mutex_lock(&eng.lock);
}

void progress_unlock(void)
{
	if (rt.multi)
		serial_unlock();
	else if (eng.strong)
		pthread_mutex_unlock(&eng.lock);
}

int progress_in_thread(void)
{
	return eng_in_thread;
}

int progress_is_strong(void)
{
	return eng.strong;
}

/* From the thread, under the lock. */
void progress_defer_release(struct request *r)
{
	r->next = eng.zombies;
	eng.zombies = r;
}

/* The application thread, under the lock: release what the thread left. */
static void progress_reap(void)
{
	while (eng.zombies) {
		struct request *r = eng.zombies;

		eng.zombies = r->next;
		req_release(r);
	}
}

/* ---- lists ----------------------------------------------------------- */

static void list_append(struct req_list *l, struct request *r)
{
	r->next = NULL;
	r->prev = l->tail;
	if (l->tail)
		l->tail->next = r;
	else
		l->head = r;
	l->tail = r;
}

static void list_remove(struct req_list *l, struct request *r)
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

static void peer_activate(int dst)
{
	if (!eng.out[dst].active) {
		eng.out[dst].active = 1;
		eng.active[eng.nactive++] = dst;
	}
}

static int peer_has_work(const struct peer_out *o)
{
	return o->ctl_head || o->queued.head || o->data.head || o->st_head;
}

/* After a pass: to how many peers the engine owes records (eng.active may
 * still list peers it owes nothing until push_all() compacts it), stored
 * only when that changed. */
static void owes_publish(void)
{
	uint32_t owes = 0;

	for (int i = 0; i < eng.nactive; i++) {
		const struct peer_out *o = &eng.out[eng.active[i]];

		owes += peer_has_work(o);
	}
	if (eng.owes_published != owes) {
		eng.owes_published = owes;
		state_owes(owes);
	}
}

/* ---- set-up ------------------------------------------------------------ */

int progress_init(void)
{
	uint64_t cap = rt.job->chan_cap;
	uint32_t max_record = (uint32_t)(cap / 2 - 8);
	int rc;

	eng.n = rt.size;
	eng.me = rt.rank;
	eng.out = calloc((size_t)eng.n, sizeof(*eng.out));
	eng.active = calloc((size_t)eng.n, sizeof(*eng.active));
	if (!eng.out || !eng.active) {
		free(eng.out);
		free(eng.active);
		return -ENOMEM;
	}
	/* a quarter of the ring per record keeps several chunks in flight: four
	 * spans, and the 8 bytes a record needs free after it (shm/ring.h) */
	eng.chunk = (uint32_t)(cap / 4) - (uint32_t)sizeof(struct pkt) - 16;
	if (eng.chunk > max_record - sizeof(struct pkt))
		eng.chunk = max_record - (uint32_t)sizeof(struct pkt);
	eng.eager_max = eng.chunk < 8192 ? eng.chunk : 8192;
	rc = rt.progress_strong ? progress_thread_start() : 0;
	state_strong(eng.strong, rt.multi);
	return rc;
}

void progress_fini(void)
{
	struct unexp *u = eng.unexp_head;

	if (eng.strong) {
		/* the thread may wait for the lock of serial.h, which this
		 * call holds under MPI_THREAD_MULTIPLE: let go while it ends */
		unsigned holds = serial_release();

		/* relaxed: the ring after it fences; the thread looks again
		 * after every wake-up, and the join orders the rest */
		atomic_store_explicit(&eng.stop, 1, memory_order_relaxed);
		progress_wake_rank(eng.me);
		pthread_join(eng.thread, NULL);
		serial_reacquire(holds);
		pthread_mutex_destroy(&eng.lock);
		eng.strong = 0;
	}
	progress_reap();

	while (u) {
		struct unexp *next = u->next;

		free(u);
		pvar_unexpected_remove();
		u = next;
	}
	for (int p = 0; p < eng.n; p++) {
		struct ctl_pkt *c = eng.out[p].ctl_head;

		while (c) {
			struct ctl_pkt *next = c->next;

			free(c);
			c = next;
		}
	}
	free(eng.out);
	free(eng.active);
	memset(&eng, 0, sizeof(eng));
}

void progress_register(enum pkt_type type, progress_handler_t fn)
{
	eng.handlers[type] = fn;
}

void progress_hook_add(progress_hook_t fn)
{
	progress_lock();
	for (int i = 0; i < nhooks; i++)
		if (hooks[i] == fn)
			goto out;
	if (nhooks == PROGRESS_MAX_HOOKS) {
		fprintf(stderr, "shmpi: rank %d: too many progress hooks\n", eng.me);
		runtime_abort_job(MPI_ERR_INTERN);
	}
	hooks[nhooks++] = fn;
out:
	progress_unlock();
}

void progress_wake_rank(int world_rank)
{
	struct shm_rank_ctl *r = shm_job_rank(rt.job, world_rank);

	/* bell_asym shares the line of the sleepers count the ring reads */
	if (rt.membarrier && atomic_load_explicit(&r->bell_asym, memory_order_relaxed))
		shm_waitword_ring_asym(&r->doorbell);
	else
		shm_waitword_ring(&r->doorbell);
}

/* Sleep on this rank's doorbell unless ready(arg), the way its ringers
 * expect (runtime.c).  Should shm_membarrier() fail, every sleep still
 * fences and lasts at most this long: the flag that lets ringers skip
 * their fence is never taken back. */
#define BELL_FALLBACK_NS 1000000L

static void doorbell_sleep(int (*ready)(void *), void *arg, const struct timespec *nap)
{
	static const struct timespec fallback = { 0, BELL_FALLBACK_NS };

	if (rt.bell_asym)
		(void)shm_waitword_sleep_unless_asym(&rt.self->doorbell, ready, arg,
						     &fallback, nap);
	else
		shm_waitword_sleep_unless(&rt.self->doorbell, ready, arg, nap);
}

/* ---- sending ----------------------------------------------------------- */

static struct shm_ring *ring_to(int dst)
{
	return shm_job_ring(rt.job, eng.me, dst);
}

static struct shm_ring *ring_from(int src)
{
	return shm_job_ring(rt.job, src, eng.me);
}

/* The ring to dst has no room for a record of len: remember to wait. */
static void peer_block(int dst, uint32_t len)
{
	struct peer_out *o = &eng.out[dst];

	o->blocked = 1;
	o->need = len;
	shm_ring_set_waiting(ring_to(dst));
}

static void send_ctl_payload(int dst, const struct pkt *pkt, const void *payload,
			     uint32_t len)
{
	struct peer_out *o = &eng.out[dst];
	uint32_t rlen = (uint32_t)sizeof(*pkt) + len;
	struct ctl_pkt *c;
	char *rec;

	if (!o->ctl_head && (rec = shm_ring_reserve(ring_to(dst), rlen))) {
		memcpy(rec, pkt, sizeof(*pkt));
		if (len)
			memcpy(rec + sizeof(*pkt), payload, len);
		shm_ring_commit(ring_to(dst), rec);
		progress_wake_rank(dst);
		return;
	}
	c = malloc(sizeof(*c) + len);
	if (!c) {
		fprintf(stderr, "shmpi: rank %d: out of memory in the progress engine\n",
			eng.me);
		runtime_abort_job(MPI_ERR_NO_MEM);
	}
	c->pkt = *pkt;
	c->len = len;
	if (len)
		memcpy(c->data, payload, len);
	c->next = NULL;
	if (o->ctl_tail)
		o->ctl_tail->next = c;
	else
		o->ctl_head = c;
	o->ctl_tail = c;
	peer_activate(dst);
}

static void send_ctl(int dst, const struct pkt *pkt)
{
	send_ctl_payload(dst, pkt, NULL, 0);
}

void progress_send_ctl(int dst, const struct pkt *pkt, const void *payload,
		       uint32_t len)
{
	progress_lock();
	send_ctl_payload(dst, pkt, payload, len);
	owes_publish();
	progress_unlock();
}

uint32_t progress_record_max(void)
{
	return eng.chunk + (uint32_t)sizeof(struct pkt);
}

void *progress_reserve(int dst, uint32_t len)
{
	void *rec = shm_ring_reserve(ring_to(dst), len);

	if (!rec)
		peer_block(dst, len);
	return rec;
}

void progress_commit(int dst, void *rec)
{
	shm_ring_commit(ring_to(dst), rec);
	eng.commits++;
}

static void send_finish(struct request *r)
{
	r->stage = SEND_DONE;
	eng.nsends--;
	req_complete(r);
}

/* Push the header (and, EAGER, the data) of the oldest queued send. */
static int push_header(int dst, struct request *r)
{
	struct shm_ring *ring = ring_to(dst);
	int eager = r->bytes <= eng.eager_max;
	uint32_t len = (uint32_t)sizeof(struct pkt) + (eager ? (uint32_t)r->bytes : 0);
	struct pkt *pkt = shm_ring_reserve(ring, len);

	if (!pkt) {
		peer_block(dst, len);
		return 0;
	}
	*pkt = (struct pkt){
		.type = eager ? PKT_EAGER : PKT_RTS,
		.flags = r->mode == SEND_SYNC ? PKT_F_SYNC : 0,
		.tag = r->tag,
		.ctx = r->ctx,
		.size = r->bytes,
		.cookie = (uint64_t)(uintptr_t)r,
	};
	if (eager)
		dt_pack(r->dt, r->sbuf, 0, pkt + 1, r->bytes);
	shm_ring_commit(ring, pkt);
	list_remove(&eng.out[dst].queued, r);
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
	struct shm_ring *ring = ring_to(dst);
	int pushed = 0;

	while (r->done < r->bytes) {
		size_t left = r->bytes - r->done;
		uint32_t n = left < eng.chunk ? (uint32_t)left : eng.chunk;
		uint32_t len = (uint32_t)sizeof(struct pkt) + n;
		struct pkt *pkt = shm_ring_reserve(ring, len);

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
		shm_ring_commit(ring, pkt);
		r->done += n;
		pushed++;
	}
	list_remove(&eng.out[dst].data, r);
	send_finish(r);
	return pushed;
}

/* Push what fits to dst: control packets, then headers, then data. */
static int push_peer(int dst)
{
	struct peer_out *o = &eng.out[dst];
	struct shm_ring *ring = ring_to(dst);
	int pushed = 0;

	o->blocked = 0;
	while (o->ctl_head) {
		struct ctl_pkt *c = o->ctl_head;
		uint32_t len = (uint32_t)sizeof(c->pkt) + c->len;
		char *rec = shm_ring_reserve(ring, len);

		if (!rec) {
			peer_block(dst, len);
			goto out;
		}
		memcpy(rec, &c->pkt, sizeof(c->pkt));
		if (c->len)
			memcpy(rec + sizeof(c->pkt), c->data, c->len);
		shm_ring_commit(ring, rec);
		o->ctl_head = c->next;
		if (!o->ctl_head)
			o->ctl_tail = NULL;
		free(c);
		pushed++;
	}
	while (o->st_head) {
		struct progress_stream *st = o->st_head;
		uint64_t before = eng.commits;
		int done = st->push(st, dst);

		pushed += (int)(eng.commits - before);
		if (!done)
			goto out;
		o->st_head = st->next;
		if (!o->st_head)
			o->st_tail = NULL;
		if (st->done)
			st->done(st);
	}
	while (o->queued.head) {
		if (!push_header(dst, o->queued.head))
			goto out;
		pushed++;
	}
	while (o->data.head) {
		struct request *r = o->data.head;

		pushed += push_data(dst, r);
		if (o->blocked)
			goto out;
	}
out:
	if (pushed)
		progress_wake_rank(dst);
	return pushed;
}

static int push_all(void)
{
	int pushed = 0, keep = 0;

	for (int i = 0; i < eng.nactive; i++) {
		int dst = eng.active[i];
		struct peer_out *o = &eng.out[dst];

		/* a blocked peer is retried only once its ring has room */
		if (!o->blocked || shm_ring_fits(ring_to(dst), o->need))
			pushed += push_peer(dst);
		if (peer_has_work(o))
			eng.active[keep++] = dst;
		else
			o->active = 0;
	}
	eng.nactive = keep;
	return pushed;
}

void progress_send_start(struct request *r)
{
	struct peer_out *o = &eng.out[r->peer_world];

	progress_lock();
	r->stage = SEND_QUEUED;
	r->done = 0;
	eng.nsends++;
	/* the application's messages, not the library's own (ctx + 1) */
	if (r->ctx == r->comm->ctx) {
		pvar_c.sent++;
		pvar_c.sent_bytes += r->bytes;
	}
	list_append(&o->queued, r);
	peer_activate(r->peer_world);
	/* the header (and small data) leaves now unless others are ahead */
	if (o->queued.head == r && !o->ctl_head && !o->blocked)
		push_peer(r->peer_world);
	owes_publish();
	progress_unlock();
}

void progress_stream_add(int dst, struct progress_stream *st)
{
	struct peer_out *o = &eng.out[dst];

	progress_lock();
	st->next = NULL;
	if (o->st_tail)
		o->st_tail->next = st;
	else
		o->st_head = st;
	o->st_tail = st;
	peer_activate(dst);
	/* it leaves now unless others are ahead of it */
	if (o->st_head == st && !o->ctl_head && !o->blocked)
		push_peer(dst);
	owes_publish();
	progress_unlock();
}

int progress_sends_pending(void)
{
	int pending;

	progress_lock();
	pending = eng.nsends > 0 || eng.nactive > 0;
	progress_unlock();
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
			list_remove(&eng.posted, r);
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
	req_complete(r);
}

static void recv_rts(struct request *r, int src, const struct pkt *pkt)
{
	struct pkt cts = {
		.type = PKT_CTS,
		.cookie = pkt->cookie,
		.cookie2 = (uint64_t)(uintptr_t)r,
	};

	recv_bind(r, src, pkt);
	list_append(&eng.receiving, r);
	if ((const void *)r == eng.wait_arg)
		state_wait_refine(WAIT_RECV_DATA, src);
	send_ctl(src, &cts);
}

static void unexp_add(int src, const struct pkt *pkt, const void *data, uint32_t n)
{
	struct unexp *u = malloc(sizeof(*u) + n);

	if (!u) {
		fprintf(stderr, "shmpi: rank %d: out of memory for an unexpected message\n",
			eng.me);
		runtime_abort_job(MPI_ERR_NO_MEM);
	}
	u->src = src;
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
			list_append(&eng.posted, r);
			return;
		}
		unexp_unlink(u, prev);
	}
	if (u->pkt.type == PKT_EAGER)
		recv_eager(r, u->src, &u->pkt, u->data);
	else
		recv_rts(r, u->src, &u->pkt);
	free(u);
}

void progress_recv_post(struct request *r)
{
	progress_lock();
	recv_post_locked(r);
	owes_publish();
	progress_unlock();
}

int progress_recv_cancel(struct request *r)
{
	int taken = 0;

	progress_lock();
	if (!r->matched && !req_is_complete(r)) {
		list_remove(&eng.posted, r);
		taken = 1;
	}
	progress_unlock();
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

	progress_lock();
	u = unexp_find(ctx, src_world, tag, &prev);
	if (u)
		unexp_status(c, u, status);
	progress_unlock();
	return u != NULL;
}

struct unexp *progress_mprobe(struct comm *c, uint32_t ctx, int source, int tag,
			      MPI_Status *status)
{
	int src_world = source == MPI_ANY_SOURCE ? -1 : comm_world_rank(c, source);
	struct unexp *u, *prev;

	progress_lock();
	u = unexp_find(ctx, src_world, tag, &prev);
	if (u) {
		unexp_unlink(u, prev);
		unexp_status(c, u, status);
	}
	progress_unlock();
	return u;
}

void progress_unexp_free(struct unexp *u)
{
	free(u);
}

static void handle_packet(int src, const struct pkt *pkt, const void *payload,
			  uint32_t n)
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
			recv_rts(r, src, pkt);
		else
			unexp_add(src, pkt, NULL, 0);
		break;
	case PKT_CTS:
		r = (struct request *)(uintptr_t)pkt->cookie;
		r->peer_cookie = pkt->cookie2;
		r->stage = SEND_DATA;
		list_append(&eng.out[src].data, r);
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
			list_remove(&eng.receiving, r);
			req_complete(r);
		}
		break;
	case PKT_ACK:
		r = (struct request *)(uintptr_t)pkt->cookie;
		send_finish(r);
		break;
	default:
		if (pkt->type >= PKT_NTYPES || !eng.handlers[pkt->type]) {
			fprintf(stderr, "shmpi: rank %d: corrupt packet (type %u) from rank %d\n",
				eng.me, pkt->type, src);
			runtime_abort_job(MPI_ERR_INTERN);
		}
		eng.handlers[pkt->type](src, pkt, payload, n);
	}
}

static int drain(int src)
{
	struct shm_ring *ring = ring_from(src);
	uint32_t len;
	void *rec;
	int got = 0;

	while ((rec = shm_ring_peek(ring, &len)) != NULL) {
		const struct pkt *pkt = rec;

		handle_packet(src, pkt, pkt + 1, len - (uint32_t)sizeof(*pkt));
		shm_ring_release(ring);
		got++;
	}
	if (got && shm_ring_take_waiting(ring))
		progress_wake_rank(src);
	return got;
}

/* ---- the engine -------------------------------------------------------- */

static int poll_locked(void)
{
	int moved = 0;

	pvar_c.polls++;
	for (int src = 0; src < eng.n; src++)
		if (shm_ring_nonempty(ring_from(src)))
			moved += drain(src);
	if (eng.nactive)
		moved += push_all();
	for (int i = 0; i < nhooks; i++)
		moved += hooks[i]();
	/* relaxed: the watchdog only compares the count with its last look */
	if (moved)
		atomic_fetch_add_explicit(&rt.self->progress, 1, memory_order_relaxed);
	owes_publish();
	return moved;
}

int progress_poll(void)
{
	int moved;

	progress_lock();
	if (eng.zombies && !eng_in_thread)
		progress_reap();
	moved = poll_locked();
	progress_unlock();
	return moved;
}

struct wait_for {
	int (*done)(void *);
	void *arg;
};

/* Whether a pass of the engine could do something now (under the lock). */
static int engine_has_work(void)
{
	for (int src = 0; src < eng.n; src++)
		if (shm_ring_nonempty(ring_from(src)))
			return 1;
	for (int i = 0; i < eng.nactive; i++) {
		struct peer_out *o = &eng.out[eng.active[i]];
		struct shm_ring *ring = ring_to(eng.active[i]);

		if (!o->blocked)
			return 1;
		/* Raise the flag again before the look: the consumer may have
		 * taken it after releasing room that we filled again before we
		 * blocked, and would then not wake us for the room it releases
		 * next. */
		shm_ring_set_waiting(ring);
		if (shm_ring_fits(ring, o->need))
			return 1;
	}
	return 0;
}

/* Whether to stay awake: the wait is over, or the engine has work.
 * Checked after announcing ourselves on the doorbell. */
static int progress_ready(void *wait)
{
	struct wait_for *w = wait;
	int ready;

	progress_lock();
	ready = w->done(w->arg) || engine_has_work();
	progress_unlock();
	return ready;
}

/* The application thread begins to wait on arg: if it is a request whose
 * data already depends on the other side's engine, say so (see the top). */
static void wait_begin(const void *arg)
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

static void wait_loop(int (*done)(void *), void *arg, const void *key,
		      const struct timespec *nap);

void progress_wait(int (*done)(void *), void *arg)
{
	wait_loop(done, arg, arg, NULL);
}

void progress_wait_keyed(int (*done)(void *), void *arg, const void *key)
{
	wait_loop(done, arg, key, NULL);
}

void progress_wait_napping(int (*done)(void *), void *arg, const struct timespec *nap)
{
	wait_loop(done, arg, arg, nap);
}

/*
 * Under MPI_THREAD_MULTIPLE a waiter spins, yields and sleeps without the
 * lock of serial.h, which the other threads of the process need meanwhile:
 * what this thread waits for may be what one of them is about to do
 * (serial_release and serial_sleep_begin let go of nothing below that
 * level).  Its sleeps then last WAIT_MULTI_NAP_NS at most, a safety net
 * under the doorbell that completions ring (serial.c).
 */
#define WAIT_MULTI_NAP_NS 2000000L

static const struct timespec *wait_nap(const struct timespec *nap)
{
	static const struct timespec multi_nap = { 0, WAIT_MULTI_NAP_NS };

	if (rt.multi && (!nap || nap->tv_sec > 0 || nap->tv_nsec > WAIT_MULTI_NAP_NS))
		return &multi_nap;
	return nap;
}

static void wait_loop(int (*done)(void *), void *arg, const void *key,
		      const struct timespec *nap)
{
	struct wait_for w = { done, arg };
	unsigned idle = 0, holds;

	progress_lock();
	wait_begin(key);
	progress_unlock();
	for (;;) {
		int finished;

		if (progress_poll())
			idle = 0;
		progress_lock();
		finished = done(arg);
		if (finished)
			eng.wait_arg = NULL;
		progress_unlock();
		if (finished)
			return;
		if (idle < rt.spins + rt.yields) {
			holds = serial_release();
			/* a rank that shares our CPU may be the one we wait for */
			if (idle++ < rt.spins)
				shm_cpu_relax();
			else
				sched_yield();
			serial_reacquire(holds);
			continue;
		}
		holds = serial_sleep_begin();
		doorbell_sleep(progress_ready, &w, wait_nap(nap));
		serial_sleep_end(holds);
		idle = 0;
	}
}

/* ---- the progress thread (strong progress) ------------------------------ */

static int thread_ready(void *unused)
{
	int ready;

	(void)unused;
	/* relaxed: as where progress_fini sets it */
	if (atomic_load_explicit(&eng.stop, memory_order_relaxed))
		return 1;
	progress_lock();
	ready = engine_has_work();
	progress_unlock();
	return ready;
}

/* Asleep on the doorbell until a peer gives this rank something to do; then
 * one pass of the engine.  It costs nothing while nothing happens. */
static void *progress_thread(void *unused)
{
	(void)unused;
	eng_in_thread = 1;
	shm_futex_count_slot(1);	/* its own futex counts (shm/futex.h) */
	/* relaxed: as where progress_fini sets it */
	while (!atomic_load_explicit(&eng.stop, memory_order_relaxed)) {
		doorbell_sleep(thread_ready, NULL, NULL);
		progress_poll();
	}
	return NULL;
}

int progress_thread_start(void)
{
	pthread_mutexattr_t attr;
	sigset_t all, old;
	int rc;

	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
	rc = pthread_mutex_init(&eng.lock, &attr);
	pthread_mutexattr_destroy(&attr);
	if (rc)
		return -rc;
	eng.strong = 1;
	/* signals stay with the application's threads */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&eng.thread, NULL, progress_thread, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		eng.strong = 0;
		pthread_mutex_destroy(&eng.lock);
		return -rc;
	}
	return 0;
}
