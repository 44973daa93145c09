/*
 * Starting the ranks.
 *
 * The program is resolved once, in shmrun, before the job exists: a missing
 * program is exit 127, one that is not an executable file exit 126.  Every
 * rank's environment (shmrun's, changed by -x, plus the rank variables) is
 * built before its fork, so the child allocates nothing.
 *
 * A rank is started with vfork: the child borrows shmrun's memory until it
 * execs, so no page table is copied (on a paravirtualized machine copying
 * them is most of a fork's cost), and shmrun waits, its signals blocked so
 * that no handler runs in the child, until the child has exec'ed or exited.
 * The child therefore writes no memory of shmrun's: it reads what shmrun
 * prepared (struct spawn_ctx), makes system calls, and reports an error with
 * writev of strings that already exist.  The one exception is errno, which
 * libc's wrappers set in the thread's storage the two share: shmrun reads
 * errno after vfork only when vfork itself failed, when no child ran.
 * Each child, before exec:
 *   1. asks for SIGKILL when shmrun dies (PR_SET_PDEATHSIG), then checks that
 *      shmrun did not die before that (getppid), so no rank outlives it;
 *   2. joins the ranks' process group, led by rank 0; shmrun is suspended
 *      until the child has exec'ed, so the group exists before the next
 *      rank is started, and a terminal's Ctrl-C is for shmrun alone to
 *      forward;
 *   3. takes its stdin (rank 0: shmrun's, or the relay pipe when that is a
 *      terminal; the others /dev/null) and its stdout and stderr pipes;
 *   4. gets back the fd limit and the signal dispositions shmrun started
 *      with (what shmrun ignored stays ignored, the rest is default: exec
 *      resets what has a handler, the child changes only the few signals
 *      shmrun itself ignored or stopped ignoring) and an empty signal mask;
 *   5. binds itself to its CPUs (--bind-to, planned in bind.c); a binding
 *      the kernel refuses ends the rank with status 125 and says why.
 * Every fd shmrun opens is close-on-exec, so a rank inherits only 0, 1, 2.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "shmrun.h"

extern char **environ;

const struct run_env_var run_env_vars[] = {
	{ "SHMPI_RANK", RUN_ENV_RANK },
	{ "SHMPI_SIZE", RUN_ENV_SIZE },
	{ "SHMPI_JOB", RUN_ENV_JOB },
	{ "PMI_RANK", RUN_ENV_RANK },
	{ "PMI_SIZE", RUN_ENV_SIZE },
	{ "OMPI_COMM_WORLD_RANK", RUN_ENV_RANK },
	{ "OMPI_COMM_WORLD_SIZE", RUN_ENV_SIZE },
	{ "OMPI_COMM_WORLD_LOCAL_RANK", RUN_ENV_RANK },
	{ "OMPI_COMM_WORLD_LOCAL_SIZE", RUN_ENV_SIZE },
};

#define SPAWN_NVARS (sizeof(run_env_vars) / sizeof(run_env_vars[0]))
const size_t run_env_nvars = SPAWN_NVARS;

#define SPAWN_VAR_MAX 64	/* "OMPI_COMM_WORLD_LOCAL_SIZE=4096", "SHMPI_JOB=<16>" */
#define SPAWN_PREFIX_MAX 64	/* "shmrun: binding rank 4095: " */
#define SPAWN_DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"

/* As shmrun found them: the ranks get them back. */
static sigset_t spawn_entry_ignored;
static struct rlimit spawn_entry_nofile;

/* What every child needs, prepared by the parent. */
struct spawn_ctx {
	const char *path;
	char **argv;
	char **sh_argv;			/* for a script without "#!" */
	char **envp;
	size_t nbase;			/* envp entries before the rank variables */
	char vars[SPAWN_NVARS][SPAWN_VAR_MAX];
	pid_t launcher;
	const cpu_set_t *cpus;		/* the binding of the rank being started, or NULL */
	char bind_msg[SPAWN_PREFIX_MAX];	/* "shmrun: binding rank R: " */
	/* the dispositions the child sets: those that exec would not give
	 * back as shmrun found them */
	int nsigs;
	int sigs[NSIG];
	bool sig_ignore[NSIG];
	bool restore_nofile;		/* shmrun raised its fd limit */
	int devnull;
	int relay_in;			/* read end of the relay pipe, or -1 */
};

void run_spawn_save_entry(void)
{
	sigemptyset(&spawn_entry_ignored);
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;

		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			sigaddset(&spawn_entry_ignored, sig);
	}
	if (getrlimit(RLIMIT_NOFILE, &spawn_entry_nofile) < 0)
		spawn_entry_nofile.rlim_cur = RLIM_INFINITY;
}

static int prog_check(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return errno == ENOENT || errno == ENOTDIR ? -ENOENT : -EACCES;
	if (!S_ISREG(st.st_mode) || access(path, X_OK) < 0)
		return -EACCES;
	return 0;
}

int run_prog_resolve(const char *prog, char **path)
{
	const char *dirs = getenv("PATH"), *dir;
	int rc = -ENOENT;

	if (strchr(prog, '/')) {
		rc = prog_check(prog);
		if (rc == 0) {
			*path = strdup(prog);
			rc = *path ? 0 : -ENOMEM;
		}
		return rc;
	}
	if (!dirs)
		dirs = SPAWN_DEFAULT_PATH;
	if (*prog == '\0')
		return -ENOENT;
	/* like execvp: the first executable wins; an empty entry is "." */
	for (dir = dirs; ; dir += strcspn(dir, ":") + 1) {
		size_t dlen = strcspn(dir, ":");
		char *cand;
		int one;

		if (asprintf(&cand, "%.*s%s%s", (int)dlen, dir, dlen ? "/" : "./", prog) < 0)
			return -ENOMEM;
		one = prog_check(cand);
		if (one == 0) {
			*path = cand;
			return 0;
		}
		free(cand);
		if (one == -EACCES)
			rc = -EACCES;
		if (dir[dlen] == '\0')
			break;
	}
	return rc;
}

static bool env_is(const char *entry, const char *name, size_t len)
{
	return strncmp(entry, name, len) == 0 && entry[len] == '=';
}

/* Whether a later -x than xvars[i] names the same variable. */
static bool env_overridden(const struct run_opts *o, size_t i)
{
	size_t len = strcspn(o->xvars[i], "=");

	for (size_t j = i + 1; j < o->nxvars; j++) {
		if (strcspn(o->xvars[j], "=") == len &&
		    strncmp(o->xvars[j], o->xvars[i], len) == 0)
			return true;
	}
	return false;
}

/* Whether shmrun replaces this environ entry (a -x or rank variable). */
static bool env_replaced(const struct run_opts *o, const char *entry)
{
	for (size_t i = 0; i < o->nxvars; i++) {
		if (env_is(entry, o->xvars[i], strcspn(o->xvars[i], "=")))
			return true;
	}
	for (size_t i = 0; i < SPAWN_NVARS; i++) {
		if (env_is(entry, run_env_vars[i].name, strlen(run_env_vars[i].name)))
			return true;
	}
	return false;
}

/* environ without what is replaced, the -x variables, then room for the
 * rank variables (filled per rank) and the NULL. */
static int spawn_env_new(struct spawn_ctx *sc, const struct run_opts *o)
{
	size_t n = 0, cap = SPAWN_NVARS + o->nxvars + 1;

	for (char **e = environ; *e; e++)
		cap++;
	sc->envp = calloc(cap, sizeof(*sc->envp));
	if (!sc->envp)
		return -ENOMEM;
	for (char **e = environ; *e; e++) {
		if (!env_replaced(o, *e))
			sc->envp[n++] = *e;
	}
	for (size_t i = 0; i < o->nxvars; i++) {
		const char *x = o->xvars[i];
		size_t len = strcspn(x, "=");

		if (env_overridden(o, i))
			continue;
		if (x[len] == '=') {
			sc->envp[n++] = (char *)x;
			continue;
		}
		/* -x VAR: as in shmrun's environment, if there at all */
		for (char **e = environ; *e; e++) {
			if (env_is(*e, x, len)) {
				sc->envp[n++] = *e;
				break;
			}
		}
	}
	sc->nbase = n;
	for (size_t i = 0; i < SPAWN_NVARS; i++)
		sc->envp[n++] = sc->vars[i];
	return 0;
}

static void spawn_env_rank(struct spawn_ctx *sc, const struct run_job *job, int r)
{
	for (size_t i = 0; i < SPAWN_NVARS; i++) {
		const struct run_env_var *v = &run_env_vars[i];

		if (v->value == RUN_ENV_JOB)
			snprintf(sc->vars[i], SPAWN_VAR_MAX, "%s=%s", v->name, job->id);
		else
			snprintf(sc->vars[i], SPAWN_VAR_MAX, "%s=%d", v->name,
				 v->value == RUN_ENV_RANK ? r : job->nranks);
	}
}

/* "/bin/sh path args...": how execvp runs a file without "#!". */
static int spawn_sh_argv(struct spawn_ctx *sc)
{
	size_t argc = 0;

	while (sc->argv[argc])
		argc++;
	sc->sh_argv = calloc(argc + 2, sizeof(*sc->sh_argv));
	if (!sc->sh_argv)
		return -ENOMEM;
	sc->sh_argv[0] = (char *)"/bin/sh";
	sc->sh_argv[1] = (char *)sc->path;
	for (size_t i = 1; i < argc; i++)
		sc->sh_argv[i + 1] = sc->argv[i];
	return 0;
}

/* In the vfork child: say "prefix[name: ]what errno says" on its stderr. */
static void spawn_child_say(const char *prefix, const char *name, int err)
{
	const char *what = strerrordesc_np(err);
	struct iovec iov[] = {
		{ (void *)prefix, strlen(prefix) },
		{ (void *)name, name ? strlen(name) : 0 },
		{ (void *)(name ? ": " : ""), name ? 2 : 0 },
		{ (void *)(what ? what : "unknown error"), strlen(what ? what : "unknown error") },
		{ (void *)"\n", 1 },
	};

	if (writev(STDERR_FILENO, iov, sizeof(iov) / sizeof(iov[0])) < 0)
		return;
}

/* In the vfork child: never returns.  Only async-signal-safe calls, and no
 * write to memory (see the top of the file).  Not inlined: its locals get a
 * frame of their own below spawn_vfork's, never a slot of shmrun's. */
static void __attribute__((noreturn, noinline))
spawn_child(const struct spawn_ctx *sc, pid_t pgid, int in_fd, int out_fd, int err_fd)
{
	sigset_t none;
	int err;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != sc->launcher)
		_exit(RUN_EXIT_USAGE);
	setpgid(0, pgid);
	if ((in_fd >= 0 && dup2(in_fd, STDIN_FILENO) < 0) ||
	    dup2(out_fd, STDOUT_FILENO) < 0 || dup2(err_fd, STDERR_FILENO) < 0)
		_exit(RUN_EXIT_USAGE);
	if (sc->restore_nofile)
		setrlimit(RLIMIT_NOFILE, &spawn_entry_nofile);
	for (int i = 0; i < sc->nsigs; i++)
		signal(sc->sigs[i], sc->sig_ignore[i] ? SIG_IGN : SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (sc->cpus && sched_setaffinity(0, sizeof(*sc->cpus), sc->cpus) < 0) {
		spawn_child_say(sc->bind_msg, NULL, errno);
		_exit(RUN_EXIT_USAGE);
	}
	execve(sc->path, sc->argv, sc->envp);
	if (errno == ENOEXEC)
		execve(sc->sh_argv[0], sc->sh_argv, sc->envp);
	err = errno;
	spawn_child_say("shmrun: ", sc->argv[0], err);
	_exit(err == ENOENT ? RUN_EXIT_NOTFOUND : RUN_EXIT_NOEXEC);
}

/*
 * Start the child with every signal blocked (no handler may run in it while
 * it borrows shmrun's memory; it unblocks them itself once its dispositions
 * are reset), and give shmrun back its mask.  The pid, or a negative errno.
 */
static pid_t spawn_vfork(const struct spawn_ctx *sc, pid_t pgid, int in_fd, int out_fd,
			 int err_fd)
{
	sigset_t all, old;
	pid_t pid;
	int err;

	sigfillset(&all);
	if (sigprocmask(SIG_SETMASK, &all, &old) < 0)
		return -errno;
	pid = vfork();
	if (pid == 0)
		spawn_child(sc, pgid, in_fd, out_fd, err_fd);
	err = errno;	/* only meaningful when pid < 0: then no child ran */
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid < 0 ? -err : pid;
}

static int spawn_pidfd(pid_t pid)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);

	return fd < 0 ? -errno : fd;
}

/* Fork rank r with its pipes; on success the rank is in job->ranks[r]. */
static int spawn_rank(struct spawn_ctx *sc, struct run_job *job, int r)
{
	struct run_rank *rank = &job->ranks[r];
	int out[2], err[2], rc, in_fd;
	pid_t pid;

	if (pipe2(out, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(err, O_CLOEXEC) < 0) {
		rc = -errno;
		goto err_close_out;
	}
	rc = run_out_init(&rank->out[RUN_STDOUT], r, out[0], STDOUT_FILENO,
			  job->opts->tag_output);
	if (rc < 0)
		goto err_close_err;
	rc = run_out_init(&rank->out[RUN_STDERR], r, err[0], STDERR_FILENO,
			  job->opts->tag_output);
	if (rc < 0)
		goto err_free_out;
	spawn_env_rank(sc, job, r);
	sc->cpus = job->opts->bind_cpus ? &job->opts->bind_cpus[r] : NULL;
	snprintf(sc->bind_msg, sizeof(sc->bind_msg), "shmrun: binding rank %d: ", r);
	in_fd = r > 0 ? sc->devnull : sc->relay_in;
	pid = spawn_vfork(sc, r == 0 ? 0 : job->pgid, in_fd, out[1], err[1]);
	if (pid < 0) {
		rc = pid;
		goto err_free_err;
	}
	/* the child has set its group before exec, and vfork returned only then:
	 * the group exists before rank 1 joins it.  Where vfork is a fork (under
	 * ThreadSanitizer, valgrind) the child may not have run yet: set its
	 * group from here too, as job-control shells do (after the child's exec
	 * this fails with EACCES, which changes nothing) */
	(void)setpgid(pid, r == 0 ? pid : job->pgid);
	if (r == 0)
		job->pgid = pid;
	rc = job->pidfd_err ? -1 : spawn_pidfd(pid);
	if (rc < 0 && !job->pidfd_err) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		goto err_free_err;
	}
	rank->pid = pid;
	rank->pidfd = rc;
	close(out[1]);
	close(err[1]);
	job->nspawned++;
	job->nlive++;
	job->nopen += RUN_NSTREAMS;
	return 0;

err_free_err:
	rank->out[RUN_STDERR].fd = -1;	/* closed below */
	run_out_free(&rank->out[RUN_STDERR]);
err_free_out:
	rank->out[RUN_STDOUT].fd = -1;
	run_out_free(&rank->out[RUN_STDOUT]);
err_close_err:
	close(err[0]);
	close(err[1]);
err_close_out:
	close(out[0]);
	close(out[1]);
	return rc;
}

/*
 * The dispositions a child must set before exec: exec resets a handled
 * signal to default and keeps ignored ones ignored, so only the signals
 * whose ignoring differs from shmrun's entry need a call; a handled one
 * (none of shmrun's own, but a sanitizer's) is reset too, so that no handler
 * can run in the child.  And whether shmrun raised its fd limit.
 */
static void spawn_plan_child(struct spawn_ctx *sc)
{
	struct rlimit now;

	sc->nsigs = 0;
	for (int sig = 1; sig < NSIG; sig++) {
		bool want_ign = sigismember(&spawn_entry_ignored, sig) == 1;
		struct sigaction sa;

		if (sig == SIGKILL || sig == SIGSTOP || sigaction(sig, NULL, &sa) < 0)
			continue;
		if (sa.sa_handler == (want_ign ? SIG_IGN : SIG_DFL))
			continue;
		sc->sigs[sc->nsigs] = sig;
		sc->sig_ignore[sc->nsigs++] = want_ign;
	}
	sc->restore_nofile = getrlimit(RLIMIT_NOFILE, &now) < 0 ||
			     now.rlim_cur != spawn_entry_nofile.rlim_cur ||
			     now.rlim_max != spawn_entry_nofile.rlim_max;
}

/*
 * Rank 0's stdin: shmrun's own, except that a terminal is relayed through a
 * pipe (the ranks' process group is not the terminal's foreground group, so
 * reading the terminal would stop rank 0 with SIGTTIN), and only while shmrun
 * is in the foreground (or shmrun would be stopped itself).
 */
static int spawn_stdin(struct spawn_ctx *sc, struct run_job *job)
{
	int fds[2];

	sc->relay_in = -1;
	if (!isatty(STDIN_FILENO))
		return 0;
	if (tcgetpgrp(STDIN_FILENO) != getpgrp()) {
		sc->relay_in = sc->devnull;
		return 0;
	}
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	sc->relay_in = fds[0];
	job->relay_fd = fds[1];
	return 0;
}

/*
 * Whether the ranks get pidfds (pidfd_open, Linux 5.3): a try on shmrun
 * itself.  Where the kernel lacks them or a seccomp filter refuses them,
 * the loop reaps the ranks on SIGCHLD and fate.c signals them by pid.
 */
static void spawn_pidfd_probe(struct run_job *job)
{
	int fd = spawn_pidfd(getpid());

	if (fd >= 0) {
		close(fd);
		return;
	}
	job->pidfd_err = fd;
	if (job->opts->verbose)
		run_msg("no pidfds (pidfd_open: %s): the ranks are reaped on SIGCHLD",
			strerror(-fd));
}

int run_spawn_all(struct run_job *job, const char *path)
{
	struct spawn_ctx *sc;
	int rc;

	sc = calloc(1, sizeof(*sc));
	if (!sc)
		return -ENOMEM;
	sc->path = path;
	sc->argv = job->opts->argv;
	sc->launcher = getpid();
	sc->devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (sc->devnull < 0) {
		rc = -errno;
		goto out_free_ctx;
	}
	rc = spawn_sh_argv(sc);
	if (rc < 0)
		goto out_close_devnull;
	rc = spawn_env_new(sc, job->opts);
	if (rc < 0)
		goto out_free_sh_argv;
	rc = spawn_stdin(sc, job);
	if (rc < 0)
		goto out_free_env;
	spawn_plan_child(sc);
	spawn_pidfd_probe(job);
	for (int r = 0; r < job->nranks && rc == 0; r++)
		rc = spawn_rank(sc, job, r);
	if (sc->relay_in >= 0 && sc->relay_in != sc->devnull)
		close(sc->relay_in);
out_free_env:
	free(sc->envp);
out_free_sh_argv:
	free(sc->sh_argv);
out_close_devnull:
	close(sc->devnull);
out_free_ctx:
	free(sc);
	return rc;
}
