/*
 * Memory allocation kinds (MPI 4.1, section 11.4.3): the kinds of memory a
 * program may hand to MPI calls, named by the info key
 * mpi_memory_alloc_kinds.  shmpi supports the two kinds every MPI must:
 * "system" (memory of the system's allocators, malloc and the stack) and
 * "mpi" (MPI's own: MPI_Alloc_mem, MPI_Win_allocate and
 * MPI_Win_allocate_shared, the restrictors alloc_mem, win_allocate and
 * win_allocate_shared).  A set of kinds is a bit mask.
 */
#ifndef SRC_MEMKINDS_H
#define SRC_MEMKINDS_H

#include <stddef.h>

enum {
	MEMKIND_SYSTEM = 1u << 0,
	MEMKIND_MPI_ALLOC_MEM = 1u << 1,
	MEMKIND_MPI_WIN_ALLOCATE = 1u << 2,
	MEMKIND_MPI_WIN_ALLOCATE_SHARED = 1u << 3,
	MEMKIND_MPI = MEMKIND_MPI_ALLOC_MEM | MEMKIND_MPI_WIN_ALLOCATE |
		      MEMKIND_MPI_WIN_ALLOCATE_SHARED,
	/* what the library provides when nobody asks (the World model) */
	MEMKIND_DEFAULT = MEMKIND_SYSTEM | MEMKIND_MPI,
	/* a set somebody asked for (a session's), maybe empty */
	MEMKIND_GIVEN = 1u << 8,
};

/* The kinds of a set as kept in a group: 0 is the default. */
static inline unsigned memkinds_of(unsigned kept)
{
	return kept ? kept & ~(unsigned)MEMKIND_GIVEN : MEMKIND_DEFAULT;
}

/* The kinds of a value of mpi_memory_alloc_kinds that shmpi supports
 * ("kind[:restrictor],..."); the others are left out. */
unsigned memkinds_parse(const char *value);

/* The value that says kinds: "system,mpi", "mpi:alloc_mem", ... ("" for
 * none), in out (at least MEMKINDS_MAX bytes). */
#define MEMKINDS_MAX 96
void memkinds_format(unsigned kinds, char *out, size_t len);

#endif
