/*
 * The event loop: one io_uring carries every wait of shmrun.
 *
 * In flight while the job runs (an op's user_data is its kind and index):
 *   - one read per open output pipe, into the stream's buffer after what it
 *     holds, armed again after each completion until EOF;
 *   - one poll per unreaped rank's pidfd: when it fires the rank has exited
 *     and waitid(P_PIDFD) reaps it at once;
 *   - one poll of the signalfd (shmrun blocks the signals it handles), which
 *     is then read without blocking: a signalfd read only ever reads the
 *     reading task's signals, so it must not go to an io_uring worker;
 *   - the RUN_TICK_MS tick (partial lines, stuck pipes, the watchdog), the
 *     --timeout timer and, once fate.c plans a SIGKILL, the grace timer
 *     (both absolute, on CLOCK_MONOTONIC);
 *   - the stdin relay (a terminal, see spawn.c): a poll of shmrun's stdin,
 *     a plain read, then writes to the pipe until all is written.
 * The loop ends once every rank is reaped and every pipe closed.  A pipe that
 * a rank's own children keep open after the last rank is gone gets
 * RUN_DRAIN_IDLE_MS of silence, then its read is cancelled.  The buffers that
 * reads target (the streams', the relay's) outlive the ring.
 */
#include <errno.h>
#include <liburing.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shmrun.h"

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

enum loop_ev {
	EV_READ = 1,	/* index: rank * RUN_NSTREAMS + stream */
	EV_EXIT,	/* index: rank */
	EV_SIGNAL,
	EV_TICK,
	EV_TIMEOUT,
	EV_GRACE,
	EV_STDIN_POLL,
	EV_STDIN_WRITE,
	EV_CANCEL,	/* the completion of a cancel request itself */
};

#define LOOP_DATA(kind, index) ((uint64_t)(kind) << 32 | (uint32_t)(index))
#define LOOP_RELAY_BUF 4096

/* The signals shmrun handles, unless it started with them ignored. */
static const int loop_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGCONT,
};

enum relay_state { RELAY_OFF, RELAY_POLL, RELAY_WRITE };

struct run_loop {
	struct io_uring ring;
	int sigfd;
	int err;			/* the first error; ends the loop */
	bool grace_armed;
	bool reads_stopped;		/* gave up on stuck pipes */
	uint64_t last_data;		/* when output last arrived */
	struct __kernel_timespec tick_ts, timeout_ts, grace_ts;
	enum relay_state relay;
	size_t relay_len, relay_off;
	char relay_buf[LOOP_RELAY_BUF];
};

/* A free SQE; the caller preps it and sets its user_data. */
static struct io_uring_sqe *loop_sqe(struct run_loop *l)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&l->ring);

	if (!sqe) {
		/* the ring holds in-flight ops, not queued ones: make room */
		io_uring_submit(&l->ring);
		sqe = io_uring_get_sqe(&l->ring);
	}
	if (!sqe) {
		if (!l->err)
			l->err = -EBUSY;
		return NULL;
	}
	return sqe;
}

static void loop_poll(struct run_loop *l, int fd, uint64_t data)
{
	struct io_uring_sqe *sqe = loop_sqe(l);

	if (sqe) {
		io_uring_prep_poll_add(sqe, fd, POLLIN);
		io_uring_sqe_set_data64(sqe, data);
	}
}

static void loop_cancel(struct run_loop *l, uint64_t target)
{
	struct io_uring_sqe *sqe = loop_sqe(l);

	if (sqe) {
		io_uring_prep_cancel64(sqe, target, 0);
		io_uring_sqe_set_data64(sqe, LOOP_DATA(EV_CANCEL, 0));
	}
}

static void loop_timer(struct run_loop *l, enum loop_ev kind,
		       struct __kernel_timespec *ts, uint64_t ns, unsigned flags)
{
	struct io_uring_sqe *sqe = loop_sqe(l);

	if (!sqe)
		return;
	ts->tv_sec = (long long)(ns / RUN_NS_PER_S);
	ts->tv_nsec = (long long)(ns % RUN_NS_PER_S);
	io_uring_prep_timeout(sqe, ts, 0, flags);
	io_uring_sqe_set_data64(sqe, LOOP_DATA(kind, 0));
}

/* ---- the ranks' output ---- */

static void loop_stream_end(struct run_job *job, int r, int s)
{
	run_out_eof(&job->ranks[r].out[s]);
	job->nopen--;
	run_fate_drained(job, r);
}

static void loop_read(struct run_loop *l, struct run_job *job, int r, int s)
{
	struct run_out *o = &job->ranks[r].out[s];
	struct io_uring_sqe *sqe;
	uint64_t data = LOOP_DATA(EV_READ, r * RUN_NSTREAMS + s);

	if (l->reads_stopped || run_out_dest_dead(o->dest)) {
		/* closing the read end gives the rank EPIPE, as the
		 * destination's reader did to us */
		loop_stream_end(job, r, s);
		return;
	}
	sqe = loop_sqe(l);
	if (!sqe)
		return;
	io_uring_prep_read(sqe, o->fd, o->buf + o->len, RUN_OUT_BUF - (unsigned)o->len, 0);
	io_uring_sqe_set_data64(sqe, data);
	o->reading = true;
}

static void loop_read_done(struct run_loop *l, struct run_job *job, unsigned idx, int res)
{
	int r = (int)(idx / RUN_NSTREAMS), s = (int)(idx % RUN_NSTREAMS);
	struct run_out *o = &job->ranks[r].out[s];

	o->reading = false;
	if (res > 0) {
		l->last_data = run_now();
		run_out_data(o, (size_t)res, l->last_data);
		loop_read(l, job, r, s);
	} else if (res == -EINTR || res == -EAGAIN) {
		loop_read(l, job, r, s);
	} else {
		if (res < 0 && res != -ECANCELED)
			run_msg("reading rank %d's %s: %s", r,
				s == RUN_STDOUT ? "stdout" : "stderr", strerror(-res));
		loop_stream_end(job, r, s);
	}
}

/* After the last rank, give up on pipes its children hold open. */
static void loop_stop_reads(struct run_loop *l, struct run_job *job)
{
	l->reads_stopped = true;
	for (int r = 0; r < job->nspawned; r++) {
		for (int s = 0; s < RUN_NSTREAMS; s++) {
			if (job->ranks[r].out[s].reading)
				loop_cancel(l, LOOP_DATA(EV_READ, r * RUN_NSTREAMS + s));
		}
	}
}

/* ---- exits, signals, time ---- */

static void loop_relay_stop(struct run_loop *l, struct run_job *job);

static void loop_exit_done(struct run_loop *l, struct run_job *job, int r, int res)
{
	struct run_rank *rank = &job->ranks[r];
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (res < 0 && res != -EINTR && res != -EAGAIN) {
		l->err = res;
		return;
	}
	if (res >= 0 && waitid((idtype_t)P_PIDFD, (id_t)rank->pidfd, &si,
			       WEXITED | WNOHANG) < 0 && errno != EINTR) {
		l->err = -errno;
		return;
	}
	if (si.si_pid == 0) {
		/* not gone after all (or interrupted): wait on */
		loop_poll(l, rank->pidfd, LOOP_DATA(EV_EXIT, r));
		return;
	}
	rank->code = si.si_code;
	rank->status = si.si_status;
	if (r == 0)
		loop_relay_stop(l, job);
	run_fate_reaped(job, r);
	if (job->nlive == 0)
		l->last_data = run_now();
}

static void loop_signal_done(struct run_loop *l, struct run_job *job, int res)
{
	struct signalfd_siginfo ssi;

	if (res < 0 && res != -EINTR && res != -EAGAIN) {
		l->err = res;
		return;
	}
	while (read(l->sigfd, &ssi, sizeof(ssi)) == (ssize_t)sizeof(ssi))
		run_fate_signal(job, (int)ssi.ssi_signo);
	loop_poll(l, l->sigfd, LOOP_DATA(EV_SIGNAL, 0));
}

static void loop_tick(struct run_loop *l, struct run_job *job)
{
	uint64_t now = run_now();

	for (int r = 0; r < job->nspawned; r++) {
		for (int s = 0; s < RUN_NSTREAMS; s++) {
			if (job->ranks[r].out[s].fd >= 0)
				run_out_tick(&job->ranks[r].out[s], now);
		}
	}
	if (job->nlive == 0 && job->nopen > 0 && !l->reads_stopped &&
	    now - l->last_data >= RUN_DRAIN_IDLE_MS * RUN_NS_PER_MS)
		loop_stop_reads(l, job);
	run_watch_tick(job, now);
	loop_timer(l, EV_TICK, &l->tick_ts, RUN_TICK_MS * RUN_NS_PER_MS, 0);
}

/* ---- rank 0's stdin, when it is shmrun's terminal ---- */

static void loop_relay_stop(struct run_loop *l, struct run_job *job)
{
	if (l->relay == RELAY_POLL)
		loop_cancel(l, LOOP_DATA(EV_STDIN_POLL, 0));
	l->relay = RELAY_OFF;
	if (job->relay_fd >= 0)
		close(job->relay_fd);	/* rank 0 reads EOF */
	job->relay_fd = -1;
}

static void loop_relay_write(struct run_loop *l, struct run_job *job)
{
	struct io_uring_sqe *sqe = loop_sqe(l);

	if (!sqe)
		return;
	io_uring_prep_write(sqe, job->relay_fd, l->relay_buf + l->relay_off,
			    (unsigned)(l->relay_len - l->relay_off), 0);
	io_uring_sqe_set_data64(sqe, LOOP_DATA(EV_STDIN_WRITE, 0));
	l->relay = RELAY_WRITE;
}

static void loop_relay_poll_done(struct run_loop *l, struct run_job *job, int res)
{
	ssize_t n;

	if (l->relay != RELAY_POLL)
		return;
	if (res < 0) {
		loop_relay_stop(l, job);
		return;
	}
	n = read(STDIN_FILENO, l->relay_buf, sizeof(l->relay_buf));
	if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
		loop_poll(l, STDIN_FILENO, LOOP_DATA(EV_STDIN_POLL, 0));
		return;
	}
	if (n <= 0) {
		loop_relay_stop(l, job);
		return;
	}
	l->relay_len = (size_t)n;
	l->relay_off = 0;
	loop_relay_write(l, job);
}

static void loop_relay_write_done(struct run_loop *l, struct run_job *job, int res)
{
	if (l->relay != RELAY_WRITE)
		return;
	if (res <= 0 && res != -EINTR && res != -EAGAIN) {
		loop_relay_stop(l, job);	/* EPIPE: rank 0 closed its stdin */
		return;
	}
	if (res > 0)
		l->relay_off += (size_t)res;
	if (l->relay_off < l->relay_len) {
		loop_relay_write(l, job);
		return;
	}
	l->relay = RELAY_POLL;
	loop_poll(l, STDIN_FILENO, LOOP_DATA(EV_STDIN_POLL, 0));
}

/* ---- the loop ---- */

static void loop_handle(struct run_loop *l, struct run_job *job, uint64_t data, int res)
{
	unsigned idx = (uint32_t)data;

	switch ((enum loop_ev)(data >> 32)) {
	case EV_READ:
		loop_read_done(l, job, idx, res);
		break;
	case EV_EXIT:
		loop_exit_done(l, job, (int)idx, res);
		break;
	case EV_SIGNAL:
		loop_signal_done(l, job, res);
		break;
	case EV_TICK:
		loop_tick(l, job);
		break;
	case EV_TIMEOUT:
		if (res == -ETIME)
			run_fate_timeout(job);
		break;
	case EV_GRACE:
		if (res == -ETIME)
			run_fate_grace(job);
		break;
	case EV_STDIN_POLL:
		loop_relay_poll_done(l, job, res);
		break;
	case EV_STDIN_WRITE:
		loop_relay_write_done(l, job, res);
		break;
	case EV_CANCEL:
		break;
	}
}

int run_loop_signals(int *sigfdp)
{
	sigset_t set;
	int fd;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(loop_signals) / sizeof(loop_signals[0]); i++) {
		struct sigaction sa;

		/* ignored when shmrun started (nohup, "&" in a script): stays so */
		if (sigaction(loop_signals[i], NULL, &sa) == 0 && sa.sa_handler != SIG_IGN)
			sigaddset(&set, loop_signals[i]);
	}
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -errno;
	fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (fd < 0) {
		fd = -errno;
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		return fd;
	}
	*sigfdp = fd;
	return 0;
}

int run_loop_new(struct run_loop **loopp, int nranks, int sigfd)
{
	/* in flight at most: 2 reads, a poll and 2 cancels per rank, and a
	 * few more; the completion queue is twice as big as this */
	unsigned entries = 5 * (unsigned)nranks + 16;
	struct run_loop *l;
	int rc;

	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->sigfd = sigfd;
	rc = io_uring_queue_init(entries, &l->ring, 0);
	if (rc < 0) {
		free(l);
		return rc;
	}
	*loopp = l;
	return 0;
}

int run_loop_run(struct run_loop *l, struct run_job *job)
{
	struct io_uring_cqe *cqe;
	int rc;

	l->last_data = run_now();
	rc = run_watch_start(job);
	if (rc < 0)
		return rc;
	loop_poll(l, l->sigfd, LOOP_DATA(EV_SIGNAL, 0));
	loop_timer(l, EV_TICK, &l->tick_ts, RUN_TICK_MS * RUN_NS_PER_MS, 0);
	if (job->opts->timeout_s > 0)
		loop_timer(l, EV_TIMEOUT, &l->timeout_ts, job->start +
			   (uint64_t)(job->opts->timeout_s * (double)RUN_NS_PER_S),
			   IORING_TIMEOUT_ABS);
	for (int r = 0; r < job->nspawned; r++) {
		loop_poll(l, job->ranks[r].pidfd, LOOP_DATA(EV_EXIT, r));
		for (int s = 0; s < RUN_NSTREAMS; s++)
			loop_read(l, job, r, s);
	}
	if (job->relay_fd >= 0) {
		l->relay = RELAY_POLL;
		loop_poll(l, STDIN_FILENO, LOOP_DATA(EV_STDIN_POLL, 0));
	}
	while (!l->err && (job->nlive > 0 || job->nopen > 0)) {
		if (job->kill_at && !l->grace_armed) {
			loop_timer(l, EV_GRACE, &l->grace_ts, job->kill_at, IORING_TIMEOUT_ABS);
			l->grace_armed = true;
		}
		rc = io_uring_submit_and_wait(&l->ring, 1);
		if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY) {
			l->err = rc;
			break;
		}
		while (!l->err && io_uring_peek_cqe(&l->ring, &cqe) == 0) {
			uint64_t data = io_uring_cqe_get_data64(cqe);
			int res = cqe->res;

			io_uring_cqe_seen(&l->ring, cqe);
			loop_handle(l, job, data, res);
		}
	}
	run_watch_stop(job);
	return l->err;
}

void run_loop_free(struct run_loop *l)
{
	if (!l)
		return;
	/* cancels what is still in flight: the signal poll, the timers, and
	 * after run_fate_abandon the reads (their buffers are still there) */
	io_uring_queue_exit(&l->ring);
	free(l);
}
