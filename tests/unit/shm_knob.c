/* Check tests of shm/knob.c: the table is well-formed, every parser takes
 * exactly its values, the environment is read and its malformed values are
 * errors, and a value formats back to the text it came from. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "knob.h"

START_TEST(table_is_well_formed)
{
	for (int k = 0; k < SHM_KNOB_COUNT; k++) {
		const struct shm_knob *kn = &shm_knobs[k];
		char buf[256];
		long v = -1;

		ck_assert_ptr_nonnull(kn->name);
		ck_assert_msg(strncmp(kn->name, "SHMPI_", 6) == 0 ||
			      strncmp(kn->name, "SHMRUN_", 7) == 0, "%s", kn->name);
		ck_assert_msg(kn->help && strlen(kn->help) > 20, "%s: help", kn->name);
		ck_assert_msg(kn->where != 0, "%s: nobody reads it", kn->name);
		/* the default parses, and formats back to itself */
		ck_assert_msg(shm_knob_parse(k, kn->def, &v) == 0, "%s: default", kn->name);
		shm_knob_format(k, v, buf, sizeof(buf));
		if (kn->type != SHM_KNOB_TEXT)
			ck_assert_str_eq(buf, kn->def);
		ck_assert_int_eq(shm_knob_find(kn->name), k);
		ck_assert_int_eq(kn->type == SHM_KNOB_CHOICE, kn->choices != NULL);
	}
	ck_assert_int_eq(shm_knob_find("SHMPI_NO_SUCH"), -1);
}
END_TEST

START_TEST(numbers)
{
	long v = 5;

	ck_assert_int_eq(shm_knob_parse(SHM_KNOB_SPINS, "0", &v), 0);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(shm_knob_parse(SHM_KNOB_SPINS, "1000000000", &v), 0);
	ck_assert_int_eq(v, 1000000000);
	v = 5;
	ck_assert_int_eq(shm_knob_parse(SHM_KNOB_SPINS, "1000000001", &v), -EINVAL);
	ck_assert_int_eq(shm_knob_parse(SHM_KNOB_SPINS, "-1", &v), -EINVAL);
	ck_assert_int_eq(shm_knob_parse(SHM_KNOB_SPINS, "+1", &v), -EINVAL);
	ck_assert_int_eq(shm_knob_parse(SHM_KNOB_SPINS, " 1", &v), -EINVAL);
	ck_assert_int_eq(shm_knob_parse(SHM_KNOB_SPINS, "12x", &v), -EINVAL);
	ck_assert_int_eq(shm_knob_parse(SHM_KNOB_SPINS, "", &v), -EINVAL);
	ck_assert_int_eq(shm_knob_parse(SHM_KNOB_SPINS, "99999999999999999999999", &v),
			 -EINVAL);
	ck_assert_int_eq(v, 5);	/* untouched by every failure */
}
END_TEST

START_TEST(flags_and_choices)
{
	char buf[32];
	long v = 7;

	ck_assert_int_eq(shm_knob_parse(SHM_KNOB_REPORT_BINDINGS, "yes", &v), 0);
	ck_assert_int_eq(v, 1);
	ck_assert_int_eq(shm_knob_parse(SHM_KNOB_REPORT_BINDINGS, "off", &v), 0);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(shm_knob_parse(SHM_KNOB_REPORT_BINDINGS, "2", &v), -EINVAL);
	ck_assert_int_eq(shm_knob_parse(SHM_KNOB_REPORT_BINDINGS, "Yes", &v), -EINVAL);
	ck_assert_int_eq(shm_knob_parse(SHM_KNOB_BIND_TO, "socket", &v), 0);
	ck_assert_int_eq(v, SHM_BIND_SOCKET);
	ck_assert_int_eq(shm_knob_parse(SHM_KNOB_BIND_TO, "sock", &v), -EINVAL);
	ck_assert_int_eq(shm_knob_parse(SHM_KNOB_BIND_TO, "socket|", &v), -EINVAL);
	ck_assert_int_eq(shm_knob_parse(SHM_KNOB_BIND_TO, "", &v), -EINVAL);
	ck_assert_int_eq(shm_knob_choice(SHM_KNOB_BIND_TO, SHM_BIND_NUMA, buf, sizeof(buf)),
			 SHM_BIND_SOCKET + 1);
	ck_assert_str_eq(buf, "numa");
	shm_knob_choice(SHM_KNOB_BIND_TO, 99, buf, sizeof(buf));
	ck_assert_str_eq(buf, "");
	shm_knob_describe(SHM_KNOB_PROGRESS, buf, sizeof(buf));
	ck_assert_str_eq(buf, "weak|strong");
	shm_knob_describe(SHM_KNOB_SPINS, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0 to 1000000000");
}
END_TEST

START_TEST(environment)
{
	long v = -1;

	unsetenv("SHMPI_NUMA");
	ck_assert_str_eq(shm_knob_text(SHM_KNOB_NUMA), "owner");
	setenv("SHMPI_NUMA", "", 1);	/* empty: the default */
	ck_assert_int_eq(shm_knob_get(SHM_KNOB_NUMA, &v), 0);
	ck_assert_int_eq(v, 0);
	setenv("SHMPI_NUMA", "interleave", 1);
	ck_assert_int_eq(shm_knob_get(SHM_KNOB_NUMA, &v), 0);
	ck_assert_int_eq(v, 1);
	setenv("SHMPI_NUMA", "far", 1);
	ck_assert_int_eq(shm_knob_get(SHM_KNOB_NUMA, &v), -EINVAL);
	ck_assert_int_eq(v, 1);
	ck_assert_str_eq(shm_knob_text(SHM_KNOB_NUMA), "far");
	unsetenv("SHMPI_NUMA");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("shm_knob");
	TCase *tc = tcase_create("knob");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, table_is_well_formed);
	tcase_add_test(tc, numbers);
	tcase_add_test(tc, flags_and_choices);
	tcase_add_test(tc, environment);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
