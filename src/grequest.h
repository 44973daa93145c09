/*
 * Generalized requests (MPI-3.1 section 12.2): requests of operations the
 * program carries out itself.  The completion calls of request.c hand them
 * here at the points where the standard runs the program's callbacks.
 */
#ifndef SRC_GREQUEST_H
#define SRC_GREQUEST_H

#include <mpi.h>

struct request;

/* The query callback of a complete generalized request, into status (a
 * scratch status for MPI_STATUS_IGNORE); returns what it returns. */
int greq_query(struct request *r, MPI_Status *status);

/* A complete one is done with: run the free callback and release it;
 * returns the callback's error code. */
int greq_free(struct request *r);

/* MPI_Request_free: greq_free if complete, else the free callback waits for
 * MPI_Grequest_complete (the handle stays valid for that call alone). */
int greq_user_free(struct request *r);

/* Whether the program freed r already (its handle serves only
 * MPI_Grequest_complete). */
int greq_freed(const struct request *r);

/* MPI_Cancel: the cancel callback, told whether r is complete. */
int greq_cancel(struct request *r);

/* MPI_Finalize: release what completed after being freed. */
void greq_fini(void);

#endif
