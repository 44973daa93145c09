/*
 * shmrun: start an shmpi job of N ranks on this machine and see it through.
 *
 * In order: parse the options; resolve the program (exit 127 or 126 before
 * anything exists); block the signals shmrun handles; create the job's
 * control segment; set up the event loop; fork the ranks; run the loop until
 * every rank is reaped and its output drained; tear down in reverse order,
 * which unlinks every /dev/shm object of the job; exit with what fate.c
 * decided.  Once the job exists, every way out (success, failure, signal,
 * timeout, shmrun's own error) passes run_job_destroy, and only after every
 * rank is reaped, so no rank can create an object after the sweep.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "../../shm/knob.h"
#include "shmrun.h"

/* fds 0-2 closed at start would be taken by pipes and then clobbered */
static void main_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    open("/dev/null", O_RDWR) != fd)
			exit(RUN_EXIT_USAGE);
	}
}

static int main_cleanup(void)
{
	int rc = shm_job_cleanup_dead(geteuid(), SHM_JOB_CLEANUP_GRACE_S);

	if (rc < 0) {
		run_msg("cleanup: %s", strerror(-rc));
		return RUN_EXIT_USAGE;
	}
	printf("removed %d objects of dead jobs\n", rc);
	return 0;
}

/* Each rank holds three fds in shmrun (two pipes, a pidfd): raise the soft
 * limit when that needs it (the ranks get the old limit back). */
static void main_fd_limit(long nranks)
{
	rlim_t need = 3 * (rlim_t)nranks + 32;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= need)
		return;
	rl.rlim_cur = rl.rlim_max < need ? rl.rlim_max : need;
	setrlimit(RLIMIT_NOFILE, &rl);
}

static void main_verbose(const struct run_job *job, const char *path,
			 const struct run_loop *loop)
{
	cpu_set_t cpus;
	int ncpus = 0;

	if (sched_getaffinity(0, sizeof(cpus), &cpus) == 0)
		ncpus = CPU_COUNT(&cpus);
	run_msg("job %s: %d rank%s of %s", job->id, job->nranks,
		job->nranks > 1 ? "s" : "", path);
	if (ncpus > 0 && job->nranks > ncpus)
		run_msg("%d ranks on %d CPUs: oversubscribed (fine: waiting ranks sleep)",
			job->nranks, ncpus);
	if (run_loop_fallback(loop))
		run_msg("event loop: %s (io_uring unavailable: %s)", run_loop_name(loop),
			strerror(-run_loop_fallback(loop)));
	else
		run_msg("event loop: %s", run_loop_name(loop));
}

/* The event loop SHMRUN_EVENT_LOOP asks for (checked with the options). */
static int main_loop_new(struct run_loop **loopp, const struct run_job *job, int sigfd)
{
	long kind = RUN_LOOP_AUTO;
	int rc;

	(void)shm_knob_get(SHM_KNOB_EVENT_LOOP, &kind);
	rc = run_loop_new(loopp, job->nranks, sigfd, (enum run_loop_kind)kind);
	if (rc >= 0)
		return 0;
	if (kind == RUN_LOOP_IO_URING)
		run_msg("%s=io_uring, but io_uring is unavailable: %s (it needs Linux 5.6 "
			"or later, not disabled by kernel.io_uring_disabled or a seccomp "
			"filter; %s=auto falls back to epoll)",
			shm_knobs[SHM_KNOB_EVENT_LOOP].name, strerror(-rc),
			shm_knobs[SHM_KNOB_EVENT_LOOP].name);
	else
		run_msg("setting up the event loop (%s): %s",
			kind == RUN_LOOP_EPOLL ? "epoll" : "io_uring, then epoll", strerror(-rc));
	return rc;
}

static int main_prog_error(const char *prog, int rc)
{
	if (rc == -ENOENT) {
		run_msg("%s: not found", prog);
		return RUN_EXIT_NOTFOUND;
	}
	if (rc == -EACCES) {
		run_msg("%s: not an executable file", prog);
		return RUN_EXIT_NOEXEC;
	}
	run_msg("%s: %s", prog, strerror(-rc));
	return RUN_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	struct run_loop *loop;
	struct run_opts opts;
	struct run_job job;
	char *path = NULL;
	int rc, code, sigfd;

	main_std_fds();
	run_spawn_save_entry();
	if (run_opts_parse(&opts, argc, argv) < 0)
		return RUN_EXIT_USAGE;
	code = 0;
	if (opts.help) {
		run_opts_help();
		goto out_opts;
	}
	if (opts.version) {
		printf("shmrun (shmpi %s)\n", SHMPI_VERSION);
		goto out_opts;
	}
	if (opts.cleanup) {
		code = main_cleanup();
		goto out_opts;
	}
	if (opts.info) {
		code = run_info();
		goto out_opts;
	}
	rc = run_prog_resolve(opts.argv[0], &path);
	if (rc < 0) {
		code = main_prog_error(opts.argv[0], rc);
		goto out_opts;
	}
	code = RUN_EXIT_USAGE;
	if (run_bind_plan(&opts) < 0)
		goto out_path;
	main_fd_limit(opts.nranks);
	/* a closed stdout is EPIPE for output.c, not the end of shmrun */
	signal(SIGPIPE, SIG_IGN);
	/* ignored, the ranks would be reaped by nobody's waitid */
	signal(SIGCHLD, SIG_DFL);
	code = RUN_EXIT_USAGE;
	rc = run_loop_signals(&sigfd);
	if (rc < 0) {
		run_msg("blocking signals: %s", strerror(-rc));
		goto out_path;
	}
	rc = run_job_create(&job, &opts);
	if (rc < 0) {
		run_msg("creating the job's control segment (%zu MiB in /dev/shm): %s",
			(shm_job_size((uint32_t)opts.nranks) + (1 << 20) - 1) >> 20,
			strerror(-rc));
		goto out_sigfd;
	}
	if (main_loop_new(&loop, &job, sigfd) < 0)
		goto out_job;
	if (opts.verbose)
		main_verbose(&job, path, loop);
	rc = run_spawn_all(&job, path);
	if (rc < 0) {
		run_msg("starting rank %d: %s", job.nspawned, strerror(-rc));
		run_fate_abandon(&job);
	} else {
		rc = run_loop_run(loop, &job);
		if (rc < 0) {
			run_msg("event loop: %s", strerror(-rc));
			run_fate_abandon(&job);
		}
	}
	code = run_fate_exit_code(&job);
	if (opts.verbose)
		run_copy_verbose(&job);
	run_loop_free(loop);
out_job:
	run_job_destroy(&job);
out_sigfd:
	close(sigfd);
out_path:
	free(path);
out_opts:
	run_opts_free(&opts);
	return code;
}
