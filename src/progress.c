/*
 * The progress engine (see progress.h for its place, progress_int.h for
 * the files it is made of): its state and lock, the out-queues per peer,
 * and one pass over the channels, the out-queues and the hooks.
 *
 * Sleeping: a waiter sleeps on its doorbell after its wait condition and
 * ready() both failed; a peer that commits records to it, that releases
 * room it waits for, that completes a barrier or raises a PSCW or
 * acknowledgement count it waits for, rings the doorbell
 * (progress_wait.c).
 *
 * Strong progress (SHMPI_PROGRESS=strong): a progress thread sleeps on the
 * same doorbell and runs the engine whenever it is rung, so data moves while
 * the application computes outside MPI (progress_thread.c).  The engine's
 * state is then guarded by one recursive lock, taken by every entry point
 * of the engine (and by the few callers that touch what the engine
 * touches: buffered-send blocks, freeing and cancelling requests);
 * requests the thread would release are handed to the application thread's
 * next pass instead (the release touches communicators and handles, which
 * only the application thread changes).  Under weak progress there is no
 * thread and the lock is skipped.
 *
 * Publishing (state.h, for shmrun's watchdog): after each pass the engine
 * stores how many peers it owes records to, when that changed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chan.h"
#include "p2p_copy.h"
#include "progress_int.h"
#include "pvar.h"
#include "runtime.h"
#include "serial.h"
#include "state.h"

struct progress_eng eng;
__thread int eng_in_thread;

/* Other layers' work that every pass advances (progress_hook_add); kept
 * apart from eng, which progress_fini clears. */
#define PROGRESS_MAX_HOOKS 4
static progress_hook_t hooks[PROGRESS_MAX_HOOKS];
static int nhooks;

void progress_lock(void)
{
	eng_lock();
}

void progress_unlock(void)
{
	eng_unlock();
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
void progress_reap(void)
{
	while (eng.zombies) {
		struct request *r = eng.zombies;

		eng.zombies = r->next;
		req_release(r);
	}
}

void peer_activate(int dst)
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
void owes_publish(void)
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
	int rc = chan_init();

	if (rc)
		return rc;
	eng.n = rt.size;
	eng.me = rt.rank;
	eng.out = calloc((size_t)eng.n, sizeof(*eng.out));
	eng.active = calloc((size_t)eng.n, sizeof(*eng.active));
	if (!eng.out || !eng.active) {
		free(eng.out);
		free(eng.active);
		chan_fini();
		return -ENOMEM;
	}
	eng.chunk = chan_chunk() - (uint32_t)sizeof(struct pkt);
	eng.eager_max = eng.chunk < 8192 ? eng.chunk : 8192;
	copy_init();
	rc = rt.progress_strong ? progress_thread_start() : 0;
	state_strong(eng.strong, rt.multi);
	return rc;
}

void progress_fini(void)
{
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
	proto_fini();
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
	copy_fini();
	chan_fini();
}

void progress_register(enum pkt_type type, progress_handler_t fn)
{
	/* each layer numbers its types from PKT_USER on, after the layers
	 * before it (rma_pkt.h, then part.c): two handlers for one type
	 * would be a bug of shmpi's, found here at the first MPI_Init */
	if ((int)type < PKT_USER || type >= PKT_NTYPES ||
	    (eng.handlers[type] && eng.handlers[type] != fn)) {
		fprintf(stderr, "shmpi: rank %d: packet type %d: %s\n", eng.me, (int)type,
			(int)type < PKT_USER || type >= PKT_NTYPES ? "out of range" :
			"has two handlers");
		runtime_abort_job(MPI_ERR_INTERN);
	}
	eng.handlers[type] = fn;
}

void progress_hook_add(progress_hook_t fn)
{
	eng_lock();
	for (int i = 0; i < nhooks; i++)
		if (hooks[i] == fn)
			goto out;
	if (nhooks == PROGRESS_MAX_HOOKS) {
		fprintf(stderr, "shmpi: rank %d: too many progress hooks\n", eng.me);
		runtime_abort_job(MPI_ERR_INTERN);
	}
	hooks[nhooks++] = fn;
out:
	eng_unlock();
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


/* The ring to dst has no room for a record of len: remember to wait. */
void peer_block(int dst, uint32_t len)
{
	struct peer_out *o = &eng.out[dst];

	o->blocked = 1;
	o->need = len;
	chan_want_room(dst);
}

static void send_ctl_payload(int dst, const struct pkt *pkt, const void *payload,
			     uint32_t len)
{
	struct peer_out *o = &eng.out[dst];
	uint32_t rlen = (uint32_t)sizeof(*pkt) + len;
	struct ctl_pkt *c;
	char *rec;

	if (!o->ctl_head && (rec = chan_reserve(dst, rlen))) {
		memcpy(rec, pkt, sizeof(*pkt));
		if (len)
			memcpy(rec + sizeof(*pkt), payload, len);
		chan_commit(dst, rec);
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

void send_ctl(int dst, const struct pkt *pkt)
{
	send_ctl_payload(dst, pkt, NULL, 0);
}

void progress_send_ctl(int dst, const struct pkt *pkt, const void *payload,
		       uint32_t len)
{
	eng_lock();
	send_ctl_payload(dst, pkt, payload, len);
	owes_publish();
	eng_unlock();
}

uint32_t progress_record_max(void)
{
	return eng.chunk + (uint32_t)sizeof(struct pkt);
}

void *progress_reserve(int dst, uint32_t len)
{
	void *rec = chan_reserve(dst, len);

	if (!rec)
		peer_block(dst, len);
	return rec;
}

void progress_commit(int dst, void *rec)
{
	chan_commit(dst, rec);
	eng.commits++;
}

int push_peer(int dst)
{
	struct peer_out *o = &eng.out[dst];
	int pushed = 0;

	o->blocked = 0;
	while (o->ctl_head) {
		struct ctl_pkt *c = o->ctl_head;
		uint32_t len = (uint32_t)sizeof(c->pkt) + c->len;
		char *rec = chan_reserve(dst, len);

		if (!rec) {
			peer_block(dst, len);
			goto out;
		}
		memcpy(rec, &c->pkt, sizeof(c->pkt));
		if (c->len)
			memcpy(rec + sizeof(c->pkt), c->data, c->len);
		chan_commit(dst, rec);
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
	pushed += proto_push(dst);
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
		if (!o->blocked || chan_fits(dst, o->need))
			pushed += push_peer(dst);
		if (peer_has_work(o))
			eng.active[keep++] = dst;
		else
			o->active = 0;
	}
	eng.nactive = keep;
	return pushed;
}

void progress_stream_add(int dst, struct progress_stream *st)
{
	struct peer_out *o = &eng.out[dst];

	eng_lock();
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
	eng_unlock();
}

/* A record from src; nonzero when it completed the request the
 * application thread waits on (eng.wait_met): the pass ends there
 * (chan.h). */
static int handle_packet(int src, const struct pkt *pkt, const void *payload,
			 uint32_t n)
{
	eng.wait_met = 0;
	if (proto_packet(src, pkt, payload, n))
		return eng.wait_met;
	if (pkt->type >= PKT_NTYPES || !eng.handlers[pkt->type]) {
		fprintf(stderr, "shmpi: rank %d: corrupt packet (type %u) from rank %d\n",
			eng.me, pkt->type, src);
		runtime_abort_job(MPI_ERR_INTERN);
	}
	eng.handlers[pkt->type](src, pkt, payload, n);
	return 0;
}

/* ---- the engine -------------------------------------------------------- */

int poll_locked(void)
{
	int moved = 0;

	pvar_c.polls++;
	moved += chan_drain(handle_packet);
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

	eng_lock();
	if (eng.zombies && !eng_in_thread)
		progress_reap();
	moved = poll_locked();
	eng_unlock();
	return moved;
}

/* Whether a pass of the engine could do something now (under the lock). */
int engine_has_work(void)
{
	if (chan_incoming())
		return 1;
	for (int i = 0; i < eng.nactive; i++) {
		struct peer_out *o = &eng.out[eng.active[i]];

		if (!o->blocked)
			return 1;
		/* Raise the flag again before the look: the consumer may have
		 * taken it after releasing room that we filled again before we
		 * blocked, and would then not wake us for the room it releases
		 * next. */
		chan_want_room(eng.active[i]);
		if (chan_fits(eng.active[i], o->need))
			return 1;
	}
	return 0;
}
