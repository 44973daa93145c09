/*
 * Groups: ordered sets of job ranks.
 */
#ifndef SRC_GROUP_H
#define SRC_GROUP_H

#include <mpi.h>
#include <stdint.h>

#include "handle.h"

struct bsend_pool;

struct group {
	MPI_Group handle;
	int refs;
	int size;
	int rank;	/* this process's rank in the group, or MPI_UNDEFINED */
	int *world;	/* job rank of each member */
	int *index;	/* group rank of each job rank, or -1 (rt.size entries) */
	/* a group of a session's process set, and the communicators made of
	 * it: the session's buffer for buffered sends (bsend.c), else NULL */
	struct bsend_pool *bsend_session;
	/* the memory allocation kinds of its session (memkinds.h), 0 for
	 * the default ones */
	unsigned memkinds;
};

static inline struct group *group_get(MPI_Group h)
{
	return handle_get(h, HANDLE_GROUP);
}

/* A new group of the n job ranks in world[] (copied), with a handle.
 * NULL when out of memory. */
struct group *group_new(const int *world, int n);

void group_ref(struct group *g);
void group_unref(struct group *g);

/* MPI_GROUP_EMPTY and the group of all job ranks (MPI_Init). */
void group_init_builtins(void);
void group_fini_builtins(void);

/* The group of every rank of the job (shared, not to be freed). */
struct group *group_world(void);

/* A hash of g's members in order: groups that differ in a member or in
 * their order hash apart, but for a chance of 2^-64. */
uint64_t group_hash(const struct group *g);

#endif
