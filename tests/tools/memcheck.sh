# tests/memcheck (make check VALGRIND=1) fails a Check suite for an invalid
# read or a leak inside a forked test case, and passes a clean one.
. "$SHMPI_TOP/tests/lib.sh"
command -v valgrind >/dev/null || skip "valgrind not installed (tools/deps valgrind)"

cat >"$TMP/suite.c" <<'PROG'
#include <check.h>
#include <stdlib.h>
#include <string.h>

static const char *mode;

START_TEST(t_case)
{
	int *p = malloc(4 * sizeof(int));

	memset(p, 0, 4 * sizeof(int));
	if (!strcmp(mode, "oob"))
		ck_assert_int_eq(p[4], 0);	/* one past the end */
	if (strcmp(mode, "leak"))
		free(p);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("memcheck");
	TCase *tc = tcase_create("case");
	SRunner *sr;
	int failed;

	mode = argc > 1 ? argv[1] : "clean";
	tcase_add_test(tc, t_case);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
PROG
cc -g -O0 -o "$TMP/suite" "$TMP/suite.c" $(pkg-config --cflags --libs check) ||
	fail "cannot build the Check suite"

"$SHMPI_TOP/tests/memcheck" "$TMP/suite" clean >"$TMP/out" 2>&1 ||
	fail "clean suite failed under memcheck: $(cat "$TMP/out")"
expect_match "clean summary" "$(cat "$TMP/out")" "100%: Checks: 1, Failures: 0, Errors: 0"

for mode in "oob:Invalid read of size 4" "leak:definitely lost"; do
	"$SHMPI_TOP/tests/memcheck" "$TMP/suite" "${mode%%:*}" >"$TMP/out" 2>&1 &&
		fail "${mode%%:*} passed under memcheck: $(cat "$TMP/out")"
	expect_match "${mode%%:*} summary" "$(cat "$TMP/out")" "Checks: 1, Failures: 0, Errors: 1"
	expect_match "${mode%%:*} exit" "$(cat "$TMP/out")" "Early exit with return value 66"
	expect_match "${mode%%:*} report" "$(cat "$TMP/out")" "${mode#*:}"
done
exit 0
