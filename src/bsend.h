/*
 * Buffered sends: the attach buffer, its allocator, and the messages that
 * live in it until the engine has pushed them out.
 */
#ifndef SRC_BSEND_H
#define SRC_BSEND_H

#include "request.h"

/* Copy the message into the attach buffer and hand it to the engine;
 * returns an MPI error class (MPI_ERR_BUFFER when it does not fit). */
struct comm;
struct datatype;
int bsend_start(struct comm *c, const void *buf, MPI_Count count,
		struct datatype *dt, int dest, int tag);

/* The engine is done with a buffered message: free its space. */
void bsend_done(struct request *r);

/* Whether buffered messages are still waiting to leave. */
int bsend_pending(void);

#endif
