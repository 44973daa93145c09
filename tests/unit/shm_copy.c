/* Check tests of shm/copy.c: streaming copies of every alignment and length. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "copy.h"

/* Copy n bytes from offset so to offset dofs, and check that exactly those
 * bytes changed: guards of a pattern stay around the destination. */
static void check_copy(unsigned char *src, unsigned char *dst, size_t cap, size_t so,
		       size_t dofs, size_t n)
{
	for (size_t i = 0; i < cap; i++) {
		src[i] = (unsigned char)(i * 7 + 3);
		dst[i] = 0xa5;
	}
	shm_copy_stream(dst + dofs, src + so, n);
	if (memcmp(dst + dofs, src + so, n) != 0)
		ck_abort_msg("src+%zu -> dst+%zu, %zu bytes: the copy differs", so, dofs, n);
	for (size_t i = 0; i < cap; i++)
		if ((i < dofs || i >= dofs + n) && dst[i] != 0xa5)
			ck_abort_msg("src+%zu -> dst+%zu, %zu bytes: byte %zu outside changed",
				     so, dofs, n, i);
}

/* Every alignment of both sides around the kernels' rounds (64 bytes of
 * 16-byte stores, 128 of 32-byte ones, after up to 31 bytes to align). */
static void every_alignment(void)
{
	enum { CAP = 1024 };
	static const size_t lens[] = { 0, 1, 15, 16, 17, 63, 64, 65, 79, 80, 81, 127, 128,
				       129, 143, 159, 160, 161, 200, 255, 256, 257, 300,
				       383, 384, 385, 600 };
	unsigned char *src = malloc(CAP), *dst = malloc(CAP);

	ck_assert_ptr_nonnull(src);
	ck_assert_ptr_nonnull(dst);
	for (size_t so = 0; so < 33; so++)
		for (size_t dofs = 0; dofs < 33; dofs++)
			for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
				check_copy(src, dst, CAP, so, dofs, lens[i]);
	free(src);
	free(dst);
}

START_TEST(every_alignment_and_short_length)
{
	shm_copy_stream_wide(1);
	every_alignment();
	/* the 16-byte kernel, which a CPU without AVX2 takes */
	ck_assert_int_eq(shm_copy_stream_wide(0), 0);
	every_alignment();
	shm_copy_stream_wide(1);
}
END_TEST

START_TEST(large_into_shared_memory)
{
	size_t cap = (4u << 20) + 4096;
	unsigned char *src = malloc(cap);
	unsigned char *dst = mmap(NULL, cap, PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_nonnull(src);
	ck_assert_ptr_ne(dst, MAP_FAILED);
	for (int wide = 1; wide >= 0; wide--) {
		shm_copy_stream_wide(wide);
		check_copy(src, dst, cap, 0, 0, 4u << 20);
		check_copy(src, dst, cap, 5, 4091, (4u << 20) - 3);
	}
	shm_copy_stream_wide(1);
	munmap(dst, cap);
	free(src);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("shm_copy");
	TCase *tc = tcase_create("copy");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, every_alignment_and_short_length);
	tcase_add_test(tc, large_into_shared_memory);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
