/*
 * Memory allocation kinds (memkinds.h): reading and writing the values of
 * mpi_memory_alloc_kinds.
 */
#include <stdio.h>
#include <string.h>

#include "memkinds.h"

static const struct {
	const char *name;
	unsigned kinds;
} memkinds_names[] = {
	{ "system", MEMKIND_SYSTEM },
	{ "mpi", MEMKIND_MPI },
	{ "mpi:alloc_mem", MEMKIND_MPI_ALLOC_MEM },
	{ "mpi:win_allocate", MEMKIND_MPI_WIN_ALLOCATE },
	{ "mpi:win_allocate_shared", MEMKIND_MPI_WIN_ALLOCATE_SHARED },
};

#define MEMKINDS_NNAMES (sizeof(memkinds_names) / sizeof(memkinds_names[0]))

unsigned memkinds_parse(const char *value)
{
	unsigned kinds = 0;

	while (value && *value) {
		size_t len = strcspn(value, ",");

		for (size_t k = 0; k < MEMKINDS_NNAMES; k++)
			if (strlen(memkinds_names[k].name) == len &&
			    strncmp(value, memkinds_names[k].name, len) == 0)
				kinds |= memkinds_names[k].kinds;
		value += len + (value[len] == ',');
	}
	return kinds;
}

/* Each name whose kinds are all in the set and not said already ("mpi"
 * before its restrictors). */
void memkinds_format(unsigned kinds, char *out, size_t len)
{
	unsigned said = 0;
	size_t at = 0;

	out[0] = '\0';
	for (size_t k = 0; k < MEMKINDS_NNAMES; k++) {
		unsigned these = memkinds_names[k].kinds;

		if ((kinds & these) != these || (said & these) == these)
			continue;
		at += (size_t)snprintf(out + at, at < len ? len - at : 0, "%s%s",
				       at ? "," : "", memkinds_names[k].name);
		said |= these;
	}
}
