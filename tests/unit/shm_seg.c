/* Check tests of shm/seg.c: creating, opening, locking and unlinking segments. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "seg.h"

static char name[64];

static void setup(void)
{
	snprintf(name, sizeof(name), "/shmpi-test-seg-%d", getpid());
	shm_unlink(name);
}

static void teardown(void)
{
	shm_unlink(name);
}

START_TEST(create_open_share_data)
{
	struct shm_seg a, b;

	ck_assert_int_eq(shm_seg_create(&a, name, 8192, 0), 0);
	ck_assert_uint_eq(a.size, 8192);
	ck_assert_int_eq(a.fd, -1);
	ck_assert_int_eq(((char *)a.base)[100], 0);	/* zero-filled */
	ck_assert_int_eq(shm_seg_open(&b, name, 0), 0);
	ck_assert_uint_eq(b.size, 8192);
	strcpy((char *)a.base + 4000, "shared");
	ck_assert_str_eq((char *)b.base + 4000, "shared");
	shm_seg_close(&a);
	shm_seg_close(&b);
	ck_assert_ptr_null(a.base);
}
END_TEST

START_TEST(create_is_exclusive_and_private)
{
	struct shm_seg a, b;
	struct stat st;
	char path[128];

	ck_assert_int_eq(shm_seg_create(&a, name, 4096, 0), 0);
	ck_assert_int_eq(shm_seg_create(&b, name, 4096, 0), -EEXIST);
	snprintf(path, sizeof(path), "/dev/shm%s", name);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0600);
	shm_seg_close(&a);
}
END_TEST

START_TEST(unlink_keeps_mappings)
{
	struct shm_seg a, b;

	ck_assert_int_eq(shm_seg_create(&a, name, 4096, 0), 0);
	ck_assert_int_eq(shm_seg_unlink(name), 0);
	ck_assert_int_eq(shm_seg_unlink(name), -ENOENT);
	ck_assert_int_eq(shm_seg_open(&b, name, 0), -ENOENT);
	((char *)a.base)[0] = 7;	/* still mapped */
	ck_assert_int_eq(((char *)a.base)[0], 7);
	shm_seg_close(&a);
}
END_TEST

START_TEST(bad_arguments)
{
	struct shm_seg a;
	char longname[200];

	memset(longname, 'x', sizeof(longname) - 1);
	longname[0] = '/';
	longname[sizeof(longname) - 1] = '\0';
	ck_assert_int_eq(shm_seg_create(&a, name, 0, 0), -EINVAL);
	ck_assert_int_eq(shm_seg_create(&a, longname, 4096, 0), -EINVAL);
	ck_assert_int_eq(shm_seg_open(&a, name, 0), -ENOENT);
}
END_TEST

START_TEST(open_refuses_objects_others_can_reach)
{
	struct shm_seg a;
	int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 4096), 0);
	ck_assert_int_eq(fchmod(fd, 0644), 0);
	ck_assert_int_eq(shm_seg_open(&a, name, 0), -EPERM);
	ck_assert_int_eq(fchmod(fd, 0600), 0);
	ck_assert_int_eq(shm_seg_open(&a, name, 0), 0);
	shm_seg_close(&a);
	close(fd);
}
END_TEST

START_TEST(open_refuses_empty_object)
{
	struct shm_seg a;
	int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(shm_seg_open(&a, name, 0), -EINVAL);
	close(fd);
}
END_TEST

START_TEST(locked_segment_holds_flock_until_close)
{
	struct shm_seg a;
	int fd;

	ck_assert_int_eq(shm_seg_create(&a, name, 4096, SHM_SEG_LOCKED), 0);
	ck_assert_int_ge(a.fd, 0);
	fd = shm_open(name, O_RDONLY, 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(flock(fd, LOCK_EX | LOCK_NB), -1);
	ck_assert_int_eq(errno, EWOULDBLOCK);
	shm_seg_close(&a);
	ck_assert_int_eq(flock(fd, LOCK_EX | LOCK_NB), 0);
	close(fd);
}
END_TEST

START_TEST(no_room_is_an_error_not_a_sigbus)
{
	struct shm_seg a;
	int rc = shm_seg_create(&a, name, (size_t)1 << 44, 0);	/* 16 TiB */

	ck_assert_msg(rc == -ENOSPC || rc == -EFBIG || rc == -ENOMEM,
		      "rc %d", rc);
	ck_assert_int_eq(shm_seg_open(&a, name, 0), -ENOENT);	/* removed again */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("shm_seg");
	TCase *tc = tcase_create("seg");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, create_open_share_data);
	tcase_add_test(tc, create_is_exclusive_and_private);
	tcase_add_test(tc, unlink_keeps_mappings);
	tcase_add_test(tc, bad_arguments);
	tcase_add_test(tc, open_refuses_objects_others_can_reach);
	tcase_add_test(tc, open_refuses_empty_object);
	tcase_add_test(tc, locked_segment_holds_flock_until_close);
	tcase_add_test(tc, no_room_is_an_error_not_a_sigbus);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
