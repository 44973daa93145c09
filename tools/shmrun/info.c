/*
 * shmrun --info: what a job would run on and with.  The machine as hwloc
 * sees it (packages, NUMA nodes, caches, cores, hardware threads; printed by
 * the hwloc module, hw.h), shmpi's version and build, and every knob of the one table (shm/knob.h) with the
 * value shmrun's environment gives it and its default.
 */
#include <stdio.h>
#include <string.h>

#include "../../shm/knob.h"
#include "hw.h"
#include "shmrun.h"

#ifndef SHMPI_BUILD_CC
#define SHMPI_BUILD_CC "unknown"
#endif
#ifndef SHMPI_BUILD_SANITIZE
#define SHMPI_BUILD_SANITIZE ""
#endif

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

/* Without its hwloc module (reported by run_hw_get) shmrun still prints
 * what it knows, and then says the machine's part failed by its status. */
int run_info(void)
{
	const struct run_hw_ops *hw = NULL;
	int ok = run_hw_get(&hw) == 0;

	printf("shmrun (shmpi %s)\n", SHMPI_VERSION);
	printf("build: cc %s, sanitizers %s, ", SHMPI_BUILD_CC,
	       SHMPI_BUILD_SANITIZE[0] ? SHMPI_BUILD_SANITIZE : "none");
	if (ok)
		printf("hwloc API %u.%u (library %u.%u)\n", hw->api_built() >> 16,
		       (hw->api_built() >> 8) & 0xff, hw->api_library() >> 16,
		       (hw->api_library() >> 8) & 0xff);
	else
		printf("hwloc unavailable (its module does not load)\n");
	if (ok && hw->print_topology(run_msg) < 0)
		ok = 0;
	run_copy_info();
	info_knobs();
	return ok ? 0 : RUN_EXIT_USAGE;
}
