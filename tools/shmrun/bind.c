/*
 * --bind-to and --map-by: where each rank may run, planned once with hwloc
 * before any rank exists and applied by each child before exec (spawn.c,
 * sched_setaffinity).
 *
 * Ranks are dealt round-robin over the --map-by objects (rank r to object
 * r mod K); within its object a rank is bound to the next --bind-to object
 * that overlaps it (an ancestor when the bind object is the larger one), so
 * --map-by socket --bind-to core alternates sockets and fills each one core
 * by core.  Only shmrun's own CPUs count: a taskset or cgroup around shmrun
 * holds its ranks too.  Objects without CPUs (memory-only NUMA nodes) take
 * no ranks.  A policy the machine cannot serve (it has no such object) is an error, never
 * a quiet fallback.  The ranks learn the policy applied from SHMPI_BIND_TO;
 * what they really got they find out themselves (--report-bindings).
 */
#include <errno.h>
#include <hwloc.h>
#include <hwloc/glibc-sched.h>
#include <stdlib.h>

#include "../../shm/knob.h"
#include "shmrun.h"

/* Indexed by enum shm_knob_bind. */
static const struct {
	hwloc_obj_type_t type;
	const char *name;	/* as --bind-to takes it */
	const char *what;	/* for messages */
	const char *env;	/* what the ranks are told */
} bind_objs[] = {
	[SHM_BIND_AUTO] = { HWLOC_OBJ_CORE, "auto", "auto", "SHMPI_BIND_TO=auto" },
	[SHM_BIND_NONE] = { HWLOC_OBJ_MACHINE, "none", "none", "SHMPI_BIND_TO=none" },
	[SHM_BIND_CORE] = { HWLOC_OBJ_CORE, "core", "core", "SHMPI_BIND_TO=core" },
	[SHM_BIND_HWTHREAD] = { HWLOC_OBJ_PU, "hwthread", "hardware thread",
				"SHMPI_BIND_TO=hwthread" },
	[SHM_BIND_L3CACHE] = { HWLOC_OBJ_L3CACHE, "l3cache", "L3 cache",
			       "SHMPI_BIND_TO=l3cache" },
	[SHM_BIND_NUMA] = { HWLOC_OBJ_NUMANODE, "numa", "NUMA node", "SHMPI_BIND_TO=numa" },
	[SHM_BIND_SOCKET] = { HWLOC_OBJ_PACKAGE, "socket", "socket", "SHMPI_BIND_TO=socket" },
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
		     int nranks, cpu_set_t *cpus)
{
	hwloc_obj_t *bind, *map;
	int nbind, nmap, rc;

	rc = bind_objects(topo, bind_objs[policy].type, &bind, &nbind);
	if (rc < 0) {
		if (rc == -ENOENT)
			run_msg("--bind-to %s: this machine has no %s (see shmrun --info)",
				bind_objs[policy].name, bind_objs[policy].what);
		return rc;
	}
	rc = bind_objects(topo, bind_objs[map_policy].type, &map, &nmap);
	if (rc < 0) {
		if (rc == -ENOENT)
			run_msg("--map-by %s: this machine has no %s (see shmrun --info)",
				bind_objs[map_policy].name, bind_objs[map_policy].what);
		goto out_bind;
	}
	for (int r = 0; r < nranks; r++) {
		hwloc_obj_t o = bind_pick(bind, nbind, map, nmap, r);

		if (!o) {
			run_msg("--map-by %s --bind-to %s: no %s overlaps a %s",
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
static int bind_topology(hwloc_topology_t *topop)
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
		run_msg("hwloc cannot read this machine's topology");
		hwloc_topology_destroy(topo);
		return rc;
	}
	*topop = topo;
	return 0;
}

int run_bind_plan(struct run_opts *o)
{
	hwloc_topology_t topo;
	long policy = o->bind_to, map_policy;
	cpu_set_t *cpus = NULL, mine;
	int rc;

	/* more ranks than CPUs is more than cores: no binding, and no need to
	 * ask hwloc (it takes milliseconds) */
	if (policy == SHM_BIND_AUTO && sched_getaffinity(0, sizeof(mine), &mine) == 0 &&
	    o->nranks > CPU_COUNT(&mine))
		policy = SHM_BIND_NONE;
	if (policy == SHM_BIND_NONE)
		return run_opts_setenv(o, bind_objs[policy].env);
	rc = bind_topology(&topo);
	if (rc < 0)
		return rc;
	if (policy == SHM_BIND_AUTO)
		policy = o->nranks <= hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE) ?
			 SHM_BIND_CORE : SHM_BIND_NONE;
	/* SHMPI_MAP_BY's choices are those of SHMPI_BIND_TO without none */
	map_policy = o->map_by == 0 ? policy : o->map_by + 1;
	rc = run_opts_setenv(o, bind_objs[policy].env);
	if (rc < 0 || policy == SHM_BIND_NONE)
		goto out_topo;
	cpus = calloc((size_t)o->nranks, sizeof(*cpus));
	if (!cpus) {
		rc = -ENOMEM;
		goto out_topo;
	}
	rc = bind_fill(topo, policy, map_policy, (int)o->nranks, cpus);
	if (rc < 0) {
		free(cpus);
		goto out_topo;
	}
	o->bind_cpus = cpus;
out_topo:
	hwloc_topology_destroy(topo);
	return rc;
}
