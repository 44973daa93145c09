/*
 * Loading shmrun's hwloc module (hw.h) on first need, from the lib
 * directory beside the one shmrun runs from (/proc/self/exe).
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hw.h"
#include "shmrun.h"

/* "<dir of shmrun>/../lib/" RUN_HW_MODULE into path; 0 or -errno. */
static int hw_path(char *path, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n < 0)
		return -errno;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	if (snprintf(path, len, "%s/../lib/%s", exe, RUN_HW_MODULE) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

int run_hw_get(const struct run_hw_ops **ops)
{
	static const struct run_hw_ops *loaded;
	const struct run_hw_ops *(*get)(void);
	char path[PATH_MAX];
	const char *why;
	void *handle;
	int rc;

	if (loaded) {
		*ops = loaded;
		return 0;
	}
	rc = hw_path(path, sizeof(path));
	if (rc < 0) {
		run_msg("cannot find hwloc's module %s: %s", RUN_HW_MODULE, strerror(-rc));
		return rc;
	}
	handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		/* dlerror() names the file itself */
		run_msg("cannot load hwloc's module: %s", dlerror());
		return -ENOENT;
	}
	get = (const struct run_hw_ops *(*)(void))dlsym(handle, "shmrun_hw_ops");
	if (!get || get()->abi != RUN_HW_ABI) {
		why = get ? "built for another shmrun" : dlerror();
		run_msg("cannot load hwloc's module %s: %s", path, why);
		dlclose(handle);
		return -EINVAL;
	}
	/* the module stays loaded for the life of shmrun */
	loaded = get();
	*ops = loaded;
	return 0;
}
