/*
 * The memory hints of MPI 4.1, checked by what the info objects say:
 * mpi_memory_alloc_kinds (section 11.4.3) on MPI_COMM_WORLD and its
 * windows ("system" and "mpi" both), on a session that asks for kinds
 * (those shmpi supports, the others left out) and on the communicators
 * and windows made from its process set; mpi_assert_memory_alloc_kinds and
 * mpi_accumulate_granularity on windows as given at creation and by
 * MPI_Win_set_info.  Prints "ok memkinds" on rank 0.  A plain MPI 4.1
 * program.
 */
#include "testutil.h"

/* Whether key of info is want (want NULL: the key is absent). */
static int info_is(MPI_Info info, const char *key, const char *want)
{
	char v[MPI_MAX_INFO_VAL + 1];
	int flag;

	CHECK_MPI(MPI_Info_get(info, key, MPI_MAX_INFO_VAL, v, &flag));
	if (!want)
		return !flag;
	if (!flag || strcmp(v, want))
		fprintf(stderr, "rank %d: %s is %s, want %s\n", tu_rank, key,
			flag ? v : "(absent)", want);
	return flag && !strcmp(v, want);
}

static int comm_kinds_are(MPI_Comm comm, const char *want)
{
	MPI_Info info;
	int ok;

	CHECK_MPI(MPI_Comm_get_info(comm, &info));
	ok = info_is(info, "mpi_memory_alloc_kinds", want);
	CHECK_MPI(MPI_Info_free(&info));
	return ok;
}

/* A window on comm with the hints of info; its kinds are want. */
static MPI_Win window(MPI_Comm comm, MPI_Info info, const char *want)
{
	MPI_Info used;
	MPI_Win win;
	int *base;

	CHECK_MPI(MPI_Win_allocate(64, 1, info, comm, &base, &win));
	CHECK_MPI(MPI_Win_get_info(win, &used));
	CHECK(info_is(used, "mpi_memory_alloc_kinds", want));
	CHECK_MPI(MPI_Info_free(&used));
	return win;
}

static void check_world(void)
{
	MPI_Info info, used;
	MPI_Win win;

	CHECK(comm_kinds_are(MPI_COMM_WORLD, "system,mpi"));
	win = window(MPI_COMM_WORLD, MPI_INFO_NULL, "system,mpi");
	CHECK_MPI(MPI_Win_get_info(win, &used));
	CHECK(info_is(used, "mpi_assert_memory_alloc_kinds", NULL));
	CHECK(info_is(used, "mpi_accumulate_granularity", NULL));
	CHECK_MPI(MPI_Info_free(&used));
	CHECK_MPI(MPI_Win_free(&win));

	CHECK_MPI(MPI_Info_create(&info));
	CHECK_MPI(MPI_Info_set(info, "mpi_assert_memory_alloc_kinds", "mpi:win_allocate"));
	CHECK_MPI(MPI_Info_set(info, "mpi_accumulate_granularity", "8"));
	win = window(MPI_COMM_WORLD, info, "system,mpi");
	CHECK_MPI(MPI_Win_get_info(win, &used));
	CHECK(info_is(used, "mpi_assert_memory_alloc_kinds", "mpi:win_allocate"));
	CHECK(info_is(used, "mpi_accumulate_granularity", "8"));
	CHECK_MPI(MPI_Info_free(&used));
	CHECK_MPI(MPI_Info_set(info, "mpi_accumulate_granularity", "64"));
	CHECK_MPI(MPI_Win_set_info(win, info));
	CHECK_MPI(MPI_Win_get_info(win, &used));
	CHECK(info_is(used, "mpi_accumulate_granularity", "64"));
	CHECK_MPI(MPI_Info_free(&used));
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Info_free(&info));
}

/* A session asking for kinds; what it, its communicators (and their
 * duplicates) and their windows provide. */
static void check_session(const char *ask, const char *want)
{
	MPI_Session session;
	MPI_Info info = MPI_INFO_NULL, used;
	MPI_Group g;
	MPI_Comm c, dup;
	MPI_Win win;

	if (ask) {
		CHECK_MPI(MPI_Info_create(&info));
		CHECK_MPI(MPI_Info_set(info, "mpi_memory_alloc_kinds", ask));
	}
	CHECK_MPI(MPI_Session_init(info, MPI_ERRORS_RETURN, &session));
	if (ask)
		CHECK_MPI(MPI_Info_free(&info));
	CHECK_MPI(MPI_Session_get_info(session, &used));
	CHECK(info_is(used, "mpi_memory_alloc_kinds", want));
	CHECK_MPI(MPI_Info_free(&used));
	CHECK_MPI(MPI_Group_from_session_pset(session, "mpi://WORLD", &g));
	CHECK_MPI(MPI_Comm_create_from_group(g, "mpi41_memkinds", MPI_INFO_NULL,
					     MPI_ERRORS_RETURN, &c));
	CHECK_MPI(MPI_Group_free(&g));
	CHECK(comm_kinds_are(c, want));
	CHECK_MPI(MPI_Comm_dup(c, &dup));
	CHECK(comm_kinds_are(dup, want));
	win = window(dup, MPI_INFO_NULL, want);
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Comm_free(&dup));
	CHECK_MPI(MPI_Comm_free(&c));
	CHECK_MPI(MPI_Session_finalize(&session));
}

int main(int argc, char **argv)
{
	tu_init(&argc, &argv);
	check_world();
	check_session(NULL, "system,mpi");
	check_session("system,cuda,mpi:alloc_mem", "system,mpi:alloc_mem");
	check_session("mpi:win_allocate,mpi:alloc_mem,mpi:win_allocate_shared", "mpi");
	check_session("cuda", "");
	if (tu_rank == 0)
		printf("ok memkinds\n");
	MPI_Finalize();
	return 0;
}
