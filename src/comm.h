/*
 * Communicators.
 *
 * Each communicator owns two context ids: ctx for the user's point-to-point
 * messages and ctx + 1 for the library's own messages on it, so the two
 * never match.  Context ids are unique in the job: whoever creates
 * communicators takes a block from the job's counter.  Each communicator
 * also has a collective area in shared memory (shm/coll.h):
 * MPI_COMM_WORLD's lives in the job's control segment, every other one in
 * a segment of its own that its rank 0 creates.
 */
#ifndef SRC_COMM_H
#define SRC_COMM_H

#include <mpi.h>
#include <stdint.h>

#include "../shm/coll.h"
#include "../shm/seg.h"
#include "errhandler.h"
#include "group.h"
#include "handle.h"

struct attr;
struct info;
struct topo;

struct comm {
	MPI_Comm handle;
	int refs;		/* the handle, plus each request using it */
	int rank;
	int size;
	uint32_t ctx;
	struct group *group;
	const int *world;	/* group->world; NULL for MPI_COMM_WORLD (identity) */
	struct errhandler *errh;
	struct attr *attrs;
	struct info *info;
	struct topo *topo;	/* a process topology, or NULL */
	char name[MPI_MAX_OBJECT_NAME];

	/* collectives (coll.c) */
	struct shm_coll *coll;
	struct shm_seg coll_seg;	/* its mapping, unless MPI_COMM_WORLD's */
	uint64_t coll_seq;		/* collectives this member has begun */
	uint64_t coll_acks;		/* acknowledgements its slot awaits, ever */
};

/* The job rank of member r of c. */
static inline int comm_world_rank(const struct comm *c, int r)
{
	return c->world ? c->world[r] : r;
}

/* The rank in c of job rank w, or MPI_UNDEFINED if w is no member. */
static inline int comm_rank_of_world(const struct comm *c, int w)
{
	int r;

	if (!c->world)
		return w;
	r = c->group->index[w];
	return r >= 0 ? r : MPI_UNDEFINED;
}

/* Set up MPI_COMM_WORLD and MPI_COMM_SELF (MPI_Init) and drop them again. */
int comm_init_builtins(void);
void comm_fini_builtins(void);

static inline struct comm *comm_get(MPI_Comm h)
{
	return handle_get(h, HANDLE_COMM);
}

/* A private duplicate of parent for the library's own use (collective over
 * parent; no handle handed out).  MPI error class. */
#include "state.h"
int comm_dup_internal(struct comm *parent, enum call_id call, struct comm **out);

/* Collective over parent: the new communicator of this color (ranks by
 * key, then parent rank), NULL for MPI_UNDEFINED.  MPI error class. */
int comm_split_internal(struct comm *parent, enum call_id call, int color, int key,
			struct comm **out);

/* Hand c (or MPI_COMM_NULL when c is NULL) to the user as *newcomm, with
 * the parent's error handler (and attributes copied when dup). */
int comm_out(struct comm *parent, struct comm *c, MPI_Comm *newcomm, int dup);

void comm_ref(struct comm *c);
void comm_unref(struct comm *c);

/* Raise MPI_ERR_COMM for an invalid handle passed to `call`. */
int comm_err_invalid(MPI_Comm comm, const char *call);

#endif
