/*
 * One-copy transfers of rendezvous messages (p2p_copy.h), and of puts and
 * gets on private memory (rma_pkt_origin.c: the origin moves them with
 * process_vm_writev or process_vm_readv, under the permission and the
 * probe described below; copy_rma at the end).
 *
 * The RTS of a message of at least SHMPI_SINGLE_COPY_MIN bytes carries a
 * description of the sender's buffer: the address of its first element in
 * the sender, the element count and extent, and the runs of bytes of one
 * element (the flattened typemap, datatype.h); and, when the whole buffer
 * lies in memory that shmpi shares (an MPI_Alloc_mem segment, a window's
 * segment: mem.h), the segment's name and the buffer's offset in it.  The
 * receiver, once it matched the message, copies min(message, buffer)
 * bytes itself, in the first way that works of:
 *
 *   mapped  the segment is mapped here (a window of which this rank is a
 *           member), or can be (MPI_Alloc_mem memory, mapped on first use
 *           and kept while few): plain copies from it; a message to
 *           oneself too;
 *   cma     process_vm_readv(2) from the sender's process (its pid is in
 *           its control block, shm/job.h), with the receiver's runs as the
 *           local iovec and the sender's as the remote one, IOV_MAX of
 *           each per call;
 *
 * then answers FIN, on which the sender completes the send.  Either way the
 * data crosses once, and nothing of it waits for the sender's engine.
 * Otherwise the receiver answers CTS and the data comes through the
 * channels (p2p_proto.c), as it always does under SHMPI_SINGLE_COPY=
 * pipeline, for buffered sends (their data is the sender engine's to push
 * from the attach buffer, README "Progress and deadlock"), and when the
 * sender's layout has too many runs for one record.
 *
 * Permission.  process_vm_readv needs the right to ptrace the sender
 * (ptrace(2), "Ptrace access mode checking"): same user, which every rank
 * of a job is, and, under the Yama module's ptrace_scope 1, that the
 * reader descend from a process the target named with PR_SET_PTRACER.
 * Each rank names shmrun, its parent: shmrun and the processes it starts,
 * which are the job's ranks, may then read it; no other process gains
 * anything, and those could already write the job's shared memory.  Under
 * ptrace_scope 2 or 3, a seccomp filter or a kernel without the call, the
 * first pull a rank tries fails: the rank then stops trying for the rest
 * of the job (the first pull is the probe) and that message, like every
 * later one, comes through the channels.  shmrun --verbose says what the
 * ranks found (SHM_JOB_COPY_*), shmrun --info probes it between two of its
 * own children.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <unistd.h>

#include "datatype.h"
#include "knobs.h"
#include "mem.h"
#include "p2p_copy.h"
#include "event.h"
#include "pvar.h"
#include "runtime.h"

#ifndef PR_SET_PTRACER
#define PR_SET_PTRACER 0x59616d61
#endif

/* A run of bytes of one element, from the element's origin. */
struct copy_run {
	int64_t disp;
	int64_t len;
};

/* The description in the RTS; nruns runs follow it. */
struct copy_desc {
	uint64_t base;		/* the first element's origin, in the sender */
	uint64_t count;		/* elements */
	int64_t extent;
	uint64_t size;		/* data bytes of one element */
	int64_t seg_off;	/* base's offset in segment `seg` (may be < 0) */
	uint32_t nruns;
	uint32_t pad_;
	char seg[SHM_NAME_MAX];	/* "" when the buffer is not in shared memory */
};

_Static_assert(sizeof(struct copy_desc) % 8 == 0, "runs follow aligned");

/* A buffer as runs, in the address space of the process that owns it. */
struct layout {
	uintptr_t base;
	uint64_t count;
	int64_t extent;
	uint64_t size;
	uint32_t nruns;
	const struct copy_run *run;
};

/* MPI_Alloc_mem segments of other ranks mapped here to pull from. */
#define COPY_MAPS 8

/*
 * The engine pulls messages (under its lock, in the progress thread under
 * strong progress) while the application thread copies puts and gets
 * (copy_rma): the two findings below are shared by both, relaxed (a
 * refusal seen late costs one more refused call), and each side has its
 * iovecs.
 */
static struct {
	shm_atomic_u32 cma_denied;	/* a call was refused: never again */
	shm_atomic_u32 told;		/* SHM_JOB_COPY_* bits already published */
	int share_denied;	/* the engine's: a push was refused, never again */
	uint32_t share_gen;	/* the engine's: the generation of its last share */
	struct shm_seg map[COPY_MAPS];
	unsigned next_map;	/* the slot to reuse next */
} cp;

static int cma_denied(void)
{
	return (int)atomic_load_explicit(&cp.cma_denied, memory_order_relaxed);
}

void copy_init(void)
{
	/* see the top: shmrun and its descendants, the job's ranks, may read
	 * this process; EINVAL without the Yama module, where nothing is
	 * needed */
	if (!rt.singleton)
		prctl(PR_SET_PTRACER, (unsigned long)getppid(), 0, 0, 0);
}

void copy_fini(void)
{
	for (int i = 0; i < COPY_MAPS; i++)
		if (cp.map[i].base)
			shm_seg_close(&cp.map[i]);
	cp.next_map = 0;
	atomic_store_explicit(&cp.cma_denied, 0, memory_order_relaxed);
	atomic_store_explicit(&cp.told, 0, memory_order_relaxed);
}

/* Record a finding in the job's header once (shmrun --verbose). */
static void copy_tell(unsigned bit)
{
	if (atomic_load_explicit(&cp.told, memory_order_relaxed) & bit)
		return;
	atomic_fetch_or_explicit(&cp.told, bit, memory_order_relaxed);
	atomic_fetch_or_explicit(&rt.job->single_copy, bit, memory_order_relaxed);
}

/* ---- layouts ----------------------------------------------------------- */

/* (buf, count, dt) as a layout; a contiguous one is a single run, kept in
 * *one; other runs are allocated in *runs (to free).  -ENOMEM. */
static int layout_of(struct layout *l, struct copy_run *one, struct copy_run **runs,
		     const void *buf, MPI_Count count, const struct datatype *dt)
{
	*runs = NULL;
	if (dt->contig) {
		*one = (struct copy_run){ 0, (int64_t)count * dt->size };
		*l = (struct layout){
			.base = (uintptr_t)buf + (uintptr_t)dt->blocks[0].disp,
			.count = 1, .extent = one->len, .size = (uint64_t)one->len,
			.nruns = 1, .run = one,
		};
		return 0;
	}
	*runs = malloc((size_t)dt->nblocks * sizeof(**runs));
	if (!*runs)
		return -ENOMEM;
	for (int i = 0; i < dt->nblocks; i++)
		(*runs)[i] = (struct copy_run){ dt->blocks[i].disp, dt->blocks[i].len };
	*l = (struct layout){
		.base = (uintptr_t)buf, .count = (uint64_t)count, .extent = dt->extent,
		.size = (uint64_t)dt->size, .nruns = (uint32_t)dt->nblocks, .run = *runs,
	};
	return 0;
}

/* The pieces of l's packed stream from offset off: at most max iovecs
 * (adjacent pieces merged) and limit bytes; how many, and *got bytes. */
static int layout_iov(const struct layout *l, uint64_t off, uint64_t limit,
		      struct iovec *iov, int max, uint64_t *got)
{
	uint64_t e = off / l->size, rem = off % l->size, total = 0;
	uint32_t j = 0;
	int n = 0;

	while (rem >= (uint64_t)l->run[j].len) {
		rem -= (uint64_t)l->run[j].len;
		j++;
	}
	while (total < limit && e < l->count) {
		uint64_t len = (uint64_t)l->run[j].len - rem;
		uintptr_t a = l->base + (uintptr_t)((int64_t)e * l->extent +
						    l->run[j].disp + (int64_t)rem);

		if (len > limit - total)
			len = limit - total;
		if (n && (uintptr_t)iov[n - 1].iov_base + iov[n - 1].iov_len == a) {
			iov[n - 1].iov_len += len;
		} else if (n == max) {
			break;
		} else {
			iov[n].iov_base = (void *)a;
			iov[n].iov_len = len;
			n++;
		}
		total += len;
		rem = 0;
		if (++j == l->nruns) {
			j = 0;
			e++;
		}
	}
	*got = total;
	return n;
}

/* ---- the sender -------------------------------------------------------- */

/* Whether send r may be pulled at all, and its layout. */
static int copy_eligible(const struct request *r)
{
	long mode = knobs_val[SHM_KNOB_SINGLE_COPY];

	return mode != SHM_COPY_PIPELINE && r->mode != SEND_BUFFERED &&
	       r->bytes >= (size_t)knobs_val[SHM_KNOB_SINGLE_COPY_MIN];
}

uint32_t copy_desc_len(const struct request *r, uint32_t room)
{
	size_t runs = r->dt->contig ? 1 : (size_t)r->dt->nblocks;
	size_t need = sizeof(struct copy_desc) + runs * sizeof(struct copy_run);

	return copy_eligible(r) && need <= room ? (uint32_t)need : 0;
}

void copy_describe(const struct request *r, void *out)
{
	const struct datatype *dt = r->dt;
	struct copy_desc *d = out;
	struct copy_run *run = (struct copy_run *)(d + 1);
	MPI_Aint lo = 0, hi = (MPI_Aint)r->bytes;
	size_t off;

	if (dt->contig) {
		*d = (struct copy_desc){
			.base = (uintptr_t)r->sbuf + (uintptr_t)dt->blocks[0].disp,
			.count = 1, .extent = (int64_t)r->bytes, .size = r->bytes, .nruns = 1,
		};
		run[0] = (struct copy_run){ 0, (int64_t)r->bytes };
	} else {
		*d = (struct copy_desc){
			.base = (uintptr_t)r->sbuf, .count = (uint64_t)r->count,
			.extent = dt->extent, .size = (uint64_t)dt->size,
			.nruns = (uint32_t)dt->nblocks,
		};
		for (int i = 0; i < dt->nblocks; i++)
			run[i] = (struct copy_run){ dt->blocks[i].disp, dt->blocks[i].len };
		if (dt_span(dt, r->count, &lo, &hi) < 0)
			return;		/* no segment: no mapped copy */
	}
	if (mem_find((const char *)(uintptr_t)d->base + lo, (size_t)(hi - lo), d->seg,
		     &off) == 0)
		d->seg_off = (int64_t)off - lo;
	else
		d->seg[0] = '\0';
}

/* ---- the receiver ------------------------------------------------------ */

/* Where segment `name` starts in this process, mapping an MPI_Alloc_mem
 * segment ('/' first) when needed; NULL when it cannot be. */
static char *copy_seg_base(const char *name)
{
	struct shm_seg *s;

	if (name[0] != '/')
		return mem_shared_base(name);	/* a window's, if we are a member */
	for (int i = 0; i < COPY_MAPS; i++)
		if (cp.map[i].base && !strcmp(cp.map[i].name, name))
			return cp.map[i].base;
	/* a few at a time: each keeps the memory of a block perhaps freed */
	s = &cp.map[cp.next_map];
	cp.next_map = (cp.next_map + 1) % COPY_MAPS;
	if (s->base)
		shm_seg_close(s);
	if (shm_seg_open(s, name, 0) < 0) {
		memset(s, 0, sizeof(*s));
		return NULL;
	}
	return s->base;
}

/*
 * A copy moves at most COPY_STEP bytes between two bumps of the rank's
 * progress counter (shm/job.h): the watchdog, which sees the rank blocked
 * in its receive, sees work move, however long the message (a copy of
 * gigabytes into memory not touched yet takes seconds).
 */
#define COPY_STEP ((uint64_t)64 << 20)

static void copy_moved(void)
{
	/* relaxed: the watchdog only compares snapshots of the counter */
	atomic_fetch_add_explicit(&rt.self->progress, 1, memory_order_relaxed);
}

static uint64_t copy_step(uint64_t left)
{
	return left < COPY_STEP ? left : COPY_STEP;
}

/* Copy bytes of the stream of src (mapped here) into receive r. */
static void pull_mapped(const struct layout *src, struct request *r, uint64_t bytes)
{
	struct iovec iov[64];
	uint64_t off = 0;

	while (off < bytes) {
		uint64_t got;
		int n = layout_iov(src, off, copy_step(bytes - off), iov, 64, &got);

		for (int i = 0; i < n; i++) {
			dt_unpack(r->dt, r->rbuf, off, iov[i].iov_base, iov[i].iov_len);
			off += iov[i].iov_len;
		}
		copy_moved();
	}
}

#define COPY_IOV (IOV_MAX < 1024 ? IOV_MAX : 1024)

/* The iovecs of one side (see cp). */
struct cma_iov {
	struct iovec l[COPY_IOV], r[COPY_IOV];
};

/* Move bytes [off, end) of the packed streams between local (this process)
 * and remote (process pid): process_vm_readv from remote into local, or
 * with write process_vm_writev from local into remote; IOV_MAX runs of
 * each per call.  0 or -errno, and in *moved the bytes that crossed. */
static int cma_move(struct cma_iov *v, pid_t pid, const struct layout *local,
		    const struct layout *remote, uint64_t off, uint64_t end, int write,
		    uint64_t *moved)
{
	struct iovec *liov = v->l, *riov = v->r;
	uint64_t start = off;
	int rc = 0;

	while (off < end) {
		uint64_t lgot, rgot;
		int nl = layout_iov(local, off, copy_step(end - off), liov, COPY_IOV, &lgot);
		int nr = layout_iov(remote, off, lgot, riov, COPY_IOV, &rgot);
		ssize_t n;

		/* the local iovec may cover more than the remote one: the call
		 * copies what both cover */
		n = write ? process_vm_writev(pid, liov, (unsigned long)nl, riov,
					      (unsigned long)nr, 0)
			  : process_vm_readv(pid, liov, (unsigned long)nl, riov,
					     (unsigned long)nr, 0);
		if (n <= 0) {
			rc = n < 0 ? -errno : -EIO;
			break;
		}
		off += (uint64_t)n;
		copy_moved();
	}
	*moved = off - start;
	return rc;
}

/* A failed process_vm_* call: a refusal (see the top) sends this rank
 * through the channels from now on; another failure (ESRCH: the peer went
 * away, and the job ends) concerns that transfer alone. */
static void cma_failed(int rc)
{
	if (rc != -EPERM && rc != -ENOSYS && rc != -EACCES)
		return;
	atomic_store_explicit(&cp.cma_denied, 1, memory_order_relaxed);
	copy_tell(SHM_JOB_COPY_DENIED);
}

/* The process of world rank r (its control block, shm/job.h). */
static pid_t copy_pid(int r)
{
	return atomic_load_explicit(&shm_job_rank(rt.job, r)->pid, memory_order_relaxed);
}

/* The engine's iovecs: pulls, and the shared copies' pushes, run under its lock. */
static struct cma_iov engine_iov;

/* ---- sharing a copy with the sender ------------------------------------- */

/*
 * A large message that the receiver reads with process_vm_readv, into a
 * contiguous buffer, is copied by both ends at once when the sender is
 * inside MPI: two cores move the data, each at its own copy speed.
 *
 * The receiver owns the share line of its rank control block
 * (shm_copy_share, shm/job.h), one message at a time (its engine matches
 * one message at a time, under the engine's lock, and finishes the copy
 * before it matches the next).  It sets done and back_len to 0, then
 * publishes claim = (generation << SHARE_OFF_BITS | 0) with release, sends
 * the sender HELP (the generation, its buffer's address, the bytes), and
 * starts claiming.  Each side claims share_chunk() bytes at a time by a
 * compare-and-swap of claim that also checks the generation and stops at
 * the end, copies its chunk (the receiver reads it, the sender writes it)
 * and adds it to done with release.  The receiver, out of chunks, waits
 * (acquire) until done plus what the sender gave back covers everything:
 * no chunk a sender claimed is then still being written, so the line may
 * serve the next message; it pulls the given-back chunk, answers FIN, and
 * the send completes.
 *
 * HELP leaves before FIN on the same channel, so the sender handles HELP
 * while the send still exists; a HELP handled late (the sender was outside
 * MPI) finds the claim at the end or the generation moved on, and does
 * nothing.  A sender whose process_vm_writev fails gives the rest of its
 * chunk back (back_off, then back_len with release) and stops helping for
 * the rest of the job.  Only a receiver whose process_vm_readv already
 * worked once shares (the first pull is the probe, see the top); one that
 * fails after that stops the claims, waits for the sender's, and lets the
 * whole message come through the channels, as an unshared pull would.
 */
#define SHARE_CHUNK_MIN ((uint64_t)64 * 1024)
#define SHARE_CHUNK_MAX ((uint64_t)512 * 1024)
#define SHARE_OFF_BITS 40
#define SHARE_OFF_MASK (((uint64_t)1 << SHARE_OFF_BITS) - 1)
#define SHARE_GEN_MASK ((1u << (64 - SHARE_OFF_BITS)) - 1)

/*
 * The bytes a side claims at a time for a message of total bytes: half of
 * it, in 64 KiB steps, between 64 KiB and 512 KiB.  Every chunk costs a
 * claim and a system call each side, and the two sides copy at once, so
 * halves are best where both take part: a 1 MiB ping-pong here took 47-50
 * us in chunks of 64 KiB, 33-37 in 256 KiB and 25-26 in 512 KiB, and one
 * chunk of the whole (the receiver alone) 55; from 4 MiB on, chunks of
 * 512 KiB did better than larger ones (4 MiB: 202-207 us, 217-219 in 1 MiB
 * chunks).
 */
static uint64_t share_chunk(uint64_t total)
{
	uint64_t half = (total / 2 + SHARE_CHUNK_MIN - 1) & ~(SHARE_CHUNK_MIN - 1);

	return half < SHARE_CHUNK_MIN ? SHARE_CHUNK_MIN : half > SHARE_CHUNK_MAX ? SHARE_CHUNK_MAX : half;
}

/* Claim the next chunk of generation gen of at most total bytes: 1 and
 * [*off, *end), or 0 when none is left. */
static int share_claim(struct shm_copy_share *sh, uint32_t gen, uint64_t total,
		       uint64_t *off, uint64_t *end)
{
	uint64_t c = atomic_load_explicit(&sh->claim, memory_order_relaxed);

	for (;;) {
		uint64_t o = c & SHARE_OFF_MASK;
		uint64_t step = share_chunk(total);
		uint64_t e = total - o < step ? total : o + step;

		if ((uint32_t)(c >> SHARE_OFF_BITS) != gen || o >= total)
			return 0;
		/* relaxed: done and back_len carry the data's ordering */
		if (atomic_compare_exchange_weak_explicit(&sh->claim, &c, c - o + e,
							  memory_order_relaxed,
							  memory_order_relaxed)) {
			*off = o;
			*end = e;
			return 1;
		}
	}
}

void copy_help(const struct request *r, int dst, const struct pkt *help)
{
	struct shm_copy_share *sh = &shm_job_rank(rt.job, dst)->share;
	uint64_t total = help->size, off, end, moved;
	struct copy_run one, *runs, to_run = { 0, (int64_t)total };
	struct layout from, to = {
		.base = (uintptr_t)help->cookie2, .count = 1, .extent = (int64_t)total,
		.size = total, .nruns = 1, .run = &to_run,
	};
	pid_t pid = copy_pid(dst);

	if (cp.share_denied || layout_of(&from, &one, &runs, r->sbuf, r->count, r->dt) < 0)
		return;
	while (share_claim(sh, (uint32_t)help->tag, total, &off, &end)) {
		int rc = cma_move(&engine_iov, pid, &from, &to, off, end, 1, &moved);

		if (moved) {
			pvar_c.rndv_pushed_bytes += moved;
			/* release: the bytes written before the receiver counts them */
			atomic_fetch_add_explicit(&sh->done, moved, memory_order_release);
		}
		if (rc < 0) {
			atomic_store_explicit(&sh->back_off, off + moved, memory_order_relaxed);
			atomic_store_explicit(&sh->back_len, end - off - moved,
					      memory_order_release);
			cp.share_denied = 1;
			break;
		}
	}
	free(runs);
}

/* Wait until the sender's chunks, owed bytes, are written or given back;
 * the bytes given back. */
static uint64_t share_wait(struct shm_copy_share *sh, uint64_t owed)
{
	for (;;) {
		uint64_t back = atomic_load_explicit(&sh->back_len, memory_order_acquire);

		if (atomic_load_explicit(&sh->done, memory_order_acquire) + back >= owed)
			return back;
		shm_cpu_relax();
	}
}

/* The receiver's side: pull the chunks it claims, then wait for the
 * sender's (done counts the sender's bytes only) and pull what the sender
 * gave back.  0 or -errno. */
static int share_pull(struct shm_copy_share *sh, uint32_t gen, pid_t pid,
		      const struct layout *from, const struct layout *to, uint64_t total)
{
	uint64_t off, end, moved, mine = 0, back;
	int rc;

	while (share_claim(sh, gen, total, &off, &end)) {
		rc = cma_move(&engine_iov, pid, to, from, off, end, 0, &moved);
		if (rc < 0) {
			/* stop every claim; wait for the sender's */
			uint64_t c = atomic_exchange_explicit(
				&sh->claim, ((uint64_t)gen << SHARE_OFF_BITS) | total,
				memory_order_relaxed);

			share_wait(sh, (c & SHARE_OFF_MASK) - mine - (end - off));
			return rc;
		}
		mine += end - off;
	}
	back = share_wait(sh, total - mine);
	if (!back)
		return 0;
	off = atomic_load_explicit(&sh->back_off, memory_order_relaxed);
	return cma_move(&engine_iov, pid, to, from, off, off + back, 0, &moved);
}

/* Pull with the sender's help (see above); -errno, or 1 when not shared. */
static int share_try(struct request *r, int src, const struct layout *from,
		     const struct layout *to, uint64_t bytes, const struct pkt *rts,
		     void (*offer)(int, const struct pkt *))
{
	struct shm_copy_share *sh = &rt.self->share;
	long min = knobs_val[SHM_KNOB_SINGLE_COPY_SHARE];
	struct pkt help;
	uint32_t gen;

	if (!min || bytes < (uint64_t)min || bytes > SHARE_OFF_MASK || !r->dt->contig ||
	    src == rt.rank || !(atomic_load_explicit(&cp.told, memory_order_relaxed) & SHM_JOB_COPY_CMA))
		return 1;
	cp.share_gen = (cp.share_gen + 1) & SHARE_GEN_MASK;
	if (!cp.share_gen)
		cp.share_gen = 1;	/* a fresh line holds generation 0 */
	gen = cp.share_gen;
	atomic_store_explicit(&sh->done, 0, memory_order_relaxed);
	atomic_store_explicit(&sh->back_len, 0, memory_order_relaxed);
	/* release: the zeroed counters before a sender can claim */
	atomic_store_explicit(&sh->claim, (uint64_t)gen << SHARE_OFF_BITS,
			      memory_order_release);
	help = (struct pkt){
		.type = PKT_HELP, .tag = (int32_t)gen, .size = bytes,
		.cookie = rts->cookie, .cookie2 = (uint64_t)to->base,
	};
	offer(src, &help);
	pvar_c.rndv_shared++;
	return share_pull(sh, gen, copy_pid(src), from, to, bytes);
}

static int copy_cma(struct request *r, int src, const struct layout *from, uint64_t bytes,
		    const struct pkt *rts, void (*offer)(int, const struct pkt *))
{
	struct copy_run one, *runs;
	struct layout to;
	uint64_t moved;
	int rc;

	if (layout_of(&to, &one, &runs, r->rbuf, r->count, r->dt) < 0)
		return 0;
	rc = share_try(r, src, from, &to, bytes, rts, offer);
	if (rc == 1)
		rc = cma_move(&engine_iov, copy_pid(src), &to, from, 0, bytes, 0, &moved);
	free(runs);
	if (rc < 0) {
		cma_failed(rc);
		return 0;
	}
	copy_tell(SHM_JOB_COPY_CMA);
	pvar_c.rndv_cma++;
	if (event_wanted(EVENT_P2P_RNDV))
		event_p2p_rndv(r, EVENT_RNDV_CMA);
	return 1;
}

int copy_pull(struct request *r, int src, const struct pkt *rts, const void *desc,
	      uint32_t len, void (*offer)(int, const struct pkt *))
{
	const struct copy_desc *d = desc;
	long mode = knobs_val[SHM_KNOB_SINGLE_COPY];
	uint64_t bytes = (uint64_t)r->st_bytes;
	struct layout from;
	char *seg;

	if (len < sizeof(*d) || len != sizeof(*d) + d->nruns * sizeof(struct copy_run) ||
	    mode == SHM_COPY_PIPELINE)
		return 0;
	from = (struct layout){
		.base = (uintptr_t)d->base, .count = d->count, .extent = d->extent,
		.size = d->size, .nruns = d->nruns,
		.run = (const struct copy_run *)(d + 1),
	};
	if (mode != SHM_COPY_CMA) {
		seg = src == rt.rank ? NULL : d->seg[0] ? copy_seg_base(d->seg) : NULL;
		if (src == rt.rank || seg) {
			if (seg)
				from.base = (uintptr_t)seg + (uintptr_t)d->seg_off;
			pull_mapped(&from, r, bytes);
			copy_tell(SHM_JOB_COPY_MAPPED);
			pvar_c.rndv_mapped++;
			if (event_wanted(EVENT_P2P_RNDV))
				event_p2p_rndv(r, EVENT_RNDV_MAPPED);
			return 1;
		}
	}
	if (mode != SHM_COPY_MAPPED && !cma_denied())
		return copy_cma(r, src, &from, bytes, rts, offer);
	return 0;
}

/* ---- RMA on private memory (rma_pkt_origin.c) -------------------------- */

int copy_rma_usable(uint64_t bytes)
{
	long mode = knobs_val[SHM_KNOB_SINGLE_COPY];

	if ((mode != SHM_COPY_AUTO && mode != SHM_COPY_CMA) ||
	    bytes < (uint64_t)knobs_val[SHM_KNOB_SINGLE_COPY_RMA_MIN])
		return 0;
	if (cma_denied())
		copy_tell(SHM_JOB_COPY_RMA_DENIED);
	return !cma_denied();
}

int copy_rma(int world, int write, const void *buf, MPI_Count count,
	     const struct datatype *dt, uint64_t raddr, MPI_Count rcount,
	     const struct datatype *rdt, uint64_t bytes)
{
	/* the calling thread's: one at a time calls MPI (under
	 * MPI_THREAD_MULTIPLE, holding the library's lock) */
	static struct cma_iov app_iov;
	struct copy_run lone, rone, *lruns = NULL, *rruns = NULL;
	struct layout local, remote;
	uint64_t moved;
	int rc;

	rc = layout_of(&local, &lone, &lruns, buf, count, dt);
	if (rc == 0)
		rc = layout_of(&remote, &rone, &rruns, (const void *)(uintptr_t)raddr, rcount,
			       rdt);
	if (rc == 0)
		rc = cma_move(&app_iov, copy_pid(world), &local, &remote, 0, bytes, write, &moved);
	free(rruns);
	free(lruns);
	if (rc < 0) {
		cma_failed(rc);
		if (cma_denied())
			copy_tell(SHM_JOB_COPY_RMA_DENIED);
		return rc;
	}
	copy_tell(SHM_JOB_COPY_RMA);
	return 0;
}
