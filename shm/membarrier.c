#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "membarrier.h"

#if defined(__linux__) && defined(SYS_membarrier)
#include <linux/membarrier.h>

static int membarrier(int cmd)
{
	return syscall(SYS_membarrier, cmd, 0, 0) < 0 ? -errno : 0;
}

int shm_membarrier_register(void)
{
	long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);

	if (cmds < 0)
		return -errno;
	if (!(cmds & MEMBARRIER_CMD_GLOBAL_EXPEDITED) ||
	    !(cmds & MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED))
		return -ENOSYS;
	return membarrier(MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED);
}

int shm_membarrier(void)
{
	return membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED);
}

#else

int shm_membarrier_register(void)
{
	return -ENOSYS;
}

int shm_membarrier(void)
{
	return -ENOSYS;
}

#endif
