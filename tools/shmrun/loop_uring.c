/*
 * The io_uring backend of the event loop (loop.h): every operation is one
 * SQE whose user_data is the loop's data, and every completion one CQE.
 *
 * It needs the kernel's IORING_OP_READ and IORING_OP_WRITE (Linux 5.6),
 * and the probe that tells (IORING_REGISTER_PROBE, 5.6 too): open fails
 * with -ENOSYS without the probe, -EOPNOTSUPP when an operation is missing,
 * and with io_uring_setup's error where io_uring is refused (-EPERM under
 * kernel.io_uring_disabled or a seccomp filter, -ENOSYS before 5.1).
 * A cancel request's own completion carries LOOP_URING_CANCEL and is
 * swallowed here; the cancelled operation's completes as usual.
 */
#include <errno.h>
#include <liburing.h>
#include <poll.h>
#include <stdlib.h>

#include "loop.h"
#include "shmrun.h"

#define LOOP_URING_CANCEL UINT64_MAX	/* never a loop.c data */

/* The kernel reads a timeout's timespec when its SQE is submitted, in the
 * next wait at the latest; loop.c arms at most three timers between two
 * waits (tick, --timeout, grace), so a timespec is reused only long after. */
#define URING_TIMESPECS 8

struct loop_be {
	struct io_uring ring;
	struct __kernel_timespec ts[URING_TIMESPECS];
	unsigned next_ts;
};

static const int uring_needed[] = {
	IORING_OP_READ, IORING_OP_WRITE, IORING_OP_POLL_ADD, IORING_OP_TIMEOUT,
	IORING_OP_ASYNC_CANCEL,
};

static int uring_probe(struct io_uring *ring)
{
	struct io_uring_probe *probe = io_uring_get_probe_ring(ring);
	int rc = 0;

	if (!probe)
		return -ENOSYS;
	for (size_t i = 0; i < sizeof(uring_needed) / sizeof(uring_needed[0]); i++) {
		if (!io_uring_opcode_supported(probe, uring_needed[i]))
			rc = -EOPNOTSUPP;
	}
	io_uring_free_probe(probe);
	return rc;
}

static int uring_open(struct loop_be **bep, int nranks)
{
	/* in flight at most: 2 reads, a poll and 2 cancels per rank, and a
	 * few more; the completion queue is twice as big as this */
	unsigned entries = 5 * (unsigned)nranks + 16;
	struct loop_be *be;
	int rc;

	be = calloc(1, sizeof(*be));
	if (!be)
		return -ENOMEM;
	rc = io_uring_queue_init(entries, &be->ring, 0);
	if (rc < 0)
		goto err_free;
	rc = uring_probe(&be->ring);
	if (rc < 0)
		goto err_exit;
	*bep = be;
	return 0;

err_exit:
	io_uring_queue_exit(&be->ring);
err_free:
	free(be);
	return rc;
}

/* A free SQE, or NULL when the ring is full. */
static struct io_uring_sqe *uring_sqe(struct loop_be *be)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&be->ring);

	if (!sqe) {
		/* the ring holds in-flight ops, not queued ones: make room */
		io_uring_submit(&be->ring);
		sqe = io_uring_get_sqe(&be->ring);
	}
	return sqe;
}

/* A read or a write of len bytes at buf, at the fd's position. */
static int uring_rw(struct loop_be *be, int opcode, int fd, const void *buf, size_t len,
		    uint64_t data)
{
	struct io_uring_sqe *sqe = uring_sqe(be);

	if (!sqe)
		return -EBUSY;
	io_uring_prep_rw(opcode, sqe, fd, buf, (unsigned)len, 0);
	io_uring_sqe_set_data64(sqe, data);
	return 0;
}

static int uring_read(struct loop_be *be, int fd, void *buf, size_t len, uint64_t data)
{
	return uring_rw(be, IORING_OP_READ, fd, buf, len, data);
}

static int uring_write(struct loop_be *be, int fd, const void *buf, size_t len,
		       uint64_t data)
{
	return uring_rw(be, IORING_OP_WRITE, fd, buf, len, data);
}

static int uring_poll(struct loop_be *be, int fd, uint64_t data)
{
	struct io_uring_sqe *sqe = uring_sqe(be);

	if (!sqe)
		return -EBUSY;
	io_uring_prep_poll_add(sqe, fd, POLLIN);
	io_uring_sqe_set_data64(sqe, data);
	return 0;
}

static int uring_timer(struct loop_be *be, uint64_t at, uint64_t data)
{
	struct io_uring_sqe *sqe = uring_sqe(be);
	struct __kernel_timespec *ts = &be->ts[be->next_ts++ % URING_TIMESPECS];

	if (!sqe)
		return -EBUSY;
	ts->tv_sec = (long long)(at / RUN_NS_PER_S);
	ts->tv_nsec = (long long)(at % RUN_NS_PER_S);
	/* absolute on CLOCK_MONOTONIC, run_now()'s clock */
	io_uring_prep_timeout(sqe, ts, 0, IORING_TIMEOUT_ABS);
	io_uring_sqe_set_data64(sqe, data);
	return 0;
}

static int uring_cancel(struct loop_be *be, uint64_t data)
{
	struct io_uring_sqe *sqe = uring_sqe(be);

	if (!sqe)
		return -EBUSY;
	io_uring_prep_cancel64(sqe, data, 0);
	io_uring_sqe_set_data64(sqe, LOOP_URING_CANCEL);
	return 0;
}

static int uring_wait(struct loop_be *be, loop_done_fn done, void *arg)
{
	struct io_uring_cqe *cqe;
	int rc;

	rc = io_uring_submit_and_wait(&be->ring, 1);
	if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY)
		return rc;
	while (io_uring_peek_cqe(&be->ring, &cqe) == 0) {
		uint64_t data = io_uring_cqe_get_data64(cqe);
		int res = cqe->res;

		io_uring_cqe_seen(&be->ring, cqe);
		if (data != LOOP_URING_CANCEL && done(arg, data, res))
			break;
	}
	return 0;
}

static void uring_close(struct loop_be *be)
{
	/* cancels what is still in flight; the buffers are still there */
	io_uring_queue_exit(&be->ring);
	free(be);
}

const struct loop_ops loop_uring_ops = {
	.name = "io_uring",
	.open = uring_open,
	.read = uring_read,
	.write = uring_write,
	.poll = uring_poll,
	.timer = uring_timer,
	.cancel = uring_cancel,
	.wait = uring_wait,
	.close = uring_close,
};
