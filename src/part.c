/*
 * Partitioned point-to-point communication (MPI 4.1, chapter 4):
 * MPI_Psend_init, MPI_Precv_init, MPI_Pready(_range, _list), MPI_Parrived.
 * MPI_Start(all), the completion calls and MPI_Request_free are request.c's.
 *
 * Matching.  MPI_Psend_init sends the destination a HELLO packet (its
 * context, tag, size in bytes and partition count); MPI_Precv_init queues
 * the receive.  The destination's engine matches HELLOs against queued
 * receives of the same (context, source, tag) in the order both were
 * initialized (MPI 4.1, section 4.2.3, Semantics of Communications in
 * Partitioned Mode, "Order"), whichever comes first, once for the life of
 * the two requests.  A HELLO is a packet of its own type, so partitioned
 * operations never match ordinary messages.
 *
 * The shared area.  On matching, the receiver creates a segment of its own
 * (struct part_shm) and answers CTS with its name; the sender maps it and
 * unlinks the name (both have it then: nothing of it stays in /dev/shm).
 * It holds the receiver's round (the rounds it has started), one counter
 * per receive partition, one of published send partitions, and a staging
 * area of the message's size whose pages are backed only when the sender
 * chooses to stage (SHM_SEG_SPARSE).
 *
 * A partition marked ready is published at once by the thread that marks
 * it, with no engine involved: its bytes go straight into the receive
 * buffer (process_vm_writev(2) into the receiver, or a plain copy when the
 * receiver is this process) when the receive datatype is contiguous and the
 * kernel lets the sender write there (a one-word probe into the shared area
 * at matching time tells), else into the staging area, from which the
 * receiver unpacks it in MPI_Parrived or at completion.  Then every counter
 * of a receive partition it overlaps gets +1 with release, and the
 * published count +1 with release.  Send partition i covers units
 * [i R, (i+1) R) and receive partition j units [j S, (j+1) S) of a message
 * of S R units (S send and R receive partitions), so counts may differ on
 * the two sides; a receive partition has arrived in round k once its
 * counter reached k times the number of send partitions that overlap it
 * (an acquire load: MPI_Parrived needs no engine when it has).  Counters
 * only grow, so nothing is reset between rounds.
 *
 * Rounds.  The sender writes round k only once the receiver has started
 * round k (its round in the shared area, stored with release at its
 * MPI_Start and read with acquire by the sender): the receive buffer is
 * the receiver's between its rounds.  Until then, and until matching,
 * MPI_Pready only marks the partition pending; the engine's hook (or a
 * later MPI_Pready) sends the pending ones once the round opens, and the
 * receiver's MPI_Start rings the sender's doorbell so that a sender asleep
 * in MPI_Wait looks again.  The sender completes when the last partition
 * of its round is published; the receiver when the published count reached
 * k S (the last publisher rings its doorbell).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "../shm/atomic.h"
#include "../shm/job.h"
#include "../shm/knob.h"
#include "api.h"
#include "comm.h"
#include "datatype.h"
#include "errhandler.h"
#include "info.h"
#include "knobs.h"
#include "p2p.h"
#include "part.h"
#include "progress.h"
#include "runtime.h"

/* Packet types (after those of rma_pkt.h). */
enum {
	PKT_PART_HELLO = PKT_USER + 12,	/* sender -> receiver: tag, ctx, size =
					 * bytes, cookie = sender's state,
					 * cookie2 = partitions */
	PKT_PART_CTS,			/* receiver -> sender: cookie, tag = error
					 * class, size = receive address for
					 * direct writes (0: stage), cookie2 =
					 * the segment's address at the
					 * receiver; payload: segment name */
};

/* How a matched sender writes its partitions. */
enum part_mode {
	PART_NONE,	/* nothing to write (empty message, or an error) */
	PART_LOCAL,	/* a receive of this process: copy into its buffer */
	PART_CMA,	/* process_vm_writev into the receiver's buffer */
	PART_STAGE,	/* into the staging area; the receiver unpacks */
};

#define PART_MAGIC 0x54524150u	/* "PART" */
#define PART_VERSION 1u

/* The shared area of a matched pair, created by the receiver. */
struct part_shm {
	uint32_t magic;
	uint32_t version;
	uint64_t size;			/* of the segment */
	uint64_t stage_off;		/* the staging area (message bytes) */
	uint32_t rparts;		/* counters at cnt_off */
	uint32_t cnt_off;
	shm_atomic_u32 mode;		/* the sender's enum part_mode */
	uint32_t probe;			/* the sender's process_vm_writev probe */
	/* the receiver's rounds started: release at its MPI_Start, acquire by
	 * the sender before it writes a round's data */
	_Alignas(SHM_CACHE_LINE) shm_atomic_u32 recv_round;
	/* send partitions published, every round: release by each publisher,
	 * acquire by the receiver's completion check */
	_Alignas(SHM_CACHE_LINE) shm_atomic_u32 published;
};

_Static_assert(sizeof(struct part_shm) % SHM_CACHE_LINE == 0,
	       "the counters start on a line of their own");

static shm_atomic_u32 *part_cnt(struct part_shm *sh)
{
	return (shm_atomic_u32 *)((char *)sh + sh->cnt_off);
}

/* Round a is before round b (rounds wrap after 2^32 starts). */
static int round_before(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) < 0;
}

struct psend {
	struct request *r;
	int parts;
	size_t pbytes;			/* bytes of one partition */
	uint32_t round;			/* rounds started */
	uint32_t open;			/* the round whose partitions leave at once */
	uint32_t *ready;		/* per partition: the round it was marked in */
	uint32_t *pending;		/* per partition: waits for the round to open */
	atomic_int published;		/* partitions published this round */
	atomic_int failed;		/* a write into the receiver failed */
	int matched;
	int orphan;			/* freed before the CTS came */
	int error;			/* from the receiver (sizes differ) */
	int watched;			/* on psend_watch */
	enum part_mode mode;
	int dst;			/* the receiver's job rank */
	pid_t rpid;
	char *rbase;			/* the receive buffer (PART_LOCAL, PART_CMA) */
	struct shm_seg seg;
	struct part_shm *sh;
	struct psend *next;		/* psend_watch */
};

struct precv {
	struct request *r;
	int parts;
	size_t pbytes;
	size_t bytes;			/* the whole buffer */
	uint32_t round;
	uint32_t opened;		/* the round stored in recv_round */
	int matched;
	int queued;			/* on precv_queue (not matched yet) */
	int watched;			/* on precv_watch */
	int error;
	int src;			/* the sender's job rank */
	int sparts;
	uint32_t *contrib;		/* per partition: send partitions over it */
	uint32_t *unpacked;		/* per partition: the round unpacked (stage) */
	struct shm_seg seg;
	struct part_shm *sh;
	struct precv *qnext;		/* precv_queue */
	struct precv *wnext;		/* precv_watch */
};

/* A HELLO no receive matched yet. */
struct part_hello {
	struct part_hello *next;
	int src;
	uint32_t ctx;
	int tag;
	uint64_t cookie;
	uint64_t bytes;
	int parts;
};

/* Under the engine's lock: receives in initialization order waiting for
 * their HELLO, HELLOs in arrival order waiting for their receive, sends
 * whose round is started and not open, receives whose round is started and
 * not complete.  An entry leaves its watch list when that changes or when
 * its request is freed, so the engine's hook never reads a request's
 * `active`, which the application thread changes outside the engine's
 * lock under strong progress. */
static struct {
	struct precv *queue;
	struct part_hello *hellos;
	struct psend *send_watch;
	struct precv *recv_watch;
	unsigned segs;			/* segments created, for their names */
	int cma_denied;			/* a probe failed: stage from now on */
} part;

/* Corrupt shared memory, or no memory for the engine's own records: stop
 * the job loudly. */
static void part_die(const char *what, int rank) __attribute__((noreturn));
static void part_die(const char *what, int rank)
{
	fprintf(stderr, "shmpi: rank %d: partitioned communication: %s (rank %d)\n",
		rt.rank, what, rank);
	runtime_abort_job(MPI_ERR_INTERN);
}

/* ---- the receiver ------------------------------------------------------ */

/* Send partitions of s over receive partition j of r (units above). */
static uint32_t part_contrib(int j, int s, int r)
{
	uint64_t lo = (uint64_t)j * (uint64_t)s, hi = lo + (uint64_t)s;

	if (s == 0 || r == 0)
		return 0;
	return (uint32_t)((hi - 1) / (uint64_t)r - lo / (uint64_t)r + 1);
}

/* Wake the threads of rank waiting in MPI (its own too: under
 * MPI_THREAD_MULTIPLE another thread of this rank may sleep in MPI_Wait). */
static void part_wake(int rank)
{
	progress_wake_rank(rank);
}

/* Receiver, under the lock: round `round` of pr may be written. */
static void precv_open(struct precv *pr)
{
	if (!pr->matched || pr->opened == pr->round)
		return;
	pr->opened = pr->round;
	if (!pr->sh)
		return;		/* an error: nothing will be written */
	/* release: this rank's use of the buffer in earlier rounds happens
	 * before the sender's writes of this one (its acquire in psend_open) */
	atomic_store_explicit(&pr->sh->recv_round, pr->round, memory_order_release);
	part_wake(pr->src);
}

static void part_on_cts(int src, const struct pkt *pkt, const void *payload, uint32_t len);

static int precv_shm_create(struct precv *pr)
{
	char name[SHM_NAME_MAX], what[32];
	size_t cnt_off = sizeof(struct part_shm);
	size_t stage_off = (cnt_off + (size_t)pr->parts * sizeof(uint32_t) +
			    SHM_CACHE_LINE - 1) & ~(size_t)(SHM_CACHE_LINE - 1);
	size_t size = stage_off + pr->bytes;
	int rc;

	snprintf(what, sizeof(what), "p%d.%u", rt.rank, part.segs++);
	shm_job_name(name, sizeof(name), geteuid(), rt.job_id, what);
	/* the staging area is backed only if the sender stages (it reserves
	 * it then); the header and counters now */
	rc = shm_seg_create(&pr->seg, name, size, SHM_SEG_SPARSE | SHM_SEG_LOCKED);
	if (rc < 0)
		return rc;
	rc = shm_seg_reserve(&pr->seg, 0, stage_off);
	if (rc < 0) {
		shm_seg_close(&pr->seg);
		shm_seg_unlink(name);
		return rc;
	}
	/* the object was open only for the reservation */
	close(pr->seg.fd);
	pr->seg.fd = -1;
	pr->sh = pr->seg.base;
	pr->sh->magic = PART_MAGIC;
	pr->sh->version = PART_VERSION;
	pr->sh->size = size;
	pr->sh->stage_off = stage_off;
	pr->sh->rparts = (uint32_t)pr->parts;
	pr->sh->cnt_off = (uint32_t)cnt_off;
	return 0;
}

/* Receiver, under the lock: pr matches the send of HELLO h. */
static void precv_match(struct precv *pr, const struct part_hello *h)
{
	struct request *r = pr->r;
	char name[SHM_NAME_MAX] = "";
	uint64_t rbase = 0;
	struct pkt p;
	int rc;

	pr->matched = 1;
	pr->src = h->src;
	pr->sparts = h->parts;
	if (h->bytes != pr->bytes)
		pr->error = h->bytes > pr->bytes ? MPI_ERR_TRUNCATE : MPI_ERR_COUNT;
	for (int j = 0; j < pr->parts; j++)
		pr->contrib[j] = part_contrib(j, pr->sparts, pr->parts);
	if (!pr->error) {
		rc = precv_shm_create(pr);
		if (rc < 0)
			pr->error = MPI_ERR_NO_MEM;
		else
			snprintf(name, sizeof(name), "%s", pr->seg.name);
	}
	if (!pr->error && pr->bytes > 0 && r->dt->contig)
		rbase = (uint64_t)(uintptr_t)dt_contig_at(r->dt, r->rbuf, 0);
	if (pr->round > 0)
		precv_open(pr);
	p = (struct pkt){
		.type = PKT_PART_CTS, .tag = pr->error, .ctx = r->ctx,
		.size = rbase, .cookie = h->cookie,
		.cookie2 = (uint64_t)(uintptr_t)pr->sh,
	};
	if (h->src == rt.rank)
		part_on_cts(rt.rank, &p, name, (uint32_t)strlen(name) + 1);
	else
		progress_send_ctl(h->src, &p, name, (uint32_t)strlen(name) + 1);
}

static void precv_watch(struct precv *pr)
{
	if (pr->watched)
		return;
	pr->watched = 1;
	pr->wnext = part.recv_watch;
	part.recv_watch = pr;
}

/* Unpack receive partition j of the round from the staging area, once. */
static void precv_unpack(struct precv *pr, int j)
{
	struct request *r = pr->r;

	if (pr->unpacked[j] == pr->round || pr->pbytes == 0)
		return;
	pr->unpacked[j] = pr->round;
	if (atomic_load_explicit(&pr->sh->mode, memory_order_relaxed) == PART_STAGE)
		dt_unpack(r->dt, r->rbuf, (size_t)j * pr->pbytes,
			  (char *)pr->sh + pr->sh->stage_off + (size_t)j * pr->pbytes,
			  pr->pbytes);
}

/* Under the lock: whether receive partition j of the round has arrived
 * (and is unpacked); an error says yes, the completion reports it. */
static int precv_arrived(struct precv *pr, int j)
{
	uint32_t have, need;

	if (!pr->matched || pr->opened != pr->round)
		return 0;
	if (pr->error)
		return 1;
	need = pr->round * pr->contrib[j];
	/* acquire: pairs with the publisher's release, after its data */
	have = atomic_load_explicit(&part_cnt(pr->sh)[j], memory_order_acquire);
	if (round_before(have, need))
		return 0;
	precv_unpack(pr, j);
	return 1;
}

/* Under the lock: complete pr's round if every send partition is in. */
static int precv_check(struct precv *pr)
{
	struct request *r = pr->r;
	uint32_t have;

	if (!pr->matched || pr->opened != pr->round)
		return 0;
	if (!pr->error) {
		/* acquire: pairs with every publisher's release */
		have = atomic_load_explicit(&pr->sh->published, memory_order_acquire);
		if (round_before(have, pr->round * (uint32_t)pr->sparts))
			return 0;
		for (int j = 0; j < pr->parts; j++)
			precv_unpack(pr, j);
	}
	r->st_error = pr->error;
	r->st_bytes = pr->error ? 0 : (MPI_Count)pr->bytes;
	req_complete(r);
	return 1;
}

/* ---- the sender -------------------------------------------------------- */

/* Write len bytes at local into the receiver's address remote. */
static int part_cma_write(pid_t pid, const char *local, uint64_t remote, size_t len)
{
	size_t done = 0;

	while (done < len) {
		struct iovec l = { (void *)(local + done), len - done };
		struct iovec rm = { (void *)(uintptr_t)(remote + done), len - done };
		ssize_t n = process_vm_writev(pid, &l, 1, &rm, 1, 0);

		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		done += (size_t)n;
	}
	return 0;
}

/* Publish send partition i of ps: its data, then the counters.  Any
 * thread, with or without the lock (see MPI_Pready). */
static void psend_push(struct psend *ps, int i)
{
	struct request *r = ps->r;
	size_t off = (size_t)i * ps->pbytes;
	uint32_t rparts, lo, hi, n;
	shm_atomic_u32 *cnt;

	if (ps->error)
		return;		/* nothing goes to a receive that does not fit */
	if (ps->mode == PART_NONE) {
		/* an empty message: only the counters */
	} else if (ps->mode == PART_LOCAL) {
		dt_pack(r->dt, r->sbuf, off, ps->rbase + off, ps->pbytes);
	} else if (ps->mode == PART_STAGE) {
		dt_pack(r->dt, r->sbuf, off, (char *)ps->sh + ps->sh->stage_off + off,
			ps->pbytes);
	} else {
		char *tmp = NULL;
		const char *from = r->dt->contig ? dt_contig_at(r->dt, r->sbuf, off) :
				   (tmp = malloc(ps->pbytes));

		if (tmp)
			dt_pack(r->dt, r->sbuf, off, tmp, ps->pbytes);
		if (!from || part_cma_write(ps->rpid, from, (uint64_t)(uintptr_t)ps->rbase +
					    off, ps->pbytes) < 0)
			atomic_store_explicit(&ps->failed, 1, memory_order_relaxed);
		free(tmp);
	}
	/* the receive partitions [lo, hi] over units [i R, (i+1) R) */
	rparts = ps->sh->rparts;
	cnt = part_cnt(ps->sh);
	lo = (uint32_t)((uint64_t)i * rparts / (uint64_t)ps->parts);
	hi = (uint32_t)((((uint64_t)i + 1) * rparts - 1) / (uint64_t)ps->parts);
	/* release: the data above (the kernel's copy of process_vm_writev
	 * too, made by this thread) before the counter that announces it;
	 * pairs with the acquire in precv_arrived */
	for (uint32_t j = lo; j <= hi && j < rparts; j++)
		atomic_fetch_add_explicit(&cnt[j], 1, memory_order_release);
	/* release: pairs with the acquire in precv_check */
	n = atomic_fetch_add_explicit(&ps->sh->published, 1, memory_order_release) + 1;
	if (n == ps->round * (uint32_t)ps->parts)
		part_wake(ps->dst);
}

/* n more partitions of the round are published: the last completes. */
static void psend_published(struct psend *ps, int n)
{
	struct request *r = ps->r;

	/* acq_rel: the thread that completes sees every other publisher's
	 * reads of the send buffer done (their release), and Wait's acquire
	 * of `complete` then covers them all */
	if (atomic_fetch_add_explicit(&ps->published, n, memory_order_acq_rel) + n !=
	    ps->parts)
		return;
	progress_lock();
	r->st_error = ps->error ? ps->error :
		      atomic_load_explicit(&ps->failed, memory_order_relaxed) ?
		      MPI_ERR_OTHER : MPI_SUCCESS;
	req_complete(r);
	progress_unlock();
}

/* Under the lock: open ps's round if the receiver has started it, and
 * send what is pending; whether it is open. */
static int psend_open(struct psend *ps)
{
	int n = 0;

	if (ps->open == ps->round)
		return 1;
	if (!ps->matched)
		return 0;
	/* acquire: pairs with the receiver's release in precv_open: its use
	 * of the buffer in the last round is over before we write */
	if (!ps->error &&
	    round_before(atomic_load_explicit(&ps->sh->recv_round, memory_order_acquire),
			 ps->round))
		return 0;
	ps->open = ps->round;
	for (int i = 0; i < ps->parts; i++)
		if (ps->pending[i]) {
			ps->pending[i] = 0;
			psend_push(ps, i);
			n++;
		}
	if (n)
		psend_published(ps, n);
	return 1;
}

static void psend_watch(struct psend *ps)
{
	if (ps->watched)
		return;
	ps->watched = 1;
	ps->next = part.send_watch;
	part.send_watch = ps;
}

static void psend_free_state(struct psend *ps)
{
	if (ps->sh)
		shm_seg_close(&ps->seg);
	free(ps->ready);
	free(ps->pending);
	free(ps);
}

/* Sender, under the lock: the receiver's answer. */
static void part_on_cts(int src, const struct pkt *pkt, const void *payload, uint32_t len)
{
	struct psend *ps = (struct psend *)(uintptr_t)pkt->cookie;
	const char *name = payload;
	int rc;

	if (ps->orphan) {
		/* freed before the answer: the receiver's segment name goes
		 * with it (the receiver has it mapped) */
		if (len > 1 && memchr(name, 0, len))
			shm_seg_unlink(name);
		psend_free_state(ps);
		return;
	}
	ps->matched = 1;
	ps->error = pkt->tag;
	ps->mode = PART_NONE;
	if (!ps->error) {
		if (!len || !memchr(name, 0, len) ||
		    shm_seg_open(&ps->seg, name, SHM_SEG_KEEP_FD) < 0) {
			ps->error = MPI_ERR_INTERN;
		} else {
			shm_seg_unlink(name);
			ps->sh = ps->seg.base;
			/* corrupt shared memory stops the job loudly */
			if (ps->sh->magic != PART_MAGIC || ps->sh->version != PART_VERSION)
				part_die("a bad shared area", src);
		}
	}
	/* an empty message (no bytes, or no partitions) writes nothing */
	if (!ps->error && ps->pbytes * (size_t)ps->parts > 0) {
		long knob = knobs_val[SHM_KNOB_SINGLE_COPY];

		ps->rbase = (char *)(uintptr_t)pkt->size;
		ps->rpid = atomic_load_explicit(&shm_job_rank(rt.job, src)->pid,
						memory_order_relaxed);
		if (ps->rbase && src == rt.rank) {
			ps->mode = PART_LOCAL;
		} else if (ps->rbase && !part.cma_denied &&
			   (knob == SHM_COPY_AUTO || knob == SHM_COPY_CMA)) {
			uint32_t one = 1;

			/* the probe: one word into the shared area, at the
			 * receiver's address of it */
			rc = part_cma_write(ps->rpid, (const char *)&one, pkt->cookie2 +
					    offsetof(struct part_shm, probe), sizeof(one));
			if (rc == 0)
				ps->mode = PART_CMA;
			else
				part.cma_denied = 1;
		}
		if (ps->mode == PART_NONE) {
			if (shm_seg_reserve(&ps->seg, ps->sh->stage_off,
					    ps->sh->size - ps->sh->stage_off) < 0)
				ps->error = MPI_ERR_NO_MEM;
			else
				ps->mode = PART_STAGE;
		}
	}
	if (ps->sh) {
		/* relaxed: the counters' release publishes it before any data */
		atomic_store_explicit(&ps->sh->mode, ps->mode, memory_order_relaxed);
		close(ps->seg.fd);
		ps->seg.fd = -1;
	}
	/* a round started before the answer: its pending partitions */
	if (ps->round != ps->open)
		psend_open(ps);
}

/* Receiver, under the lock: a send's HELLO. */
static void part_on_hello(int src, const struct pkt *pkt, const void *payload, uint32_t len)
{
	struct part_hello h = {
		.src = src, .ctx = pkt->ctx, .tag = pkt->tag, .cookie = pkt->cookie,
		.bytes = pkt->size, .parts = (int)pkt->cookie2,
	};
	struct precv **link = &part.queue;
	struct part_hello *u, **tail;

	(void)payload;
	(void)len;
	for (; *link; link = &(*link)->qnext) {
		struct precv *pr = *link;

		if (pr->r->ctx == h.ctx && pr->src == src && pr->r->tag == h.tag) {
			*link = pr->qnext;
			pr->queued = 0;
			precv_match(pr, &h);
			return;
		}
	}
	u = malloc(sizeof(*u));
	if (!u)
		part_die("out of memory for a send's HELLO", src);
	*u = h;
	u->next = NULL;
	for (tail = &part.hellos; *tail; tail = &(*tail)->next)
		;
	*tail = u;
}

/* The engine's hook: open the rounds and complete the receives that can. */
static int part_progress(void)
{
	int moved = 0;

	for (struct psend **l = &part.send_watch; *l;) {
		struct psend *ps = *l;

		if (!psend_open(ps)) {
			l = &ps->next;
			continue;
		}
		*l = ps->next;
		ps->watched = 0;
		moved = 1;
	}
	for (struct precv **l = &part.recv_watch; *l;) {
		struct precv *pr = *l;

		if (!precv_check(pr)) {
			l = &pr->wnext;
			continue;
		}
		*l = pr->wnext;
		pr->watched = 0;
		moved = 1;
	}
	return moved;
}

void part_init(void)
{
	memset(&part, 0, sizeof(part));
	progress_register((enum pkt_type)PKT_PART_HELLO, part_on_hello);
	progress_register((enum pkt_type)PKT_PART_CTS, part_on_cts);
	progress_hook_add(part_progress);
}

/* ---- requests ---------------------------------------------------------- */

static void psend_free(void *owner)
{
	struct psend *ps = owner;

	progress_lock();
	if (ps->watched)
		for (struct psend **l = &part.send_watch; *l; l = &(*l)->next)
			if (*l == ps) {
				*l = ps->next;
				break;
			}
	if (!ps->matched && ps->dst >= 0)
		ps->orphan = 1;		/* part_on_cts frees it */
	else
		psend_free_state(ps);
	progress_unlock();
}

static void precv_free(void *owner)
{
	struct precv *pr = owner;

	progress_lock();
	if (pr->queued)
		for (struct precv **l = &part.queue; *l; l = &(*l)->qnext)
			if (*l == pr) {
				*l = pr->qnext;
				break;
			}
	if (pr->watched)
		for (struct precv **l = &part.recv_watch; *l; l = &(*l)->wnext)
			if (*l == pr) {
				*l = pr->wnext;
				break;
			}
	if (pr->sh)
		shm_seg_close(&pr->seg);
	free(pr->contrib);
	free(pr->unpacked);
	free(pr);
	progress_unlock();
}

void part_start(struct request *r)
{
	/* relaxed: the engine sees the request only under its lock below */
	atomic_store_explicit(&r->complete, 0, memory_order_relaxed);
	r->active = 1;
	r->st_error = MPI_SUCCESS;
	r->st_bytes = 0;
	r->st_source = r->peer;
	r->st_tag = r->tag;
	if (r->peer == MPI_PROC_NULL) {
		r->st_tag = MPI_ANY_TAG;
		if (r->kind == REQ_PSEND)
			((struct psend *)r->owner)->round++;
		req_complete(r);
		return;
	}
	progress_lock();
	if (r->kind == REQ_PSEND) {
		struct psend *ps = r->owner;

		ps->round++;
		atomic_store_explicit(&ps->published, 0, memory_order_relaxed);
		atomic_store_explicit(&ps->failed, 0, memory_order_relaxed);
		if (ps->parts == 0) {
			r->st_error = ps->error;
			req_complete(r);
		} else if (!psend_open(ps)) {
			psend_watch(ps);
		}
	} else {
		struct precv *pr = r->owner;

		pr->round++;
		precv_open(pr);
		if (!precv_check(pr))
			precv_watch(pr);
	}
	progress_unlock();
}

/* The checks both init calls share; *c and *dt on success. */
static int part_check(const char *call, const void *buf, int partitions, MPI_Count count,
		      MPI_Datatype datatype, int peer, int tag, MPI_Comm comm, MPI_Info info,
		      MPI_Request *request, int recv, struct p2p_args *a)
{
	int rc;

	if (!request)
		return err_comm(comm, call, MPI_ERR_ARG, "request", "is NULL");
	if (partitions < 0)
		return err_comm(comm, call, MPI_ERR_ARG, "partitions", "%d is negative",
				partitions);
	if (count < 0)
		return err_comm(comm, call, MPI_ERR_COUNT, "count", "%lld is negative",
				(long long)count);
	if (count > INT_MAX || (MPI_Count)partitions * count > INT_MAX)
		return err_comm(comm, call, MPI_ERR_COUNT, "count",
				"%d partitions of %lld elements are more than %d", partitions,
				(long long)count, INT_MAX);
	/* the point-to-point checks, on the whole buffer */
	if (recv && peer == MPI_ANY_SOURCE)
		return err_comm(comm, call, MPI_ERR_RANK, "source",
				"MPI_ANY_SOURCE is not allowed in partitioned communication");
	if (recv && tag == MPI_ANY_TAG)
		return err_comm(comm, call, MPI_ERR_TAG, "tag",
				"MPI_ANY_TAG is not allowed in partitioned communication");
	rc = recv ? p2p_check_recv(call, buf, (int)(partitions * count), datatype, peer,
				   tag, comm, a) :
		    p2p_check_send(call, buf, (int)(partitions * count), datatype, peer,
				   tag, comm, a);
	if (rc != MPI_SUCCESS)
		return rc;
	if (info != MPI_INFO_NULL && !info_get(info))
		return err_comm(comm, call, MPI_ERR_INFO, "info",
				"0x%x is not a valid info object", (unsigned)info);
	if (buf == MPI_BOTTOM && partitions * count > 0)
		return err_comm(comm, call, MPI_ERR_BUFFER, "buf",
				"MPI_BOTTOM is not allowed in partitioned communication");
	return MPI_SUCCESS;
}

/* The state of either kind with its per-partition arrays (all zero); the
 * two arrays are ready and pending of a send, unpacked and contrib of a
 * receive.  NULL when out of memory. */
static void *part_state(enum req_kind kind, int partitions)
{
	size_t n = (size_t)partitions + 1;
	struct psend *ps = NULL;
	struct precv *pr = NULL;
	uint32_t *a = calloc(n, sizeof(uint32_t));
	void *b = calloc(n, sizeof(uint32_t));

	if (kind == REQ_PSEND)
		ps = calloc(1, sizeof(*ps));
	else
		pr = calloc(1, sizeof(*pr));
	if (!a || !b || (!ps && !pr)) {
		free(a);
		free(b);
		free(ps);
		free(pr);
		return NULL;
	}
	if (ps) {
		ps->ready = a;
		ps->pending = b;
		ps->parts = partitions;
		return ps;
	}
	pr->unpacked = a;
	pr->contrib = b;
	pr->parts = partitions;
	return pr;
}

/* The request of either init call, bound and filled, with its state in
 * owner; NULL when out of memory. */
static struct request *part_request(enum req_kind kind, const void *buf, int partitions,
				    MPI_Count count, int peer, int tag,
				    const struct p2p_args *a)
{
	struct request *r = req_new(kind, 1);
	void *owner = r ? part_state(kind, partitions) : NULL;

	if (!owner) {
		req_release(r);
		return NULL;
	}
	req_bind(r, a->comm, a->comm->ctx, a->dt);
	r->persistent = 1;
	r->peer = peer;
	r->peer_world = peer == MPI_PROC_NULL ? -1 : comm_world_rank(a->comm, peer);
	r->tag = tag;
	r->count = count;
	r->owner = owner;
	if (kind == REQ_PSEND) {
		r->sbuf = buf;
		r->owner_free = psend_free;
	} else {
		r->rbuf = (void *)buf;
		r->owner_free = precv_free;
	}
	return r;
}

/* A new send's HELLO to its destination (under the lock). */
static void psend_hello(struct psend *ps)
{
	struct request *r = ps->r;
	struct pkt p = {
		.type = PKT_PART_HELLO, .tag = r->tag, .ctx = r->ctx,
		.size = ps->pbytes * (size_t)ps->parts,
		.cookie = (uint64_t)(uintptr_t)ps, .cookie2 = (uint64_t)ps->parts,
	};

	if (ps->dst == rt.rank)
		part_on_hello(rt.rank, &p, NULL, 0);
	else
		progress_send_ctl(ps->dst, &p, NULL, 0);
}

/* A new receive (under the lock): the first HELLO of its (context,
 * source, tag) that waits, else the queue of receives. */
static void precv_post(struct precv *pr)
{
	struct request *r = pr->r;
	struct precv **tail = &part.queue;

	for (struct part_hello **link = &part.hellos; *link; link = &(*link)->next) {
		struct part_hello *h = *link;

		if (h->ctx == r->ctx && h->src == pr->src && h->tag == r->tag) {
			*link = h->next;
			precv_match(pr, h);
			free(h);
			return;
		}
	}
	while (*tail)
		tail = &(*tail)->qnext;
	*tail = pr;
	pr->queued = 1;
}

/* Either init call: the checks, the request and its state, then the HELLO
 * (a send) or the matching (a receive). */
static int part_init_call(const char *call, enum req_kind kind, const void *buf,
			  int partitions, MPI_Count count, MPI_Datatype datatype, int peer,
			  int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
	struct p2p_args a;
	struct request *r;
	size_t pbytes;
	int rc;

	rc = part_check(call, buf, partitions, count, datatype, peer, tag, comm, info,
			request, kind == REQ_PRECV, &a);
	if (rc != MPI_SUCCESS)
		return rc;
	r = part_request(kind, buf, partitions, count, peer, tag, &a);
	if (!r)
		return err_comm(comm, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	pbytes = (size_t)count * (size_t)a.dt->size;
	progress_lock();
	if (kind == REQ_PSEND) {
		struct psend *ps = r->owner;

		ps->r = r;
		ps->pbytes = pbytes;
		ps->dst = r->peer_world;
		if (peer != MPI_PROC_NULL)
			psend_hello(ps);
	} else {
		struct precv *pr = r->owner;

		pr->r = r;
		pr->pbytes = pbytes;
		pr->bytes = pbytes * (size_t)partitions;
		pr->src = r->peer_world;
		if (peer != MPI_PROC_NULL)
			precv_post(pr);
	}
	progress_unlock();
	*request = r->handle;
	return MPI_SUCCESS;
}

API(int, Psend_init, (const void *buf, int partitions, MPI_Count count,
		      MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
		      MPI_Info info, MPI_Request *request))
{
	runtime_check("MPI_Psend_init");
	return part_init_call("MPI_Psend_init", REQ_PSEND, buf, partitions, count, datatype,
			      dest, tag, comm, info, request);
}

API(int, Precv_init, (void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
		      int source, int tag, MPI_Comm comm, MPI_Info info,
		      MPI_Request *request))
{
	runtime_check("MPI_Precv_init");
	return part_init_call("MPI_Precv_init", REQ_PRECV, buf, partitions, count, datatype,
			      source, tag, comm, info, request);
}

/* The partitioned request of kind behind h for call, or NULL after raising
 * MPI_ERR_REQUEST. */
static struct request *part_lookup(const char *call, MPI_Request h, enum req_kind kind)
{
	struct request *r = h == MPI_REQUEST_NULL ? NULL : req_get(h);

	if (!r || r->kind != kind) {
		err_comm(r && r->comm ? r->comm->handle : MPI_COMM_WORLD, call,
			 MPI_ERR_REQUEST, "request", "0x%x is not a partitioned %s request",
			 (unsigned)h, kind == REQ_PSEND ? "send" : "receive");
		return NULL;
	}
	return r;
}

/*
 * Mark partitions ready, under the lock of the call (runtime_check) and
 * the engine's: every check first (an error marks nothing), then each
 * partition's round.  *direct says whether the caller publishes them now,
 * after the lock; else they are pending for the round to open.
 */
static int pready_mark(const char *call, MPI_Request request, int n, const int *list,
		       int low, const char *arg, struct psend **psp, int *direct)
{
	struct request *r;
	struct psend *ps;
	int rc = MPI_SUCCESS, marked = 0;

	runtime_check(call);
	r = part_lookup(call, request, REQ_PSEND);
	if (!r)
		return MPI_ERR_REQUEST;
	ps = r->owner;
	if (!r->active)
		return err_comm(r->comm->handle, call, MPI_ERR_REQUEST, "request",
				"is not active: MPI_Start it first");
	progress_lock();
	for (int k = 0; k < n; k++) {
		int i = list ? list[k] : low + k;

		if (i < 0 || i >= ps->parts) {
			rc = err_comm(r->comm->handle, call, MPI_ERR_ARG, arg,
				      "partition %d is not in [0, %d)", i, ps->parts);
			break;
		}
		if (ps->ready[i] == ps->round) {
			rc = err_comm(r->comm->handle, call, MPI_ERR_ARG, arg,
				      "partition %d is ready already in this round", i);
			break;
		}
		ps->ready[i] = ps->round;
		marked++;
	}
	if (rc != MPI_SUCCESS) {
		/* undo this call's marks: an error marks nothing */
		for (int k = 0; k < marked; k++)
			ps->ready[list ? list[k] : low + k] = ps->round - 1;
		progress_unlock();
		return rc;
	}
	*direct = r->peer == MPI_PROC_NULL ? 0 : psend_open(ps);
	if (!*direct && r->peer != MPI_PROC_NULL)
		for (int k = 0; k < n; k++)
			ps->pending[list ? list[k] : low + k] = 1;
	progress_unlock();
	*psp = ps;
	return MPI_SUCCESS;
}

/*
 * Under MPI_THREAD_MULTIPLE several threads may mark partitions of one
 * request at once.  The marks are made under the call's lock (the handle
 * table, the round and the pending marks are the library's state); the
 * copies and the counters are not: each thread copies its own partitions
 * (disjoint bytes of the send buffer and of the receive buffer or staging
 * area), and the counters are atomic read-modify-writes.  The round cannot
 * change meanwhile: it changes at MPI_Start, after the completion that
 * waits for every partition of this round to be published
 * (psend_published), and the request cannot be freed while active
 * (MPI 4.1, section 4.2.1, Communication Initialization and Starting with
 * Partitioning, makes that erroneous; MPI_Request_free refuses).
 */
static int pready(const char *call, MPI_Request request, int n, const int *list,
		  int low, const char *arg)
{
	struct psend *ps;
	int direct = 0;
	int rc = pready_mark(call, request, n, list, low, arg, &ps, &direct);

	if (rc != MPI_SUCCESS || !direct)
		return rc;
	for (int k = 0; k < n; k++)
		psend_push(ps, list ? list[k] : low + k);
	psend_published(ps, n);
	return MPI_SUCCESS;
}

API(int, Pready, (int partition, MPI_Request request))
{
	return pready("MPI_Pready", request, 1, NULL, partition, "partition");
}

API(int, Pready_range, (int partition_low, int partition_high, MPI_Request request))
{
	if (partition_low > partition_high) {
		runtime_check("MPI_Pready_range");
		struct request *r = part_lookup("MPI_Pready_range", request, REQ_PSEND);

		return r ? err_comm(r->comm->handle, "MPI_Pready_range", MPI_ERR_ARG,
				    "partition_high", "%d is below partition_low %d",
				    partition_high, partition_low) : MPI_ERR_REQUEST;
	}
	/* past the last partition the marking stops with an error */
	return pready("MPI_Pready_range", request,
		      (int)((long long)partition_high - partition_low + 1 > INT_MAX ? INT_MAX :
			    (long long)partition_high - partition_low + 1),
		      NULL, partition_low, "partition_low");
}

API(int, Pready_list, (int length, const int array_of_partitions[], MPI_Request request))
{
	if (length < 0 || (length > 0 && !array_of_partitions)) {
		runtime_check("MPI_Pready_list");
		struct request *r = part_lookup("MPI_Pready_list", request, REQ_PSEND);

		return r ? err_comm(r->comm->handle, "MPI_Pready_list", MPI_ERR_ARG,
				    length < 0 ? "length" : "array_of_partitions",
				    length < 0 ? "is negative" : "is NULL") :
			   MPI_ERR_REQUEST;
	}
	return pready("MPI_Pready_list", request, length, array_of_partitions, 0,
		      "array_of_partitions");
}

/*
 * MPI 4.1, section 4.2.2, Communication Completion under Partitioning: flag
 * true once the partition's data is in the receive buffer; true for
 * MPI_REQUEST_NULL and an inactive request.  An acquire load of the
 * partition's counter when it has arrived (and, when the sender staged it,
 * its unpacking, once); one pass of the engine when it has not, since the
 * call is polled like a test.
 */
API(int, Parrived, (MPI_Request request, int partition, int *flag))
{
	struct request *r;
	struct precv *pr;

	runtime_check("MPI_Parrived");
	if (!flag)
		return err_comm(MPI_COMM_WORLD, "MPI_Parrived", MPI_ERR_ARG, "flag",
				"is NULL");
	if (request == MPI_REQUEST_NULL) {
		*flag = 1;
		return MPI_SUCCESS;
	}
	r = part_lookup("MPI_Parrived", request, REQ_PRECV);
	if (!r)
		return MPI_ERR_REQUEST;
	pr = r->owner;
	if (r->active && (partition < 0 || partition >= pr->parts))
		return err_comm(r->comm->handle, "MPI_Parrived", MPI_ERR_ARG, "partition",
				"partition %d is not in [0, %d)", partition, pr->parts);
	if (!r->active || r->peer == MPI_PROC_NULL) {
		*flag = 1;
		return MPI_SUCCESS;
	}
	progress_lock();
	*flag = precv_arrived(pr, partition);
	progress_unlock();
	if (!*flag) {
		progress_poll();
		progress_lock();
		*flag = precv_arrived(pr, partition);
		progress_unlock();
	}
	return MPI_SUCCESS;
}
