/*
 * Collective operations the rest of the library uses itself.
 */
#ifndef SRC_COLL_H
#define SRC_COLL_H

#include "state.h"

/* Every rank of the job, with the progress engine running while waiting. */
void coll_world_barrier(enum call_id call);

#endif
