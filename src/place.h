/*
 * NUMA placement of the memory a rank owns: its portion of an allocated or
 * shared window and its MPI_Alloc_mem arena.
 */
#ifndef SRC_PLACE_H
#define SRC_PLACE_H

#include <stddef.h>

struct info;

/*
 * Place the whole pages that start in [base, base + len), owned by the
 * calling rank, as the info key shmpi_numa (else the knob SHMPI_NUMA) says:
 * owner (its NUMA node), interleave (over every node), local (where the
 * creator of the memory runs) or none (the kernel's choice).  Best effort:
 * an unknown value, or a kernel without NUMA, leaves the memory as it is.
 */
void place_portion(void *base, size_t len, const struct info *info);

#endif
