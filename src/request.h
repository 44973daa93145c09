/*
 * Requests: one object per point-to-point operation in flight (and, later,
 * per request-based RMA operation or nonblocking collective).  The progress
 * engine moves a request's data and marks it complete; MPI_Wait and MPI_Test
 * and their families only look at `complete` and drive the engine.
 *
 * A request may outlive its handle: MPI_Request_free on an active request
 * only marks it, and the engine releases it when it completes.
 */
#ifndef SRC_REQUEST_H
#define SRC_REQUEST_H

#include <mpi.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>

#include "handle.h"

struct comm;
struct datatype;
struct unexp;

enum req_kind {
	REQ_SEND,
	REQ_RECV,
	REQ_BSEND,	/* internal: a buffered message owned by the engine */
	REQ_RMA,	/* MPI_Rput and co: done when the call returns (direct path) */
	REQ_COLL,	/* a nonblocking collective: owner is its schedule */
	REQ_GREQ,	/* a generalized request: no communicator; owner holds
			 * the program's callbacks (grequest.c) */
	REQ_PSEND,	/* a partitioned send: owner is its state (part.c) */
	REQ_PRECV,	/* a partitioned receive: owner is its state (part.c) */
};

enum send_mode {
	SEND_STANDARD,
	SEND_SYNC,
	SEND_READY,
	SEND_BUFFERED,
};

/* Where a send stands in the protocol (see progress.c). */
enum send_stage {
	SEND_QUEUED,	/* header not pushed yet */
	SEND_WAIT_CTS,	/* rendezvous: header out, waiting for the receiver */
	SEND_DATA,	/* rendezvous: pushing data chunks */
	SEND_WAIT_ACK,	/* synchronous eager: waiting for the match */
	SEND_DONE,
};

struct request {
	/* what matching reads of each posted receive (match_posted, in
	 * p2p_proto.c), in the object's first cache line */
	struct request *next;	/* the engine's queues */
	struct request *prev;
	uint32_t ctx;		/* comm->ctx, or comm->ctx + 1 for the library's own */
	int peer;		/* rank in comm, MPI_ANY_SOURCE, MPI_PROC_NULL */
	int src_world;		/* recv: the sender's job rank, or -1 for any */
	int tag;

	MPI_Request handle;	/* MPI_REQUEST_NULL for internal requests */
	enum req_kind kind;
	atomic_int complete;	/* set last, with release: see req_is_complete */
	int persistent;		/* MPI_Send_init & co: survives completion */
	int active;		/* persistent: started and not yet completed */
	int freed;		/* the user let go of the handle */
	int cancelled;
	int peer_world;		/* send: the destination's rank in the job */

	/* the operation */
	struct comm *comm;	/* holds a reference while the request lives */
	const void *sbuf;
	void *rbuf;
	MPI_Count count;
	struct datatype *dt;
	enum send_mode mode;

	/* progress */
	size_t bytes;		/* send: message size; recv: buffer size */
	size_t msg_bytes;	/* recv: size of the matched message */
	size_t done;		/* bytes moved so far */
	enum send_stage stage;
	uint64_t peer_cookie;	/* the other side's request, from CTS/RTS */
	int matched;		/* recv: a message is bound to it */
	struct unexp *taken;	/* recv: the message MPI_Mprobe took, until posted */

	/* what MPI_Wait reports */
	int st_source;
	int st_tag;
	int st_error;
	MPI_Count st_bytes;

	void *owner;		/* internal requests: what they belong to */
	void (*owner_free)(void *owner);	/* REQ_COLL: run by req_release */
};

_Static_assert(offsetof(struct request, tag) + sizeof(int) <= 64,
	       "what matching reads of a receive lies in one cache line");

/* A new request (its handle, unless internal); NULL when out of memory.
 * Taken from the process's pool of released requests (request.c): only
 * threads that call MPI allocate and release requests. */
struct request *req_new(enum req_kind kind, int with_handle);

/* Free the pool (MPI_Finalize, after the engine released what it held). */
void req_pool_fini(void);

/*
 * A request in the caller's memory (no handle, internal): what the
 * blocking calls use, since they return only once the engine is through
 * with it.  req_unbind then drops what req_bind took; such a request is
 * never released.
 */
void req_init(struct request *r, enum req_kind kind);

/* The communicator, context and datatype r works with (references taken). */
void req_bind(struct request *r, struct comm *c, uint32_t ctx, struct datatype *dt);
void req_unbind(struct request *r);

/* Drop a completed request (non-persistent) or a freed one. */
void req_release(struct request *r);

static inline struct request *req_get(MPI_Request h)
{
	return handle_get(h, HANDLE_REQUEST);
}

/*
 * The handle of every send that completed in its own call (an eager
 * MPI_Isend whose record went into the channel at once): one complete
 * request stands for all of them (request.c).
 */
static inline MPI_Request req_sent_handle(void)
{
	return handle_builtin(HANDLE_REQUEST, 1);
}

/* Make req_sent_handle() valid (MPI_Init). */
void req_init_builtins(void);

/* Mark r complete; a request whose handle is gone is released. */
void req_complete(struct request *r);

/* Whether r is complete; once it says yes, every field the progress engine
 * wrote is visible (acquire: pairs with the release in req_complete). */
static inline int req_is_complete(const struct request *r)
{
	return atomic_load_explicit(&r->complete, memory_order_acquire);
}

/* Release r, now or (from the progress thread) at the application
 * thread's next pass of the engine. */
void req_release_async(struct request *r);

/* Write r's outcome into status (unless MPI_STATUS_IGNORE). */
void req_status(const struct request *r, MPI_Status *status);

/* The status of an operation with MPI_PROC_NULL or an inactive request. */
void req_status_empty(MPI_Status *status);

#endif
