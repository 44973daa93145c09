/*
 * The event loop's mechanism, behind one small table: loop.c decides what
 * to wait for and what a completion means; a backend only waits.
 *
 * The model is io_uring's: the loop arms operations, each named by a 64-bit
 * `data` that comes back with its result.  A read, a write or a poll (for
 * POLLIN) of an fd, a timer that expires at an absolute run_now() time
 * (result -ETIME), and the cancellation of an armed operation (it then
 * completes with -ECANCELED, unless it completed first).  Each operation
 * completes once and is armed again by the loop if it wants more; an fd has
 * at most one operation armed at a time, and its buffer stays valid until
 * the operation completes or the backend is closed.
 *
 * Two backends: loop_uring.c (io_uring, where the kernel offers it) and
 * loop_epoll.c (epoll, everywhere else).  loop.c picks one (the knob
 * SHMRUN_EVENT_LOOP, README "Kernel features").
 */
#ifndef RUN_LOOP_H
#define RUN_LOOP_H

#include <stddef.h>
#include <stdint.h>

struct loop_be;

/* Hands a completion to loop.c; nonzero (the loop's error) stops the
 * backend from handing out more in this wait. */
typedef int (*loop_done_fn)(void *arg, uint64_t data, int res);

/* Every call returns 0 or a negative errno. */
struct loop_ops {
	const char *name;
	/* Sized for nranks ranks; fails when the kernel does not offer it. */
	int (*open)(struct loop_be **bep, int nranks);
	int (*read)(struct loop_be *be, int fd, void *buf, size_t len, uint64_t data);
	int (*write)(struct loop_be *be, int fd, const void *buf, size_t len, uint64_t data);
	int (*poll)(struct loop_be *be, int fd, uint64_t data);
	int (*timer)(struct loop_be *be, uint64_t at, uint64_t data);
	int (*cancel)(struct loop_be *be, uint64_t data);
	/* Wait until something completes; hand over what has. */
	int (*wait)(struct loop_be *be, loop_done_fn done, void *arg);
	/* Drop whatever is still armed. */
	void (*close)(struct loop_be *be);
};

extern const struct loop_ops loop_uring_ops;
extern const struct loop_ops loop_epoll_ops;

#endif
