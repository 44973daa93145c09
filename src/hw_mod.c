/*
 * The hwloc module of libshmpi (hw.h): built as shmpi/hw.so, linked with
 * libhwloc, loaded by hw_get() on first need.  It calls nothing of
 * libshmpi's.
 *
 * The binding report (SHMRUN_REPORT_BINDINGS=1, shmrun --report-bindings):
 * in MPI_Init each rank says where it really may run -- what
 * sched_getaffinity returns, not what shmrun planned -- and which hwloc
 * objects have exactly that CPU set, from the largest to the smallest:
 *
 *   shmpi: rank 1 runs on cpus 1 = L2Cache L#1, Core L#1, PU L#1
 *   shmpi: rank 0 runs on cpus 0-1 = Machine L#0, Package L#0, ...
 *
 * The colors of the hardware split types (comm_hw.c): at each level, the
 * object that holds every CPU the process may run on.  The topology is read
 * once per process, on the first split.
 */
#include <errno.h>
#include <hwloc.h>
#include <hwloc/glibc-sched.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "hw.h"

/* The object types a rank can be bound to, and the ones around them. */
static const hwloc_obj_type_t hw_report_types[] = {
	HWLOC_OBJ_MACHINE, HWLOC_OBJ_PACKAGE, HWLOC_OBJ_NUMANODE, HWLOC_OBJ_L3CACHE,
	HWLOC_OBJ_L2CACHE, HWLOC_OBJ_CORE, HWLOC_OBJ_PU,
};

/* Indexed by enum hw_level. */
static const hwloc_obj_type_t hw_levels[HW_NLEVELS] = {
	[HW_PACKAGE] = HWLOC_OBJ_PACKAGE, [HW_NUMANODE] = HWLOC_OBJ_NUMANODE,
	[HW_L3CACHE] = HWLOC_OBJ_L3CACHE, [HW_L2CACHE] = HWLOC_OBJ_L2CACHE,
	[HW_L1CACHE] = HWLOC_OBJ_L1CACHE, [HW_CORE] = HWLOC_OBJ_CORE, [HW_PU] = HWLOC_OBJ_PU,
};

/* The objects whose CPU set is exactly set, ", "-separated, into buf. */
static void hw_report_objects(hwloc_topology_t topo, hwloc_const_cpuset_t set,
			      char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t t = 0; t < sizeof(hw_report_types) / sizeof(hw_report_types[0]); t++) {
		hwloc_obj_t o = NULL;

		while ((o = hwloc_get_next_obj_by_type(topo, hw_report_types[t], o))) {
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

static int hw_report(int rank)
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
	hw_report_objects(topo, set, objs, sizeof(objs));
	fprintf(stderr, "shmpi: rank %d runs on cpus %s = %s\n", rank, cpus, objs);
	fflush(stderr);
	hwloc_bitmap_free(set);
	rc = 0;
out_topo:
	hwloc_topology_destroy(topo);
	return rc;
}

static hwloc_topology_t hw_topo;

static int hw_topology(void)
{
	if (hw_topo)
		return 0;
	if (hwloc_topology_init(&hw_topo) < 0)
		return -ENOMEM;
	if (hwloc_topology_load(hw_topo) < 0) {
		hwloc_topology_destroy(hw_topo);
		hw_topo = NULL;
		return -EIO;
	}
	return 0;
}

/* The logical index of the object of type t that holds every CPU of set,
 * or -1 when set spans several (or none holds it). */
static int hw_color(hwloc_const_cpuset_t set, hwloc_obj_type_t t)
{
	hwloc_obj_t o = NULL;

	while ((o = hwloc_get_next_obj_by_type(hw_topo, t, o))) {
		if (o->cpuset && !hwloc_bitmap_iszero(o->cpuset) &&
		    hwloc_bitmap_isincluded(set, o->cpuset))
			return (int)o->logical_index;
	}
	return -1;
}

static int hw_colors(int colors[HW_NLEVELS])
{
	hwloc_bitmap_t set;
	cpu_set_t mask;
	int rc;

	if (sched_getaffinity(0, sizeof(mask), &mask) < 0)
		return -errno;
	rc = hw_topology();
	if (rc < 0)
		return rc;
	set = hwloc_bitmap_alloc();
	if (!set)
		return -ENOMEM;
	hwloc_cpuset_from_glibc_sched_affinity(hw_topo, set, &mask, sizeof(mask));
	for (int l = 0; l < HW_NLEVELS; l++)
		colors[l] = hw_color(set, hw_levels[l]);
	hwloc_bitmap_free(set);
	return 0;
}

static int hw_level(const char *type)
{
	hwloc_obj_type_t t;

	if (hwloc_type_sscanf(type, &t, NULL, 0) < 0)
		return -1;
	for (int l = 0; l < HW_NLEVELS; l++) {
		if (hw_levels[l] == t)
			return l;
	}
	return -1;
}

static const char *hw_level_name(enum hw_level level)
{
	return hwloc_obj_type_string(hw_levels[level]);
}

__attribute__((visibility("default"))) const struct hw_ops *shmpi_hw_ops(void)
{
	static const struct hw_ops ops = {
		.abi = HW_ABI,
		.report = hw_report,
		.colors = hw_colors,
		.level = hw_level,
		.level_name = hw_level_name,
	};

	return &ops;
}
