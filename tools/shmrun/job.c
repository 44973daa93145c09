/*
 * The job's shared memory: its control segment, made here, and every object
 * named after the job, unlinked here when the job ends.
 *
 * The control segment "/shmpi-<uid>-<id>-ctl" is created with
 * SHM_SEG_LOCKED: shmrun holds its flock until it exits, which is how
 * shm_job_cleanup_dead tells a dead job's leftovers from a live job.  The
 * ranks may create more objects named "/shmpi-<uid>-<id>-<what>" (window
 * segments); run_job_destroy runs after every rank is reaped, when nobody
 * can create one any more, and unlinks all of them, the control segment
 * included, before dropping the lock.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "shmrun.h"

/* Creating may meet an existing id once in 2^64 tries: take another. */
#define JOB_CREATE_TRIES 3

static int job_ranks_new(struct run_job *job)
{
	job->ranks = calloc((size_t)job->nranks, sizeof(*job->ranks));
	if (!job->ranks)
		return -ENOMEM;
	for (int r = 0; r < job->nranks; r++) {
		job->ranks[r].pidfd = -1;
		for (int s = 0; s < RUN_NSTREAMS; s++)
			job->ranks[r].out[s].fd = -1;
	}
	return 0;
}

/* -ENOSPC when /dev/shm cannot hold size bytes: said before allocating,
 * as posix_fallocate would first fill the tmpfs, which is memory. */
static int job_room(size_t size)
{
	struct statvfs sv;

	if (statvfs("/dev/shm", &sv) < 0)
		return 0;	/* creating the segment will tell */
	return (uint64_t)sv.f_bavail * sv.f_frsize < size ? -ENOSPC : 0;
}

int run_job_create(struct run_job *job, const struct run_opts *opts)
{
	char name[SHM_NAME_MAX];
	uid_t uid = geteuid();
	int rc, tries = 0;

	memset(job, 0, sizeof(*job));
	job->opts = opts;
	job->nranks = (int)opts->nranks;
	job->ctl.fd = -1;
	job->relay_fd = -1;
	job->end_rank = -1;
	rc = job_ranks_new(job);
	if (rc < 0)
		goto err;
	/* leftovers of dead jobs: not ours to report, just to remove */
	(void)shm_job_cleanup_dead(uid, SHM_JOB_CLEANUP_GRACE_S);
	rc = job_room(shm_job_size((uint32_t)job->nranks));
	if (rc < 0)
		goto err_ranks;
	do {
		rc = shm_job_id_new(job->id);
		if (rc < 0)
			goto err_ranks;
		rc = shm_job_name(name, sizeof(name), uid, job->id, "ctl");
		if (rc < 0)
			goto err_ranks;
		rc = shm_seg_create(&job->ctl, name, shm_job_size((uint32_t)job->nranks),
				    SHM_SEG_LOCKED | SHM_SEG_SPARSE);
	} while (rc == -EEXIST && ++tries < JOB_CREATE_TRIES);
	if (rc < 0)
		goto err_ranks;
	/* all but the channels' pool rings, which take memory as they are
	 * claimed (shm/job.h) */
	rc = shm_job_reserve(&job->ctl, (uint32_t)job->nranks);
	if (rc < 0) {
		shm_seg_close(&job->ctl);
		shm_seg_unlink(name);
		goto err_ranks;
	}
	job->hdr = job->ctl.base;
	/* no rank exists yet: fork orders these stores before their loads */
	shm_job_init(job->hdr, (uint32_t)job->nranks);
	job->start = run_now();
	return 0;

err_ranks:
	free(job->ranks);
	job->ranks = NULL;
err:
	return rc;
}

/* Unlink every /dev/shm object of the job; how many, or -errno. */
static int job_sweep(const struct run_job *job)
{
	char prefix[SHM_NAME_MAX];
	struct dirent *de;
	size_t plen;
	int removed = 0;
	DIR *dir;

	/* the prefix is the control segment's name without "/" and "ctl" */
	snprintf(prefix, sizeof(prefix), SHM_JOB_NAME_PREFIX "%u-%s-",
		 (unsigned)geteuid(), job->id);
	plen = strlen(prefix);
	dir = opendir("/dev/shm");
	if (!dir)
		return -errno;
	while ((de = readdir(dir)) != NULL) {
		if (strncmp(de->d_name, prefix, plen) != 0)
			continue;
		if (unlinkat(dirfd(dir), de->d_name, 0) == 0)
			removed++;
	}
	closedir(dir);
	return removed;
}

void run_job_destroy(struct run_job *job)
{
	int rc;

	if (job->hdr) {
		rc = job_sweep(job);
		if (rc < 0) {
			/* at least the control segment, by name */
			char name[SHM_NAME_MAX];

			run_msg("cleaning /dev/shm: %s", strerror(-rc));
			if (shm_job_name(name, sizeof(name), geteuid(), job->id, "ctl") == 0)
				shm_seg_unlink(name);
		}
		shm_seg_close(&job->ctl);
		job->hdr = NULL;
	}
	if (job->relay_fd >= 0)
		close(job->relay_fd);
	job->relay_fd = -1;
	for (int r = 0; job->ranks && r < job->nranks; r++) {
		if (job->ranks[r].pidfd >= 0)
			close(job->ranks[r].pidfd);
		for (int s = 0; s < RUN_NSTREAMS; s++)
			run_out_free(&job->ranks[r].out[s]);
	}
	free(job->ranks);
	job->ranks = NULL;
}
