/*
 * MPI_Comm_split_type with the hardware split types of MPI-4.0, from where
 * each process may really run (sched_getaffinity) and hwloc's topology:
 *
 *  - MPI_COMM_TYPE_HW_GUIDED: the info key mpi_hw_resource_type names an
 *    hwloc object type ("Package", "NUMANode", "L3Cache", "Core", ...; or
 *    "mpi_shared_memory", the same as MPI_COMM_TYPE_SHARED); the processes
 *    restricted to the same object of that type form a communicator.  A
 *    process whose CPUs span several such objects, or that names no type
 *    we know (or gives no info), gets MPI_COMM_NULL.
 *  - MPI_COMM_TYPE_HW_UNGUIDED: the first level of the hierarchy, from the
 *    top, at which the processes fall into more than one object: each
 *    object's processes form a communicator, a strict subset of comm.
 *    Processes spanning several objects of that level, and all of them when
 *    no level splits comm, get MPI_COMM_NULL.
 *  - MPI_COMM_TYPE_RESOURCE_GUIDED (MPI 4.1): as HW_GUIDED, or, with the
 *    info key mpi_pset_name, by process set: the members of "mpi://WORLD"
 *    form one communicator, those of "mpi://SELF" one each; a process
 *    set of no other name gives MPI_COMM_NULL.
 * A type is named as hwloc names it, or as the URI "hwloc://Type".
 * Each new communicator's info has mpi_hw_resource_type set to its type
 * (mpi_pset_name to its process set).
 * MPI_Get_hw_resource_info (MPI 4.1) tells the same facts ahead of a
 * split: for each type of the hierarchy (and mpi_shared_memory), "true"
 * when this process is restricted to one object of it, the condition on
 * which a guided split of that type gives it a communicator, else "false".
 * The topology comes from the hwloc module (hw.h), loaded on the first such
 * call; a module that cannot be loaded is an MPI_ERR_OTHER saying why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "coll.h"
#include "comm.h"
#include "comm_hw.h"
#include "datatype.h"
#include "errhandler.h"
#include "hw.h"
#include "info.h"
#include "runtime.h"

#define HW_SHARED_MEMORY "mpi_shared_memory"
#define HW_URI "hwloc://"

/* This process's object at each level (MPI_UNDEFINED: it spans several)
 * and the module's operations; MPI_ERR_OTHER raised on comm (why said). */
static int hw_mine(MPI_Comm comm, const char *call, const struct hw_ops **hw,
		   int mine[HW_NLEVELS])
{
	if (hw_get(hw) < 0)
		return err_comm(comm, call, MPI_ERR_OTHER, NULL,
				"the hardware resource types need hwloc%s", hw_error());
	if ((*hw)->colors(mine) < 0)
		return err_comm(comm, call, MPI_ERR_OTHER, NULL,
				"cannot read this process's binding or the topology");
	for (int l = 0; l < HW_NLEVELS; l++)
		mine[l] = mine[l] < 0 ? MPI_UNDEFINED : mine[l];
	return MPI_SUCCESS;
}

/* HW_UNGUIDED: the first level where some process has an object and not
 * every process has the same one; -1 when no level splits comm. */
static int hw_unguided_level(const int *all, int size)
{
	for (int l = 0; l < HW_NLEVELS; l++) {
		int some = 0, same = 1;

		for (int r = 0; r < size; r++) {
			some |= all[r * HW_NLEVELS + l] != MPI_UNDEFINED;
			same &= all[r * HW_NLEVELS + l] == all[l];
		}
		if (some && !same)
			return l;
	}
	return -1;
}

/* The level an mpi_hw_resource_type value names, -1 for unknown ones, or
 * HW_NLEVELS for mpi_shared_memory (the whole job, like SHARED). */
static int hw_guided_level(const struct hw_ops *hw, const struct info *info)
{
	const char *v = info ? info_lookup(info, "mpi_hw_resource_type") : NULL;

	if (!v)
		return -1;
	if (strncmp(v, HW_URI, strlen(HW_URI)) == 0)
		v += strlen(HW_URI);
	if (strcmp(v, HW_SHARED_MEMORY) == 0)
		return HW_NLEVELS;
	return hw->level(v);
}

/* Give c the info key naming its type. */
static int hw_name_comm(struct comm *c, const char *key, const char *type)
{
	if (!c->info && !(c->info = info_dup_internal(&(struct info){ 0 })))
		return MPI_ERR_NO_MEM;
	return info_put(c->info, key, type) < 0 ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

/* RESOURCE_GUIDED by process set: this process's color for the set named
 * pset (the two of session.c), MPI_UNDEFINED for any other name. */
static int hw_pset_color(const char *pset)
{
	if (strcmp(pset, "mpi://WORLD") == 0)
		return 0;
	if (strcmp(pset, "mpi://SELF") == 0)
		return rt.rank;
	return MPI_UNDEFINED;
}

/* The split itself, collective over p: this process's color, its new
 * communicator's info key name_key set to type. */
static int hw_split_out(MPI_Comm comm, struct comm *p, int color, int key,
			const char *name_key, const char *type, MPI_Comm *newcomm)
{
	struct comm *c = NULL;
	int rc = comm_split_internal(p, CALL_COMM_CREATE, color, key, &c);

	if (rc == MPI_SUCCESS && c)
		rc = hw_name_comm(c, name_key, type);
	if (rc != MPI_SUCCESS) {
		if (c)
			comm_unref(c);
		return err_comm(comm, "MPI_Comm_split_type", rc, NULL,
				"cannot create the communicator");
	}
	return comm_out(p, c, newcomm, 0);
}

int comm_hw_split_type(MPI_Comm comm, struct comm *p, int split_type, int key,
		       const struct info *info, MPI_Comm *newcomm)
{
	static const char *const call = "MPI_Comm_split_type";
	const char *pset = info ? info_lookup(info, "mpi_pset_name") : NULL;
	int mine[HW_NLEVELS], level, color, rc;
	const char *type = HW_SHARED_MEMORY;
	const struct hw_ops *hw;
	char *all;

	if (split_type == MPI_COMM_TYPE_RESOURCE_GUIDED && pset)
		return hw_split_out(comm, p, hw_pset_color(pset), key, "mpi_pset_name", pset,
				    newcomm);
	rc = hw_mine(comm, call, &hw, mine);
	if (rc != MPI_SUCCESS)
		return rc;
	if (split_type != MPI_COMM_TYPE_HW_UNGUIDED) {
		level = hw_guided_level(hw, info);
		color = level < 0 ? MPI_UNDEFINED : level == HW_NLEVELS ? 0 : mine[level];
	} else {
		/* every member must choose the same level */
		all = coll_allgather_packed(p, CALL_COMM_CREATE, mine, HW_NLEVELS,
					    dt_get(MPI_INT), sizeof(mine));
		if (!all)
			return err_comm(comm, call, MPI_ERR_NO_MEM, NULL,
					"out of memory");
		level = hw_unguided_level((const int *)(void *)all, p->size);
		free(all);
		color = level < 0 ? MPI_UNDEFINED : mine[level];
	}
	if (level >= 0 && level < HW_NLEVELS)
		type = hw->level_name((enum hw_level)level);
	return hw_split_out(comm, p, color, key, "mpi_hw_resource_type", type, newcomm);
}

API(int, Get_hw_resource_info, (MPI_Info *hw_info))
{
	static const char *const call = "MPI_Get_hw_resource_info";
	const struct hw_ops *hw;
	int mine[HW_NLEVELS], rc, l;
	struct info *i;

	runtime_check(call);
	if (!hw_info)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG, "hw_info", "is NULL");
	rc = hw_mine(MPI_COMM_WORLD, call, &hw, mine);
	if (rc != MPI_SUCCESS)
		return rc;
	i = info_alloc(1);
	rc = i && info_put(i, HW_SHARED_MEMORY, "true") == 0 ? 0 : -1;
	for (l = 0; rc == 0 && l < HW_NLEVELS; l++) {
		char uri[64];

		snprintf(uri, sizeof(uri), HW_URI "%s", hw->level_name((enum hw_level)l));
		rc = info_put(i, uri, mine[l] == MPI_UNDEFINED ? "false" : "true");
	}
	if (rc < 0) {
		info_unref(i);
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	}
	*hw_info = i->handle;
	return MPI_SUCCESS;
}
