/*
 * Dynamic windows (MPI 3.1, section 11.2.4): the memory each rank attaches
 * with MPI_Win_attach, kept so that an origin finds, alone and in
 * O(log n) of the regions its target has attached, where the bytes of a
 * target range are (win_dyn.c holds the protocol).
 */
#ifndef SRC_WIN_DYN_H
#define SRC_WIN_DYN_H

#include <mpi.h>
#include <stdint.h>

#include "../shm/atomic.h"

struct win;

/*
 * One rank's line in the window segment (win_dyn.c): written by that rank
 * alone, read by every origin before and after each look at its table.
 */
struct win_dyn_ctl {
	shm_atomic_u64 seq;	/* odd while the owner changes its table */
	shm_atomic_u64 table;	/* the generation of its table segment; 0: none */
} __attribute__((aligned(SHM_CACHE_LINE)));

_Static_assert(sizeof(struct win_dyn_ctl) == SHM_CACHE_LINE,
	       "a rank's dynamic-window line is one line");

/* A piece of a target range: contiguous both in the target and here. */
struct win_dyn_piece {
	uint64_t addr;		/* in the target's address space */
	uint64_t len;
	char *at;		/* the same bytes mapped here; NULL: memory only
				 * the target's engine reaches (rma_pkt.h) */
};

/* Where a target range lies: its pieces in address order (adjacent pieces
 * differ in how they are reached). */
struct win_dyn_span {
	struct win_dyn_piece *p;
	int n;
	int cap;
	int priv;		/* pieces with at == NULL */
};

/* Set-up at the creation of a dynamic window, and teardown. */
int win_dyn_init(struct win *w);
void win_dyn_fini(struct win *w);

/* MPI_Finalize: the tables of windows never freed leave /dev/shm (the
 * windows themselves are no longer used). */
void win_dyn_finalize(void);

/*
 * Where the bytes [addr, addr + len) of target's attached memory are:
 * 0 and *span (valid until the next lookup on w), -ENOENT when not every
 * byte is attached, -ENXIO when a segment holding them cannot be mapped
 * here, -ENOMEM.  Application thread only.
 */
int win_dyn_lookup(struct win *w, int target, uint64_t addr, uint64_t len,
		   const struct win_dyn_span **span);

/* This rank's engine (rma_pkt_target.c): whether every byte of [addr,
 * addr + len) is attached here.  Under the engine's lock. */
int win_dyn_attached(struct win *w, uint64_t addr, uint64_t len);

/*
 * Raise MPI_ERR_RMA_RANGE in `call` for count elements of type at address
 * disp of target, whose bytes [disp + lo, disp + hi) are not all
 * attached: the message names the first byte that is not and the
 * attached region nearest to it.
 */
int win_dyn_range_err(struct win *w, const char *call, int target, MPI_Aint disp,
		      MPI_Aint lo, MPI_Aint hi, MPI_Count count, const char *type);

/* [size]: whether this rank, as an origin, has sent an operation that
 * touches shared and private memory of the target to the target's engine
 * since it last found that engine's queue empty (rma_dynamic.c). */
uint8_t *win_dyn_mixed(struct win *w);

#endif
