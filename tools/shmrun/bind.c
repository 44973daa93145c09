/*
 * --bind-to and --map-by: where each rank may run, planned once before any
 * rank exists and applied by each child before exec (spawn.c,
 * sched_setaffinity).  More ranks than CPUs are not bound, which needs no
 * topology; any other plan is made by the hwloc module (hw.h, hw_mod.c,
 * where the policies are described), loaded only then.  The ranks learn the
 * policy applied from SHMPI_BIND_TO; what they really got they find out
 * themselves (--report-bindings).
 */
#include <errno.h>
#include <stdlib.h>

#include "../../shm/knob.h"
#include "hw.h"
#include "shmrun.h"

/* What the ranks are told, indexed by enum shm_knob_bind. */
static const char *const bind_env[] = {
	[SHM_BIND_AUTO] = "SHMPI_BIND_TO=auto",
	[SHM_BIND_NONE] = "SHMPI_BIND_TO=none",
	[SHM_BIND_CORE] = "SHMPI_BIND_TO=core",
	[SHM_BIND_HWTHREAD] = "SHMPI_BIND_TO=hwthread",
	[SHM_BIND_L3CACHE] = "SHMPI_BIND_TO=l3cache",
	[SHM_BIND_NUMA] = "SHMPI_BIND_TO=numa",
	[SHM_BIND_SOCKET] = "SHMPI_BIND_TO=socket",
};

int run_bind_plan(struct run_opts *o)
{
	const struct run_hw_ops *hw;
	long policy = o->bind_to;
	cpu_set_t *cpus, mine;
	int rc;

	/* more ranks than CPUs is more than cores: no binding, and no need to
	 * ask hwloc (loading it and reading the machine take milliseconds) */
	if (policy == SHM_BIND_AUTO && sched_getaffinity(0, sizeof(mine), &mine) == 0 &&
	    o->nranks > CPU_COUNT(&mine))
		policy = SHM_BIND_NONE;
	if (policy == SHM_BIND_NONE)
		return run_opts_setenv(o, bind_env[policy]);
	rc = run_hw_get(&hw);
	if (rc < 0)
		return rc;
	cpus = calloc((size_t)o->nranks, sizeof(*cpus));
	if (!cpus)
		return -ENOMEM;
	rc = hw->bind_plan(&policy, o->map_by, (int)o->nranks, cpus, run_msg);
	if (rc == 0)
		rc = run_opts_setenv(o, bind_env[policy]);
	if (rc < 0 || policy == SHM_BIND_NONE) {
		free(cpus);
		return rc;
	}
	o->bind_cpus = cpus;
	return 0;
}
