#include <errno.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "futex.h"

/* Relaxed atomics with one writer each (futex.h): the writer's load and
 * store are plain moves, and a reader in another thread sees whole counts. */
static struct {
	shm_atomic_u64 sleeps, wakes;
} futex_counts[SHM_FUTEX_SLOTS];

/* initial-exec: the slot is one load from the thread pointer, no call */
static __thread unsigned futex_slot __attribute__((tls_model("initial-exec")));

static inline void futex_count(shm_atomic_u64 *c)
{
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + 1,
			      memory_order_relaxed);
}

int shm_futex_wait(shm_atomic_u32 *word, uint32_t expected,
		   const struct timespec *timeout)
{
	long rc = syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT, expected,
			  timeout, NULL, 0);
	int err = rc == 0 ? 0 : -errno;

	if (err != -EAGAIN)
		futex_count(&futex_counts[futex_slot].sleeps);
	return err;
}

int shm_futex_wake(shm_atomic_u32 *word, int n)
{
	long rc = syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE, n, NULL,
			  NULL, 0);
	int err = rc < 0 ? -errno : (int)rc;

	futex_count(&futex_counts[futex_slot].wakes);
	return err;
}

void shm_futex_count_slot(unsigned slot)
{
	futex_slot = slot < SHM_FUTEX_SLOTS ? slot : SHM_FUTEX_SLOTS - 1;
}

void shm_futex_counts_read(struct shm_futex_counts *out)
{
	*out = (struct shm_futex_counts){ 0, 0 };
	for (int i = 0; i < SHM_FUTEX_SLOTS; i++) {
		out->sleeps += atomic_load_explicit(&futex_counts[i].sleeps,
						    memory_order_relaxed);
		out->wakes += atomic_load_explicit(&futex_counts[i].wakes,
						   memory_order_relaxed);
	}
}
