/*
 * Matched probe and receive (MPI 3.1, sections 3.8.2 and 3.8.3):
 * MPI_Mprobe, MPI_Improbe, MPI_Mrecv and MPI_Imrecv.
 *
 * A matched probe takes the message out of the matching queue at once
 * (progress_mprobe), so no later receive or probe matches it, and hands it
 * out as an MPI_Message; MPI_Mrecv or MPI_Imrecv then receives exactly that
 * message through a receive request posted with the message bound to it.
 * A rendezvous message's sender is asked for the data only then.  A probe
 * of MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC, whose receive completes at
 * once with the status of a receive from MPI_PROC_NULL (section 3.8.2).
 *
 * Messages of a user's context are only ever taken out of the unexpected
 * queue by the application thread (the progress thread appends them, and
 * the receives it posts for nonblocking collectives are on the library's
 * own context, src/coll_nb.c), so one that a probe saw is still first in
 * line when the same thread takes it right after.
 */
#include <stdlib.h>

#include "api.h"
#include "handle.h"
#include "p2p.h"
#include "progress.h"
#include "request.h"
#include "runtime.h"

struct message {
	MPI_Message handle;
	struct comm *comm;	/* referenced while the message lives */
	struct unexp *msg;	/* out of the matching queue */
	int source, tag;	/* its envelope (source: a rank of comm) */
};

static void message_free(struct message *m)
{
	handle_release(m->handle);
	comm_unref(m->comm);
	free(m);
}

/*
 * Take the first message that a receive of (source, tag) on c would match
 * into a new message handle, *message; *flag says whether there was one.
 * Nothing is taken when the handle cannot be made.  MPI error class.
 */
static int message_take(const char *call, MPI_Comm comm, struct comm *c, int source,
			int tag, int *flag, MPI_Message *message, MPI_Status *status)
{
	struct message *m;
	MPI_Status st;

	*flag = 0;
	if (!progress_probe(c, c->ctx, source, tag, MPI_STATUS_IGNORE))
		return MPI_SUCCESS;
	m = malloc(sizeof(*m));
	if (!m || handle_alloc(HANDLE_MESSAGE, m, &m->handle) < 0) {
		free(m);
		return err_comm(comm, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	}
	m->msg = progress_mprobe(c, c->ctx, source, tag, &st);
	if (!m->msg) {
		handle_release(m->handle);
		free(m);
		return MPI_SUCCESS;
	}
	m->comm = c;
	comm_ref(c);
	m->source = st.MPI_SOURCE;
	m->tag = st.MPI_TAG;
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	*message = m->handle;
	*flag = 1;
	return MPI_SUCCESS;
}

/* The checks of both probes (flag: the caller's, for MPI_Improbe);
 * MPI_PROC_NULL answers at once (*done). */
static int mprobe_check(const char *call, int source, int tag, MPI_Comm comm,
			const int *flag, MPI_Message *message, MPI_Status *status,
			struct p2p_args *a, int *done)
{
	int rc = p2p_check_recv(call, NULL, 0, MPI_BYTE, source, tag, comm, a);

	*done = 0;
	if (rc != MPI_SUCCESS)
		return rc;
	if (!message || !status || !flag)
		return err_comm(comm, call, MPI_ERR_ARG,
				!message ? "message" : !status ? "status" : "flag", "is NULL");
	if (source == MPI_PROC_NULL) {
		*message = MPI_MESSAGE_NO_PROC;
		p2p_status_proc_null(status);
		*done = 1;
	}
	return MPI_SUCCESS;
}

API(int, Mprobe, (int source, int tag, MPI_Comm comm, MPI_Message *message,
		  MPI_Status *status))
{
	struct p2p_args a;
	int rc, done, flag = 0;

	runtime_check("MPI_Mprobe");
	rc = mprobe_check("MPI_Mprobe", source, tag, comm, &flag, message, status, &a,
			  &done);
	if (rc != MPI_SUCCESS || done)
		return rc;
	while (!flag) {
		p2p_probe_wait(CALL_MPROBE, a.comm, source, tag, MPI_STATUS_IGNORE);
		rc = message_take("MPI_Mprobe", comm, a.comm, source, tag, &flag, message,
				  status);
		if (rc != MPI_SUCCESS)
			return rc;
	}
	return MPI_SUCCESS;
}

API(int, Improbe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
		   MPI_Status *status))
{
	struct p2p_args a;
	int rc, done;

	runtime_check("MPI_Improbe");
	rc = mprobe_check("MPI_Improbe", source, tag, comm, flag, message, status, &a,
			  &done);
	if (rc != MPI_SUCCESS)
		return rc;
	if (done) {
		*flag = 1;
		return MPI_SUCCESS;
	}
	/* a test procedure: it drives the engine */
	progress_poll();
	return message_take("MPI_Improbe", comm, a.comm, source, tag, flag, message, status);
}

/*
 * Start the receive of *message (MPI_MESSAGE_NULL once it is taken), with
 * a handle when nonblocking.  An invalid message is MPI_ERR_REQUEST, as
 * MPICH and Open MPI have it (MPI 3.1 names no class); errors concerning
 * the data are raised on the message's communicator.
 */
static int mrecv_start(const char *call, void *buf, MPI_Count count, MPI_Datatype datatype,
		       MPI_Message *message, int with_handle, struct request **out)
{
	MPI_Comm comm = MPI_COMM_WORLD;
	struct message *m = NULL;
	struct p2p_args a;
	struct request *r;
	int rc;

	if (!message)
		return err_comm(comm, call, MPI_ERR_ARG, "message", "is NULL");
	if (*message != MPI_MESSAGE_NO_PROC) {
		m = handle_get(*message, HANDLE_MESSAGE);
		if (!m)
			return err_comm(comm, call, MPI_ERR_REQUEST, "message",
					*message == MPI_MESSAGE_NULL ? "is MPI_MESSAGE_NULL" :
					"0x%x is not a matched message", (unsigned)*message);
		comm = m->comm->handle;
	}
	rc = p2p_check_data(call, buf, count, datatype, comm, &a.dt);
	if (rc != MPI_SUCCESS)
		return rc;
	r = req_new(REQ_RECV, with_handle);
	if (!r)
		return err_comm(comm, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	/* MPI_MESSAGE_NO_PROC: a receive from MPI_PROC_NULL, done at start */
	a.comm = m ? m->comm : comm_get(MPI_COMM_WORLD);
	p2p_recv_init(r, buf, count, &a, m ? m->source : MPI_PROC_NULL,
		      m ? m->tag : MPI_ANY_TAG);
	if (m) {
		r->taken = m->msg;
		message_free(m);
	}
	*message = MPI_MESSAGE_NULL;
	p2p_start(r);
	*out = r;
	return MPI_SUCCESS;
}

static int mrecv(const char *call, void *buf, MPI_Count count, MPI_Datatype datatype,
		 MPI_Message *message, MPI_Status *status)
{
	struct request *r;
	int rc;

	runtime_check(call);
	if (!status)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG, "status", "is NULL");
	rc = mrecv_start(call, buf, count, datatype, message, 0, &r);
	if (rc != MPI_SUCCESS)
		return rc;
	return p2p_finish(call, CALL_MRECV, r, status);
}

static int imrecv(const char *call, void *buf, MPI_Count count, MPI_Datatype datatype,
		  MPI_Message *message, MPI_Request *request)
{
	struct request *r;
	int rc;

	runtime_check(call);
	if (!request)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG, "request", "is NULL");
	rc = mrecv_start(call, buf, count, datatype, message, 1, &r);
	if (rc != MPI_SUCCESS)
		return rc;
	*request = r->handle;
	return MPI_SUCCESS;
}

API(int, Mrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
		 MPI_Status *status))
{
	return mrecv("MPI_Mrecv", buf, count, datatype, message, status);
}

API(int, Mrecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype,
		   MPI_Message *message, MPI_Status *status))
{
	return mrecv("MPI_Mrecv_c", buf, count, datatype, message, status);
}

API(int, Imrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
		  MPI_Request *request))
{
	return imrecv("MPI_Imrecv", buf, count, datatype, message, request);
}

API(int, Imrecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype,
		    MPI_Message *message, MPI_Request *request))
{
	return imrecv("MPI_Imrecv_c", buf, count, datatype, message, request);
}
