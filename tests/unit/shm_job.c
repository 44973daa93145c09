/* Check tests of shm/job.c: control segment layout, names, dead-job cleanup. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "job.h"
#include "seg.h"

START_TEST(layout_and_check)
{
	size_t size = shm_job_size(8);
	struct shm_job_hdr *h = aligned_alloc(SHM_CACHE_LINE, size);

	ck_assert_uint_eq(size % SHM_CACHE_LINE, 0);
	/* channels: 64 KiB rings up to 16 ranks, shrinking to 4 KiB; a job's
	 * control segment stays under 16 MiB at 8 ranks and fits 256 ranks */
	ck_assert_uint_eq(shm_job_chan_cap(8), 64 << 10);
	ck_assert_uint_eq(shm_job_chan_cap(64), 16 << 10);
	ck_assert_uint_eq(shm_job_chan_cap(256), 4 << 10);
	ck_assert_uint_lt(shm_job_size(8), 16 << 20);
	ck_assert_uint_lt(shm_job_size(256), 300 << 20);
	memset(h, 0, size);
	shm_job_init(h, 8);
	ck_assert_int_eq(shm_job_check(h, size, 8), 0);
	ck_assert_int_eq(shm_job_check(h, size, 7), -EINVAL);
	ck_assert_int_eq(shm_job_check(h, size - 1, 8), -EINVAL);
	ck_assert_int_eq(atomic_load(&h->abort_rank), -1);
	for (int r = 0; r < 8; r++) {
		struct shm_rank_ctl *c = shm_job_rank(h, r);

		ck_assert_uint_eq(((uintptr_t)c) % SHM_CACHE_LINE, 0);
		ck_assert((char *)(c + 1) <= (char *)h + size);
		ck_assert_uint_eq(atomic_load(&c->phase), SHM_RANK_STARTED);
		for (int s = 0; s < 8; s++) {
			struct shm_ring *ring = shm_job_ring(h, s, r);

			ck_assert_uint_eq(ring->cap, shm_job_chan_cap(8));
			ck_assert((char *)ring >= (char *)(shm_job_rank(h, 7) + 1));
			ck_assert((char *)ring + shm_ring_size(ring->cap) <= (char *)h + size);
			ck_assert_uint_eq((uintptr_t)ring % SHM_CACHE_LINE, 0);
		}
	}
	ck_assert_ptr_ne(shm_job_ring(h, 1, 2), shm_job_ring(h, 2, 1));
	h->version++;
	ck_assert_int_eq(shm_job_check(h, size, 8), -EPROTO);
	h->version--;
	h->magic ^= 1;
	ck_assert_int_eq(shm_job_check(h, size, 8), -EPROTO);
	free(h);
}
END_TEST

START_TEST(job_ids_and_names)
{
	char a[SHM_JOB_ID_LEN + 1], b[SHM_JOB_ID_LEN + 1], name[64];

	ck_assert_int_eq(shm_job_id_new(a), 0);
	ck_assert_int_eq(shm_job_id_new(b), 0);
	ck_assert_uint_eq(strlen(a), SHM_JOB_ID_LEN);
	ck_assert_str_ne(a, b);
	ck_assert(shm_job_id_valid(a));
	ck_assert(!shm_job_id_valid(""));
	ck_assert(!shm_job_id_valid("0123456789abcde"));	/* 15 */
	ck_assert(!shm_job_id_valid("0123456789abcdef0"));	/* 17 */
	ck_assert(!shm_job_id_valid("0123456789ABCDEF"));
	ck_assert(!shm_job_id_valid("../../etc/passwd"));
	ck_assert(shm_job_id_valid("0123456789abcdef"));
	ck_assert_int_eq(shm_job_name(name, sizeof(name), 1000, "0123456789abcdef", "ctl"), 0);
	ck_assert_str_eq(name, "/shmpi-1000-0123456789abcdef-ctl");
	ck_assert_int_eq(shm_job_name(name, 10, 1000, "0123456789abcdef", "ctl"),
			 -ENAMETOOLONG);
}
END_TEST

/* Make an object of job id with suffix `what`; returns its segment. */
static void make_obj(struct shm_seg *seg, const char *id, const char *what, int flags)
{
	char name[SHM_NAME_MAX];

	ck_assert_int_eq(shm_job_name(name, sizeof(name), geteuid(), id, what), 0);
	ck_assert_int_eq(shm_seg_create(seg, name, 4096, flags), 0);
}

static int exists(const char *id, const char *what)
{
	char name[SHM_NAME_MAX], path[SHM_NAME_MAX + 16];

	shm_job_name(name, sizeof(name), geteuid(), id, what);
	snprintf(path, sizeof(path), "/dev/shm%s", name);
	return access(path, F_OK) == 0;
}

START_TEST(cleanup_removes_dead_jobs_only)
{
	char live[SHM_JOB_ID_LEN + 1], dead[SHM_JOB_ID_LEN + 1];
	char orphan[SHM_JOB_ID_LEN + 1], young[SHM_JOB_ID_LEN + 1];
	struct shm_seg lc, lw, dc, dw, ow, yw;
	char name[SHM_NAME_MAX];

	shm_job_id_new(live);
	shm_job_id_new(dead);
	shm_job_id_new(orphan);
	shm_job_id_new(young);
	make_obj(&lc, live, "ctl", SHM_SEG_LOCKED);	/* its launcher runs */
	make_obj(&lw, live, "win-1", 0);
	make_obj(&dc, dead, "ctl", 0);			/* nobody holds it */
	make_obj(&dw, dead, "win-1", 0);
	make_obj(&ow, orphan, "win-3", 0);		/* no control segment */

	/* counts are lower bounds: leftovers of other dead jobs may go too */
	/* with a long grace period the orphan may still be starting up */
	ck_assert_int_ge(shm_job_cleanup_dead(geteuid(), 3600), 2);
	ck_assert(exists(live, "ctl") && exists(live, "win-1"));
	ck_assert(!exists(dead, "ctl") && !exists(dead, "win-1"));
	ck_assert(exists(orphan, "win-3"));
	ck_assert_int_ge(shm_job_cleanup_dead(geteuid(), 0), 1);
	ck_assert(!exists(orphan, "win-3"));
	ck_assert(exists(live, "ctl") && exists(live, "win-1"));

	/* a control segment being created (no size yet) is left alone */
	shm_job_name(name, sizeof(name), geteuid(), young, "ctl");
	int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
	ck_assert_int_ge(fd, 0);
	make_obj(&yw, young, "win-0", 0);
	ck_assert_int_ge(shm_job_cleanup_dead(geteuid(), 3600), 0);
	ck_assert(exists(young, "ctl") && exists(young, "win-0"));
	close(fd);
	ck_assert_int_ge(shm_job_cleanup_dead(geteuid(), 0), 2);
	ck_assert(!exists(young, "ctl") && !exists(young, "win-0"));

	/* once its launcher is gone, the live job is dead too */
	shm_seg_close(&lc);
	ck_assert_int_ge(shm_job_cleanup_dead(geteuid(), 3600), 2);
	ck_assert(!exists(live, "ctl") && !exists(live, "win-1"));
	shm_seg_close(&lw);
	shm_seg_close(&dc);
	shm_seg_close(&dw);
	shm_seg_close(&ow);
	shm_seg_close(&yw);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("shm_job");
	TCase *tc = tcase_create("job");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, layout_and_check);
	tcase_add_test(tc, job_ids_and_names);
	tcase_add_test(tc, cleanup_removes_dead_jobs_only);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
