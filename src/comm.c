/*
 * Communicator objects and the calls that ask a communicator about itself.
 */
#include <stdio.h>

#include "api.h"
#include "comm.h"
#include "runtime.h"

static struct comm comm_world, comm_self;
static int comm_self_world[1];

static void comm_builtin(struct comm *c, MPI_Comm h, int rank, int size,
			 uint32_t ctx, const char *name)
{
	c->handle = h;
	c->rank = rank;
	c->size = size;
	c->ctx = ctx;
	c->errh = errh_get(MPI_ERRORS_ARE_FATAL);
	errh_ref(c->errh);
	snprintf(c->name, sizeof(c->name), "%s", name);
	handle_set_builtin(HANDLE_COMM, (unsigned)h & 0xff, c);
}

void comm_init_builtins(int rank, int size)
{
	comm_builtin(&comm_world, MPI_COMM_WORLD, rank, size, 0, "MPI_COMM_WORLD");
	comm_builtin(&comm_self, MPI_COMM_SELF, 0, 1, 2, "MPI_COMM_SELF");
	comm_self_world[0] = rank;
	comm_self.world = comm_self_world;
}

void comm_fini_builtins(void)
{
	errh_unref(comm_world.errh);
	errh_unref(comm_self.errh);
	comm_world.errh = comm_self.errh = NULL;
}

int comm_err_invalid(MPI_Comm comm, const char *call)
{
	return err_comm(comm, call, MPI_ERR_COMM, "comm",
			comm == MPI_COMM_NULL ? "is MPI_COMM_NULL" :
			"0x%x is not a valid communicator", (unsigned)comm);
}

API(int, Comm_rank, (MPI_Comm comm, int *rank))
{
	struct comm *c;

	runtime_check("MPI_Comm_rank");
	c = comm_get(comm);
	if (!c)
		return comm_err_invalid(comm, "MPI_Comm_rank");
	if (!rank)
		return err_comm(comm, "MPI_Comm_rank", MPI_ERR_ARG, "rank",
				"is NULL");
	*rank = c->rank;
	return MPI_SUCCESS;
}

API(int, Comm_size, (MPI_Comm comm, int *size))
{
	struct comm *c;

	runtime_check("MPI_Comm_size");
	c = comm_get(comm);
	if (!c)
		return comm_err_invalid(comm, "MPI_Comm_size");
	if (!size)
		return err_comm(comm, "MPI_Comm_size", MPI_ERR_ARG, "size",
				"is NULL");
	*size = c->size;
	return MPI_SUCCESS;
}
