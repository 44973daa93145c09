/*
 * The event loop: one wait carries every wait of shmrun, through one of the
 * two backends of loop.h (io_uring or epoll; this file is the same for
 * both).
 *
 * Armed while the job runs (an operation's data is its kind and index):
 *   - one read per open output pipe, into the stream's buffer after what it
 *     holds, armed again after each completion until EOF;
 *   - one poll per unreaped rank's pidfd: when it fires the rank has exited
 *     and waitid reaps it at once (without pidfds, before Linux 5.3, a
 *     SIGCHLD on the signalfd says that some have: waitid reaps them all);
 *   - one poll of the signalfd (shmrun blocks the signals it handles), which
 *     is then read without blocking: a signalfd read only ever reads the
 *     reading task's signals, so it must not go to an io_uring worker;
 *   - the RUN_TICK_MS tick (partial lines, stuck pipes, the watchdog), the
 *     --timeout timer and, once fate.c plans a SIGKILL, the grace timer
 *     (all absolute, on run_now()'s CLOCK_MONOTONIC);
 *   - the stdin relay (a terminal, see spawn.c): a poll of shmrun's stdin,
 *     a plain read, then writes to the pipe until all is written.
 * The loop ends once every rank is reaped and every pipe closed.  A pipe that
 * a rank's own children keep open after the last rank is gone gets
 * RUN_DRAIN_IDLE_MS of silence, then its read is cancelled.  The buffers that
 * reads target (the streams', the relay's) outlive the backend.
 *
 * SHMRUN_EVENT_LOOP chooses the backend: io_uring where the kernel offers
 * it and epoll otherwise (auto), or either one (README "Kernel features").
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loop.h"
#include "shmrun.h"

enum loop_ev {
	EV_READ = 1,	/* index: rank * RUN_NSTREAMS + stream */
	EV_EXIT,	/* index: rank */
	EV_SIGNAL,
	EV_TICK,
	EV_TIMEOUT,
	EV_GRACE,
	EV_STDIN_POLL,
	EV_STDIN_WRITE,
};

#define LOOP_DATA(kind, index) ((uint64_t)(kind) << 32 | (uint32_t)(index))
#define LOOP_RELAY_BUF 4096

/* The signals shmrun handles, unless it started with them ignored; SIGCHLD
 * (which main.c never leaves ignored) for ranks without a pidfd. */
static const int loop_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGCONT, SIGCHLD,
};

/* The backends, in the order of SHMRUN_EVENT_LOOP's choices after auto. */
static const struct loop_ops *const loop_backends[] = {
	[RUN_LOOP_IO_URING] = &loop_uring_ops,
	[RUN_LOOP_EPOLL] = &loop_epoll_ops,
};

enum relay_state { RELAY_OFF, RELAY_POLL, RELAY_WRITE };

struct run_loop {
	const struct loop_ops *ops;
	struct loop_be *be;
	int uring_err;			/* why auto did not get io_uring, or 0 */
	int sigfd;
	int err;			/* the first error; ends the loop */
	bool grace_armed;
	bool reads_stopped;		/* gave up on stuck pipes */
	uint64_t last_data;		/* when output last arrived */
	enum relay_state relay;
	size_t relay_len, relay_off;
	char relay_buf[LOOP_RELAY_BUF];
};

/* An operation was armed, or not: the first failure ends the loop. */
static bool loop_armed(struct run_loop *l, int rc)
{
	if (rc < 0 && !l->err)
		l->err = rc;
	return rc == 0;
}

static void loop_poll(struct run_loop *l, int fd, uint64_t data)
{
	loop_armed(l, l->ops->poll(l->be, fd, data));
}

static void loop_cancel(struct run_loop *l, uint64_t target)
{
	loop_armed(l, l->ops->cancel(l->be, target));
}

static void loop_timer(struct run_loop *l, enum loop_ev kind, uint64_t at)
{
	loop_armed(l, l->ops->timer(l->be, at, LOOP_DATA(kind, 0)));
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
	uint64_t data = LOOP_DATA(EV_READ, r * RUN_NSTREAMS + s);

	if (l->reads_stopped || run_out_dest_dead(o->dest)) {
		/* closing the read end gives the rank EPIPE, as the
		 * destination's reader did to us */
		loop_stream_end(job, r, s);
		return;
	}
	o->reading = loop_armed(l, l->ops->read(l->be, o->fd, o->buf + o->len,
						 RUN_OUT_BUF - o->len, data));
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

/* Rank r is gone, as waitid says in si. */
static void loop_reaped(struct run_loop *l, struct run_job *job, int r, const siginfo_t *si)
{
	struct run_rank *rank = &job->ranks[r];

	rank->code = si->si_code;
	rank->status = si->si_status;
	if (r == 0)
		loop_relay_stop(l, job);
	run_fate_reaped(job, r);
	if (job->nlive == 0)
		l->last_data = run_now();
}

/* Rank r's pidfd fired.  Reaped by pid: an unreaped child's pid is its
 * own (waitid's P_PIDFD needs Linux 5.4, a year after the pidfds). */
static void loop_exit_done(struct run_loop *l, struct run_job *job, int r, int res)
{
	struct run_rank *rank = &job->ranks[r];
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (res < 0 && res != -EINTR && res != -EAGAIN) {
		l->err = res;
		return;
	}
	if (res >= 0 && waitid(P_PID, (id_t)rank->pid, &si, WEXITED | WNOHANG) < 0 &&
	    errno != EINTR) {
		l->err = -errno;
		return;
	}
	if (si.si_pid == 0) {
		/* not gone after all (or interrupted): wait on */
		loop_poll(l, rank->pidfd, LOOP_DATA(EV_EXIT, r));
		return;
	}
	loop_reaped(l, job, r, &si);
}

/* Without pidfds (spawn.c) a SIGCHLD says that ranks exited, how many it
 * does not say: reap every child that has.  shmrun's only children are
 * its ranks. */
static void loop_reap_children(struct run_loop *l, struct run_job *job)
{
	siginfo_t si;

	for (;;) {
		memset(&si, 0, sizeof(si));
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG) < 0) {
			if (errno == EINTR)
				continue;
			if (errno != ECHILD && !l->err)
				l->err = -errno;
			return;
		}
		if (si.si_pid == 0)
			return;
		for (int r = 0; r < job->nspawned; r++) {
			if (job->ranks[r].pid == si.si_pid && !job->ranks[r].reaped) {
				loop_reaped(l, job, r, &si);
				break;
			}
		}
	}
}

static void loop_signal_done(struct run_loop *l, struct run_job *job, int res)
{
	struct signalfd_siginfo ssi;

	if (res < 0 && res != -EINTR && res != -EAGAIN) {
		l->err = res;
		return;
	}
	while (read(l->sigfd, &ssi, sizeof(ssi)) == (ssize_t)sizeof(ssi)) {
		if (ssi.ssi_signo != SIGCHLD)
			run_fate_signal(job, (int)ssi.ssi_signo);
		else if (job->pidfd_err)
			loop_reap_children(l, job);
	}
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
	loop_timer(l, EV_TICK, now + RUN_TICK_MS * RUN_NS_PER_MS);
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
	if (loop_armed(l, l->ops->write(l->be, job->relay_fd, l->relay_buf + l->relay_off,
					l->relay_len - l->relay_off,
					LOOP_DATA(EV_STDIN_WRITE, 0))))
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
	}
}

struct loop_arg {
	struct run_loop *l;
	struct run_job *job;
};

static int loop_done(void *arg, uint64_t data, int res)
{
	struct loop_arg *a = arg;

	loop_handle(a->l, a->job, data, res);
	return a->l->err;
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

int run_loop_new(struct run_loop **loopp, int nranks, int sigfd, enum run_loop_kind kind)
{
	struct run_loop *l;
	int rc;

	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->sigfd = sigfd;
	l->ops = loop_backends[kind == RUN_LOOP_AUTO ? RUN_LOOP_IO_URING : kind];
	rc = l->ops->open(&l->be, nranks);
	if (rc < 0 && kind == RUN_LOOP_AUTO) {
		/* no io_uring here (too old a kernel, or refused): epoll does
		 * the same, a system call per event */
		l->uring_err = rc;
		l->ops = loop_backends[RUN_LOOP_EPOLL];
		rc = l->ops->open(&l->be, nranks);
	}
	if (rc < 0) {
		free(l);
		return rc;
	}
	*loopp = l;
	return 0;
}

const char *run_loop_name(const struct run_loop *l)
{
	return l->ops->name;
}

int run_loop_fallback(const struct run_loop *l)
{
	return l->uring_err;
}

int run_loop_run(struct run_loop *l, struct run_job *job)
{
	struct loop_arg arg = { l, job };
	int rc;

	l->last_data = run_now();
	rc = run_watch_start(job);
	if (rc < 0)
		return rc;
	loop_poll(l, l->sigfd, LOOP_DATA(EV_SIGNAL, 0));
	loop_timer(l, EV_TICK, l->last_data + RUN_TICK_MS * RUN_NS_PER_MS);
	if (job->opts->timeout_s > 0)
		loop_timer(l, EV_TIMEOUT, job->start +
			   (uint64_t)(job->opts->timeout_s * (double)RUN_NS_PER_S));
	for (int r = 0; r < job->nspawned; r++) {
		if (job->ranks[r].pidfd >= 0)
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
			loop_timer(l, EV_GRACE, job->kill_at);
			l->grace_armed = true;
		}
		rc = l->ops->wait(l->be, loop_done, &arg);
		if (rc < 0 && !l->err)
			l->err = rc;
	}
	run_watch_stop(job);
	return l->err;
}

void run_loop_free(struct run_loop *l)
{
	if (!l)
		return;
	/* drops what is still armed: the signal poll, the timers, and after
	 * run_fate_abandon the reads (their buffers are still there) */
	l->ops->close(l->be);
	free(l);
}
