/*
 * Partitioned point-to-point communication (MPI 4.1, chapter 4): the
 * requests of MPI_Psend_init and MPI_Precv_init, which request.c starts
 * (MPI_Start, MPI_Startall), completes and frees like other persistent
 * requests.  The protocol is at the top of part.c.
 */
#ifndef SRC_PART_H
#define SRC_PART_H

#include "request.h"

/* MPI_Init: the packet handlers and the engine's hook. */
void part_init(void);

/* Whether r is a partitioned request. */
static inline int part_is(const struct request *r)
{
	return r->kind == REQ_PSEND || r->kind == REQ_PRECV;
}

/* Start a round of r (inactive, partitioned). */
void part_start(struct request *r);

#endif
