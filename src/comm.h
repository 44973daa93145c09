/*
 * Communicators.  MPI_COMM_WORLD is every rank of the job, MPI_COMM_SELF is
 * this rank alone.
 */
#ifndef SRC_COMM_H
#define SRC_COMM_H

#include <mpi.h>
#include <stdint.h>

#include "errhandler.h"
#include "handle.h"

/*
 * Each communicator owns two context ids: ctx for point-to-point messages and
 * ctx + 1 for the library's own traffic on it, so the two never match.
 */
struct comm {
	MPI_Comm handle;
	int rank;
	int size;
	uint32_t ctx;
	int *world;		/* job rank of each member; NULL: the identity */
	struct errhandler *errh;
	char name[MPI_MAX_OBJECT_NAME];
};

/* The job rank of member r of c. */
static inline int comm_world_rank(const struct comm *c, int r)
{
	return c->world ? c->world[r] : r;
}

/* The rank in c of job rank w, or MPI_UNDEFINED if w is no member. */
static inline int comm_rank_of_world(const struct comm *c, int w)
{
	if (!c->world)
		return w;
	for (int r = 0; r < c->size; r++)
		if (c->world[r] == w)
			return r;
	return MPI_UNDEFINED;
}

/* Set up MPI_COMM_WORLD and MPI_COMM_SELF (MPI_Init) and drop them again. */
void comm_init_builtins(int rank, int size);
void comm_fini_builtins(void);

/* Raise MPI_ERR_COMM for an invalid handle passed to `call`. */
int comm_err_invalid(MPI_Comm comm, const char *call);

static inline struct comm *comm_get(MPI_Comm h)
{
	return handle_get(h, HANDLE_COMM);
}

#endif
