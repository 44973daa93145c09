/*
 * shmrun's hwloc module (hw.h): built as shmpi/shmrun-hw.so, linked with
 * libhwloc, loaded by run_hw_get() when a job binds its ranks or shmrun
 * --info asks for the machine.  It calls nothing of shmrun's but the
 * message function it is handed.
 *
 * --bind-to and --map-by: where each rank may run, planned once before any
 * rank exists and applied by each child before exec (spawn.c,
 * sched_setaffinity).  Ranks are dealt round-robin over the --map-by objects
 * (rank r to object r mod K); within its object a rank is bound to the next
 * --bind-to object that overlaps it (an ancestor when the bind object is the
 * larger one), so --map-by socket --bind-to core alternates sockets and
 * fills each one core by core.  Only shmrun's own CPUs count: a taskset or
 * cgroup around shmrun holds its ranks too.  Objects without CPUs
 * (memory-only NUMA nodes) take no ranks.  A policy the machine cannot serve
 * (it has no such object) is an error, never a quiet fallback.
 */
#include <errno.h>
#include <hwloc.h>
#include <hwloc/glibc-sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../shm/knob.h"
#include "hw.h"

/* Indexed by enum shm_knob_bind. */
static const struct {
	hwloc_obj_type_t type;
	const char *name;	/* as --bind-to takes it */
	const char *what;	/* for messages */
} bind_objs[] = {
	[SHM_BIND_AUTO] = { HWLOC_OBJ_CORE, "auto", "auto" },
	[SHM_BIND_NONE] = { HWLOC_OBJ_MACHINE, "none", "none" },
	[SHM_BIND_CORE] = { HWLOC_OBJ_CORE, "core", "core" },
	[SHM_BIND_HWTHREAD] = { HWLOC_OBJ_PU, "hwthread", "hardware thread" },
	[SHM_BIND_L3CACHE] = { HWLOC_OBJ_L3CACHE, "l3cache", "L3 cache" },
	[SHM_BIND_NUMA] = { HWLOC_OBJ_NUMANODE, "numa", "NUMA node" },
	[SHM_BIND_SOCKET] = { HWLOC_OBJ_PACKAGE, "socket", "socket" },
};

/* The objects of a type that have CPUs, in logical order; -ENOENT if none. */
static int bind_objects(hwloc_topology_t topo, hwloc_obj_type_t type,
			hwloc_obj_t **objsp, int *np)
{
	int total = hwloc_get_nbobjs_by_type(topo, type), n = 0;
	hwloc_obj_t *objs;

	if (total <= 0)
		return -ENOENT;
	objs = calloc((size_t)total, sizeof(*objs));
	if (!objs)
		return -ENOMEM;
	for (int i = 0; i < total; i++) {
		hwloc_obj_t o = hwloc_get_obj_by_type(topo, type, (unsigned)i);

		if (o && o->cpuset && !hwloc_bitmap_iszero(o->cpuset))
			objs[n++] = o;
	}
	if (n == 0) {
		free(objs);
		return -ENOENT;
	}
	*objsp = objs;
	*np = n;
	return 0;
}

/* Rank r's bind object: the ((r / nmap) mod k)-th of the k bind objects
 * that overlap its map object. */
static hwloc_obj_t bind_pick(hwloc_obj_t *bind, int nbind, hwloc_obj_t *map, int nmap,
			     int r)
{
	hwloc_obj_t m = map[r % nmap];
	int k = 0, want;

	for (int i = 0; i < nbind; i++)
		k += hwloc_bitmap_intersects(bind[i]->cpuset, m->cpuset);
	if (k == 0)
		return NULL;
	want = (r / nmap) % k;
	for (int i = 0; i < nbind; i++) {
		if (hwloc_bitmap_intersects(bind[i]->cpuset, m->cpuset) && want-- == 0)
			return bind[i];
	}
	return NULL;
}

static int bind_fill(hwloc_topology_t topo, long policy, long map_policy,
		     int nranks, cpu_set_t *cpus, run_hw_msg_fn *msg)
{
	hwloc_obj_t *bind, *map;
	int nbind, nmap, rc;

	rc = bind_objects(topo, bind_objs[policy].type, &bind, &nbind);
	if (rc < 0) {
		if (rc == -ENOENT)
			msg("--bind-to %s: this machine has no %s (see shmrun --info)",
				bind_objs[policy].name, bind_objs[policy].what);
		return rc;
	}
	rc = bind_objects(topo, bind_objs[map_policy].type, &map, &nmap);
	if (rc < 0) {
		if (rc == -ENOENT)
			msg("--map-by %s: this machine has no %s (see shmrun --info)",
				bind_objs[map_policy].name, bind_objs[map_policy].what);
		goto out_bind;
	}
	for (int r = 0; r < nranks; r++) {
		hwloc_obj_t o = bind_pick(bind, nbind, map, nmap, r);

		if (!o) {
			msg("--map-by %s --bind-to %s: no %s overlaps a %s",
				bind_objs[map_policy].name, bind_objs[policy].name,
				bind_objs[policy].what, bind_objs[map_policy].what);
			rc = -ENOENT;
			break;
		}
		hwloc_cpuset_to_glibc_sched_affinity(topo, o->cpuset, &cpus[r], sizeof(cpus[r]));
	}
	free(map);
out_bind:
	free(bind);
	return rc;
}

/* The topology within shmrun's own CPUs (taskset, cgroups): the ranks are
 * bound only within them. */
static int bind_topology(hwloc_topology_t *topop, run_hw_msg_fn *msg)
{
	hwloc_topology_t topo;
	hwloc_bitmap_t mine;
	int rc = -EIO;

	if (hwloc_topology_init(&topo) < 0)
		return -ENOMEM;
	mine = hwloc_bitmap_alloc();
	if (mine && hwloc_topology_load(topo) == 0 &&
	    hwloc_get_cpubind(topo, mine, HWLOC_CPUBIND_PROCESS) == 0 &&
	    hwloc_topology_restrict(topo, mine, 0) == 0)
		rc = 0;
	hwloc_bitmap_free(mine);
	if (rc < 0) {
		msg("hwloc cannot read this machine's topology");
		hwloc_topology_destroy(topo);
		return rc;
	}
	*topop = topo;
	return 0;
}

static int hw_bind_plan(long *policyp, long map_by, int nranks, cpu_set_t *cpus,
			run_hw_msg_fn *msg)
{
	long policy = *policyp, map_policy;
	hwloc_topology_t topo;
	int rc;

	rc = bind_topology(&topo, msg);
	if (rc < 0)
		return rc;
	if (policy == SHM_BIND_AUTO)
		policy = nranks <= hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE) ?
			 SHM_BIND_CORE : SHM_BIND_NONE;
	/* SHMPI_MAP_BY's choices are those of SHMPI_BIND_TO without none */
	map_policy = map_by == 0 ? policy : map_by + 1;
	if (policy != SHM_BIND_NONE)
		rc = bind_fill(topo, policy, map_policy, nranks, cpus, msg);
	if (rc == 0)
		*policyp = policy;
	hwloc_topology_destroy(topo);
	return rc;
}

/* shmrun --info: the machine as hwloc sees it (packages, NUMA nodes,
 * caches, cores, hardware threads). */
static void info_obj(hwloc_topology_t topo, hwloc_obj_t obj, int depth)
{
	char type[64], attr[128], cpus[128];

	hwloc_obj_type_snprintf(type, sizeof(type), obj, 1);
	hwloc_obj_attr_snprintf(attr, sizeof(attr), obj, ", ", 0);
	if (obj->cpuset)
		hwloc_bitmap_list_snprintf(cpus, sizeof(cpus), obj->cpuset);
	else
		cpus[0] = '\0';
	printf("  %*s%s L#%u", 2 * depth, "", type, obj->logical_index);
	/* the OS numbers CPUs, NUMA nodes and packages, not caches */
	if (obj->os_index != HWLOC_UNKNOWN_INDEX &&
	    (obj->type == HWLOC_OBJ_PU || obj->type == HWLOC_OBJ_NUMANODE ||
	     obj->type == HWLOC_OBJ_PACKAGE))
		printf(" P#%u", obj->os_index);
	if (attr[0])
		printf(" (%s)", attr);
	if (cpus[0])
		printf(": cpus %s", cpus);
	putchar('\n');
	/* NUMA nodes hang off the tree as memory children in hwloc 2 */
	for (hwloc_obj_t c = obj->memory_first_child; c; c = c->next_sibling)
		info_obj(topo, c, depth + 1);
	for (hwloc_obj_t c = obj->first_child; c; c = c->next_sibling)
		info_obj(topo, c, depth + 1);
}

static int hw_print_topology(run_hw_msg_fn *msg)
{
	hwloc_topology_t topo;

	if (hwloc_topology_init(&topo) < 0 || hwloc_topology_load(topo) < 0) {
		msg("hwloc cannot read this machine's topology");
		return -EIO;
	}
	printf("machine: %d package(s), %d NUMA node(s), %d core(s), "
	       "%d hardware thread(s)\n",
	       hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE),
	       hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE),
	       hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE),
	       hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU));
	info_obj(topo, hwloc_get_root_obj(topo), 0);
	hwloc_topology_destroy(topo);
	return 0;
}

static unsigned hw_api_built(void)
{
	return HWLOC_API_VERSION;
}

static unsigned hw_api_library(void)
{
	return hwloc_get_api_version();
}

__attribute__((visibility("default"))) const struct run_hw_ops *shmrun_hw_ops(void)
{
	static const struct run_hw_ops ops = {
		.abi = RUN_HW_ABI,
		.bind_plan = hw_bind_plan,
		.print_topology = hw_print_topology,
		.api_built = hw_api_built,
		.api_library = hw_api_library,
	};

	return &ops;
}
