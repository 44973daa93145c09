/*
 * The epoll backend of the event loop (loop.h), for kernels without
 * io_uring or where it is refused: readiness turned into completions.
 *
 * An fd operation takes a slot; its fd is armed in the epoll set with
 * EPOLLONESHOT and the slot's number and generation as the event's data.
 * When the fd is ready the backend does the read or write itself (one
 * call: the fd is ready and the loop is its only reader or writer) and
 * completes the operation with its result, or with the poll's events;
 * -EAGAIN arms it again.  The fd stays in the set, disabled, until it is
 * armed again (EPOLL_CTL_MOD) or closed (the kernel drops it).  A write
 * makes its fd nonblocking first: a blocking pipe write waits until all of
 * it fits, however ready the pipe was.  A file epoll cannot wait for (a
 * regular file) is always ready.  Timers are deadlines that bound
 * epoll_wait's timeout (milliseconds, rounded up, so none fires early).
 * A cancelled operation, and one completed at once, waits in `ready` for
 * the next wait to hand it over, never from inside the call that made it
 * (a wait hands over only what was ready when it began).
 * The generation tells the event of an operation that has since completed
 * or been cancelled, and whose slot may hold another one now.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "loop.h"
#include "shmrun.h"

#define EP_TIMERS	8	/* loop.c arms three: tick, timeout, grace */
#define EP_EVENTS	64	/* events taken per epoll_wait */

enum ep_kind { EP_FREE, EP_READ, EP_WRITE, EP_POLL };

struct ep_op {
	enum ep_kind kind;
	uint32_t gen;		/* bumped when the slot is freed */
	int fd;
	void *buf;
	size_t len;
	uint64_t data;
};

struct ep_timer {
	bool armed;
	uint64_t at;
	uint64_t data;
};

/* A completion waiting for the next wait. */
struct ep_done {
	uint64_t data;
	int res;
};

struct loop_be {
	int epfd;
	uint32_t nops;
	struct ep_op *ops;
	uint32_t *free;		/* stack of free slots */
	uint32_t nfree;
	struct ep_timer timers[EP_TIMERS];
	struct ep_done *ready;	/* a ring of nops + EP_TIMERS */
	uint32_t ready_head;
	uint32_t nready;
};

static int ep_open(struct loop_be **bep, int nranks)
{
	/* fd operations at once: 2 reads and a poll per rank, the signalfd,
	 * the stdin relay's poll or write, and room to spare */
	uint32_t nops = 3 * (uint32_t)nranks + 8;
	struct loop_be *be;
	int rc = -ENOMEM;

	be = calloc(1, sizeof(*be));
	if (!be)
		return -ENOMEM;
	be->nops = nops;
	be->ops = calloc(nops, sizeof(*be->ops));
	be->free = calloc(nops, sizeof(*be->free));
	be->ready = calloc(nops + EP_TIMERS, sizeof(*be->ready));
	if (!be->ops || !be->free || !be->ready)
		goto err_free;
	for (uint32_t i = 0; i < nops; i++)
		be->free[be->nfree++] = nops - 1 - i;
	be->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (be->epfd < 0) {
		rc = -errno;
		goto err_free;
	}
	*bep = be;
	return 0;

err_free:
	free(be->ready);
	free(be->free);
	free(be->ops);
	free(be);
	return rc;
}

/* Room is there: loop.c has at most one operation armed or completed and
 * not yet handed over per thing it waits for (a stream, a rank's exit, the
 * signals, stdin, a timer), and there are no more of those than slots. */
static void ep_complete(struct loop_be *be, uint64_t data, int res)
{
	uint32_t cap = be->nops + EP_TIMERS;

	be->ready[(be->ready_head + be->nready++) % cap] = (struct ep_done){ data, res };
}

static void ep_slot_free(struct loop_be *be, struct ep_op *op)
{
	op->kind = EP_FREE;
	op->gen++;
	be->free[be->nfree++] = (uint32_t)(op - be->ops);
}

/* Arm op's fd for one event; a file that epoll cannot watch is ready. */
static int ep_arm(struct loop_be *be, struct ep_op *op)
{
	uint32_t slot = (uint32_t)(op - be->ops);
	struct epoll_event ev = {
		.events = (op->kind == EP_WRITE ? EPOLLOUT : EPOLLIN) | EPOLLONESHOT,
		.data.u64 = (uint64_t)op->gen << 32 | slot,
	};

	if (epoll_ctl(be->epfd, EPOLL_CTL_MOD, op->fd, &ev) == 0)
		return 0;
	if (errno == ENOENT && epoll_ctl(be->epfd, EPOLL_CTL_ADD, op->fd, &ev) == 0)
		return 0;
	return errno == EPERM ? 1 : -errno;
}

static int ep_do(struct ep_op *op, uint32_t events);

/* Take a slot for an fd operation and arm it. */
static int ep_add(struct loop_be *be, enum ep_kind kind, int fd, void *buf, size_t len,
		  uint64_t data)
{
	struct ep_op *op;
	int rc;

	if (be->nfree == 0)
		return -EBUSY;
	op = &be->ops[be->free[--be->nfree]];
	*op = (struct ep_op){ kind, op->gen, fd, buf, len, data };
	rc = ep_arm(be, op);
	if (rc == 0)
		return 0;
	if (rc > 0) {
		/* always ready: done now, handed over by the next wait */
		ep_complete(be, data, ep_do(op, EPOLLIN | EPOLLOUT));
		rc = 0;
	}
	ep_slot_free(be, op);
	return rc;
}

static int ep_read(struct loop_be *be, int fd, void *buf, size_t len, uint64_t data)
{
	return ep_add(be, EP_READ, fd, buf, len, data);
}

static int ep_write(struct loop_be *be, int fd, const void *buf, size_t len, uint64_t data)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || (!(fl & O_NONBLOCK) && fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0))
		return -errno;
	return ep_add(be, EP_WRITE, fd, (void *)buf, len, data);
}

static int ep_poll(struct loop_be *be, int fd, uint64_t data)
{
	return ep_add(be, EP_POLL, fd, NULL, 0, data);
}

static int ep_timer(struct loop_be *be, uint64_t at, uint64_t data)
{
	for (int i = 0; i < EP_TIMERS; i++) {
		if (!be->timers[i].armed) {
			be->timers[i] = (struct ep_timer){ true, at, data };
			return 0;
		}
	}
	return -EBUSY;
}

static int ep_cancel(struct loop_be *be, uint64_t data)
{
	for (int i = 0; i < EP_TIMERS; i++) {
		if (be->timers[i].armed && be->timers[i].data == data) {
			be->timers[i].armed = false;
			ep_complete(be, data, -ECANCELED);
		}
	}
	for (uint32_t i = 0; i < be->nops; i++) {
		struct ep_op *op = &be->ops[i];

		if (op->kind == EP_FREE || op->data != data)
			continue;
		/* disarmed: a later arm of the fd adds it again */
		epoll_ctl(be->epfd, EPOLL_CTL_DEL, op->fd, NULL);
		ep_complete(be, data, -ECANCELED);
		ep_slot_free(be, op);
	}
	return 0;
}

/* The operation's result now that its fd reported events. */
static int ep_do(struct ep_op *op, uint32_t events)
{
	ssize_t n;

	switch (op->kind) {
	case EP_READ:
		n = read(op->fd, op->buf, op->len);
		break;
	case EP_WRITE:
		n = write(op->fd, op->buf, op->len);
		break;
	case EP_POLL:
		/* as io_uring's poll: the events, an error or hang-up too */
		return (int)(events & (EPOLLIN | EPOLLERR | EPOLLHUP));
	case EP_FREE:
	default:
		return -EINVAL;
	}
	return n < 0 ? -errno : (int)n;
}

/* epoll_wait's timeout: until the first timer, rounded up to ms; 0 when
 * completions are waiting. */
static int ep_timeout_ms(const struct loop_be *be, uint64_t now)
{
	uint64_t first = UINT64_MAX;

	if (be->nready > 0)
		return 0;
	for (int i = 0; i < EP_TIMERS; i++) {
		if (be->timers[i].armed && be->timers[i].at < first)
			first = be->timers[i].at;
	}
	if (first == UINT64_MAX)
		return -1;
	if (first <= now)
		return 0;
	first = (first - now + RUN_NS_PER_MS - 1) / RUN_NS_PER_MS;
	return first > INT32_MAX ? INT32_MAX : (int)first;
}

/* An fd's events: its operation is done, unless it would block. */
static void ep_event(struct loop_be *be, const struct epoll_event *ev)
{
	struct ep_op *op = &be->ops[(uint32_t)ev->data.u64];
	int res;

	if (op->kind == EP_FREE || op->gen != (uint32_t)(ev->data.u64 >> 32))
		return;	/* cancelled since, or the slot is another's now */
	res = ep_do(op, ev->events);
	if ((res == -EAGAIN || res == -EINTR) && ep_arm(be, op) == 0)
		return;
	ep_complete(be, op->data, res);
	ep_slot_free(be, op);
}

static int ep_wait(struct loop_be *be, loop_done_fn done, void *arg)
{
	struct epoll_event evs[EP_EVENTS];
	uint64_t now = run_now();
	int n;

	n = epoll_wait(be->epfd, evs, EP_EVENTS, ep_timeout_ms(be, now));
	if (n < 0 && errno != EINTR)
		return -errno;
	for (int i = 0; i < n; i++)
		ep_event(be, &evs[i]);
	now = run_now();
	for (int i = 0; i < EP_TIMERS; i++) {
		if (be->timers[i].armed && be->timers[i].at <= now) {
			be->timers[i].armed = false;
			ep_complete(be, be->timers[i].data, -ETIME);
		}
	}
	/* in order, those there now: what the handlers complete (cancels)
	 * waits for the next wait */
	for (uint32_t n = be->nready; n > 0; n--) {
		struct ep_done d = be->ready[be->ready_head];

		be->ready_head = (be->ready_head + 1) % (be->nops + EP_TIMERS);
		be->nready--;
		if (done(arg, d.data, d.res))
			break;
	}
	return 0;
}

static void ep_close(struct loop_be *be)
{
	close(be->epfd);
	free(be->ready);
	free(be->free);
	free(be->ops);
	free(be);
}

const struct loop_ops loop_epoll_ops = {
	.name = "epoll",
	.open = ep_open,
	.read = ep_read,
	.write = ep_write,
	.poll = ep_poll,
	.timer = ep_timer,
	.cancel = ep_cancel,
	.wait = ep_wait,
	.close = ep_close,
};
