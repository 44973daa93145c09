/*
 * shmrun's private interfaces.
 *
 * main.c parses the options (options.c), resolves the program (spawn.c),
 * blocks shmrun's signals (loop.c), creates the job's control segment
 * (job.c), sets up the event loop (loop.c), forks the ranks (spawn.c) and
 * runs the loop until every rank is reaped and every output pipe drained.
 * The loop hands the ranks' output to output.c and their exits, shmrun's
 * signals and the timers to fate.c, which decides how the job ends and what
 * shmrun exits with; on every tick watch.c reads what the ranks publish and
 * tells fate.c when the job is deadlocked or stalled.  Everything is
 * single-threaded: the loop is the only place that waits, on io_uring
 * (loop_uring.c) or epoll (loop_epoll.c) behind loop.h.
 */
#ifndef RUN_SHMRUN_H
#define RUN_SHMRUN_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "../../shm/job.h"
#include "../../shm/seg.h"

/* What shmrun exits with, besides a rank's own status. */
#define RUN_EXIT_WATCHDOG	123	/* a deadlock, or a stall nothing can end */
#define RUN_EXIT_TIMEOUT	124	/* --timeout expired */
#define RUN_EXIT_USAGE		125	/* bad usage or shmrun's own error */
#define RUN_EXIT_NOEXEC		126	/* the program is not executable */
#define RUN_EXIT_NOTFOUND	127	/* the program does not exist */
#define RUN_EXIT_SIGNAL		128	/* + the signal that killed it */

#define RUN_MAX_RANKS		4096
#define RUN_OUT_BUF		(64 * 1024)	/* per stream; longer lines go in pieces */
#define RUN_TICK_MS		100		/* housekeeping period of the loop */
#define RUN_PARTIAL_MS		200		/* untagged partial lines wait this long */
#define RUN_DRAIN_IDLE_MS	1000		/* pipes kept open by a rank's children */

#define RUN_NS_PER_MS		1000000ULL
#define RUN_NS_PER_S		1000000000ULL

static inline uint64_t run_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * RUN_NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* ---- options.c ---- */

/* --stall-action */
enum run_stall_action {
	RUN_STALL_AUTO,		/* kill when nothing else can move, else report */
	RUN_STALL_REPORT,
	RUN_STALL_KILL,
};

struct run_opts {
	long nranks;		/* 0 until -n is given */
	double timeout_s;	/* 0: none */
	double grace_s;
	double deadlock_s;	/* the watchdog's timeout; 0: no watchdog */
	enum run_stall_action stall_action;
	bool report_on_timeout;
	long bind_to;		/* enum shm_knob_bind */
	long map_by;		/* index into SHMPI_MAP_BY's choices */
	bool report_bindings;
	bool info;
	cpu_set_t *bind_cpus;	/* each rank's CPUs (bind.c), or NULL: unbound */
	bool tag_output;
	bool verbose;
	bool cleanup;
	bool help;
	bool version;
	const char **xvars;	/* the -x arguments, in order */
	size_t nxvars;
	char **owned;		/* the -genv assignments that xvars points to */
	size_t nowned;
	char **argv;		/* the program and its arguments, NULL-terminated */
};

/* Fill o from argv.  0: run the job (or the action asked for); -EINVAL:
 * bad usage, already reported; -ENOMEM. */
int run_opts_parse(struct run_opts *o, int argc, char **argv);
void run_opts_free(struct run_opts *o);
void run_opts_help(void);
/* Append "VAR=VALUE" (which must outlive o) to the ranks' environment. */
int run_opts_setenv(struct run_opts *o, const char *assignment);

/* ---- bind.c and info.c ---- */

/* Plan --bind-to/--map-by into o->bind_cpus (NULL for none) and tell the
 * ranks the policy applied; errors are reported (-ENOENT: the machine has
 * no such object). */
int run_bind_plan(struct run_opts *o);
/* shmrun --info: the machine, the version, the build, every knob. */
int run_info(void);

/* ---- output.c ---- */

enum run_stream { RUN_STDOUT, RUN_STDERR, RUN_NSTREAMS };

/* One output pipe of one rank and the unfinished line read from it. */
struct run_out {
	int fd;			/* the pipe's read end; -1 once closed */
	int dest;		/* STDOUT_FILENO or STDERR_FILENO */
	int rank;
	bool tag;		/* --tag-output */
	bool reading;		/* a read into buf is in flight (loop.c) */
	char *buf;		/* RUN_OUT_BUF bytes */
	size_t len;		/* bytes held: the start of an unfinished line */
	size_t sent;		/* of those, already written (untagged) */
	uint64_t held_since;	/* when the oldest unwritten byte arrived */
};

int run_out_init(struct run_out *o, int rank, int fd, int dest, bool tag);
/* n new bytes arrived at buf + len: write out every finished line. */
void run_out_data(struct run_out *o, size_t n, uint64_t now);
/* Write an untagged partial line that has waited long enough.  The only
 * call made while a read into buf + len is in flight: it moves nothing. */
void run_out_tick(struct run_out *o, uint64_t now);
/* The pipe is done: write what is held and close the fd (buf stays). */
void run_out_eof(struct run_out *o);
void run_out_free(struct run_out *o);
/* Whether writing to dest failed for good (its reader went away). */
bool run_out_dest_dead(int dest);
/* shmrun's own message, one line on stderr, prefixed "shmrun: ". */
void run_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* copy.c: one-copy transfers between the ranks.  Whether process_vm_readv
 * works between two children set up as ranks are (0, or -errno); the
 * line of --info; what a job's ranks found, for --verbose. */
int run_copy_probe(void);
void run_copy_info(void);
struct run_job;
void run_copy_verbose(const struct run_job *job);

/* ---- job.c and fate.c: the job and how it ends ---- */

enum run_end {
	RUN_END_NONE,		/* running, or every rank succeeded */
	RUN_END_FAILED,		/* a rank failed; exit_code is its status */
	RUN_END_ABORTED,	/* a rank called MPI_Abort */
	RUN_END_SIGNAL,		/* shmrun got a signal */
	RUN_END_TIMEOUT,	/* --timeout expired */
	RUN_END_WATCHDOG,	/* the watchdog found a deadlock or a stall */
	RUN_END_ERROR,		/* shmrun's own error */
};

struct run_rank {
	pid_t pid;
	int pidfd;		/* -1 once reaped, or without pidfds */
	bool reaped;
	int code;		/* si_code: CLD_EXITED, CLD_KILLED or CLD_DUMPED */
	int status;		/* exit status or signal number */
	struct run_out out[RUN_NSTREAMS];
};

struct run_job {
	const struct run_opts *opts;
	int nranks;
	char id[SHM_JOB_ID_LEN + 1];
	struct shm_seg ctl;
	struct shm_job_hdr *hdr;
	struct run_rank *ranks;
	pid_t pgid;		/* the ranks' process group */
	int nspawned;
	int nlive;		/* spawned and not reaped */
	int nopen;		/* output pipes not closed */
	int relay_fd;		/* write end of rank 0's stdin, or -1 */
	int pidfd_err;		/* pidfd_open's error (spawn.c), or 0 */
	uint64_t start;
	struct run_watch *watch;	/* watch.c; while the loop runs */
	/* fate.c */
	enum run_end end;
	int exit_code;		/* with RUN_END_FAILED */
	int end_rank;		/* the failing or aborting rank, or -1 */
	int signo;		/* with RUN_END_SIGNAL: the first signal */
	bool reported;		/* end_rank's fate printed */
	uint64_t kill_at;	/* when the rest get SIGKILL; 0: not planned */
	bool killed;		/* SIGKILL sent */
};

/* Create the control segment (after removing dead jobs' leftovers) and
 * the rank table; run_job_destroy undoes it and unlinks every /dev/shm
 * object of the job. */
int run_job_create(struct run_job *job, const struct run_opts *opts);
void run_job_destroy(struct run_job *job);

/* The loop reaped rank r (code and status are set). */
void run_fate_reaped(struct run_job *job, int r);
/* Rank r's output pipe closed. */
void run_fate_drained(struct run_job *job, int r);
void run_fate_signal(struct run_job *job, int signo);
void run_fate_timeout(struct run_job *job);
/* The watchdog's verdict, already reported: end the job. */
void run_fate_watchdog(struct run_job *job);
/* The grace period after SIGTERM is over. */
void run_fate_grace(struct run_job *job);
/* shmrun cannot go on: kill and reap every rank now, without the loop. */
void run_fate_abandon(struct run_job *job);
/* What shmrun exits with; prints the failing rank's fate if not yet done. */
int run_fate_exit_code(struct run_job *job);

/* ---- spawn.c ---- */

/* An environment variable every rank gets, and what it holds. */
enum run_env_value { RUN_ENV_RANK, RUN_ENV_SIZE, RUN_ENV_JOB };

struct run_env_var {
	const char *name;
	enum run_env_value value;
};

extern const struct run_env_var run_env_vars[];
extern const size_t run_env_nvars;

/* Remember the signal dispositions and fd limit shmrun started with: the
 * ranks get them back.  Call first. */
void run_spawn_save_entry(void);
/* The path prog runs from: as given when it holds a '/', else found in
 * PATH.  -ENOENT: not found; -EACCES: not an executable file. */
int run_prog_resolve(const char *prog, char **path);
/* Fork and exec every rank; on error job->nspawned ranks are running. */
int run_spawn_all(struct run_job *job, const char *path);

/* ---- watch.c ---- */

/* The watchdog's memory of the ranks, for job->watch (-ENOMEM). */
int run_watch_start(struct run_job *job);
void run_watch_stop(struct run_job *job);
/* A tick of the loop: look at the ranks, report and end the job when
 * they are deadlocked or stalled. */
void run_watch_tick(struct run_job *job, uint64_t now);
/* --report-on-timeout: print what every rank is doing. */
void run_watch_report(struct run_job *job);

/* ---- loop.c ---- */

struct run_loop;

/* SHMRUN_EVENT_LOOP's values (the order of its choices). */
enum run_loop_kind { RUN_LOOP_AUTO, RUN_LOOP_IO_URING, RUN_LOOP_EPOLL };

/* Block the signals shmrun handles and return a signalfd for them: before
 * the job exists, so no signal kills shmrun with the job half made. */
int run_loop_signals(int *sigfdp);
/* The loop, sized for nranks, on the backend kind asks for (auto: io_uring,
 * else epoll); it reads sigfd but does not own it.  Fails with the
 * backend's error: for io_uring, why the kernel does not offer it. */
int run_loop_new(struct run_loop **loopp, int nranks, int sigfd, enum run_loop_kind kind);
/* The backend it runs on: "io_uring" or "epoll". */
const char *run_loop_name(const struct run_loop *loop);
/* Why auto fell back to epoll (io_uring's error), or 0. */
int run_loop_fallback(const struct run_loop *loop);
/* Run until every rank is reaped and every pipe drained. */
int run_loop_run(struct run_loop *loop, struct run_job *job);
void run_loop_free(struct run_loop *loop);

#endif
