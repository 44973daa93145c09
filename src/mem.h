/*
 * Memory from MPI_Alloc_mem: shared memory that other ranks can map, so a
 * window created on it later takes the direct path.
 */
#ifndef SRC_MEM_H
#define SRC_MEM_H

#include <stddef.h>

#include "../shm/seg.h"

/* Where [addr, addr + len) lies in MPI_Alloc_mem memory: the segment's name
 * and the offset of addr in it.  0, or -ENOENT when it is not such memory. */
int mem_find(const void *addr, size_t len, char name[SHM_NAME_MAX], size_t *offset);

/* Free everything still allocated (MPI_Finalize). */
void mem_fini(void);

#endif
