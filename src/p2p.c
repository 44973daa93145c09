/*
 * Point-to-point: the send and receive calls, blocking, nonblocking and
 * persistent, probe, and the combined send-receive.  Every call checks its
 * arguments, builds a request, and hands it to the progress engine;
 * blocking calls then wait in the engine (progress while blocked).
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "bsend.h"
#include "p2p.h"
#include "progress.h"
#include "request.h"
#include "runtime.h"
#include "state.h"

int p2p_check_data(const char *call, const void *buf, MPI_Count count, MPI_Datatype datatype,
		   MPI_Comm comm, struct datatype **dtp)
{
	struct datatype *dt;

	if (count < 0)
		return err_comm(comm, call, MPI_ERR_COUNT, "count", "%lld is negative",
				(long long)count);
	if (dt_check_use(comm, call, datatype, &dt) != MPI_SUCCESS)
		return MPI_ERR_TYPE;
	if (!buf && count > 0 && dt->size > 0 && handle_is_builtin(datatype))
		return err_comm(comm, call, MPI_ERR_BUFFER, "buf",
				"is NULL with %lld elements of %s", (long long)count,
				dt->name);
	*dtp = dt;
	return MPI_SUCCESS;
}

int p2p_check_slow(const char *call, const void *buf, MPI_Count count,
		   MPI_Datatype datatype, int peer, int tag, MPI_Comm comm, int recv,
		   struct p2p_args *a)
{
	struct comm *c = comm_get(comm);
	struct datatype *dt;
	int rc;

	if (!c)
		return comm_err_invalid(comm, call);
	rc = p2p_check_data(call, buf, count, datatype, comm, &dt);
	if (rc != MPI_SUCCESS)
		return rc;
	/* (of an intercommunicator: a rank of the remote group) */
	if (peer != MPI_PROC_NULL && !(recv && peer == MPI_ANY_SOURCE) &&
	    (peer < 0 || peer >= comm_peer_size(c)))
		return err_comm(comm, call, MPI_ERR_RANK, recv ? "source" : "dest",
				"%d is not a rank of %s (%ssize %d)", peer, c->name,
				c->remote ? "remote group " : "", comm_peer_size(c));
	if (!(recv && tag == MPI_ANY_TAG) && (tag < 0 || tag > P2P_TAG_UB))
		return err_comm(comm, call, MPI_ERR_TAG, "tag", "%d is not in [0, %d]%s",
				tag, P2P_TAG_UB, recv ? " nor MPI_ANY_TAG" : "");
	a->comm = c;
	a->dt = dt;
	return MPI_SUCCESS;
}

int p2p_err_bsend(const char *call, MPI_Comm comm, int errclass, MPI_Count count,
		  const struct datatype *dt)
{
	if (errclass == MPI_ERR_BUFFER)
		return err_comm(comm, call, MPI_ERR_BUFFER, "buf",
				"%lld bytes (+%d overhead) do not fit in the free space "
				"of the attached buffer", (long long)count * dt->size,
				MPI_BSEND_OVERHEAD);
	return err_comm(comm, call, errclass, NULL, "cannot buffer the message");
}

void p2p_status_proc_null(MPI_Status *status)
{
	req_status_empty(status);
	if (status != MPI_STATUS_IGNORE)
		status->MPI_SOURCE = MPI_PROC_NULL;
}

/* Fill a send request (not started). */
static void send_init(struct request *r, const void *buf, MPI_Count count,
		      const struct p2p_args *a, int dest, int tag, enum send_mode mode)
{
	req_bind(r, a->comm, a->comm->ctx, a->dt);
	r->sbuf = buf;
	r->count = count;
	r->peer = dest;
	r->peer_world = dest == MPI_PROC_NULL ? -1 : comm_world_rank(a->comm, dest);
	r->tag = tag;
	r->mode = mode;
	r->bytes = (size_t)count * (size_t)a->dt->size;
}

void p2p_recv_init(struct request *r, void *buf, MPI_Count count, const struct p2p_args *a,
		   int source, int tag)
{
	req_bind(r, a->comm, a->comm->ctx, a->dt);
	r->rbuf = buf;
	r->count = count;
	r->peer = source;
	r->tag = tag;
	r->bytes = (size_t)count * (size_t)a->dt->size;
}

/* Start a filled request: hand it to the engine (PROC_NULL: done at once). */
void p2p_start(struct request *r)
{
	/* relaxed: the engine has not seen the request yet; handing it over
	 * (under the engine's lock) orders this */
	atomic_store_explicit(&r->complete, 0, memory_order_relaxed);
	r->cancelled = 0;
	r->active = 1;
	r->st_error = MPI_SUCCESS;
	r->st_bytes = 0;
	if (r->peer == MPI_PROC_NULL) {
		r->st_source = MPI_PROC_NULL;
		r->st_tag = MPI_ANY_TAG;
		req_complete(r);
		return;
	}
	if (r->kind == REQ_RECV) {
		progress_recv_post(r);
	} else if (r->mode == SEND_BUFFERED) {
		int rc = bsend_start(r->comm, r->sbuf, r->count, r->dt, r->peer, r->tag);

		r->st_error = rc;
		req_complete(r);
	} else if (r->mode != SEND_SYNC && r->ctx == r->comm->ctx &&
		   progress_send_eager(r->ctx, r->peer_world, r->tag, r->sbuf, r->dt,
				       r->bytes)) {
		/* a small standard or ready message whose record went into
		 * the channel at once (as in p2p_send): complete, and the
		 * engine never saw the request */
		req_complete(r);
	} else {
		static const enum call_id left[] = {
			[SEND_STANDARD] = CALL_ISEND, [SEND_SYNC] = CALL_ISSEND,
			[SEND_READY] = CALL_IRSEND, [SEND_BUFFERED] = CALL_IBSEND,
		};

		progress_send_start(r);
		/* the engine still owes a user send's data (not the library's
		 * own, on ctx + 1): the watchdog names this call */
		if (r->ctx == r->comm->ctx && !req_is_complete(r))
			state_left(r->persistent ? CALL_START : left[r->mode]);
	}
}

static int req_done(void *arg)
{
	return req_is_complete(arg);
}

/* Wait until r (started) completes, published for the watchdog as call id;
 * fill status; r's error class (not raised yet). */
static int p2p_block(enum call_id id, struct request *r, MPI_Status *status)
{
	if (!req_is_complete(r)) {
		if (r->kind == REQ_RECV)
			state_block(id, WAIT_RECV, r->peer == MPI_ANY_SOURCE ? -1 :
				    comm_world_rank(r->comm, r->peer), r->tag, r->comm->ctx);
		else
			state_block(id, WAIT_SEND, r->peer_world, r->tag, r->comm->ctx);
		progress_wait(req_done, r);
		state_unblock(id);
	}
	req_status(r, status);
	return r->st_error;
}

static int p2p_raise(const char *call, MPI_Comm comm, int rc)
{
	if (rc == MPI_SUCCESS)
		return rc;
	return err_comm(comm, call, rc, "buf", rc == MPI_ERR_TRUNCATE ?
			"the message is longer than the receive buffer" :
			"the operation failed");
}

int p2p_finish(const char *call, enum call_id id, struct request *r, MPI_Status *status)
{
	int rc = p2p_block(id, r, status);
	MPI_Comm comm = r->comm->handle;

	req_release(r);
	return p2p_raise(call, comm, rc);
}

/* p2p_finish for a request of req_init (the blocking calls'). */
static int p2p_finish_local(const char *call, enum call_id id, struct request *r,
			    MPI_Status *status)
{
	int rc = p2p_block(id, r, status);
	MPI_Comm comm = r->comm->handle;

	req_unbind(r);
	return p2p_raise(call, comm, rc);
}

/* A standard or ready message of (buf, count, a->dt) to dest, sent at once
 * if it is small enough for one record and nothing waits to go to dest
 * before it (progress_send_eager): 1 when it went, complete. */
static int p2p_send_now(const struct p2p_args *a, const void *buf, MPI_Count count,
			int dest, int tag)
{
	return progress_send_eager(a->comm->ctx, comm_world_rank(a->comm, dest), tag, buf,
				   a->dt, (size_t)count * (size_t)a->dt->size);
}

/*
 * The blocking sends: a standard or ready message small enough for one
 * record leaves at once when nothing waits to go to its destination before
 * it (progress_send_eager): it is then complete, with no request at all.
 * Otherwise, and for a synchronous send, which waits for its match, the
 * request lives in this call's frame: the call returns only once the
 * engine is through with it.
 */
static int p2p_send(const char *call, enum call_id id, const void *buf, MPI_Count count,
		    MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
		    enum send_mode mode)
{
	struct p2p_args a;
	struct request r;
	int rc;

	runtime_check(call);
	rc = p2p_check_send(call, buf, count, datatype, dest, tag, comm, &a);
	if (rc != MPI_SUCCESS || dest == MPI_PROC_NULL)
		return rc;
	if (mode != SEND_SYNC && p2p_send_now(&a, buf, count, dest, tag))
		return MPI_SUCCESS;
	req_init(&r, REQ_SEND);
	send_init(&r, buf, count, &a, dest, tag, mode);
	p2p_start(&r);
	return p2p_finish_local(call, id, &r, MPI_STATUS_IGNORE);
}

/*
 * Each call has an int form and a large-count form (the "_c" suffix, MPI
 * 4.1 section 2.5.8): one implementation takes MPI_Count, and both forms
 * are thin wrappers that name themselves in errors.
 */
API(int, Send, (const void *buf, int count, MPI_Datatype datatype, int dest,
		int tag, MPI_Comm comm))
{
	return p2p_send("MPI_Send", CALL_SEND, buf, count, datatype, dest, tag,
			comm, SEND_STANDARD);
}

API(int, Send_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
		  int tag, MPI_Comm comm))
{
	return p2p_send("MPI_Send_c", CALL_SEND, buf, count, datatype, dest, tag,
			comm, SEND_STANDARD);
}

API(int, Ssend, (const void *buf, int count, MPI_Datatype datatype, int dest,
		 int tag, MPI_Comm comm))
{
	return p2p_send("MPI_Ssend", CALL_SSEND, buf, count, datatype, dest, tag,
			comm, SEND_SYNC);
}

API(int, Ssend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
		   int tag, MPI_Comm comm))
{
	return p2p_send("MPI_Ssend_c", CALL_SSEND, buf, count, datatype, dest, tag,
			comm, SEND_SYNC);
}

/* Ready mode: the receive is posted (the user promises), so it is a send. */
API(int, Rsend, (const void *buf, int count, MPI_Datatype datatype, int dest,
		 int tag, MPI_Comm comm))
{
	return p2p_send("MPI_Rsend", CALL_RSEND, buf, count, datatype, dest, tag,
			comm, SEND_READY);
}

API(int, Rsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
		   int tag, MPI_Comm comm))
{
	return p2p_send("MPI_Rsend_c", CALL_RSEND, buf, count, datatype, dest, tag,
			comm, SEND_READY);
}

/* Inline in both forms: the blocking receive is a fast path (README,
 * "Threads", what a send and a receive cost). */
static inline __attribute__((always_inline)) int
p2p_recv(const char *call, void *buf, MPI_Count count, MPI_Datatype datatype, int source,
	 int tag, MPI_Comm comm, MPI_Status *status)
{
	struct p2p_args a;
	struct request r;
	int rc;

	runtime_check(call);
	rc = p2p_check_recv(call, buf, count, datatype, source, tag, comm, &a);
	if (rc != MPI_SUCCESS)
		return rc;
	if (!status)
		return err_comm(comm, call, MPI_ERR_ARG, "status", "is NULL");
	if (source == MPI_PROC_NULL) {
		p2p_status_proc_null(status);
		return MPI_SUCCESS;
	}
	req_init(&r, REQ_RECV);
	p2p_recv_init(&r, buf, count, &a, source, tag);
	p2p_start(&r);
	return p2p_finish_local(call, CALL_RECV, &r, status);
}

API(int, Recv, (void *buf, int count, MPI_Datatype datatype, int source,
		int tag, MPI_Comm comm, MPI_Status *status))
{
	return p2p_recv("MPI_Recv", buf, count, datatype, source, tag, comm, status);
}

API(int, Recv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source,
		  int tag, MPI_Comm comm, MPI_Status *status))
{
	return p2p_recv("MPI_Recv_c", buf, count, datatype, source, tag, comm, status);
}

/* The nonblocking and persistent calls differ only in mode and start. */
static int p2p_isend(const char *call, const void *buf, MPI_Count count,
		     MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
		     enum send_mode mode, int persistent, MPI_Request *request)
{
	struct p2p_args a;
	struct request *r;
	int rc;

	runtime_check(call);
	rc = p2p_check_send(call, buf, count, datatype, dest, tag, comm, &a);
	if (rc != MPI_SUCCESS)
		return rc;
	if (!request)
		return err_comm(comm, call, MPI_ERR_ARG, "request", "is NULL");
	/* a small standard or ready send whose record goes into the channel at
	 * once is complete when the call returns: it gets the request that
	 * stands for every such send (request.h), and none of its own */
	if (!persistent && (mode == SEND_STANDARD || mode == SEND_READY) &&
	    dest != MPI_PROC_NULL && p2p_send_now(&a, buf, count, dest, tag)) {
		*request = req_sent_handle();
		return MPI_SUCCESS;
	}
	r = req_new(REQ_SEND, 1);
	if (!r)
		return err_comm(comm, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	send_init(r, buf, count, &a, dest, tag, mode);
	r->persistent = persistent;
	if (!persistent)
		p2p_start(r);
	*request = r->handle;
	return MPI_SUCCESS;
}

static int p2p_irecv(const char *call, void *buf, MPI_Count count, MPI_Datatype datatype,
		     int source, int tag, MPI_Comm comm, int persistent,
		     MPI_Request *request)
{
	struct p2p_args a;
	struct request *r;
	int rc;

	runtime_check(call);
	rc = p2p_check_recv(call, buf, count, datatype, source, tag, comm, &a);
	if (rc != MPI_SUCCESS)
		return rc;
	if (!request)
		return err_comm(comm, call, MPI_ERR_ARG, "request", "is NULL");
	r = req_new(REQ_RECV, 1);
	if (!r)
		return err_comm(comm, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	p2p_recv_init(r, buf, count, &a, source, tag);
	r->persistent = persistent;
	if (!persistent)
		p2p_start(r);
	*request = r->handle;
	return MPI_SUCCESS;
}

API(int, Isend, (const void *buf, int count, MPI_Datatype datatype, int dest,
		 int tag, MPI_Comm comm, MPI_Request *request))
{
	return p2p_isend("MPI_Isend", buf, count, datatype, dest, tag, comm,
			 SEND_STANDARD, 0, request);
}

API(int, Isend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
		   int tag, MPI_Comm comm, MPI_Request *request))
{
	return p2p_isend("MPI_Isend_c", buf, count, datatype, dest, tag, comm,
			 SEND_STANDARD, 0, request);
}

API(int, Issend, (const void *buf, int count, MPI_Datatype datatype, int dest,
		  int tag, MPI_Comm comm, MPI_Request *request))
{
	return p2p_isend("MPI_Issend", buf, count, datatype, dest, tag, comm,
			 SEND_SYNC, 0, request);
}

API(int, Issend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
		    int tag, MPI_Comm comm, MPI_Request *request))
{
	return p2p_isend("MPI_Issend_c", buf, count, datatype, dest, tag, comm,
			 SEND_SYNC, 0, request);
}

API(int, Irsend, (const void *buf, int count, MPI_Datatype datatype, int dest,
		  int tag, MPI_Comm comm, MPI_Request *request))
{
	return p2p_isend("MPI_Irsend", buf, count, datatype, dest, tag, comm,
			 SEND_READY, 0, request);
}

API(int, Irsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
		    int tag, MPI_Comm comm, MPI_Request *request))
{
	return p2p_isend("MPI_Irsend_c", buf, count, datatype, dest, tag, comm,
			 SEND_READY, 0, request);
}

API(int, Irecv, (void *buf, int count, MPI_Datatype datatype, int source,
		 int tag, MPI_Comm comm, MPI_Request *request))
{
	return p2p_irecv("MPI_Irecv", buf, count, datatype, source, tag, comm, 0,
			 request);
}

API(int, Irecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source,
		   int tag, MPI_Comm comm, MPI_Request *request))
{
	return p2p_irecv("MPI_Irecv_c", buf, count, datatype, source, tag, comm, 0,
			 request);
}

API(int, Send_init, (const void *buf, int count, MPI_Datatype datatype, int dest,
		     int tag, MPI_Comm comm, MPI_Request *request))
{
	return p2p_isend("MPI_Send_init", buf, count, datatype, dest, tag, comm,
			 SEND_STANDARD, 1, request);
}

API(int, Send_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
		       int tag, MPI_Comm comm, MPI_Request *request))
{
	return p2p_isend("MPI_Send_init_c", buf, count, datatype, dest, tag, comm,
			 SEND_STANDARD, 1, request);
}

API(int, Ssend_init, (const void *buf, int count, MPI_Datatype datatype, int dest,
		      int tag, MPI_Comm comm, MPI_Request *request))
{
	return p2p_isend("MPI_Ssend_init", buf, count, datatype, dest, tag, comm,
			 SEND_SYNC, 1, request);
}

API(int, Ssend_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
			int tag, MPI_Comm comm, MPI_Request *request))
{
	return p2p_isend("MPI_Ssend_init_c", buf, count, datatype, dest, tag, comm,
			 SEND_SYNC, 1, request);
}

API(int, Rsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest,
		      int tag, MPI_Comm comm, MPI_Request *request))
{
	return p2p_isend("MPI_Rsend_init", buf, count, datatype, dest, tag, comm,
			 SEND_READY, 1, request);
}

API(int, Rsend_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
			int tag, MPI_Comm comm, MPI_Request *request))
{
	return p2p_isend("MPI_Rsend_init_c", buf, count, datatype, dest, tag, comm,
			 SEND_READY, 1, request);
}

API(int, Bsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest,
		      int tag, MPI_Comm comm, MPI_Request *request))
{
	return p2p_isend("MPI_Bsend_init", buf, count, datatype, dest, tag, comm,
			 SEND_BUFFERED, 1, request);
}

API(int, Bsend_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
			int tag, MPI_Comm comm, MPI_Request *request))
{
	return p2p_isend("MPI_Bsend_init_c", buf, count, datatype, dest, tag, comm,
			 SEND_BUFFERED, 1, request);
}

API(int, Recv_init, (void *buf, int count, MPI_Datatype datatype, int source,
		     int tag, MPI_Comm comm, MPI_Request *request))
{
	return p2p_irecv("MPI_Recv_init", buf, count, datatype, source, tag, comm, 1,
			 request);
}

API(int, Recv_init_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source,
		       int tag, MPI_Comm comm, MPI_Request *request))
{
	return p2p_irecv("MPI_Recv_init_c", buf, count, datatype, source, tag, comm, 1,
			 request);
}

/* ---- send-receive, blocking and nonblocking ------------------------------ */

/* One send-receive's arguments: a send half and a receive half. */
struct sendrecv_args {
	const void *sendbuf;
	MPI_Count sendcount;
	MPI_Datatype sendtype;
	int dest, sendtag;
	void *recvbuf;
	MPI_Count recvcount;
	MPI_Datatype recvtype;
	int source, recvtag;
	MPI_Comm comm;
};

/* Check both halves of x and the request or status pointer (out, named
 * out_name): MPI_SUCCESS, or the error class after raising it. */
static int sendrecv_check(const char *call, const struct sendrecv_args *x,
			  const void *out, const char *out_name, struct p2p_args *sa,
			  struct p2p_args *ra)
{
	int rc = p2p_check_send(call, x->sendbuf, x->sendcount, x->sendtype, x->dest,
				x->sendtag, x->comm, sa);

	if (rc == MPI_SUCCESS)
		rc = p2p_check_recv(call, x->recvbuf, x->recvcount, x->recvtype,
				    x->source, x->recvtag, x->comm, ra);
	if (rc == MPI_SUCCESS && !out)
		rc = err_comm(x->comm, call, MPI_ERR_ARG, out_name, "is NULL");
	return rc;
}

/* Start both halves: the receive first, so that a send to ourselves finds it. */
static void sendrecv_start(const struct sendrecv_args *x, const struct p2p_args *sa,
			   const struct p2p_args *ra, struct request *s, struct request *r)
{
	p2p_recv_init(r, x->recvbuf, x->recvcount, ra, x->source, x->recvtag);
	p2p_start(r);
	send_init(s, x->sendbuf, x->sendcount, sa, x->dest, x->sendtag, SEND_STANDARD);
	p2p_start(s);
}

static int p2p_sendrecv(const char *call, const struct sendrecv_args *x,
			MPI_Status *status)
{
	struct p2p_args sa, ra;
	struct request s, r;
	int rc;

	runtime_check(call);
	rc = sendrecv_check(call, x, status, "status", &sa, &ra);
	if (rc != MPI_SUCCESS)
		return rc;
	req_init(&r, REQ_RECV);
	req_init(&s, REQ_SEND);
	sendrecv_start(x, &sa, &ra, &s, &r);
	rc = p2p_finish_local(call, CALL_SENDRECV, &s, MPI_STATUS_IGNORE);
	if (rc != MPI_SUCCESS) {
		/* the send failed and its error was raised: the receive still
		 * owns the buffer, so it must finish before we return */
		p2p_finish_local(call, CALL_SENDRECV, &r, status);
		return rc;
	}
	return p2p_finish_local(call, CALL_SENDRECV, &r, status);
}

API(int, Sendrecv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		    int dest, int sendtag, void *recvbuf, int recvcount,
		    MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
		    MPI_Status *status))
{
	return p2p_sendrecv("MPI_Sendrecv", &(struct sendrecv_args){
		sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
		recvtype, source, recvtag, comm }, status);
}

API(int, Sendrecv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
		      int dest, int sendtag, void *recvbuf, MPI_Count recvcount,
		      MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
		      MPI_Status *status))
{
	return p2p_sendrecv("MPI_Sendrecv_c", &(struct sendrecv_args){
		sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
		recvtype, source, recvtag, comm }, status);
}

/*
 * The replace forms send from a packed copy of the buffer and receive into
 * the buffer itself.  The copy and the two halves, started; MPI_SUCCESS
 * or MPI_ERR_NO_MEM (nothing started then).
 */
static int replace_start(const struct sendrecv_args *x, struct p2p_args *sa,
			 const struct p2p_args *ra, struct request **s,
			 struct request **r, void **copy)
{
	size_t bytes = (size_t)x->sendcount * (size_t)sa->dt->size;
	struct sendrecv_args packed = *x;

	*copy = malloc(bytes + 1);
	*r = req_new(REQ_RECV, 0);
	*s = req_new(REQ_SEND, 0);
	if (!*copy || !*r || !*s) {
		free(*copy);
		req_release(*r);
		req_release(*s);
		return MPI_ERR_NO_MEM;
	}
	dt_pack(sa->dt, x->sendbuf, 0, *copy, bytes);
	packed.sendbuf = *copy;
	packed.sendcount = (MPI_Count)bytes;
	sa->dt = dt_get(MPI_BYTE);
	sendrecv_start(&packed, sa, ra, *s, *r);
	return MPI_SUCCESS;
}

static int p2p_sendrecv_replace(const char *call, const struct sendrecv_args *x,
				MPI_Status *status)
{
	struct p2p_args sa, ra;
	struct request *s, *r;
	void *copy;
	int rc;

	runtime_check(call);
	rc = sendrecv_check(call, x, status, "status", &sa, &ra);
	if (rc != MPI_SUCCESS)
		return rc;
	if (replace_start(x, &sa, &ra, &s, &r, &copy) != MPI_SUCCESS)
		return err_comm(x->comm, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	rc = p2p_finish(call, CALL_SENDRECV_REPLACE, s, MPI_STATUS_IGNORE);
	if (rc == MPI_SUCCESS)
		rc = p2p_finish(call, CALL_SENDRECV_REPLACE, r, status);
	else
		p2p_finish(call, CALL_SENDRECV_REPLACE, r, status);
	free(copy);
	return rc;
}

API(int, Sendrecv_replace, (void *buf, int count, MPI_Datatype datatype, int dest,
			    int sendtag, int source, int recvtag, MPI_Comm comm,
			    MPI_Status *status))
{
	return p2p_sendrecv_replace("MPI_Sendrecv_replace", &(struct sendrecv_args){
		buf, count, datatype, dest, sendtag, buf, count, datatype, source,
		recvtag, comm }, status);
}

API(int, Sendrecv_replace_c, (void *buf, MPI_Count count, MPI_Datatype datatype,
			      int dest, int sendtag, int source, int recvtag,
			      MPI_Comm comm, MPI_Status *status))
{
	return p2p_sendrecv_replace("MPI_Sendrecv_replace_c", &(struct sendrecv_args){
		buf, count, datatype, dest, sendtag, buf, count, datatype, source,
		recvtag, comm }, status);
}

/*
 * MPI_Isendrecv and MPI_Isendrecv_replace (MPI 4.1, section 3.10): the two
 * halves are internal requests on the user's context, started at once;
 * the user's request (kind REQ_RECV, so that its status is the receive's)
 * completes when both did, found by a hook of the progress engine that
 * looks at the pairs under way, so the pair follows the progress mode like
 * its halves.  The replace form's packed copy is freed at completion.  The
 * user's request is never in the engine's queue of posted receives:
 * `matched` says so, and MPI_Cancel leaves it to complete normally (which
 * MPI 4.1 section 3.8.4 allows).  The list is the engine's (its lock).
 */
struct pair {
	struct request *req;		/* the user's */
	struct request *half[2];	/* the send, the receive */
	void *copy;			/* the replace form's data, or NULL */
	struct pair *next, *prev;
};

static struct pair *pairs;

/* The user's request is released (by the application thread): the
 * halves go with it. */
static void pair_free(void *arg)
{
	struct pair *p = arg;

	req_release(p->half[0]);
	req_release(p->half[1]);
	free(p);
}

static int pair_progress(void)
{
	int moved = 0;

	for (struct pair *p = pairs, *next; p; p = next) {
		struct request *s = p->half[0], *r = p->half[1], *u = p->req;

		next = p->next;
		if (!req_is_complete(s) || !req_is_complete(r))
			continue;
		if (p->prev)
			p->prev->next = p->next;
		else
			pairs = p->next;
		if (p->next)
			p->next->prev = p->prev;
		free(p->copy);
		p->copy = NULL;
		u->st_source = r->st_source;
		u->st_tag = r->st_tag;
		u->st_bytes = r->st_bytes;
		u->st_error = s->st_error != MPI_SUCCESS ? s->st_error : r->st_error;
		/* last: from here on the application thread may release it */
		req_complete(u);
		moved = 1;
	}
	return moved;
}

static int p2p_isendrecv(const char *call, const struct sendrecv_args *x, int replace,
			 MPI_Request *request)
{
	struct p2p_args sa, ra;
	struct request *u;
	struct pair *p;
	int rc;

	runtime_check(call);
	rc = sendrecv_check(call, x, request, "request", &sa, &ra);
	if (rc != MPI_SUCCESS)
		return rc;
	p = calloc(1, sizeof(*p));
	u = p ? req_new(REQ_RECV, 1) : NULL;
	if (!u)
		goto err_nomem;
	if (replace) {
		if (replace_start(x, &sa, &ra, &p->half[0], &p->half[1],
				  &p->copy) != MPI_SUCCESS)
			goto err_release;
	} else {
		p->half[0] = req_new(REQ_SEND, 0);
		p->half[1] = req_new(REQ_RECV, 0);
		if (!p->half[0] || !p->half[1]) {
			req_release(p->half[0]);
			req_release(p->half[1]);
			goto err_release;
		}
		sendrecv_start(x, &sa, &ra, p->half[0], p->half[1]);
	}
	req_bind(u, ra.comm, ra.comm->ctx, ra.dt);
	/* for the watchdog, should MPI_Wait block on it */
	u->peer = x->source == MPI_PROC_NULL ? MPI_ANY_SOURCE : x->source;
	u->tag = x->recvtag;
	u->matched = 1;
	u->active = 1;
	u->owner = p;
	u->owner_free = pair_free;
	p->req = u;
	progress_hook_add(pair_progress);
	progress_lock();
	p->next = pairs;
	if (pairs)
		pairs->prev = p;
	pairs = p;
	pair_progress();
	progress_unlock();
	*request = u->handle;
	return MPI_SUCCESS;

err_release:
	req_release(u);
err_nomem:
	free(p);
	return err_comm(x->comm, call, MPI_ERR_NO_MEM, NULL, "out of memory");
}

API(int, Isendrecv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		     int dest, int sendtag, void *recvbuf, int recvcount,
		     MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
		     MPI_Request *request))
{
	return p2p_isendrecv("MPI_Isendrecv", &(struct sendrecv_args){
		sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
		recvtype, source, recvtag, comm }, 0, request);
}

API(int, Isendrecv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
		       int dest, int sendtag, void *recvbuf, MPI_Count recvcount,
		       MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
		       MPI_Request *request))
{
	return p2p_isendrecv("MPI_Isendrecv_c", &(struct sendrecv_args){
		sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
		recvtype, source, recvtag, comm }, 0, request);
}

API(int, Isendrecv_replace, (void *buf, int count, MPI_Datatype datatype, int dest,
			     int sendtag, int source, int recvtag, MPI_Comm comm,
			     MPI_Request *request))
{
	return p2p_isendrecv("MPI_Isendrecv_replace", &(struct sendrecv_args){
		buf, count, datatype, dest, sendtag, buf, count, datatype, source,
		recvtag, comm }, 1, request);
}

API(int, Isendrecv_replace_c, (void *buf, MPI_Count count, MPI_Datatype datatype,
			       int dest, int sendtag, int source, int recvtag,
			       MPI_Comm comm, MPI_Request *request))
{
	return p2p_isendrecv("MPI_Isendrecv_replace_c", &(struct sendrecv_args){
		buf, count, datatype, dest, sendtag, buf, count, datatype, source,
		recvtag, comm }, 1, request);
}

struct probe_wait {
	struct comm *comm;
	int source, tag;
	MPI_Status *status;
};

static int probe_found(void *arg)
{
	struct probe_wait *p = arg;

	return progress_probe(p->comm, p->comm->ctx, p->source, p->tag, p->status);
}

API(int, Iprobe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status))
{
	struct p2p_args a;
	int rc;

	runtime_check("MPI_Iprobe");
	rc = p2p_check_recv("MPI_Iprobe", NULL, 0, MPI_BYTE, source, tag, comm, &a);
	if (rc != MPI_SUCCESS)
		return rc;
	if (!flag || !status)
		return err_comm(comm, "MPI_Iprobe", MPI_ERR_ARG, !flag ? "flag" : "status",
				"is NULL");
	if (source == MPI_PROC_NULL) {
		*flag = 1;
		p2p_status_proc_null(status);
		return MPI_SUCCESS;
	}
	/* a test procedure: it drives the engine */
	progress_poll();
	*flag = progress_probe(a.comm, a.comm->ctx, source, tag, status);
	return MPI_SUCCESS;
}

void p2p_probe_wait(enum call_id id, struct comm *c, int source, int tag,
		    MPI_Status *status)
{
	struct probe_wait p = { c, source, tag, status };

	if (!probe_found(&p)) {
		state_block(id, WAIT_PROBE, source == MPI_ANY_SOURCE ? -1 :
			    comm_world_rank(c, source), tag, c->ctx);
		progress_wait(probe_found, &p);
		state_unblock(id);
	}
}

API(int, Probe, (int source, int tag, MPI_Comm comm, MPI_Status *status))
{
	struct p2p_args a;
	int rc;

	runtime_check("MPI_Probe");
	rc = p2p_check_recv("MPI_Probe", NULL, 0, MPI_BYTE, source, tag, comm, &a);
	if (rc != MPI_SUCCESS)
		return rc;
	if (!status)
		return err_comm(comm, "MPI_Probe", MPI_ERR_ARG, "status", "is NULL");
	if (source == MPI_PROC_NULL) {
		p2p_status_proc_null(status);
		return MPI_SUCCESS;
	}
	p2p_probe_wait(CALL_PROBE, a.comm, source, tag, status);
	return MPI_SUCCESS;
}

/* The library's own messages on c (context ctx + 1): started, not waited. */
struct request *p2p_internal_start(struct comm *c, int peer, int tag, void *buf,
				   MPI_Count count, struct datatype *dt, int recv)
{
	struct request *r = req_new(recv ? REQ_RECV : REQ_SEND, 0);

	if (!r)
		return NULL;
	req_bind(r, c, c->ctx + 1, dt);
	r->count = count;
	r->bytes = (size_t)count * (size_t)dt->size;
	r->peer = peer;
	r->tag = tag;
	if (recv) {
		r->rbuf = buf;
	} else {
		r->sbuf = buf;
		r->peer_world = peer == MPI_PROC_NULL ? -1 : comm_world_rank(c, peer);
		r->mode = SEND_STANDARD;
	}
	p2p_start(r);
	return r;
}

static int reqs_done(void *arg)
{
	struct request **r = arg;

	for (; *r; r++)
		if (!req_is_complete(*r))
			return 0;
	return 1;
}

void p2p_internal_wait(struct comm *c, struct request **reqs, enum call_id id)
{
	if (!reqs_done(reqs)) {
		state_block(id, WAIT_REQUESTS, -1, 0, c->ctx + 1);
		progress_wait(reqs_done, reqs);
		state_unblock(id);
	}
	for (struct request **r = reqs; *r; r++)
		req_release(*r);
}

/* Blocking, packed bytes. */
static int p2p_internal(struct comm *c, int peer, int tag, void *buf, size_t bytes,
			enum call_id id, int recv)
{
	struct request *reqs[2] = { NULL, NULL };

	reqs[0] = p2p_internal_start(c, peer, tag, buf, (MPI_Count)bytes,
				     dt_get(MPI_BYTE), recv);
	if (!reqs[0])
		return MPI_ERR_NO_MEM;
	p2p_internal_wait(c, reqs, id);
	return MPI_SUCCESS;
}

int p2p_internal_send(struct comm *c, int dest, int tag, const void *buf, size_t bytes,
		      enum call_id id)
{
	return p2p_internal(c, dest, tag, (void *)buf, bytes, id, 0);
}

int p2p_internal_recv(struct comm *c, int source, int tag, void *buf, size_t bytes,
		      enum call_id id)
{
	return p2p_internal(c, source, tag, buf, bytes, id, 1);
}
