/*
 * One-copy transfers between the ranks (src/p2p_copy.c), as shmrun sees
 * them: --info probes whether process_vm_readv(2) works between two
 * processes started as shmrun starts the ranks, and --verbose says, at the
 * end of a job, what its ranks found (the SHM_JOB_COPY_* bits of the
 * job's header), for messages and for puts and gets on private memory
 * (src/rma_pkt_origin.c), which move with process_vm_writev and _readv
 * under the same permission.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shmrun.h"

#ifndef PR_SET_PTRACER
#define PR_SET_PTRACER 0x59616d61
#endif

/* What the reader reads: at the same address in both children (forks). */
static const unsigned long copy_probe_word = 0x73686d7069636d61ul;

/* The target: allow shmrun's descendants as a rank does, say so, and wait
 * for the reader to finish (its end of `done` closes). */
static void copy_probe_target(int ready, int done)
{
	char c = 1;

	prctl(PR_SET_PTRACER, (unsigned long)getppid(), 0, 0, 0);
	if (write(ready, &c, 1) != 1)
		_exit(1);
	while (read(done, &c, 1) < 0 && errno == EINTR)
		;
	_exit(0);
}

/* The reader: 0 when it read the word from target, else the errno. */
static void copy_probe_reader(pid_t target)
{
	unsigned long got = 0;
	struct iovec l = { &got, sizeof(got) };
	struct iovec r = { (void *)&copy_probe_word, sizeof(got) };
	ssize_t n = process_vm_readv(target, &l, 1, &r, 1, 0);

	_exit(n == (ssize_t)sizeof(got) && got == copy_probe_word ? 0 :
	      n < 0 ? (errno & 0xff) : EIO);
}

int run_copy_probe(void)
{
	int ready[2], done[2], st = 0, rc = -ECHILD;
	pid_t target, reader;
	char c;

	if (pipe(ready) < 0)
		return -errno;
	if (pipe(done) < 0) {
		rc = -errno;
		goto out_ready;
	}
	target = fork();
	if (target == 0) {
		close(ready[0]);
		close(done[1]);
		copy_probe_target(ready[1], done[0]);
	}
	close(ready[1]);
	close(done[0]);
	if (target < 0) {
		rc = -errno;
		close(done[1]);
		goto out_read;
	}
	if (read(ready[0], &c, 1) == 1) {
		reader = fork();
		if (reader == 0)
			copy_probe_reader(target);
		if (reader > 0 && waitpid(reader, &st, 0) == reader && WIFEXITED(st))
			rc = -WEXITSTATUS(st);
	}
	close(done[1]);
	waitpid(target, NULL, 0);
out_read:
	close(ready[0]);
	return rc;
out_ready:
	close(ready[0]);
	close(ready[1]);
	return rc;
}

void run_copy_info(void)
{
	int rc = run_copy_probe();
	FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "r");
	int scope = -1;

	if (f) {
		if (fscanf(f, "%d", &scope) != 1)
			scope = -1;
		fclose(f);
	}
	printf("single copy: process_vm_readv between two ranks %s",
	       rc == 0 ? "works" : "is refused: ");
	if (rc)
		printf("%s", strerror(-rc));
	if (scope >= 0)
		printf(" (Yama ptrace_scope %d)", scope);
	printf("; large messages copy once from mapped memory%s\n",
	       rc == 0 ? " or with process_vm_readv, large puts and gets on private "
			 "memory with process_vm_writev and process_vm_readv" :
	       ", else through the channels, and puts and gets on private memory "
	       "go as packets");
}

struct copy_found {
	unsigned bit;
	const char *what;
};

/* One line of what the job's ranks found of the n findings in f. */
static void copy_say(unsigned bits, const struct copy_found *f, size_t n, const char *of,
		     const char *none)
{
	char line[256] = "";
	size_t at = 0;

	for (size_t i = 0; i < n; i++)
		if ((bits & f[i].bit) && at < sizeof(line))
			at += (size_t)snprintf(line + at, sizeof(line) - at, "%s%s",
					       at ? "; " : "", f[i].what);
	run_msg("single copy of %s: %s", of, at ? line : none);
}

void run_copy_verbose(const struct run_job *job)
{
	static const struct copy_found msg[] = {
		{ SHM_JOB_COPY_MAPPED, "copied from mapped memory" },
		{ SHM_JOB_COPY_CMA, "copied with process_vm_readv" },
		{ SHM_JOB_COPY_DENIED, "process_vm_readv refused: those ranks used the "
				       "channels" },
	};
	static const struct copy_found rma[] = {
		{ SHM_JOB_COPY_RMA, "copied with process_vm_writev and process_vm_readv" },
		{ SHM_JOB_COPY_RMA_DENIED, "refused: those ranks used packets" },
	};
	unsigned bits = atomic_load_explicit(&job->hdr->single_copy, memory_order_relaxed);

	copy_say(bits, msg, sizeof(msg) / sizeof(msg[0]), "large messages",
		 "none (no message took it)");
	/* puts and gets on private memory: said when the job made one that large */
	if (bits & (SHM_JOB_COPY_RMA | SHM_JOB_COPY_RMA_DENIED))
		copy_say(bits, rma, sizeof(rma) / sizeof(rma[0]), "RMA on private memory", "");
	if (bits & SHM_JOB_COPY_WIN_SHARED)
		run_msg("windows on private memory: MPI_Win_create made whole pages shared "
			"while their windows lived (SHMPI_WIN_CREATE_SHARE)");
}
