/*
 * The free lists that the message paths keep of their objects (requests,
 * request.c; small unexpected messages, p2p_proto.c), so that a message
 * costs no malloc and no free.  Under AddressSanitizer an object on a free
 * list is poisoned: a stale pointer to it is reported as a use after free,
 * as it would be had the object gone back to malloc.
 */
#ifndef SRC_POOL_H
#define SRC_POOL_H

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define POOL_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define POOL_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POOL_POISON(p, n) ((void)(p), (void)(n))
#define POOL_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#endif
