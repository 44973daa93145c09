/*
 * The buffers of buffered sends (MPI 4.1, section 3.6.1): attach, detach
 * and flush for the process, a communicator and a session; MPI_Bsend and
 * MPI_Ibsend.
 *
 * A buffered message is packed into an attach buffer and then belongs to
 * the progress engine, which pushes it out whenever it runs in this rank:
 * the data reaches the receiver only through the sender's engine, never
 * through the receiver alone.  The buffer a send uses is chosen when it
 * starts: its communicator's, else that of the session the communicator
 * derives from, else the process's.  Each message takes its size plus
 * MPI_BSEND_OVERHEAD bytes of a buffer the program attached, exactly what
 * the standard tells users to provide, so a buffer sized by that rule
 * always suffices; the bookkeeping itself lives outside the buffer.
 * Blocks are kept in a list sorted by offset and placed first-fit, so
 * space freed out of order is reused.  With MPI_BUFFER_AUTOMATIC each
 * message gets memory of its own instead, and only memory limits them.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
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
#include "session.h"
#include "state.h"

struct bsend_block {
	char *data;			/* the packed message */
	size_t off;			/* of data in the attached buffer */
	size_t len;			/* data + MPI_BSEND_OVERHEAD */
	struct bsend_block *next;	/* by offset (automatic: newest first) */
	struct bsend_pool *pool;
	struct request *req;
};

struct bsend_pool {
	char *buf;
	size_t size;
	int attached;
	int automatic;			/* MPI_BUFFER_AUTOMATIC is attached */
	/* its communicator or session, the groups derived from a session, and
	 * each message in it: the engine (maybe the progress thread) drops a
	 * message's reference while the program may drop another */
	atomic_int refs;
	struct bsend_block *blocks;
	int nblocks;
	struct request *flushes;	/* iflush requests, done when it drains */
};

/* The process's pool, which lives as long as the process. */
static struct bsend_pool bsend_process = { .refs = 1 };

struct bsend_pool *bsend_pool_new(void)
{
	struct bsend_pool *p = calloc(1, sizeof(*p));

	if (p)
		atomic_init(&p->refs, 1);
	return p;
}

/* relaxed: a reference is taken from one already held */
void bsend_pool_ref(struct bsend_pool *p)
{
	atomic_fetch_add_explicit(&p->refs, 1, memory_order_relaxed);
}

/* acq_rel: whoever drops the last reference sees every other holder's
 * writes to the pool before it frees it */
void bsend_pool_unref(struct bsend_pool *p)
{
	if (p && atomic_fetch_sub_explicit(&p->refs, 1, memory_order_acq_rel) == 1)
		free(p);
}

/* A free run of len bytes of p (first fit), linked in, or memory of its
 * own under MPI_BUFFER_AUTOMATIC; -ENOSPC if p has no such run. */
static int bsend_alloc(struct bsend_pool *p, size_t len, struct bsend_block **out)
{
	struct bsend_block **link = &p->blocks, *b;
	size_t at = 0;

	while (!p->automatic) {
		size_t end = *link ? (*link)->off : p->size;

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
	b->data = p->automatic ? malloc(len - MPI_BSEND_OVERHEAD + 1) : p->buf + at;
	if (!b->data) {
		free(b);
		return -ENOMEM;
	}
	b->off = at;
	b->len = len;
	b->pool = p;
	bsend_pool_ref(p);
	b->next = *link;
	*link = b;
	p->nblocks++;
	*out = b;
	return 0;
}

static void bsend_unlink(struct bsend_block *b)
{
	struct bsend_pool *p = b->pool;
	struct bsend_block **link = &p->blocks;

	while (*link != b)
		link = &(*link)->next;
	*link = b->next;
	p->nblocks--;
	if (p->automatic)
		free(b->data);
	free(b);
}

/* The buffer that serves a buffered send on c (MPI 4.1, section 3.6.1). */
static struct bsend_pool *bsend_serving(const struct comm *c)
{
	if (c->bsend && c->bsend->attached)
		return c->bsend;
	if (c->group->bsend_session && c->group->bsend_session->attached)
		return c->group->bsend_session;
	return &bsend_process;
}

int bsend_start(struct comm *c, const void *buf, MPI_Count count,
		struct datatype *dt, int dest, int tag)
{
	size_t bytes = (size_t)count * (size_t)dt->size;
	struct bsend_pool *p;
	struct bsend_block *b;
	struct request *r;
	int rc;

	progress_lock();	/* the engine frees blocks as messages leave */
	p = bsend_serving(c);
	if (!p->attached) {
		progress_unlock();
		return MPI_ERR_BUFFER;
	}
	rc = bsend_alloc(p, bytes + MPI_BSEND_OVERHEAD, &b);
	if (rc < 0) {
		progress_unlock();
		return rc == -ENOSPC ? MPI_ERR_BUFFER : MPI_ERR_NO_MEM;
	}
	r = req_new(REQ_BSEND, 0);
	if (!r) {
		bsend_unlink(b);
		bsend_pool_unref(p);
		progress_unlock();
		return MPI_ERR_NO_MEM;
	}
	dt_pack(dt, buf, 0, b->data, bytes);
	b->req = r;
	r->owner = b;
	req_bind(r, c, c->ctx, dt_get(MPI_BYTE));
	r->peer = dest;
	r->peer_world = comm_world_rank(c, dest);
	r->tag = tag;
	r->sbuf = b->data;
	r->count = (MPI_Count)bytes;
	r->bytes = bytes;
	r->mode = SEND_BUFFERED;
	progress_send_start(r);
	progress_unlock();
	return MPI_SUCCESS;
}

/* From the engine (under its lock, maybe in the progress thread): the
 * last message of a pool completes the flushes waiting for it. */
void bsend_done(struct request *r)
{
	struct bsend_block *b = r->owner;
	struct bsend_pool *p = b->pool;

	bsend_unlink(b);
	req_release_async(r);
	while (p->nblocks == 0 && p->flushes) {
		struct request *f = p->flushes;

		p->flushes = f->next;
		f->next = NULL;
		req_complete(f);
	}
	bsend_pool_unref(p);
}

static int bsend_drained(void *arg)
{
	const struct bsend_pool *p = arg;

	return p->nblocks == 0;
}

/* ---- the calls, for each place a buffer attaches to ---------------------- */

/* Where a call attaches, detaches or flushes, and whom it tells of errors. */
struct bsend_site {
	const char *call;
	enum call_id id;		/* the blocking calls: what it waits in */
	struct bsend_pool *pool;	/* a communicator's: NULL until attached */
	struct comm *comm;		/* a communicator's site, else NULL */
	struct errhandler *eh;
	int obj;
};

static int bsend_err(const struct bsend_site *s, int errclass, const char *arg,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int bsend_err(const struct bsend_site *s, int errclass, const char *arg,
		     const char *fmt, ...)
{
	char detail[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	return err_obj(s->eh, s->obj, s->call, errclass, arg, "%s", detail);
}

/* The process's buffer, raising errors on MPI_COMM_WORLD. */
static struct bsend_site site_process(const char *call, enum call_id id)
{
	struct comm *world = comm_get(MPI_COMM_WORLD);
	struct bsend_site s = { call, id, &bsend_process, NULL,
				world ? world->errh : NULL, MPI_COMM_WORLD };

	return s;
}

/* A communicator's buffer; 0 after raising MPI_ERR_COMM (into *rc). */
static int site_comm(MPI_Comm comm, const char *call, enum call_id id,
		     struct bsend_site *s, int *rc)
{
	struct comm *c = comm_get(comm);

	if (!c) {
		*rc = comm_err_invalid(comm, call);
		return 0;
	}
	*s = (struct bsend_site){ call, id, c->bsend, c, c->errh, comm };
	return 1;
}

/* A session's buffer; 0 after raising MPI_ERR_SESSION (into *rc). */
static int site_session(MPI_Session session, const char *call, enum call_id id,
			struct bsend_site *s, int *rc)
{
	struct errhandler *eh;
	struct bsend_pool *p = session_bsend(session, call, &eh, rc);

	if (!p)
		return 0;
	*s = (struct bsend_site){ call, id, p, NULL, eh, session };
	return 1;
}

static int site_attach(struct bsend_site *s, void *buffer, MPI_Count size)
{
	int automatic = buffer == MPI_BUFFER_AUTOMATIC;

	if (s->pool && s->pool->attached)
		return bsend_err(s, MPI_ERR_BUFFER, "buffer", "a buffer is already attached");
	if (!automatic && size < 0)
		return bsend_err(s, MPI_ERR_ARG, "size", "%lld is negative", size);
	if (!automatic && !buffer && size > 0)
		return bsend_err(s, MPI_ERR_BUFFER, "buffer", "is NULL");
	if (!s->pool) {
		s->pool = s->comm->bsend = bsend_pool_new();
		if (!s->pool)
			return bsend_err(s, MPI_ERR_NO_MEM, NULL, "out of memory");
	}
	progress_lock();
	s->pool->buf = automatic ? NULL : buffer;
	s->pool->size = automatic ? 0 : (size_t)size;
	s->pool->automatic = automatic;
	s->pool->attached = 1;
	progress_unlock();
	return MPI_SUCCESS;
}

void bsend_pool_drain(struct bsend_pool *p, enum call_id call)
{
	/* the engine (the progress thread, under strong progress) takes
	 * blocks off as their messages leave: look under its lock */
	progress_lock();
	if (p->nblocks) {
		struct request *first = p->blocks->req;

		state_block(call, WAIT_BSEND_DRAIN, first->peer_world, first->tag,
			    first->comm->ctx);
		progress_unlock();
		progress_wait(bsend_drained, p);
		state_unblock(call);
	} else {
		progress_unlock();
		state_left(call);
	}
}

/* MPI_BUFFER_AUTOMATIC comes back as the address, with size 0. */
static int site_detach(struct bsend_site *s, void *buffer_addr, MPI_Count *size)
{
	struct bsend_pool *p = s->pool;

	if (!buffer_addr)
		return bsend_err(s, MPI_ERR_ARG, "buffer_addr", "is NULL");
	if (!p || !p->attached)
		return bsend_err(s, MPI_ERR_BUFFER, "buffer_addr", "no buffer is attached");
	bsend_pool_drain(s->pool, s->id);
	progress_lock();
	*(void **)buffer_addr = p->automatic ? MPI_BUFFER_AUTOMATIC : p->buf;
	*size = (MPI_Count)p->size;
	p->buf = NULL;
	p->size = 0;
	p->automatic = 0;
	p->attached = 0;
	progress_unlock();
	return MPI_SUCCESS;
}

/* Without a buffer there is nothing to flush. */
static int site_flush(struct bsend_site *s)
{
	if (s->pool)
		bsend_pool_drain(s->pool, s->id);
	return MPI_SUCCESS;
}

static int site_iflush(struct bsend_site *s, MPI_Request *request)
{
	struct request *r;

	if (!request)
		return bsend_err(s, MPI_ERR_ARG, "request", "is NULL");
	r = req_new(REQ_SEND, 1);
	if (!r)
		return bsend_err(s, MPI_ERR_NO_MEM, NULL, "out of memory");
	r->peer = MPI_PROC_NULL;
	r->peer_world = -1;
	progress_lock();
	if (s->pool && s->pool->nblocks) {
		const struct request *first = s->pool->blocks->req;

		/* a wait for it waits for that message (the watchdog's view) */
		r->peer_world = first->peer_world;
		r->tag = first->tag;
		r->next = s->pool->flushes;
		s->pool->flushes = r;
	} else {
		req_complete(r);
	}
	progress_unlock();
	*request = r->handle;
	return MPI_SUCCESS;
}

/* A count that the int forms return: MPI_ERR_VALUE_TOO_LARGE (MPI 4.1,
 * section 2.5.8) for one that does not fit. */
static int site_size_out(const struct bsend_site *s, MPI_Count n, int *size)
{
	if (!size)
		return bsend_err(s, MPI_ERR_ARG, "size", "is NULL");
	if (n > 0x7fffffff)
		return bsend_err(s, MPI_ERR_VALUE_TOO_LARGE, "size",
				 "the buffer's %lld bytes do not fit in an int", n);
	*size = (int)n;
	return MPI_SUCCESS;
}

/* Detach through the int form: the size checked before anything changes. */
static int site_detach_int(struct bsend_site *s, void *buffer_addr, int *size)
{
	MPI_Count n = 0;
	int rc;

	if (!size)
		return bsend_err(s, MPI_ERR_ARG, "size", "is NULL");
	if (s->pool && s->pool->size > 0x7fffffff)
		return site_size_out(s, (MPI_Count)s->pool->size, size);
	rc = site_detach(s, buffer_addr, &n);
	return rc != MPI_SUCCESS ? rc : site_size_out(s, n, size);
}

static int site_detach_count(struct bsend_site *s, void *buffer_addr, MPI_Count *size)
{
	if (!size)
		return bsend_err(s, MPI_ERR_ARG, "size", "is NULL");
	return site_detach(s, buffer_addr, size);
}

API(int, Buffer_attach, (void *buffer, int size))
{
	struct bsend_site s;

	runtime_check("MPI_Buffer_attach");
	s = site_process("MPI_Buffer_attach", CALL_NONE);
	return site_attach(&s, buffer, size);
}

API(int, Buffer_attach_c, (void *buffer, MPI_Count size))
{
	struct bsend_site s;

	runtime_check("MPI_Buffer_attach_c");
	s = site_process("MPI_Buffer_attach_c", CALL_NONE);
	return site_attach(&s, buffer, size);
}

/* Blocks until every buffered message has left (through this rank's engine). */
API(int, Buffer_detach, (void *buffer_addr, int *size))
{
	struct bsend_site s;

	runtime_check("MPI_Buffer_detach");
	s = site_process("MPI_Buffer_detach", CALL_BUFFER_DETACH);
	return site_detach_int(&s, buffer_addr, size);
}

API(int, Buffer_detach_c, (void *buffer_addr, MPI_Count *size))
{
	struct bsend_site s;

	runtime_check("MPI_Buffer_detach_c");
	s = site_process("MPI_Buffer_detach_c", CALL_BUFFER_DETACH);
	return site_detach_count(&s, buffer_addr, size);
}

API(int, Buffer_flush, (void))
{
	struct bsend_site s;

	runtime_check("MPI_Buffer_flush");
	s = site_process("MPI_Buffer_flush", CALL_BUFFER_FLUSH);
	return site_flush(&s);
}

API(int, Buffer_iflush, (MPI_Request *request))
{
	struct bsend_site s;

	runtime_check("MPI_Buffer_iflush");
	s = site_process("MPI_Buffer_iflush", CALL_NONE);
	return site_iflush(&s, request);
}

API(int, Comm_attach_buffer, (MPI_Comm comm, void *buffer, int size))
{
	struct bsend_site s;
	int rc;

	runtime_check("MPI_Comm_attach_buffer");
	if (!site_comm(comm, "MPI_Comm_attach_buffer", CALL_NONE, &s, &rc))
		return rc;
	return site_attach(&s, buffer, size);
}

API(int, Comm_attach_buffer_c, (MPI_Comm comm, void *buffer, MPI_Count size))
{
	struct bsend_site s;
	int rc;

	runtime_check("MPI_Comm_attach_buffer_c");
	if (!site_comm(comm, "MPI_Comm_attach_buffer_c", CALL_NONE, &s, &rc))
		return rc;
	return site_attach(&s, buffer, size);
}

API(int, Comm_detach_buffer, (MPI_Comm comm, void *buffer_addr, int *size))
{
	struct bsend_site s;
	int rc;

	runtime_check("MPI_Comm_detach_buffer");
	if (!site_comm(comm, "MPI_Comm_detach_buffer", CALL_COMM_DETACH_BUFFER, &s, &rc))
		return rc;
	return site_detach_int(&s, buffer_addr, size);
}

API(int, Comm_detach_buffer_c, (MPI_Comm comm, void *buffer_addr, MPI_Count *size))
{
	struct bsend_site s;
	int rc;

	runtime_check("MPI_Comm_detach_buffer_c");
	if (!site_comm(comm, "MPI_Comm_detach_buffer_c", CALL_COMM_DETACH_BUFFER, &s, &rc))
		return rc;
	return site_detach_count(&s, buffer_addr, size);
}

API(int, Comm_flush_buffer, (MPI_Comm comm))
{
	struct bsend_site s;
	int rc;

	runtime_check("MPI_Comm_flush_buffer");
	if (!site_comm(comm, "MPI_Comm_flush_buffer", CALL_COMM_FLUSH_BUFFER, &s, &rc))
		return rc;
	return site_flush(&s);
}

API(int, Comm_iflush_buffer, (MPI_Comm comm, MPI_Request *request))
{
	struct bsend_site s;
	int rc;

	runtime_check("MPI_Comm_iflush_buffer");
	if (!site_comm(comm, "MPI_Comm_iflush_buffer", CALL_NONE, &s, &rc))
		return rc;
	return site_iflush(&s, request);
}

API(int, Session_attach_buffer, (MPI_Session session, void *buffer, int size))
{
	struct bsend_site s;
	int rc;

	runtime_check("MPI_Session_attach_buffer");
	if (!site_session(session, "MPI_Session_attach_buffer", CALL_NONE, &s, &rc))
		return rc;
	return site_attach(&s, buffer, size);
}

API(int, Session_attach_buffer_c, (MPI_Session session, void *buffer, MPI_Count size))
{
	struct bsend_site s;
	int rc;

	runtime_check("MPI_Session_attach_buffer_c");
	if (!site_session(session, "MPI_Session_attach_buffer_c", CALL_NONE, &s, &rc))
		return rc;
	return site_attach(&s, buffer, size);
}

API(int, Session_detach_buffer, (MPI_Session session, void *buffer_addr, int *size))
{
	struct bsend_site s;
	int rc;

	runtime_check("MPI_Session_detach_buffer");
	if (!site_session(session, "MPI_Session_detach_buffer", CALL_SESSION_DETACH_BUFFER,
			  &s, &rc))
		return rc;
	return site_detach_int(&s, buffer_addr, size);
}

API(int, Session_detach_buffer_c, (MPI_Session session, void *buffer_addr,
				   MPI_Count *size))
{
	struct bsend_site s;
	int rc;

	runtime_check("MPI_Session_detach_buffer_c");
	if (!site_session(session, "MPI_Session_detach_buffer_c",
			  CALL_SESSION_DETACH_BUFFER, &s, &rc))
		return rc;
	return site_detach_count(&s, buffer_addr, size);
}

API(int, Session_flush_buffer, (MPI_Session session))
{
	struct bsend_site s;
	int rc;

	runtime_check("MPI_Session_flush_buffer");
	if (!site_session(session, "MPI_Session_flush_buffer", CALL_SESSION_FLUSH_BUFFER,
			  &s, &rc))
		return rc;
	return site_flush(&s);
}

API(int, Session_iflush_buffer, (MPI_Session session, MPI_Request *request))
{
	struct bsend_site s;
	int rc;

	runtime_check("MPI_Session_iflush_buffer");
	if (!site_session(session, "MPI_Session_iflush_buffer", CALL_NONE, &s, &rc))
		return rc;
	return site_iflush(&s, request);
}

/* ---- the sends ---------------------------------------------------------- */

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
