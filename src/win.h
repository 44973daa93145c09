/*
 * Windows.
 *
 * Every window has a segment of its own in shared memory ("w<ctx>", ctx
 * the context id of the window's private communicator), created by rank 0
 * and mapped by all: a header, one control block per target (its
 * passive-target lock), one record per rank as an origin of locks (its
 * node on the targets' waiter lists), one line of accumulate locks per
 * target, the PSCW counts, the acknowledgement counts of the private path,
 * each rank's line for its table of attached regions (dynamic windows,
 * win_dyn.h), and, for MPI_Win_allocate and
 * MPI_Win_allocate_shared, every rank's window memory.  MPI_Win_create on MPI_Alloc_mem memory maps the owners'
 * segments instead.  Everything an origin does to a target it does itself,
 * through these mappings: the target never has to take part.
 *
 * How a (window, target) pair is served is decided once, at creation:
 * t[target].path, and t[target].ops, the table of that path.  Memory other processes cannot map (MPI_Win_create on
 * stack or malloc memory) takes the private path of rma_pkt.h instead: the
 * origin sends packets and the target's progress engine applies them.
 */
#ifndef SRC_WIN_H
#define SRC_WIN_H

#include <mpi.h>
#include <stdint.h>

#include "../shm/atomic.h"
#include "../shm/rankstate.h"
#include "../shm/rwlock.h"
#include "../shm/seg.h"
#include "../shm/wait.h"
#include "comm.h"
#include "handle.h"

#define WIN_MAGIC 0x6e6977696d6873ULL	/* "shmiwin" */
#define WIN_ACC_STRIPES 16	/* accumulate locks per target */
#define WIN_ACC_STRIPE_SHIFT 12	/* each covers the bytes of one 4 KiB page in 16 */
#define WIN_HELD_MAX 9		/* locks a rank's record names (what fits its line) */

/* One target's control block: its passive-target lock (rma_passive.c). */
struct win_shm_target {
	struct shm_rwlock lock;
};

/*
 * One target's accumulate locks (rma_atomic.c): spin locks, a byte of the
 * target's window belongs to stripe (its offset >> WIN_ACC_STRIPE_SHIFT) mod
 * WIN_ACC_STRIPES.  One line per target: written by the origins that
 * accumulate to that target only.
 */
struct win_shm_acc {
	shm_atomic_u32 stripe[WIN_ACC_STRIPES];
} __attribute__((aligned(SHM_CACHE_LINE)));

_Static_assert(sizeof(struct win_shm_acc) == SHM_CACHE_LINE,
	       "a target's accumulate locks take one line");

/*
 * One rank's record as an origin of passive-target locks: its node for the
 * waiter lists of the targets' locks (the lock's own record of who waits,
 * shm/rwlock.h), and, for diagnosis only, what it holds.  The rank writes
 * the diagnosis fields, relaxed; waiters read them to say who keeps them
 * waiting (rma_passive.c).
 */
#define WIN_HELD_EXCL 0x80000000u	/* held[]: an exclusive lock */

struct win_shm_rank {
	/* one node: a rank waits for one lock of a window at a time, which
	 * holds while one thread at a time calls MPI (up to
	 * MPI_THREAD_SERIALIZED); concurrent callers need one per thread */
	struct shm_rwlock_node node;
	shm_atomic_u32 held[WIN_HELD_MAX];	/* target + 1 (| WIN_HELD_EXCL), or 0 */
	shm_atomic_u32 held_more;	/* locks held that held[] has no room for */
	shm_atomic_u32 all_upto;	/* MPI_Win_lock_all: targets [0, all_upto)
					 * are locked shared */
} __attribute__((aligned(SHM_CACHE_LINE)));

_Static_assert(sizeof(struct win_shm_rank) == SHM_CACHE_LINE,
	       "a rank's lock record takes one line");

struct win_shm {
	uint64_t magic;
	uint32_t nranks;
	uint32_t flavor;
	uint64_t size;			/* of the whole segment */
	uint64_t tgt_off, rank_off, acc_off, pscw_off, pscw_stride, ack_off, ack_stride;
	uint64_t dyn_off, data_off;
};

struct win;
struct rma_args;
struct rma_accargs;

/*
 * What differs between the paths that serve a target (rma.c: direct,
 * rma_pkt_origin.c: private).  The communication calls check their
 * arguments once (rma.c) and hand them to these.
 */
struct win_ops {
	const char *memory;	/* the shmpi_memory info value */
	/* where (disp, [lo, hi)) lands: a->taddr or a->toff, or
	 * MPI_ERR_RMA_RANGE */
	int (*locate)(struct win *w, int target, MPI_Aint disp, MPI_Aint lo,
		      MPI_Aint hi, struct rma_args *a);
	/* raise MPI_ERR_RMA_RANGE in `call` for count elements of type at
	 * disp, whose bytes [lo, hi) from there locate refused */
	int (*range_err)(struct win *w, const char *call, int target, MPI_Aint disp,
			 MPI_Aint lo, MPI_Aint hi, MPI_Count count, const char *type);
	/* put (to_target) or get between obuf and the target */
	int (*copy)(struct rma_args *a, void *obuf, int to_target);
	/* accumulate, get_accumulate, fetch_and_op */
	int (*acc)(const char *call, struct rma_args *a, const struct rma_accargs *x);
	int (*cas)(const char *call, struct rma_args *a, const void *compare,
		   void *result);
	/* MPI_Win_lock (type MPI_LOCK_*, not MPI_MODE_NOCHECK), unlock, and
	 * flush for the target */
	void (*lock)(struct win *w, int target, int type);
	void (*unlock)(struct win *w, int target);
	void (*flush)(struct win *w, int target, enum call_id call);
};

extern const struct win_ops win_ops_direct;
extern const struct win_ops win_ops_private;	/* rma_pkt.h */
/* Dynamic windows: per attached region, direct (MPI_Alloc_mem memory) or
 * private (anything else); the target's lock is the direct path's. */
extern const struct win_ops win_ops_dynamic;

/* Which path serves a target, decided at creation (the value that the
 * fast paths switch on; ops is the table of that path). */
enum win_path {
	WIN_PATH_DIRECT,	/* memory mapped here: the origin does it all */
	WIN_PATH_PRIVATE,	/* the target's engine applies packets (rma_pkt.h) */
	WIN_PATH_DYNAMIC,	/* per attached region; the direct path's lock */
};

/* A target as this process reaches it. */
struct win_target {
	char *base;		/* its window memory mapped here (NULL: dynamic, or
				 * the private path) */
	char *mem;		/* the same whatever the path (MPI_Win_shared_query) */
	uint64_t addr;		/* its window memory in the owner's process: where
				 * the private path's single copies go (MPI_Win_create) */
	MPI_Aint size;
	int disp_unit;
	enum win_path path;
	const struct win_ops *ops;
};

enum win_lock_held {
	WIN_UNLOCKED = 0,
	WIN_LOCKED_SHARED,
	WIN_LOCKED_EXCLUSIVE,
	WIN_LOCKED_NOCHECK,	/* MPI_MODE_NOCHECK: no lock was taken */
};

struct win_map {
	struct shm_seg seg;
	struct win_map *next;
};

struct win {
	MPI_Win handle;
	struct comm *comm;	/* a private duplicate of the user's communicator */
	int rank;
	int size;
	int flavor;
	void *base;		/* this process's window memory, as the user sees it */
	void *adopted;		/* base, when MPI_Win_create made its pages shared (mem.h) */
	MPI_Aint my_size;
	int disp_unit;
	int model;		/* MPI_WIN_UNIFIED: what the attribute points at */
	struct win_target *t;	/* [size] */
	struct shm_seg seg;
	struct win_shm *shm;
	struct win_map *maps;	/* other segments mapped (Alloc_mem memory) */
	struct errhandler *errh;
	struct attr *attrs;
	struct info *info;
	char name[MPI_MAX_OBJECT_NAME];
	int no_locks;
	struct shm_rwlock_nodes lock_nodes;	/* the ranks' win_shm_rank.node */
	uint32_t *wake_ids;	/* [size] waiters an unlock grants (rma_passive.c) */
	int node_taken;		/* a thread of this rank waits on our node */
	uint32_t held[WIN_HELD_MAX];	/* this rank's held[] as it stored it */
	uint32_t held_more;
	int npriv;		/* targets served by the private path */
	struct rma_pkt_win *pkt;	/* its state (rma_pkt_origin.c), or NULL */
	struct win_dyn *dyn;	/* dynamic windows: win_dyn.c's state, or NULL */

	/* epochs of this process */
	int fence_on;		/* a fence opened an epoch */
	int fence_used;		/* an RMA call happened since the last fence */
	struct group *start_group;	/* MPI_Win_start's access epoch */
	int *start_ranks;	/* its members, when start did not wait for their
				 * posts (the adversarial mode): complete does */
	struct group *post_group;	/* MPI_Win_post's exposure epoch */
	struct win_group_cache {	/* rma_active.c: post's [0], start's [1] */
		struct group *g;	/* referenced */
		int *ranks;		/* its members as ranks of the window */
	} groups[2];
	uint32_t *completes_expected;	/* [size] each origin's completes due, ever */
	uint32_t *posts_seen;	/* [size] posts taken from each target, ever */
	uint32_t *pscw_row;	/* [2 * size] this rank's PSCW row as it last
				 * stored it: its only writer counts here and
				 * stores, and never loads the line back */
	uint8_t *locked;	/* [size] enum win_lock_held */
	int nlocked;
	int lock_all;		/* 0, 1, or 2 (MPI_MODE_NOCHECK) */
};

/* Application thread only (handle_get_last). */
static inline struct win *win_get(MPI_Win h)
{
	return handle_get_last(h, HANDLE_WIN);
}

/* The window behind h for `call`, or NULL after raising MPI_ERR_WIN on
 * MPI_COMM_WORLD (*rc set). */
struct win *win_arg(const char *call, MPI_Win h, int *rc);

/* Raise errclass on window w. */
#define win_err(w, call, ...) err_obj((w)->errh, (w)->handle, call, __VA_ARGS__)

static inline struct win_shm_target *win_shm_target(const struct win *w, int r)
{
	return (struct win_shm_target *)((char *)w->shm + w->shm->tgt_off) + r;
}

static inline struct win_shm_acc *win_shm_acc(const struct win *w, int r)
{
	return (struct win_shm_acc *)((char *)w->shm + w->shm->acc_off) + r;
}

static inline struct win_shm_rank *win_shm_rank(const struct win *w, int r)
{
	return (struct win_shm_rank *)((char *)w->shm + w->shm->rank_off) + r;
}

/*
 * The PSCW counts live in one row per rank, of the counts that rank raises:
 * [0, n) the posts it made to each origin, [n, 2n) the epochs it completed
 * to each target; rows start on cache lines.  Every line has one writer,
 * and a rank that completes to a target and then posts to it (the usual
 * exchange) changes one line, which the other side fetches once.
 */
static inline shm_atomic_u32 *win_shm_pscw_row(const struct win *w, int r)
{
	return (shm_atomic_u32 *)((char *)w->shm + w->shm->pscw_off +
				  (size_t)r * w->shm->pscw_stride);
}


/* post[origin][target]: how many times target posted an epoch to origin. */
static inline shm_atomic_u32 *win_shm_post(const struct win *w, int origin, int target)
{
	return win_shm_pscw_row(w, target) + origin;
}

/* compl[origin][target]: how many access epochs origin completed to target. */
static inline shm_atomic_u32 *win_shm_compl(const struct win *w, int origin, int target)
{
	return win_shm_pscw_row(w, origin) + w->size + target;
}

/* Take down the windows still open at MPI_Finalize (win.c). */
void win_fini_all(void);

/* Raise count i of this rank's row (w->pscw_row mirrors it; i: the origin
 * of a post, or size + the target of a complete): one release store, no
 * read of a line the peers poll, no locked instruction waiting for that
 * line to come back. */
static inline void win_pscw_raise(struct win *w, size_t i)
{
	atomic_store_explicit(win_shm_pscw_row(w, w->rank) + i, ++w->pscw_row[i],
			      memory_order_release);
}

/*
 * ack[origin][target]: how many acknowledgements target has given origin
 * for operations on its private memory (rma_pkt.h).  The target stores
 * each word, the origin polls its row, which shares no line with another
 * origin's.
 */
static inline shm_atomic_u32 *win_shm_ack(const struct win *w, int origin, int target)
{
	return (shm_atomic_u32 *)((char *)w->shm + w->shm->ack_off +
				  (size_t)origin * w->shm->ack_stride) + target;
}

/* The range_err of the paths of static windows (direct and private). */
int win_range_err_static(struct win *w, const char *call, int target, MPI_Aint disp,
			 MPI_Aint lo, MPI_Aint hi, MPI_Count count, const char *type);

/* Where disp lands in target's window, as every origin counts it: the
 * byte offset in a static window, the address at the target in a dynamic
 * one (disp_unit 1).  It picks the accumulate stripes (rma_atomic.c);
 * computed without overflow checks, on arguments already checked. */
static inline uint64_t win_target_key(const struct win *w, int target, MPI_Aint disp)
{
	return (uint64_t)disp * (uint64_t)w->t[target].disp_unit;
}

/*
 * The bytes [lo, hi) of target t's window at displacement disp, as an
 * offset in t's window (every static window): MPI_SUCCESS, or
 * MPI_ERR_RMA_RANGE when they are not all inside it.  With
 * win_target_addr_static, the one place where (base, disp_unit, disp)
 * becomes an address; dynamic windows have theirs in win_dyn.h.
 */
static inline int win_target_offset(const struct win_target *t, MPI_Aint disp,
				    MPI_Aint lo, MPI_Aint hi, MPI_Aint *at)
{
	if (disp < 0 || __builtin_mul_overflow(disp, (MPI_Aint)t->disp_unit, at) ||
	    *at + lo < 0 || *at > t->size - hi)
		return MPI_ERR_RMA_RANGE;
	return MPI_SUCCESS;
}

static inline int win_target_addr_static(const struct win_target *t, MPI_Aint disp,
					 MPI_Aint lo, MPI_Aint hi, char **addr)
{
	MPI_Aint at;

	if (hi <= lo) {
		*addr = t->base;	/* nothing is touched */
		return MPI_SUCCESS;
	}
	if (win_target_offset(t, disp, lo, hi, &at) != MPI_SUCCESS)
		return MPI_ERR_RMA_RANGE;
	*addr = t->base + at;
	return MPI_SUCCESS;
}

#endif
