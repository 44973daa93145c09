/*
 * Copies that stream: non-temporal stores, which write whole lines to
 * memory without reading them first and without filling the caches.  For
 * a large copy to a place the caches do not hold (a new part of a big
 * window), that halves the memory traffic; for a place copied to again and
 * again, which stays in the cache, plain memcpy is faster.  shm_copy_stream
 * ends with a store fence, so what it wrote is ordered before the caller's
 * later stores like any other store.
 */
#ifndef SHM_COPY_H
#define SHM_COPY_H

#include <stddef.h>

void shm_copy_stream(void *dst, const void *src, size_t n);

/* Whether shm_copy_stream stores 32 bytes at a time (AVX2, the default
 * where the CPU has it) or 16: asks for the wide stores (want = 1) or the
 * narrow ones (0), and returns what it got.  For tests of both. */
int shm_copy_stream_wide(int want);

#endif
