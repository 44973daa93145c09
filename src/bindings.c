/*
 * SHMRUN_REPORT_BINDINGS=1 (shmrun --report-bindings): in MPI_Init each rank
 * says where it really may run -- what sched_getaffinity returns, not what
 * shmrun planned -- and which hwloc objects have exactly that CPU set, from
 * the largest to the smallest:
 *
 *   shmpi: rank 1 runs on cpus 1 = L2Cache L#1, Core L#1, PU L#1
 *   shmpi: rank 0 runs on cpus 0-1 = Machine L#0, Package L#0, ...
 *
 * hwloc reads the topology only when the report is asked for, so MPI_Init
 * stays quick otherwise.
 */
#include <errno.h>
#include <hwloc.h>
#include <hwloc/glibc-sched.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "bindings.h"

/* The object types a rank can be bound to, and the ones around them. */
static const hwloc_obj_type_t bindings_types[] = {
	HWLOC_OBJ_MACHINE, HWLOC_OBJ_PACKAGE, HWLOC_OBJ_NUMANODE, HWLOC_OBJ_L3CACHE,
	HWLOC_OBJ_L2CACHE, HWLOC_OBJ_CORE, HWLOC_OBJ_PU,
};

/* The objects whose CPU set is exactly set, ", "-separated, into buf. */
static void bindings_objects(hwloc_topology_t topo, hwloc_const_cpuset_t set,
			     char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t t = 0; t < sizeof(bindings_types) / sizeof(bindings_types[0]); t++) {
		hwloc_obj_t o = NULL;

		while ((o = hwloc_get_next_obj_by_type(topo, bindings_types[t], o))) {
			int w;

			if (!o->cpuset || !hwloc_bitmap_isequal(o->cpuset, set) || n >= len)
				continue;
			w = snprintf(buf + n, len - n, "%s%s L#%u", n ? ", " : "",
				     hwloc_obj_type_string(o->type), o->logical_index);
			n += w > 0 ? (size_t)w : 0;
		}
	}
	if (!buf[0])
		snprintf(buf, len, "no single hwloc object");
}

int bindings_report(int rank)
{
	char cpus[256], objs[512];
	hwloc_topology_t topo;
	hwloc_cpuset_t set;
	cpu_set_t mask;
	int rc = -ENOMEM;

	if (sched_getaffinity(0, sizeof(mask), &mask) < 0)
		return -errno;
	if (hwloc_topology_init(&topo) < 0)
		return -ENOMEM;
	if (hwloc_topology_load(topo) < 0) {
		rc = -EIO;
		goto out_topo;
	}
	set = hwloc_bitmap_alloc();
	if (!set)
		goto out_topo;
	hwloc_cpuset_from_glibc_sched_affinity(topo, set, &mask, sizeof(mask));
	hwloc_bitmap_list_snprintf(cpus, sizeof(cpus), set);
	bindings_objects(topo, set, objs, sizeof(objs));
	fprintf(stderr, "shmpi: rank %d runs on cpus %s = %s\n", rank, cpus, objs);
	fflush(stderr);
	hwloc_bitmap_free(set);
	rc = 0;
out_topo:
	hwloc_topology_destroy(topo);
	return rc;
}
