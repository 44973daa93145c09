/*
 * The one atomics header of shmpi.  Every word shared between processes is a
 * C11 atomic type and every access names its memory ordering at the call
 * site: the code reads `atomic_load_explicit(&w, memory_order_acquire)`, never
 * a bare access, never `volatile`, never a `__sync` builtin.  This header only
 * adds the types and the few helpers that C11 does not have.
 */
#ifndef SHM_ATOMIC_H
#define SHM_ATOMIC_H

#include <stdatomic.h>
#include <stdint.h>

#define SHM_CACHE_LINE 64

typedef _Atomic uint32_t shm_atomic_u32;
typedef _Atomic uint64_t shm_atomic_u64;
typedef _Atomic int32_t shm_atomic_i32;
typedef _Atomic int64_t shm_atomic_i64;

_Static_assert(sizeof(shm_atomic_u32) == 4, "futex words are 32 bits");
_Static_assert(sizeof(shm_atomic_u64) == 8, "64-bit atomics are plain words");

/* Tell the core we are spinning (x86 `pause`, Arm's `yield` hint); a
 * compiler barrier elsewhere. */
static inline void shm_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	atomic_signal_fence(memory_order_seq_cst);
#endif
}

/*
 * A full fence: this process's earlier loads and stores of ordinary
 * (write-back) memory before its later ones, what
 * atomic_thread_fence(memory_order_seq_cst) promises.  On x86-64 a locked
 * read-modify-write of the stack does it; GCC's mfence costs ten times as
 * much on some cores (28 against 3 ns here).  It does not order
 * non-temporal stores: after a copy that may have used them (glibc's
 * memcpy does above a threshold of at least SHM_NT_MIN bytes), call
 * shm_nt_fence() first.
 */
static inline void shm_fence(void)
{
#if defined(__x86_64__)
	__asm__ __volatile__("lock orq $0, -8(%%rsp)" ::: "memory", "cc");
#else
	atomic_thread_fence(memory_order_seq_cst);
#endif
}

#define SHM_NT_MIN 0x4040	/* glibc's lowest x86_non_temporal_threshold */

/* Non-temporal stores so far ordered as ordinary stores are, so that a
 * later release or fence orders them too.  On x86-64 the streaming stores of
 * shm/copy.c and glibc's memcpy need the sfence; on Arm every store,
 * the non-temporal pair stores a memcpy may use included, is ordered by a
 * later release or fence alone (and shm/copy.c makes none), so only the
 * compiler is held back there; elsewhere, not knowing, a full fence. */
static inline void shm_nt_fence(void)
{
#if defined(__x86_64__)
	__asm__ __volatile__("sfence" ::: "memory");
#elif defined(__aarch64__)
	atomic_signal_fence(memory_order_seq_cst);
#else
	atomic_thread_fence(memory_order_seq_cst);
#endif
}

#endif
