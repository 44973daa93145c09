/*
 * How the job ends: what a rank's exit means, stopping the others, and
 * what shmrun exits with.
 *
 * The job runs (RUN_END_NONE) until the first of:
 *   - a rank fails: it exits non-zero, a signal kills it, or it exits 0
 *     between MPI_Init and MPI_Finalize (its control block's phase is still
 *     SHM_RANK_INITIALIZED);
 *   - a rank aborts: the header's abort_rank is set (MPI_Abort or a fatal
 *     MPI error), seen when any rank exits, or the rank's phase says so;
 *   - shmrun gets INT, TERM, HUP or QUIT (forwarded to the ranks as is);
 *   - --timeout expires;
 *   - the watchdog (watch.c) finds the job deadlocked or stalled for good.
 * That first event decides the exit status; the others get SIGTERM (or the
 * forwarded signal), and SIGKILL when the grace period is over (the loop
 * arms a timer for kill_at) or at once on a second signal.  A rank that
 * ends after that was stopped by shmrun and decides nothing.  The failing
 * rank's fate is printed once its output is drained, so it follows what the
 * rank said last.  TSTP and CONT are passed on to the ranks (shmrun stops
 * itself after passing TSTP on), so Ctrl-Z stops the whole job.
 *
 * Signals go through the pidfds (or to the pids of ranks not reaped yet,
 * which no other process can have) and to the ranks' process group while any rank is unreaped (so its members and the group
 * still exist), which also reaches what a rank started, like the program
 * a shell script runs.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shmrun.h"

static void fate_send(struct run_job *job, int sig)
{
	int group = job->nlive > 0 && job->pgid > 0 && kill(-job->pgid, sig) == 0;

	for (int r = 0; r < job->nspawned; r++) {
		const struct run_rank *rank = &job->ranks[r];

		/* the group's signal reached every rank still in the group:
		 * once is all a rank gets (a shell's trap that runs between
		 * two deliveries would run twice) */
		if (rank->reaped || (group && getpgid(rank->pid) == job->pgid))
			continue;
		/* by pid where pidfds are missing (Linux 5.1) or refused: the
		 * pid of a child not reaped yet is still its own */
		if (rank->pidfd < 0 ||
		    syscall(SYS_pidfd_send_signal, rank->pidfd, sig, NULL, 0) < 0)
			kill(rank->pid, sig);
	}
}

/* "rank 3", "ranks 0-2, 5": the ranks not reaped yet. */
static void fate_live_list(const struct run_job *job, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "rank%s", job->nlive > 1 ? "s" : "");
	const char *sep = " ";

	for (int r = 0; r < job->nranks && n < len; r++) {
		int last = r;

		if (job->ranks[r].reaped || r >= job->nspawned)
			continue;
		while (last + 1 < job->nspawned && !job->ranks[last + 1].reaped)
			last++;
		if (last == r)
			n += (size_t)snprintf(buf + n, len - n, "%s%d", sep, r);
		else
			n += (size_t)snprintf(buf + n, len - n, "%s%d-%d", sep, r, last);
		sep = ", ";
		r = last;
	}
}

/* The job ends for `end`: stop the ranks with sig, SIGKILL after grace. */
static void fate_stop(struct run_job *job, enum run_end end, int sig)
{
	uint64_t grace = (uint64_t)(job->opts->grace_s * (double)RUN_NS_PER_S);

	job->end = end;
	if (job->nlive == 0)
		return;
	fate_send(job, sig);
	/* a stopped rank only acts on sig once it runs again */
	fate_send(job, SIGCONT);
	job->kill_at = run_now() + grace;
	if (grace == 0) {
		fate_send(job, SIGKILL);
		job->killed = true;
	}
}

static void fate_kill_now(struct run_job *job)
{
	if (job->nlive > 0 && !job->killed) {
		fate_send(job, SIGKILL);
		job->killed = true;
	}
}

/* Print end_rank's fate, once it is reaped and its pipes are closed. */
static void fate_report(struct run_job *job, bool now)
{
	const struct run_rank *rank;
	int r = job->end_rank;

	if (job->reported || r < 0)
		return;
	rank = &job->ranks[r];
	if (!now && (!rank->reaped || rank->out[RUN_STDOUT].fd >= 0 ||
		     rank->out[RUN_STDERR].fd >= 0))
		return;
	job->reported = true;
	if (job->end == RUN_END_ABORTED)
		/* the aborter stored the code before it exited: reaped
		 * (or reported at the very end) means visible */
		run_msg("rank %d called MPI_Abort (error code %d)", r,
			atomic_load_explicit(&job->hdr->abort_code, memory_order_acquire));
	else if (rank->code != CLD_EXITED)
		run_msg("rank %d was killed by signal %d (%s)", r, rank->status,
			strsignal(rank->status));
	else if (rank->status == 0)
		run_msg("rank %d exited before MPI_Finalize", r);
	else
		run_msg("rank %d exited with status %d", r, rank->status);
}

void run_fate_reaped(struct run_job *job, int r)
{
	struct run_rank *rank = &job->ranks[r];
	uint32_t phase;
	int aborter;

	rank->reaped = true;
	if (rank->pidfd >= 0)
		close(rank->pidfd);
	rank->pidfd = -1;
	job->nlive--;
	if (job->end != RUN_END_NONE) {
		fate_report(job, false);
		return;
	}
	/* acquire: pairs with the rank's release store of its phase
	 * (runtime.c); the rank is gone, so this is its last word */
	phase = atomic_load_explicit(&shm_job_rank(job->hdr, r)->phase,
				     memory_order_acquire);
	/* acquire, though the aborter stores it relaxed: a live aborter's
	 * code is read only once it is reaped (fate_report) */
	aborter = atomic_load_explicit(&job->hdr->abort_rank, memory_order_acquire);
	if (aborter >= 0 && aborter < job->nranks) {
		job->end_rank = aborter;
		fate_stop(job, RUN_END_ABORTED, SIGTERM);
	} else if (phase == SHM_RANK_ABORTED) {
		job->end_rank = r;
		fate_stop(job, RUN_END_ABORTED, SIGTERM);
	} else if (rank->code != CLD_EXITED || rank->status != 0 ||
		   phase == SHM_RANK_INITIALIZED) {
		job->end_rank = r;
		job->exit_code = rank->code != CLD_EXITED ? RUN_EXIT_SIGNAL + rank->status :
				 rank->status != 0 ? rank->status : 1;
		fate_stop(job, RUN_END_FAILED, SIGTERM);
	}
	fate_report(job, false);
}

void run_fate_drained(struct run_job *job, int r)
{
	if (r == job->end_rank)
		fate_report(job, false);
}

void run_fate_signal(struct run_job *job, int signo)
{
	if (signo == SIGTSTP || signo == SIGCONT) {
		/* job control: the ranks stop and go on with shmrun */
		if (job->nlive > 0)
			fate_send(job, signo);
		if (signo == SIGTSTP)
			kill(getpid(), SIGSTOP);
		return;
	}
	if (job->end == RUN_END_NONE) {
		run_msg("got SIG%s; passing it on to the ranks", sigabbrev_np(signo));
		job->signo = signo;
		fate_stop(job, RUN_END_SIGNAL, signo);
		return;
	}
	if (job->nlive > 0 && !job->killed)
		run_msg("got SIG%s; killing the ranks now", sigabbrev_np(signo));
	fate_kill_now(job);
}

void run_fate_timeout(struct run_job *job)
{
	char live[256];

	if (job->end != RUN_END_NONE || job->nlive == 0)
		return;
	fate_live_list(job, live, sizeof(live));
	run_msg("timeout after %g s; still running: %s", job->opts->timeout_s, live);
	if (job->opts->report_on_timeout)
		run_watch_report(job);
	fate_stop(job, RUN_END_TIMEOUT, SIGTERM);
}

void run_fate_watchdog(struct run_job *job)
{
	if (job->end != RUN_END_NONE || job->nlive == 0)
		return;
	fate_stop(job, RUN_END_WATCHDOG, SIGTERM);
}

void run_fate_grace(struct run_job *job)
{
	char live[256];

	if (job->nlive == 0 || job->killed)
		return;
	fate_live_list(job, live, sizeof(live));
	run_msg("%s still running after %g s; killing %s", live, job->opts->grace_s,
		job->nlive > 1 ? "them" : "it");
	fate_kill_now(job);
}

void run_fate_abandon(struct run_job *job)
{
	fate_kill_now(job);
	for (int r = 0; r < job->nspawned; r++) {
		struct run_rank *rank = &job->ranks[r];
		siginfo_t si;

		if (rank->reaped)
			continue;
		waitid(P_PID, (id_t)rank->pid, &si, WEXITED);
		rank->reaped = true;
		if (rank->pidfd >= 0)
			close(rank->pidfd);
		rank->pidfd = -1;
		job->nlive--;
	}
	job->end = RUN_END_ERROR;
}

int run_fate_exit_code(struct run_job *job)
{
	const struct run_rank *rank;
	int code;

	fate_report(job, true);
	switch (job->end) {
	case RUN_END_NONE:
		return 0;
	case RUN_END_FAILED:
		return job->exit_code;
	case RUN_END_ABORTED:
		/* the library exits with the error code: take the status
		 * the rank had, else the code; never 0 */
		rank = &job->ranks[job->end_rank];
		if (rank->reaped && rank->code == CLD_EXITED && rank->status != 0)
			return rank->status;
		code = atomic_load_explicit(&job->hdr->abort_code, memory_order_acquire);
		return (code & 0xff) ? (code & 0xff) : 1;
	case RUN_END_SIGNAL:
		return RUN_EXIT_SIGNAL + job->signo;
	case RUN_END_TIMEOUT:
		return RUN_EXIT_TIMEOUT;
	case RUN_END_WATCHDOG:
		return RUN_EXIT_WATCHDOG;
	case RUN_END_ERROR:
		break;
	}
	return RUN_EXIT_USAGE;
}
