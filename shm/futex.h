/*
 * Futex wait and wake on 32-bit words in shared memory.  The words live in
 * segments mapped by several processes, so these are the shared (not
 * FUTEX_PRIVATE) operations.
 */
#ifndef SHM_FUTEX_H
#define SHM_FUTEX_H

#include <time.h>

#include "atomic.h"

/*
 * Sleep while *word == expected.  Returns 0 when woken (possibly spuriously:
 * the caller re-checks its condition), -EAGAIN when *word already differed,
 * -ETIMEDOUT when the relative timeout (NULL: none) ran out, -EINTR on a
 * signal.
 */
int shm_futex_wait(shm_atomic_u32 *word, uint32_t expected,
		   const struct timespec *timeout);

/* Wake up to n sleepers on word (INT32_MAX: all); returns how many woke. */
int shm_futex_wake(shm_atomic_u32 *word, int n);

#endif
