/*
 * A job's control segment and the names of a job's shared-memory objects.
 *
 * Every object of a job is named "/shmpi-<uid>-<job id>-<what>": the uid
 * keeps users apart, the job id (16 random hex digits) keeps jobs apart and
 * is unguessable.  The control segment ("-ctl") is created by the launcher
 * and holds a header, one control block per rank at `ranks_off`, the
 * collective area of the whole job at `coll_off`, and the channels at
 * `inbox_off`: an inbox per rank (shm/inbox.h), `inbox_stride` bytes
 * apart.  The launcher holds a flock on it for the job's life, so a
 * control segment nobody has locked belongs to a dead job.
 *
 * The channels take O(n) of the segment, not one ring per ordered pair
 * (O(n^2)): each rank's inbox has a shared ring and a pool of rings that
 * senders claim on first use (shm_job_chan_geometry sizes them), and only
 * the pages that carry records are ever backed by memory.  Per rank at
 * most 1 MiB, and 256 MiB in all from 256 ranks up.
 */
#ifndef SHM_JOB_H
#define SHM_JOB_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "atomic.h"
#include "barrier.h"
#include "coll.h"
#include "inbox.h"
#include "wait.h"

#define SHM_JOB_MAGIC 0x626f6a69706d6873ULL /* "shmpijob" */
#define SHM_JOB_VERSION 12
#define SHM_JOB_ID_LEN 16
#define SHM_JOB_NAME_PREFIX "shmpi-"

/* What a rank is doing, as far as the launcher must know. */
enum shm_rank_phase {
	SHM_RANK_STARTED = 0,	/* forked; not (yet) in MPI */
	SHM_RANK_INITIALIZED,	/* between MPI_Init and MPI_Finalize */
	SHM_RANK_FINALIZED,	/* MPI_Finalize done: may exit */
	SHM_RANK_ABORTED,	/* called MPI_Abort or hit a fatal error */
};

/*
 * What a rank publishes about itself for the launcher's watchdog: the MPI
 * call it is in (0: outside MPI), what it waits for, and since when; what
 * its progress engine still owes others.  The rank writes these with
 * relaxed stores; the watchdog only reads a snapshot and never acts on one
 * look alone.  The values are the protocol of shm/rankstate.h.
 */
struct shm_rank_state {
	shm_atomic_u32 call;		/* enum call_id, 0 outside MPI */
	shm_atomic_u32 wait_kind;	/* enum wait_kind, 0 if none */
	shm_atomic_i32 peer;		/* rank waited for, or -1 */
	shm_atomic_i32 tag;
	shm_atomic_u32 ctx;		/* communicator (context id) or window */
	shm_atomic_u32 last_call;	/* outside MPI: the call it left last */
	shm_atomic_u64 since_ns;	/* CLOCK_MONOTONIC of the last change */
	shm_atomic_u32 owes;		/* peers the engine has records queued for */
	shm_atomic_u32 strong;		/* SHM_RANK_STRONG, SHM_RANK_THREADS */
	shm_atomic_i32 holder;		/* WAIT_WIN_LOCK: who keeps it waiting, or -1 */
	shm_atomic_u32 blocker;		/* WAIT_WIN_LOCK: how (SHM_BLOCKER) */
};

/* A message's data that its receiver and sender copy together, a chunk at
 * a time: claim holds a generation (the top 24 bits) and the bytes claimed
 * so far; done the bytes copied; a sender that cannot copy a chunk it
 * claimed gives it back (back_off, then back_len). */
struct shm_copy_share {
	shm_atomic_u64 claim;
	shm_atomic_u64 done;
	shm_atomic_u64 back_off;
	shm_atomic_u64 back_len;
};

struct shm_rank_ctl {
	/* written by the rank itself */
	shm_atomic_i32 pid;
	shm_atomic_u32 phase;		/* enum shm_rank_phase */
	shm_atomic_u64 progress;	/* bumped whenever the rank moves work */
	struct shm_rank_state state;
	/* written by peers that give the rank work */
	struct shm_waitword doorbell __attribute__((aligned(SHM_CACHE_LINE)));
	/* set by the rank before MPI_Init returns, never cleared: it sleeps on
	 * the doorbell the asymmetric way (wait.h), so that a ringer registered
	 * for shm_membarrier() may ring it without a fence */
	shm_atomic_u32 bell_asym;
	/* the one-copy transfer into this rank that its sender helps with
	 * (src/p2p_copy.c says the protocol): written by both */
	struct shm_copy_share share __attribute__((aligned(SHM_CACHE_LINE)));
} __attribute__((aligned(SHM_CACHE_LINE)));

_Static_assert(sizeof(struct shm_rank_ctl) == 3 * SHM_CACHE_LINE,
	       "a line the rank writes, a line its peers write, a shared copy's line");

struct shm_job_hdr {
	uint64_t magic;
	uint32_t version;
	uint32_t nranks;
	uint64_t size;			/* of the whole segment */
	uint64_t ranks_off;		/* offset of the rank control blocks */
	uint64_t inbox_off;		/* offset of rank 0's inbox */
	uint64_t inbox_stride;		/* bytes from one inbox to the next */
	uint64_t chan_cap;		/* data bytes of each channel ring */
	uint32_t chan_rings;		/* pool rings of each inbox */
	shm_atomic_u32 single_copy;	/* SHM_JOB_COPY_* bits the ranks set */
	uint64_t coll_off;		/* MPI_COMM_WORLD's collective area */
	shm_atomic_u32 next_ctx;	/* context ids handed out so far */
	shm_atomic_i32 abort_rank;	/* first rank to abort, or -1 */
	shm_atomic_i32 abort_code;	/* its error code */
};

/* What the ranks found of one-copy transfers (src/p2p_copy.c), for
 * shmrun --verbose: set with relaxed fetch-or, read once the ranks are
 * gone. */
#define SHM_JOB_COPY_CMA	1u	/* a process_vm_readv between ranks worked */
#define SHM_JOB_COPY_DENIED	2u	/* one was refused: that rank falls back */
#define SHM_JOB_COPY_MAPPED	4u	/* a message was copied from mapped memory */
#define SHM_JOB_COPY_RMA	8u	/* a put or get on private memory was copied
					 * with process_vm_writev or _readv */
#define SHM_JOB_COPY_RMA_DENIED	16u	/* one went as packets: the calls were refused */
#define SHM_JOB_COPY_WIN_SHARED	32u	/* MPI_Win_create made private pages shared
					 * (src/mem.c) */

/* The channels of a job of n ranks: the data bytes of each ring and the
 * pool rings of each inbox (SHMPI_CHANNEL_BYTES and SHMPI_CHANNEL_RINGS
 * may fix either). */
void shm_job_chan_geometry(uint32_t nranks, uint64_t *cap, uint32_t *rings);

/* Bytes a control segment for n ranks needs. */
size_t shm_job_size(uint32_t nranks);

/* Back every page of a control segment for n ranks created sparse
 * (shm/seg.h) but the inboxes' pool rings, which their senders back when
 * they claim them; -ENOSPC when /dev/shm is full. */
struct shm_seg;
int shm_job_reserve(const struct shm_seg *seg, uint32_t nranks);

/* Lay out a fresh (zeroed) control segment. */
void shm_job_init(struct shm_job_hdr *hdr, uint32_t nranks);

/* Check that a mapped segment is a control segment of this version for
 * nranks ranks; -EPROTO (bad magic/version) or -EINVAL (sizes) otherwise. */
int shm_job_check(const struct shm_job_hdr *hdr, size_t mapped, uint32_t nranks);

static inline struct shm_rank_ctl *shm_job_rank(struct shm_job_hdr *hdr, int rank)
{
	return (struct shm_rank_ctl *)((char *)hdr + hdr->ranks_off) + rank;
}

/* The inbox of a rank: its incoming channels. */
static inline struct shm_inbox *shm_job_inbox(struct shm_job_hdr *hdr, int rank)
{
	return (struct shm_inbox *)((char *)hdr + hdr->inbox_off +
				    (size_t)rank * hdr->inbox_stride);
}

/* The collective area of the whole job (every rank a member). */
static inline struct shm_coll *shm_job_coll(struct shm_job_hdr *hdr)
{
	return (struct shm_coll *)((char *)hdr + hdr->coll_off);
}

/* A new random job id (SHM_JOB_ID_LEN lowercase hex digits + NUL). */
int shm_job_id_new(char id[SHM_JOB_ID_LEN + 1]);

/* Whether s is a well-formed job id. */
int shm_job_id_valid(const char *s);

/* "/shmpi-<uid>-<id>-<what>" into buf; -ENAMETOOLONG if it does not fit. */
int shm_job_name(char *buf, size_t len, uid_t uid, const char *id, const char *what);

/* How long a job's objects may exist before its control segment is sized
 * and locked (job start-up): cleanup leaves younger ones alone. */
#define SHM_JOB_CLEANUP_GRACE_S 60

/*
 * Remove the objects of dead jobs of user uid from /dev/shm: those whose
 * control segment is sized but nobody holds it locked, and those with no
 * control segment at all.  Objects of live jobs, and objects younger than
 * grace_s seconds whose job may still be starting, are left alone.  Returns
 * how many objects were removed, or a negative errno.
 */
int shm_job_cleanup_dead(uid_t uid, int grace_s);

#endif
