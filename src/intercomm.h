/*
 * Intercommunicators (intercomm.c): creation out of an intercommunicator
 * for comm.c, and what their collectives (coll_inter.c) build on.
 */
#ifndef SRC_INTERCOMM_H
#define SRC_INTERCOMM_H

#include <mpi.h>

#include "comm.h"
#include "datatype.h"
#include "state.h"

/* Tags of the library's own messages between the two groups (on the
 * internal context), one per purpose, so no two purposes ever match. */
enum inter_tag {
	INTER_TAG_AGREE = 1,
	INTER_TAG_BARRIER,
	INTER_TAG_BCAST,
	INTER_TAG_REDUCE,
	INTER_TAG_ALLREDUCE,
	INTER_TAG_REDUCE_SCATTER,
	INTER_TAG_GATHER,
	INTER_TAG_SCATTER,
	INTER_TAG_ALLGATHER,
	INTER_TAG_ALLTOALL,
};

/* An intercommunicator over intracommunicator local (its reference is
 * taken over) and group remote, with context ctx; NULL when out of memory
 * (local is dropped then). */
struct comm *inter_new(struct comm *local, struct group *remote, uint32_t ctx);

/* A block of n new context ids, from the job's counter. */
uint32_t inter_take_ids(uint32_t n);

struct sched;

/* The nonblocking form of the leaders' agreement of inter_dup, as steps of
 * schedule s on intercommunicator p (coll_nb.h): the leaders trade *ctx,
 * a new context pair that the one of lower job rank takes, and each
 * broadcasts it in its group over `local`; *ctx must live until s ends. */
void inter_agree_build(struct sched *s, struct comm *p, uint32_t *ctx);

/* Collective over intercommunicator p (MPI error class): its duplicate;
 * its split (NULL for MPI_UNDEFINED, or when no process of the remote
 * group chose the same color); with g, MPI_Comm_create of group g, which
 * may fail with MPI_ERR_GROUP and *why. */
int inter_dup(struct comm *p, struct comm **out);
int inter_split(struct comm *p, int color, int key, const struct group *g,
		struct comm **out, char *why, size_t whylen);

/* MPI_Comm_compare when a or b is an intercommunicator (a != b). */
int inter_compare(const struct comm *a, const struct comm *b, int *result);

/*
 * One side of an exchange with several peers: for peer m, count(m)
 * elements of dt at buf + displ(m) extents, where count(m) is counts[m]
 * (or count) and displ(m) is displs[m] (or m * count), or 0 for every peer
 * when `whole` (the same buffer for each).
 */
struct xfer {
	void *buf;
	struct datatype *dt;
	const MPI_Count *counts;
	const MPI_Aint *displs;
	MPI_Count count;
	int whole;
};

/* Receive r's part from and send s's part to each peer in [lo, hi) of c
 * (point-to-point ranks; NULL s or r: nothing that way), all at once, on
 * c's internal context.  MPI error class. */
int inter_xfer(struct comm *c, enum call_id call, int tag, int lo, int hi,
	       const struct xfer *s, const struct xfer *r);

/* Every process of both groups of intercommunicator c has arrived. */
void inter_barrier(struct comm *c, enum call_id call);

#endif
