/*
 * Argument checks shared by the point-to-point calls.  Each returns
 * MPI_SUCCESS, or the error class after raising it through the
 * communicator's error handler.
 */
#ifndef SRC_P2P_H
#define SRC_P2P_H

#include <mpi.h>

#include "comm.h"
#include "datatype.h"

/* The largest tag (MPI_TAG_UB). */
#define P2P_TAG_UB 0x7fffffff

struct p2p_args {
	struct comm *comm;
	struct datatype *dt;
};

int p2p_check_send(const char *call, const void *buf, int count, MPI_Datatype dt,
		   int dest, int tag, MPI_Comm comm, struct p2p_args *a);
int p2p_check_recv(const char *call, const void *buf, int count, MPI_Datatype dt,
		   int source, int tag, MPI_Comm comm, struct p2p_args *a);

/* Start a filled (or persistent, inactive) request. */
struct request;
void p2p_start(struct request *r);

/* The library's own messages on c (its internal context), blocking. */
#include "state.h"
int p2p_internal_send(struct comm *c, int dest, int tag, const void *buf, size_t bytes,
		      enum call_id id);
int p2p_internal_recv(struct comm *c, int source, int tag, void *buf, size_t bytes,
		      enum call_id id);

/* The same, nonblocking: start a message of count elements of dt (NULL when
 * out of memory), then wait for a NULL-terminated array of them (which are
 * released). */
struct request *p2p_internal_start(struct comm *c, int peer, int tag, void *buf,
				   MPI_Count count, struct datatype *dt, int recv);
void p2p_internal_wait(struct comm *c, struct request **reqs, enum call_id id);

/* Raise a failed buffered send (MPI_ERR_BUFFER: it does not fit). */
int p2p_err_bsend(const char *call, MPI_Comm comm, int errclass, int count,
		  const struct datatype *dt);

#endif
