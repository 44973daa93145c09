/*
 * Loading the hwloc module (hw.h) on first need.  The module is found next
 * to the libshmpi.so this code was loaded from (dladdr), in both the build
 * tree and an installed PREFIX; the static library (SHMPI_HW_STATIC) holds
 * the module and only hands out its operations.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "hw.h"

static const struct hw_ops *hw_ops;
static int hw_rc;
static char hw_why[PATH_MAX + 256];

#ifdef SHMPI_HW_STATIC

static void hw_load(void)
{
	hw_ops = shmpi_hw_ops();
}

#else

static void hw_fail(int rc, const char *path, const char *why)
{
	size_t len = strlen(path);

	/* dlerror() names the file itself: "PATH: what" */
	if (why && strncmp(why, path, len) == 0 && strncmp(why + len, ": ", 2) == 0)
		why += len + 2;
	snprintf(hw_why, sizeof(hw_why), ": cannot load %s: %s", path, why ? why : "?");
	hw_rc = rc;
}

static void hw_load(void)
{
	const struct hw_ops *(*get)(void);
	char path[PATH_MAX];
	const char *slash;
	void *handle;
	Dl_info di;

	if (!dladdr((void *)hw_load, &di) || !di.dli_fname) {
		hw_fail(-ENOENT, HW_MODULE, "libshmpi does not know where it was loaded from");
		return;
	}
	slash = strrchr(di.dli_fname, '/');
	if (snprintf(path, sizeof(path), "%.*s/%s", slash ? (int)(slash - di.dli_fname) : 1,
		     slash ? di.dli_fname : ".", HW_MODULE) >= (int)sizeof(path)) {
		hw_fail(-ENAMETOOLONG, HW_MODULE, "path too long");
		return;
	}
	handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		hw_fail(-ENOENT, path, dlerror());
		return;
	}
	get = (const struct hw_ops *(*)(void))dlsym(handle, "shmpi_hw_ops");
	if (!get || get()->abi != HW_ABI) {
		hw_fail(-EINVAL, path, get ? "built for another libshmpi" : dlerror());
		dlclose(handle);
		return;
	}
	/* the module stays loaded for the life of the process */
	hw_ops = get();
}

#endif

int hw_get(const struct hw_ops **ops)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	/* pthread_once orders hw_load's writes before every caller's reads */
	pthread_once(&once, hw_load);
	if (!hw_ops)
		return hw_rc;
	*ops = hw_ops;
	return 0;
}

const char *hw_error(void)
{
	return hw_why;
}
