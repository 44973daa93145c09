/*
 * What the point-to-point calls (p2p.c, p2p_mprobe.c) share: argument
 * checks, each returning MPI_SUCCESS or the error class after raising it
 * through the communicator's error handler; receive requests; probing.
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

/* The buffer part of those checks (count, datatype, buf), raised on comm;
 * *dt is the datatype on success. */
int p2p_check_data(const char *call, const void *buf, MPI_Count count, MPI_Datatype datatype,
		   MPI_Comm comm, struct datatype **dt);

/* Every check of p2p_check, each raised with its own message (out of
 * line: p2p_check calls it only when its look finds something wrong). */
int p2p_check_slow(const char *call, const void *buf, MPI_Count count,
		   MPI_Datatype datatype, int peer, int tag, MPI_Comm comm, int recv,
		   struct p2p_args *a) __attribute__((cold));

/* The arguments of a send (recv 0: dest) or a receive (recv 1: source,
 * which may be MPI_ANY_SOURCE, and tag MPI_ANY_TAG): MPI_SUCCESS and *a,
 * or the error class raised.  Valid arguments, the common case, cost a
 * few compares here, inline. */
static inline int p2p_check(const char *call, const void *buf, MPI_Count count,
			    MPI_Datatype datatype, int peer, int tag, MPI_Comm comm, int recv,
			    struct p2p_args *a)
{
	struct comm *c = comm_get(comm);
	struct datatype *dt = dt_get(datatype);

	/* (peer, of an intercommunicator: a rank of the remote group) */
	if (__builtin_expect(c && dt && dt->committed && count >= 0 &&
			     (buf || !count || !dt->size || !handle_is_builtin(datatype)) &&
			     (peer >= 0 ? peer < comm_peer_size(c) :
			      peer == MPI_PROC_NULL || (recv && peer == MPI_ANY_SOURCE)) &&
			     (tag >= 0 || (recv && tag == MPI_ANY_TAG)), 1)) {
		a->comm = c;
		a->dt = dt;
		return MPI_SUCCESS;
	}
	return p2p_check_slow(call, buf, count, datatype, peer, tag, comm, recv, a);
}

static inline int p2p_check_send(const char *call, const void *buf, MPI_Count count,
				 MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
				 struct p2p_args *a)
{
	return p2p_check(call, buf, count, dt, dest, tag, comm, 0, a);
}

static inline int p2p_check_recv(const char *call, const void *buf, MPI_Count count,
				 MPI_Datatype dt, int source, int tag, MPI_Comm comm,
				 struct p2p_args *a)
{
	return p2p_check(call, buf, count, dt, source, tag, comm, 1, a);
}

/* Fill a receive request (not started) of count elements of a->dt. */
struct request;
void p2p_recv_init(struct request *r, void *buf, MPI_Count count, const struct p2p_args *a,
		   int source, int tag);

/* Start a filled (or persistent, inactive) request. */
void p2p_start(struct request *r);

/* Block in the engine until r (started) completes, for `call` (id for the
 * watchdog); fill status, release r, and return its error class after
 * raising it on r's communicator. */
#include "state.h"
int p2p_finish(const char *call, enum call_id id, struct request *r, MPI_Status *status);

/* The library's own messages on c (its internal context), blocking. */
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

/* Block (in call id, for the watchdog) until a message that a receive of
 * (source, tag) on c would match waits unexpected; its status. */
void p2p_probe_wait(enum call_id id, struct comm *c, int source, int tag,
		    MPI_Status *status);

/* The status of a receive or probe of MPI_PROC_NULL (MPI 3.1, section 3.11):
 * source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0. */
void p2p_status_proc_null(MPI_Status *status);

/* Raise a failed buffered send (MPI_ERR_BUFFER: it does not fit). */
int p2p_err_bsend(const char *call, MPI_Comm comm, int errclass, MPI_Count count,
		  const struct datatype *dt);

#endif
