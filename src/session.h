/*
 * Sessions (MPI 4.1, section 11.3): what other files need of them.
 */
#ifndef SRC_SESSION_H
#define SRC_SESSION_H

#include <mpi.h>

struct bsend_pool;
struct errhandler;

/* The buffered-send pool of session h and its error handler, or NULL
 * after raising MPI_ERR_SESSION in `call` (into *rc). */
struct bsend_pool *session_bsend(MPI_Session h, const char *call,
				 struct errhandler **eh, int *rc);

#endif
