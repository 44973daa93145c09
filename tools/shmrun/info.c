/*
 * shmrun --info: what a job would run on and with.  The machine as hwloc
 * sees it (packages, NUMA nodes, caches, cores, hardware threads), shmpi's
 * version and build, and every knob of the one table (shm/knob.h) with the
 * value shmrun's environment gives it and its default.
 */
#include <hwloc.h>
#include <stdio.h>
#include <string.h>

#include "../../shm/knob.h"
#include "shmrun.h"

#ifndef SHMPI_BUILD_CC
#define SHMPI_BUILD_CC "unknown"
#endif
#ifndef SHMPI_BUILD_SANITIZE
#define SHMPI_BUILD_SANITIZE ""
#endif

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

static int info_topology(void)
{
	hwloc_topology_t topo;

	if (hwloc_topology_init(&topo) < 0 || hwloc_topology_load(topo) < 0) {
		run_msg("hwloc cannot read this machine's topology");
		return -1;
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

static void info_knobs(void)
{
	static const char *const readers[] = { "ranks", "shmrun", "shmcc" };
	static const char *const writable[] = {
		[SHM_KNOB_FIXED] = "",
		[SHM_KNOB_ANYTIME] = "; MPI_T writable",
		[SHM_KNOB_BEFORE_INIT] = "; MPI_T writable before MPI_Init",
	};
	char value[128], what[96];

	printf("knobs (environment variables; value as shmrun's environment has it):\n");
	for (int k = 0; k < SHM_KNOB_COUNT; k++) {
		const struct shm_knob *kn = &shm_knobs[k];
		const char *text = shm_knob_text((enum shm_knob_id)k);
		long v;
		int n = 0;

		if (shm_knob_get((enum shm_knob_id)k, &v) < 0)
			snprintf(value, sizeof(value), "%s (MALFORMED)", text);
		else
			snprintf(value, sizeof(value), "%s", text);
		shm_knob_describe((enum shm_knob_id)k, what, sizeof(what));
		printf("  %s=%s (default %s; %s; read by", kn->name, value, kn->def, what);
		for (unsigned i = 0; i < sizeof(readers) / sizeof(readers[0]); i++) {
			if (kn->where & (1u << i))
				printf("%s %s", n++ ? "," : "", readers[i]);
		}
		printf("%s)\n      %s\n", writable[kn->writable], kn->help);
	}
}

int run_info(void)
{
	printf("shmrun (shmpi %s)\n", SHMPI_VERSION);
	printf("build: cc %s, sanitizers %s, hwloc API %u.%u (library %u.%u)\n",
	       SHMPI_BUILD_CC, SHMPI_BUILD_SANITIZE[0] ? SHMPI_BUILD_SANITIZE : "none",
	       HWLOC_API_VERSION >> 16, (HWLOC_API_VERSION >> 8) & 0xff,
	       hwloc_get_api_version() >> 16, (hwloc_get_api_version() >> 8) & 0xff);
	if (info_topology() < 0)
		return RUN_EXIT_USAGE;
	info_knobs();
	return 0;
}
