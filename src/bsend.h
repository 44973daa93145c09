/*
 * Buffered sends: the attach buffers, their allocator, and the messages
 * that live in them until the engine has pushed them out.
 */
#ifndef SRC_BSEND_H
#define SRC_BSEND_H

#include "../shm/rankstate.h"
#include "request.h"

/*
 * A place a buffer may be attached to (MPI 4.1, section 3.6.1): the
 * process, a communicator or a session.  A pool lives while something
 * refers to it (its communicator or session, the groups derived from a
 * session) or while messages are in it.
 */
struct bsend_pool;

/* A pool with nothing attached (one reference); NULL when out of memory. */
struct bsend_pool *bsend_pool_new(void);
void bsend_pool_ref(struct bsend_pool *p);
void bsend_pool_unref(struct bsend_pool *p);

/* Wait in `call` until every message in p has left (through this rank's
 * engine). */
void bsend_pool_drain(struct bsend_pool *p, enum call_id call);

/* Copy the message into the attach buffer that serves c and hand it to
 * the engine; returns an MPI error class (MPI_ERR_BUFFER when it does not
 * fit, or no buffer serves c). */
struct comm;
struct datatype;
int bsend_start(struct comm *c, const void *buf, MPI_Count count,
		struct datatype *dt, int dest, int tag);

/* The engine is done with a buffered message: free its space. */
void bsend_done(struct request *r);

#endif
