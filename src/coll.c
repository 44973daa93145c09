/*
 * Collective operations.  MPI_Barrier on every communicator that exists:
 * MPI_COMM_SELF needs nobody, MPI_COMM_WORLD waits in the job's shared
 * barrier with the progress engine running meanwhile (a blocked procedure
 * must keep making progress: a peer may need this rank's engine to finish
 * before it can arrive).
 */
#include "api.h"
#include "coll.h"
#include "comm.h"
#include "progress.h"
#include "runtime.h"
#include "state.h"

struct barrier_wait {
	struct shm_barrier *b;
	uint32_t gen;
};

static int barrier_passed(void *arg)
{
	struct barrier_wait *w = arg;

	return shm_barrier_passed(w->b, w->gen);
}

void coll_world_barrier(enum call_id call)
{
	struct barrier_wait w = { &rt.job->world_barrier, 0 };

	if (shm_barrier_arrive(w.b, (uint32_t)rt.size, &w.gen)) {
		/* the last to arrive wakes whoever sleeps in the barrier */
		for (int r = 0; r < rt.size; r++)
			if (r != rt.rank)
				progress_wake_rank(r);
		return;
	}
	state_block(call, WAIT_BARRIER, -1, 0, 0);
	progress_wait(barrier_passed, &w);
	state_unblock(call);
}

API(int, Barrier, (MPI_Comm comm))
{
	struct comm *c;

	runtime_check("MPI_Barrier");
	c = comm_get(comm);
	if (!c)
		return comm_err_invalid(comm, "MPI_Barrier");
	if (c->size > 1)
		coll_world_barrier(CALL_BARRIER);
	return MPI_SUCCESS;
}
