/*
 * Calls of MPI 4.0 (MPI 4.1 has them too), checked by their results:
 * MPI_Info_get_string (chapter 10), MPI_Info_create_env (chapter 11), and the
 * hints of MPI_Comm_dup_with_info and MPI_Comm_idup_with_info (section
 * 7.4.2: those of the info argument, not of the parent).  Prints one "ok"
 * line per part on rank 0.  A plain MPI program: it behaves the same with
 * any MPI 4 library.
 */
#include "testutil.h"

static void check_get_string(void)
{
	MPI_Info info;
	char value[16];
	int buflen, flag;

	CHECK_MPI(MPI_Info_create(&info));
	CHECK_MPI(MPI_Info_set(info, "color", "purple"));
	/* buflen 0: only the length, with the NUL */
	buflen = 0;
	memcpy(value, "untouched", 10);
	CHECK_MPI(MPI_Info_get_string(info, "color", &buflen, value, &flag));
	CHECK(flag && buflen == 7 && !strcmp(value, "untouched"));
	/* too short: what fits, NUL-terminated; buflen still the whole length */
	buflen = 4;
	CHECK_MPI(MPI_Info_get_string(info, "color", &buflen, value, &flag));
	CHECK(flag && buflen == 7 && !strcmp(value, "pur"));
	buflen = sizeof(value);
	CHECK_MPI(MPI_Info_get_string(info, "color", &buflen, value, &flag));
	CHECK(flag && buflen == 7 && !strcmp(value, "purple"));
	/* a key that is not there leaves buflen and value alone */
	buflen = 5;
	CHECK_MPI(MPI_Info_get_string(info, "shape", &buflen, value, &flag));
	CHECK(!flag && buflen == 5 && !strcmp(value, "purple"));
	CHECK_MPI(MPI_Info_free(&info));
}

/* Every key of MPI_INFO_ENV, with its value, in an info made for the same
 * argc and argv. */
static void check_create_env(int argc, char **argv)
{
	MPI_Info env;
	int nkeys;

	CHECK_MPI(MPI_Info_create_env(argc, argv, &env));
	CHECK(env != MPI_INFO_NULL && env != MPI_INFO_ENV);
	CHECK_MPI(MPI_Info_get_nkeys(MPI_INFO_ENV, &nkeys));
	for (int k = 0; k < nkeys; k++) {
		char key[MPI_MAX_INFO_KEY + 1], want[256], got[256];
		int wlen = sizeof(want), glen = sizeof(got), wflag, gflag;

		CHECK_MPI(MPI_Info_get_nthkey(MPI_INFO_ENV, k, key));
		CHECK_MPI(MPI_Info_get_string(MPI_INFO_ENV, key, &wlen, want, &wflag));
		CHECK_MPI(MPI_Info_get_string(env, key, &glen, got, &gflag));
		CHECK(wflag && gflag && wlen == glen && !strcmp(want, got));
	}
	/* it is the program's own: it may change and must be freed */
	CHECK_MPI(MPI_Info_set(env, "mine", "yes"));
	CHECK_MPI(MPI_Info_free(&env));
}

/* The value of key in comm's hints, or "" when it has none. */
static void comm_hint(MPI_Comm comm, const char *key, char *value, int size)
{
	MPI_Info used;
	int flag, len = size;

	CHECK_MPI(MPI_Comm_get_info(comm, &used));
	CHECK_MPI(MPI_Info_get_string(used, key, &len, value, &flag));
	if (!flag)
		value[0] = '\0';
	CHECK_MPI(MPI_Info_free(&used));
}

/* A duplicate is a working communicator with the same group. */
static void check_works(MPI_Comm dup)
{
	int size, wsize, rank, wrank, sum;

	MPI_Comm_size(dup, &size);
	MPI_Comm_size(MPI_COMM_WORLD, &wsize);
	MPI_Comm_rank(dup, &rank);
	MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
	CHECK(size == wsize && rank == wrank);
	CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dup));
	CHECK(sum == size * (size - 1) / 2);
}

static void check_dup_hints(void)
{
	MPI_Comm parent, dup, idup, plain;
	MPI_Request req;
	MPI_Info hints;
	char v[16];

	/* the parent asserts no MPI_ANY_TAG; the info only no MPI_ANY_SOURCE */
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &parent));
	CHECK_MPI(MPI_Info_create(&hints));
	CHECK_MPI(MPI_Info_set(hints, "mpi_assert_no_any_tag", "true"));
	CHECK_MPI(MPI_Comm_set_info(parent, hints));
	CHECK_MPI(MPI_Info_free(&hints));
	comm_hint(parent, "mpi_assert_no_any_tag", v, sizeof(v));
	CHECK(!strcmp(v, "true"));

	CHECK_MPI(MPI_Info_create(&hints));
	CHECK_MPI(MPI_Info_set(hints, "mpi_assert_no_any_source", "true"));
	CHECK_MPI(MPI_Comm_dup_with_info(parent, hints, &dup));
	CHECK_MPI(MPI_Comm_idup_with_info(parent, hints, &idup, &req));
	CHECK_MPI(MPI_Info_free(&hints));	/* the communicators keep their copy */
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Comm_dup(parent, &plain));

	comm_hint(dup, "mpi_assert_no_any_source", v, sizeof(v));
	CHECK(!strcmp(v, "true"));
	comm_hint(dup, "mpi_assert_no_any_tag", v, sizeof(v));
	CHECK(!strcmp(v, ""));
	comm_hint(idup, "mpi_assert_no_any_source", v, sizeof(v));
	CHECK(!strcmp(v, "true"));
	comm_hint(idup, "mpi_assert_no_any_tag", v, sizeof(v));
	CHECK(!strcmp(v, ""));
	/* MPI_Comm_dup keeps the parent's */
	comm_hint(plain, "mpi_assert_no_any_tag", v, sizeof(v));
	CHECK(!strcmp(v, "true"));
	CHECK_MPI(MPI_Comm_free(&plain));
	/* MPI_INFO_NULL: no hints, not the parent's */
	CHECK_MPI(MPI_Comm_dup_with_info(parent, MPI_INFO_NULL, &plain));
	comm_hint(plain, "mpi_assert_no_any_tag", v, sizeof(v));
	CHECK(!strcmp(v, ""));

	check_works(dup);
	check_works(idup);
	CHECK_MPI(MPI_Comm_free(&plain));
	CHECK_MPI(MPI_Comm_free(&idup));
	CHECK_MPI(MPI_Comm_free(&dup));
	CHECK_MPI(MPI_Comm_free(&parent));
}

int main(int argc, char **argv)
{
	tu_init(&argc, &argv);
	check_get_string();
	if (tu_rank == 0)
		printf("ok info_get_string\n");
	check_create_env(argc, argv);
	if (tu_rank == 0)
		printf("ok info_create_env\n");
	check_dup_hints();
	if (tu_rank == 0)
		printf("ok dup_with_info\n");
	MPI_Finalize();
	return 0;
}
