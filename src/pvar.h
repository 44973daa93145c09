/*
 * The counts behind the MPI_T performance variables (MPI 3.1, section
 * 14.3.7; src/mpit_pvar.c turns them into variables, the README lists
 * them).  One plain struct per process that the paths add to as they go:
 * an increment or two of a word at a fixed address, no atomic
 * read-modify-write, no call, and no test of whether anybody looks.  What
 * a tool sees is made when it asks (a session's handle remembers the count
 * at its start), so counting costs the same whether or not a session is
 * open, and a process that opens none pays only the increments.
 *
 * One writer at a time per field, which is what keeps the increments plain:
 *   - the application thread's fields, changed only inside MPI calls, which
 *     one thread at a time makes (MPI_THREAD_SERIALIZED at most; under
 *     MPI_THREAD_MULTIPLE the assumption is that MPI calls run under one
 *     lock of the library, which these increments are then made under);
 *   - the engine's fields, changed only by the progress engine under its
 *     lock (progress.c), whichever thread runs it: under strong progress
 *     the progress thread does too, so MPI_T reads every field under that
 *     lock (progress_lock), which also orders them for the reader.
 * The futex counts are per thread and live with the futex calls
 * (shm/futex.h).
 */
#ifndef SRC_PVAR_H
#define SRC_PVAR_H

#include <stddef.h>
#include <stdint.h>

#include "../shm/rankstate.h"

/* The RMA communication calls, by kind (the request-based forms count as
 * their kind: MPI_Rput as a put). */
enum pvar_rma_kind {
	PVAR_RMA_PUT,
	PVAR_RMA_GET,
	PVAR_RMA_ACC,		/* MPI_Accumulate, MPI_Raccumulate */
	PVAR_RMA_GET_ACC,	/* MPI_Get_accumulate, MPI_Rget_accumulate */
	PVAR_RMA_FOP,		/* MPI_Fetch_and_op */
	PVAR_RMA_CAS,		/* MPI_Compare_and_swap */
	PVAR_RMA_KINDS
};

/* The path that served an operation (win.h): memory mapped here, or
 * packets the target's engine applies. */
enum pvar_rma_path { PVAR_PATH_DIRECT, PVAR_PATH_PRIVATE, PVAR_PATHS };

struct pvar_counts {
	/* the application thread's */
	struct {
		uint64_t ops, bytes;	/* bytes: of target memory */
	} rma[PVAR_RMA_KINDS][PVAR_PATHS];
	uint64_t locks_direct;	/* passive-target locks granted at direct targets */
	uint64_t lock_waits;	/* locks not granted at once, either path */
	uint64_t lock_wait_ns;	/* how long those waited */
	uint64_t flushes;	/* MPI_Win_flush and its three siblings */
	uint64_t waits[WAIT_KIND_COUNT];	/* blocking waits, by what for */

	/* the engine's */
	uint64_t locks_private;	/* locks granted by private targets */
	uint64_t sent, sent_bytes;	/* the application's messages */
	uint64_t received, received_bytes;	/* ... matched to its receives */
	uint64_t unexpected;	/* messages in the unexpected queue now */
	uint64_t unexpected_max;	/* its high-water mark since MPI_T last
					 * looked (mpit_pvar.c keeps each handle's) */
	uint64_t polls;		/* passes of the engine */
	uint64_t rndv_cma, rndv_mapped, rndv_pipeline;	/* rendezvous messages
					 * received, by how their data came
					 * (p2p_copy.c) */
	uint64_t rndv_shared;	/* ... of those copied with process_vm_readv,
				 * the ones whose sender was asked to help */
	uint64_t rndv_pushed_bytes;	/* bytes this rank wrote into its
					 * receivers' buffers, helping */
};

/* Hidden, so that an increment addresses it directly, not through the GOT. */
extern struct pvar_counts pvar_c __attribute__((visibility("hidden")));

/* An RMA operation of kind k that the path priv (enum pvar_rma_path) served. */
static inline void pvar_rma(enum pvar_rma_kind k, int priv, size_t bytes)
{
	pvar_c.rma[k][priv].ops++;
	pvar_c.rma[k][priv].bytes += bytes;
}

/* The engine's: a message put on, or taken off, the unexpected queue. */
static inline void pvar_unexpected_add(void)
{
	uint64_t n = ++pvar_c.unexpected;

	pvar_c.unexpected_max = n > pvar_c.unexpected_max ? n : pvar_c.unexpected_max;
}

static inline void pvar_unexpected_remove(void)
{
	pvar_c.unexpected--;
}

/* The clock of the lock-wait timer, read only when a lock is not granted
 * at once. */
uint64_t pvar_now_ns(void);

/* A lock granted after waiting since start (pvar_now_ns). */
void pvar_lock_waited(uint64_t start);

#endif
