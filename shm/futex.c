#include <errno.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "futex.h"

int shm_futex_wait(shm_atomic_u32 *word, uint32_t expected,
		   const struct timespec *timeout)
{
	long rc = syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT, expected,
			  timeout, NULL, 0);

	return rc == 0 ? 0 : -errno;
}

int shm_futex_wake(shm_atomic_u32 *word, int n)
{
	long rc = syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE, n, NULL,
			  NULL, 0);

	return rc < 0 ? -errno : (int)rc;
}
