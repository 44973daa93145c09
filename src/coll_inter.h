/*
 * The collectives on intercommunicators (coll_inter.c), which the API
 * calls of coll.c, coll_data.c and coll_reduce.c hand an intercommunicator
 * to once they have resolved it, and the argument checks those files (and
 * the nonblocking forms, coll_inter_nb.c) share with them.  Each returns an
 * MPI error class, raised through comm's handler.
 */
#ifndef SRC_COLL_INTER_H
#define SRC_COLL_INTER_H

#include <mpi.h>

#include "comm.h"
#include "datatype.h"
#include "state.h"

struct op;

/* A buffer argument: (buf, count, datatype) as given to a call. */
struct coll_buf {
	const void *buf;
	MPI_Count count;
	struct datatype *dt;
};

/* Check one (buf, count, datatype) triple (coll_data.c). */
int coll_check_buf(const char *call, MPI_Comm comm, const void *buf, MPI_Count count,
		   MPI_Datatype datatype, const char *bufname, const char *countname,
		   struct coll_buf *out);

/* Check (count, datatype, op) of a reduction (coll_reduce.c). */
int coll_check_reduce(const char *call, MPI_Comm comm, MPI_Count count,
		      MPI_Datatype datatype,
		      MPI_Op op, struct datatype **dt, const struct op **o);

/* A root argument on intercommunicator c: MPI_ROOT, MPI_PROC_NULL or a rank
 * of the remote group (MPI 3.1, section 5.2.3), else MPI_ERR_ROOT. */
int inter_check_root(const char *call, MPI_Comm comm, const struct comm *c, int root);

/* Raise MPI_ERR_BUFFER: argument `arg` is MPI_IN_PLACE, which no collective
 * takes on an intercommunicator (MPI 3.1, section 5.2.3). */
int inter_err_in_place(const char *call, MPI_Comm comm, const char *arg);

int inter_bcast(const char *call, MPI_Comm comm, struct comm *c, void *buffer,
		MPI_Count count, MPI_Datatype datatype, int root);
int inter_reduce(const char *call, MPI_Comm comm, struct comm *c, const void *sendbuf,
		 void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
		 int root);
int inter_allreduce(const char *call, MPI_Comm comm, struct comm *c,
		    const void *sendbuf, void *recvbuf, MPI_Count count,
		    MPI_Datatype datatype, MPI_Op op);
int inter_reduce_scatter(const char *call, enum call_id id, MPI_Comm comm,
			 struct comm *c, const void *sendbuf, void *recvbuf,
			 const MPI_Count *recvcounts, MPI_Count count,
			 MPI_Datatype datatype, MPI_Op op);

/*
 * The data-moving collectives: one (buf, counts, displs, count, type) per
 * side; counts and displs are NULL for the fixed-count calls.  `root` is
 * MPI_ROOT, MPI_PROC_NULL or a remote rank for the rooted ones (gather:
 * the root receives, scatter: the root sends) and ignored by the others.
 */
struct coll_side {
	const void *buf;
	const MPI_Count *counts;
	const MPI_Aint *displs;
	MPI_Count count;
	MPI_Datatype type;
	int vector;	/* counts and displs, not count */
};

static inline struct coll_side coll_fixed(const void *buf, MPI_Count count,
					  MPI_Datatype type)
{
	return (struct coll_side){ buf, NULL, NULL, count, type, 0 };
}

static inline struct coll_side coll_vector(const void *buf, const MPI_Count *counts,
					   const MPI_Aint *displs, MPI_Datatype type)
{
	return (struct coll_side){ buf, counts, displs, 0, type, 1 };
}

enum inter_kind { INTER_GATHER, INTER_SCATTER, INTER_ALLGATHER, INTER_ALLTOALL };

int inter_move(const char *call, enum call_id id, enum inter_kind kind, MPI_Comm comm,
	       struct comm *c, struct coll_side send, struct coll_side recv, int root);

#endif
