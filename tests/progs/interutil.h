/*
 * Shared by the intercommunicator tests (inter.c, inter_nb.c): the job
 * splits into group A (job ranks 0 .. a-1) and group B (the rest), joined
 * by MPI_Intercomm_create with rank 0 of each group as its leader.  Also
 * builds with any other MPI.
 */
#ifndef INTERUTIL_H
#define INTERUTIL_H

#include "testutil.h"

static int rank, size, a;		/* job rank and size, size of group A */
static int in_a, lrank, lsize, rsize;	/* this process's side */
static MPI_Comm local, inter;

/* The job rank of rank r of group A or B. */
static inline int world_of(int in_group_a, int r)
{
	return in_group_a ? r : a + r;
}

static inline int group_size(int group_a)
{
	return group_a ? a : size - a;
}

/* root of the call on this side: MPI_ROOT, MPI_PROC_NULL or the remote
 * rank root_rank when the root is rank root_rank of group A (from_a) or B */
static inline int root_arg(int from_a, int root_rank)
{
	if (from_a != in_a)
		return root_rank;
	return lrank == root_rank ? MPI_ROOT : MPI_PROC_NULL;
}

/* After tu_init: the groups (A of a_arg processes, or half the job when
 * a_arg is NULL), `local` and `inter`. */
static inline void inter_begin(const char *a_arg)
{
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	a = a_arg ? atoi(a_arg) : size / 2;
	CHECK(a >= 1 && a < size && size <= 256);
	in_a = rank < a;
	lrank = in_a ? rank : rank - a;
	lsize = in_a ? a : size - a;
	rsize = size - lsize;
	CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, in_a, rank, &local));
	/* leaders: rank 0 of each side, job ranks 0 and a */
	CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, in_a ? a : 0, 42, &inter));
}

static inline void inter_end(void)
{
	CHECK_MPI(MPI_Comm_free(&inter));
	CHECK_MPI(MPI_Comm_free(&local));
}

#endif
