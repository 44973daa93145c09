/*
 * libshmpi's use of hwloc, behind a module of its own.
 *
 * Reading the topology needs libhwloc, and loading libhwloc (with libudev
 * and libm behind it) costs every rank about a millisecond at start, though
 * most jobs never ask: only the binding report (shmrun --report-bindings)
 * and the hardware split types of MPI_Comm_split_type need it.  So what
 * uses hwloc lives in a module, shmpi/hw.so in the directory of
 * libshmpi.so (build/lib in the build tree, PREFIX/lib once installed),
 * which hw_get() dlopens on first need.  The static library holds the
 * module itself, and programs linked with it link libhwloc too.
 */
#ifndef SRC_HW_H
#define SRC_HW_H

#include <stddef.h>

#define HW_MODULE "shmpi/hw.so"	/* relative to libshmpi.so's directory */
#define HW_ABI 1		/* struct hw_ops as this header has it */

/* The levels of the hierarchy a split can use, from the top. */
enum hw_level {
	HW_PACKAGE, HW_NUMANODE, HW_L3CACHE, HW_L2CACHE, HW_L1CACHE, HW_CORE, HW_PU,
	HW_NLEVELS
};

struct hw_ops {
	unsigned abi;		/* HW_ABI */
	/* Print "shmpi: rank R runs on cpus C = objects" on stderr: the CPUs
	 * sched_getaffinity gives, and the hwloc objects with exactly that
	 * set.  0, or a negative errno (nothing printed). */
	int (*report)(int rank);
	/* For each level, the logical index of the object that holds every CPU
	 * this process may run on, or -1 when they span several.  0 or a
	 * negative errno. */
	int (*colors)(int colors[HW_NLEVELS]);
	/* The level a hwloc type name ("Package", "NUMANode", "L3Cache", ...,
	 * as hwloc_type_sscanf reads it) names, or -1 for any other. */
	int (*level)(const char *type);
	/* hwloc's name of a level's type ("Package", ...). */
	const char *(*level_name)(enum hw_level level);
};

/* The module's one export. */
const struct hw_ops *shmpi_hw_ops(void);

/* The module's operations, loaded on the first call (thread-safe): 0 and
 * *ops, or -ENOENT / -EINVAL when the module cannot be loaded (hw_error()
 * says why). */
int hw_get(const struct hw_ops **ops);

/* Why hw_get failed, as ": cannot load PATH: reason", or "" if it did not
 * (made to follow a message). */
const char *hw_error(void);

#endif
