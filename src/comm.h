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
 *
 * An intercommunicator (intercomm.c) has a local group (group, rank, size)
 * and a remote group: point-to-point ranks name the remote group (world
 * points into its table), and its collectives (coll_inter.c) run on
 * `local`, an intracommunicator of the local group, plus messages between
 * the groups on the internal context.  It has no collective area itself.
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
	const int *world;	/* group->world (intercommunicators: remote->world);
				 * NULL for MPI_COMM_WORLD (identity) */
	struct errhandler *errh;
	struct attr *attrs;
	struct info *info;
	struct topo *topo;	/* a process topology, or NULL */
	struct group *remote;	/* intercommunicators: the remote group, else NULL */
	struct comm *local;	/* intercommunicators: over the local group */
	char name[MPI_MAX_OBJECT_NAME];
	struct bsend_pool *bsend;	/* MPI_Comm_attach_buffer's, or NULL */

	/* collectives (coll.c) */
	struct shm_coll *coll;
	struct shm_seg coll_seg;	/* its mapping, unless MPI_COMM_WORLD's */
	uint64_t coll_seq;		/* collectives this member has begun */
	uint64_t coll_acks;		/* acknowledgements its slot awaits, ever */
	uint32_t barrier_seq;		/* two members: barriers begun (coll.c) */
};

/* The job rank of member r of c (of its remote group, if an intercomm). */
static inline int comm_world_rank(const struct comm *c, int r)
{
	return c->world ? c->world[r] : r;
}

/* The rank in c (in its remote group, if an intercomm) of job rank w, or
 * MPI_UNDEFINED if w is no member. */
static inline int comm_rank_of_world(const struct comm *c, int w)
{
	int r;

	if (!c->world)
		return w;
	r = (c->remote ? c->remote : c->group)->index[w];
	return r >= 0 ? r : MPI_UNDEFINED;
}

/* How many ranks point-to-point on c may name. */
static inline int comm_peer_size(const struct comm *c)
{
	return c->remote ? c->remote->size : c->size;
}

/* Set up MPI_COMM_WORLD and MPI_COMM_SELF (MPI_Init) and drop them again. */
int comm_init_builtins(void);
void comm_fini_builtins(void);

/* A communicator over every process of the job with a context id that
 * nobody hands out (4), so that processes agree on it without
 * communicating: MPI_Comm_create_from_group trades its facts on it
 * (session.c).  No handle is given out and it has no collective area. */
struct comm *comm_sessions(void);

/* Collective over the members of g, which c (new, of group g, this
 * process a member) is made of: the first member takes a context id and
 * creates the area, each other member learns it by message on over's
 * internal context with tag and maps it.  MPI error class; *why when it is
 * not MPI_ERR_NO_MEM. */
int comm_create_in_group(struct comm *over, struct comm *c, const struct group *g,
			 int tag, char *why, size_t whylen);

static inline struct comm *comm_get(MPI_Comm h)
{
	return handle_get(h, HANDLE_COMM);
}

/* A private duplicate of parent for the library's own use (collective over
 * parent; no handle handed out).  MPI error class. */
#include "state.h"
int comm_dup_internal(struct comm *parent, enum call_id call, struct comm **out);

/*
 * What each process brings to a split: its color and key and, for
 * MPI_Comm_create, the group it passed: its size (0 for MPI_GROUP_EMPTY
 * and for the splits), the job rank of its first member and group_hash().
 */
struct comm_claim {
	int32_t color, key;
	int32_t gsize, gfirst;
	uint64_t ghash;
};

/* The claim of (color, key) and group g (NULL for none). */
struct comm_claim comm_claim_of(int color, int key, const struct group *g);

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

/* Raise MPI_ERR_COMM: `call` is for intracommunicators, comm is not. */
int comm_err_inter(MPI_Comm comm, const char *call, const char *arg);

/* For intercomm.c: a communicator of group g with context ctx (a new
 * reference to g; NULL when out of memory). */
struct comm *comm_new(struct group *g, uint32_t ctx, int builtin_index,
		      MPI_Comm builtin_handle);

/*
 * The collective area of new intracommunicator c (NULL where this process
 * is no member): its rank 0 creates it; after sync(over), which every
 * member of c calls, the others map it; after a second sync, rank 0
 * unlinks its name.  rc is the outcome so far: the steps run in any case
 * (the others wait for them).  Returns an MPI error class.
 */
int comm_coll_setup(struct comm *c, int rc, void (*sync)(struct comm *, enum call_id),
		    struct comm *over, enum call_id call);

#endif
