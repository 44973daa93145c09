/*
 * MPI_Buffer_attach, MPI_Buffer_detach, MPI_Bsend and MPI_Ibsend.
 *
 * A buffered message is packed into the attach buffer and then belongs to
 * the progress engine, which pushes it out whenever it runs in this rank:
 * the data reaches the receiver only through the sender's engine, never
 * through the receiver alone.  Each message takes its size plus
 * MPI_BSEND_OVERHEAD bytes of the buffer, exactly what the standard tells
 * users to provide, so a buffer sized by that rule always suffices; the
 * bookkeeping itself lives outside the buffer.  Blocks are kept in a list
 * sorted by offset and placed first-fit, so space freed out of order is
 * reused.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "bsend.h"
#include "comm.h"
#include "datatype.h"
#include "errhandler.h"
#include "p2p.h"
#include "progress.h"
#include "runtime.h"
#include "state.h"

struct bsend_block {
	size_t off;			/* of the packed data in the buffer */
	size_t len;			/* data + MPI_BSEND_OVERHEAD */
	struct bsend_block *next;	/* by offset */
	struct request *req;
};

static struct {
	char *buf;
	size_t size;
	int attached;
	struct bsend_block *blocks;
	int nblocks;
} bsend;

/* A free run of len bytes (first fit), linked in; -ENOMEM if none. */
static int bsend_alloc(size_t len, struct bsend_block **out)
{
	struct bsend_block **link = &bsend.blocks, *b;
	size_t at = 0;

	for (;;) {
		size_t end = *link ? (*link)->off : bsend.size;

		if (end >= at && end - at >= len)
			break;
		if (!*link)
			return -ENOSPC;
		at = (*link)->off + (*link)->len;
		link = &(*link)->next;
	}
	b = malloc(sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->off = at;
	b->len = len;
	b->next = *link;
	*link = b;
	bsend.nblocks++;
	*out = b;
	return 0;
}

static void bsend_unlink(struct bsend_block *b)
{
	struct bsend_block **link = &bsend.blocks;

	while (*link != b)
		link = &(*link)->next;
	*link = b->next;
	bsend.nblocks--;
	free(b);
}

int bsend_start(struct comm *c, const void *buf, MPI_Count count,
		struct datatype *dt, int dest, int tag)
{
	size_t bytes = (size_t)count * (size_t)dt->size;
	struct bsend_block *b;
	struct request *r;
	int rc;

	if (!bsend.attached)
		return MPI_ERR_BUFFER;
	progress_lock();	/* the engine frees blocks as messages leave */
	rc = bsend_alloc(bytes + MPI_BSEND_OVERHEAD, &b);
	if (rc < 0) {
		progress_unlock();
		return rc == -ENOSPC ? MPI_ERR_BUFFER : MPI_ERR_NO_MEM;
	}
	r = req_new(REQ_BSEND, 0);
	if (!r) {
		bsend_unlink(b);
		progress_unlock();
		return MPI_ERR_NO_MEM;
	}
	dt_pack(dt, buf, 0, bsend.buf + b->off, bytes);
	b->req = r;
	r->owner = b;
	req_bind(r, c, c->ctx, dt_get(MPI_BYTE));
	r->peer = dest;
	r->peer_world = comm_world_rank(c, dest);
	r->tag = tag;
	r->sbuf = bsend.buf + b->off;
	r->count = (MPI_Count)bytes;
	r->bytes = bytes;
	r->mode = SEND_BUFFERED;
	progress_send_start(r);
	progress_unlock();
	return MPI_SUCCESS;
}

/* From the engine (under its lock, maybe in the progress thread). */
void bsend_done(struct request *r)
{
	bsend_unlink(r->owner);
	req_release_async(r);
}

int bsend_pending(void)
{
	return bsend.nblocks > 0;
}

static int bsend_drained(void *unused)
{
	(void)unused;
	return bsend.nblocks == 0;
}

API(int, Buffer_attach, (void *buffer, int size))
{
	runtime_check("MPI_Buffer_attach");
	if (bsend.attached)
		return err_comm(MPI_COMM_WORLD, "MPI_Buffer_attach", MPI_ERR_BUFFER,
				"buffer", "a buffer is already attached");
	if (size < 0)
		return err_comm(MPI_COMM_WORLD, "MPI_Buffer_attach", MPI_ERR_ARG,
				"size", "%d is negative", size);
	if (!buffer && size > 0)
		return err_comm(MPI_COMM_WORLD, "MPI_Buffer_attach", MPI_ERR_BUFFER,
				"buffer", "is NULL");
	bsend.buf = buffer;
	bsend.size = (size_t)size;
	bsend.attached = 1;
	return MPI_SUCCESS;
}

/* Blocks until every buffered message has left (through this rank's engine). */
API(int, Buffer_detach, (void *buffer_addr, int *size))
{
	runtime_check("MPI_Buffer_detach");
	if (!buffer_addr || !size)
		return err_comm(MPI_COMM_WORLD, "MPI_Buffer_detach", MPI_ERR_ARG,
				!buffer_addr ? "buffer_addr" : "size", "is NULL");
	if (!bsend.attached)
		return err_comm(MPI_COMM_WORLD, "MPI_Buffer_detach", MPI_ERR_BUFFER,
				"buffer_addr", "no buffer is attached");
	/* the engine (the progress thread, under strong progress) takes
	 * blocks off as their messages leave: look under its lock */
	progress_lock();
	if (bsend.nblocks) {
		struct request *first = bsend.blocks->req;

		state_block(CALL_BUFFER_DETACH, WAIT_BSEND_DRAIN, first->peer_world,
			    first->tag, first->comm->ctx);
		progress_unlock();
		progress_wait(bsend_drained, NULL);
		state_unblock(CALL_BUFFER_DETACH);
	} else {
		progress_unlock();
	}
	progress_lock();
	*(void **)buffer_addr = bsend.buf;
	*size = (int)bsend.size;
	memset(&bsend, 0, sizeof(bsend));
	progress_unlock();
	return MPI_SUCCESS;
}

static int bsend_call(const char *call, const void *buf, MPI_Count count,
			MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
	struct p2p_args a;
	int rc;

	runtime_check(call);
	rc = p2p_check_send(call, buf, count, datatype, dest, tag, comm, &a);
	if (rc != MPI_SUCCESS || dest == MPI_PROC_NULL)
		return rc;
	rc = bsend_start(a.comm, buf, count, a.dt, dest, tag);
	if (rc != MPI_SUCCESS)
		return p2p_err_bsend(call, comm, rc, count, a.dt);
	progress_poll();
	state_left(CALL_BSEND);
	return MPI_SUCCESS;
}

static int ibsend_call(const char *call, const void *buf, MPI_Count count,
			MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
			MPI_Request *request)
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
	r = req_new(REQ_SEND, 1);
	if (!r)
		return err_comm(comm, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	if (dest != MPI_PROC_NULL) {
		rc = bsend_start(a.comm, buf, count, a.dt, dest, tag);
		if (rc != MPI_SUCCESS) {
			req_release(r);
			return p2p_err_bsend(call, comm, rc, count, a.dt);
		}
	}
	/* the message is in the attach buffer: the user's request is done */
	req_bind(r, a.comm, a.comm->ctx, a.dt);
	req_complete(r);
	state_left(CALL_IBSEND);
	*request = r->handle;
	return MPI_SUCCESS;
}

API(int, Bsend, (const void *buf, int count, MPI_Datatype datatype, int dest,
		 int tag, MPI_Comm comm))
{
	return bsend_call("MPI_Bsend", buf, count, datatype, dest, tag, comm);
}

API(int, Bsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
		   int tag, MPI_Comm comm))
{
	return bsend_call("MPI_Bsend_c", buf, count, datatype, dest, tag, comm);
}

API(int, Ibsend, (const void *buf, int count, MPI_Datatype datatype, int dest,
		  int tag, MPI_Comm comm, MPI_Request *request))
{
	return ibsend_call("MPI_Ibsend", buf, count, datatype, dest, tag, comm, request);
}

API(int, Ibsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
		    int tag, MPI_Comm comm, MPI_Request *request))
{
	return ibsend_call("MPI_Ibsend_c", buf, count, datatype, dest, tag, comm, request);
}
