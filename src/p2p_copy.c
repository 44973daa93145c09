/*
 * One-copy transfers of rendezvous messages (p2p_copy.h).
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

static struct {
	int cma_denied;		/* a pull was refused: never again */
	unsigned told;		/* SHM_JOB_COPY_* bits already published */
	struct shm_seg map[COPY_MAPS];
	unsigned next_map;	/* the slot to reuse next */
} cp;

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
	memset(&cp, 0, sizeof(cp));
}

/* Record a finding in the job's header once (shmrun --verbose). */
static void copy_tell(unsigned bit)
{
	if (cp.told & bit)
		return;
	cp.told |= bit;
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

/* Copy bytes of the stream of src (mapped here) into receive r. */
static void pull_mapped(const struct layout *src, struct request *r, uint64_t bytes)
{
	struct iovec iov[64];
	uint64_t off = 0;

	while (off < bytes) {
		uint64_t got;
		int n = layout_iov(src, off, bytes - off, iov, 64, &got);

		for (int i = 0; i < n; i++) {
			dt_unpack(r->dt, r->rbuf, off, iov[i].iov_base, iov[i].iov_len);
			off += iov[i].iov_len;
		}
	}
}

#define COPY_IOV (IOV_MAX < 1024 ? IOV_MAX : 1024)

/* process_vm_readv bytes of the stream of src (in process pid) into dst's;
 * 0 or -errno. */
static int pull_cma(pid_t pid, const struct layout *src, const struct layout *dst,
		    uint64_t bytes)
{
	static struct iovec liov[COPY_IOV], riov[COPY_IOV];
	uint64_t off = 0;

	while (off < bytes) {
		uint64_t lgot, rgot;
		int nl = layout_iov(dst, off, bytes - off, liov, COPY_IOV, &lgot);
		int nr = layout_iov(src, off, lgot, riov, COPY_IOV, &rgot);
		ssize_t n;

		/* the local iovec may cover more than the remote one: the call
		 * copies what both cover */
		n = process_vm_readv(pid, liov, (unsigned long)nl, riov,
				     (unsigned long)nr, 0);
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		off += (uint64_t)n;
	}
	return 0;
}

static int copy_cma(struct request *r, int src, const struct layout *from, uint64_t bytes)
{
	pid_t pid = atomic_load_explicit(&shm_job_rank(rt.job, src)->pid,
					 memory_order_relaxed);
	struct copy_run one, *runs;
	struct layout to;
	int rc;

	if (layout_of(&to, &one, &runs, r->rbuf, r->count, r->dt) < 0)
		return 0;
	rc = pull_cma(pid, from, &to, bytes);
	free(runs);
	if (rc == -EPERM || rc == -ENOSYS || rc == -EACCES) {
		/* not allowed here (see the top): the channels from now on */
		cp.cma_denied = 1;
		copy_tell(SHM_JOB_COPY_DENIED);
		return 0;
	}
	if (rc < 0)
		return 0;	/* the sender went away (ESRCH): the job ends */
	copy_tell(SHM_JOB_COPY_CMA);
	pvar_c.rndv_cma++;
	if (event_wanted(EVENT_P2P_RNDV))
		event_p2p_rndv(r, EVENT_RNDV_CMA);
	return 1;
}

int copy_pull(struct request *r, int src, const void *desc, uint32_t len)
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
	if (mode != SHM_COPY_MAPPED && !cp.cma_denied)
		return copy_cma(r, src, &from, bytes);
	return 0;
}
