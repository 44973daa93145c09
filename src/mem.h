/*
 * Memory from MPI_Alloc_mem: shared memory that other ranks can map, so a
 * window created on it later takes the direct path; and private memory of
 * MPI_Win_create made such memory for the window's life.
 */
#ifndef SRC_MEM_H
#define SRC_MEM_H

#include <stddef.h>

#include "../shm/seg.h"

/*
 * Where [addr, addr + len) lies in memory shmpi shares: the name of an
 * MPI_Alloc_mem segment (starting with '/', any rank can map it), or the
 * key of a window's segment (other members of that window have it mapped
 * under the same key), and the offset of addr in it.  0, or -ENOENT when
 * it is not such memory.
 */
int mem_find(const void *addr, size_t len, char name[SHM_NAME_MAX], size_t *offset);

/* A window's segment, mapped here at base, is known under key from now on
 * (until mem_unshare); mem_shared_base finds this process's mapping. */
int mem_share(const char *key, void *base, size_t size);
void mem_unshare(const char *key);
void *mem_shared_base(const char *key);

/*
 * MPI_Win_create and MPI_Win_attach on private memory (mem.c says how): 1
 * when [base, base + size) now lies in shared memory that mem_find knows, the caller
 * holding a reference (dropped with mem_adopt_drop(base)); 0 when the
 * memory is left as it was: not whole pages of private anonymous memory,
 * larger than max, shared already, or no shared memory to be had.
 */
int mem_adopt(void *base, size_t size, size_t max);
void mem_adopt_drop(void *base);

/* Free everything still allocated, and give adopted pages back
 * (MPI_Finalize). */
void mem_fini(void);

#endif
