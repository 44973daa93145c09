/*
 * shmrun's use of hwloc, behind a module of its own.
 *
 * Only --bind-to/--map-by with something to bind, and --info, read the
 * topology; loading libhwloc (with libudev and libm behind it) for every
 * job would cost each launch the time of mapping them.  So what uses hwloc
 * lives in shmpi/shmrun-hw.so under the lib directory beside shmrun's own
 * (build/bin/../lib in the build tree, PREFIX/bin/../lib once installed),
 * which run_hw_get() dlopens on first need.
 */
#ifndef TOOLS_SHMRUN_HW_H
#define TOOLS_SHMRUN_HW_H

#include <sched.h>

#define RUN_HW_MODULE "shmpi/shmrun-hw.so"	/* relative to shmrun's ../lib */
#define RUN_HW_ABI 1				/* struct run_hw_ops as here */

typedef void run_hw_msg_fn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct run_hw_ops {
	unsigned abi;		/* RUN_HW_ABI */
	/* --bind-to *policy (enum shm_knob_bind; auto becomes core when the
	 * ranks fit the cores, none otherwise) and --map-by map_by (0: as
	 * --bind-to, else an index into SHMPI_MAP_BY's choices): each rank's
	 * CPUs into cpus[nranks] unless the policy comes out none; *policy is
	 * the one applied.  Errors said through msg: -ENOENT when the machine
	 * has no such object, -EIO when hwloc cannot read it, -ENOMEM. */
	int (*bind_plan)(long *policy, long map_by, int nranks, cpu_set_t *cpus,
			 run_hw_msg_fn *msg);
	/* Print the machine as hwloc sees it on stdout; -EIO (said through
	 * msg) when hwloc cannot read it. */
	int (*print_topology)(run_hw_msg_fn *msg);
	/* The hwloc API the module was built with, and the library's. */
	unsigned (*api_built)(void);
	unsigned (*api_library)(void);
};

/* The module's one export. */
const struct run_hw_ops *shmrun_hw_ops(void);

/* The module's operations, loaded on the first call: 0 and *ops, or a
 * negative errno when it cannot be loaded (said with run_msg, naming the
 * path and why). */
int run_hw_get(const struct run_hw_ops **ops);

#endif
