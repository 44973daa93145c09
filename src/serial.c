/*
 * The lock of MPI_THREAD_MULTIPLE (serial.h).
 *
 * A futex mutex with an owner and a count of holds.  The mutex word is 0
 * free, 1 taken, 2 taken with sleepers (the three states of the classic
 * futex mutex): taking it is one compare-and-swap, giving it back one
 * exchange, and a system call only when a thread sleeps on it.  Only the
 * owner reads or writes the count; the owner word is atomic because every
 * thread reads it to learn whether it is the owner, which it can only be if
 * it stored its own token there itself.
 *
 * Waking sleepers: `sleepers` counts the threads asleep (or about to sleep)
 * in a wait; `completions` counts requests completed.  Both change only
 * under the lock.  A sleeper counts itself before it lets go of the lock
 * and then looks at its condition once more under the lock after
 * announcing itself on the doorbell (progress.c's wait loop).  A completer
 * that releases the lock after completing something while the count is
 * nonzero rings the doorbell.  Either the completer released the lock
 * before the sleeper's last look (which then sees the completion), or after
 * it (and then saw the count, and rings a doorbell the sleeper already
 * announced itself on).
 */
#include <stdatomic.h>
#include <stdint.h>

#include "progress.h"
#include "runtime.h"
#include "serial.h"
#include "../shm/futex.h"

static shm_atomic_u32 serial_word;	/* 0 free, 1 taken, 2 with sleepers */
static atomic_uintptr_t serial_owner;	/* the holder's token; 0: nobody */
static unsigned serial_holds;		/* the owner's holds */
/* its address names the thread (initial-exec: one load, no call) */
static _Thread_local char serial_token __attribute__((tls_model("initial-exec")));

static unsigned serial_sleepers;	/* under the lock */
static uint64_t serial_completions;	/* under the lock */
static uint64_t serial_rung;		/* completions when last rung */

static uintptr_t serial_me(void)
{
	return (uintptr_t)&serial_token;
}

static void serial_mutex_lock(void)
{
	uint32_t seen = 0;

	/* acquire: what the last holder did under the lock happens before */
	if (atomic_compare_exchange_strong_explicit(&serial_word, &seen, 1,
						    memory_order_acquire,
						    memory_order_relaxed))
		return;
	/* taken: mark it as having sleepers, and sleep until we take it so */
	while (atomic_exchange_explicit(&serial_word, 2, memory_order_acquire) != 0)
		(void)shm_futex_wait(&serial_word, 2, NULL);
}

static void serial_mutex_unlock(void)
{
	/* release: pairs with the acquire of the next holder */
	if (atomic_exchange_explicit(&serial_word, 0, memory_order_release) == 2)
		(void)shm_futex_wake(&serial_word, 1);
}

static int serial_mine(void)
{
	/* relaxed: a thread finds its own token only where it stored it */
	return atomic_load_explicit(&serial_owner, memory_order_relaxed) == serial_me();
}

void serial_lock(void)
{
	if (serial_mine()) {
		serial_holds++;
		return;
	}
	serial_mutex_lock();
	atomic_store_explicit(&serial_owner, serial_me(), memory_order_relaxed);
	serial_holds = 1;
}

/* The last hold goes: ring for the sleepers if something completed. */
static void serial_let_go(void)
{
	if (serial_sleepers && serial_completions != serial_rung && rt.self) {
		serial_rung = serial_completions;
		progress_wake_rank(rt.rank);
	}
	serial_holds = 0;
	atomic_store_explicit(&serial_owner, 0, memory_order_relaxed);
	serial_mutex_unlock();
}

void serial_unlock(void)
{
	if (--serial_holds == 0)
		serial_let_go();
}

unsigned serial_release(void)
{
	unsigned holds;

	if (!serial_mine())
		return 0;
	holds = serial_holds;
	serial_let_go();
	return holds;
}

void serial_reacquire(unsigned holds)
{
	if (!holds)
		return;
	serial_mutex_lock();
	atomic_store_explicit(&serial_owner, serial_me(), memory_order_relaxed);
	serial_holds = holds;
}

void serial_note_completion(void)
{
	serial_completions++;
}

unsigned serial_sleep_begin(void)
{
	if (!serial_mine())
		return 0;
	serial_sleepers++;
	return serial_release();
}

void serial_sleep_end(unsigned holds)
{
	if (!holds)
		return;
	serial_reacquire(holds);
	serial_sleepers--;
}
