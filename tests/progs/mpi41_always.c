/*
 * What MPI 4.1 lets a program call at any time (section 11.4.1), before
 * MPI_Init and after MPI_Finalize: the version inquiries, MPI_Initialized
 * and MPI_Finalized, the MPI_Info calls (MPI_Info_create_env among
 * them), whose objects stay valid across MPI_Init and MPI_Finalize, and
 * MPI_Session_create_errhandler with MPI_Errhandler_free; in
 * shmpi an MPI_Info call that fails while MPI is not initialized returns
 * its error class.  Prints "ok always" on rank 0.  A plain MPI 4.1 program.
 */
#include "testutil.h"

/* Whether key of info is want. */
static int has(MPI_Info info, const char *key, const char *want)
{
	char v[MPI_MAX_INFO_VAL + 1];
	int len = sizeof(v), flag = 0;

	return MPI_Info_get_string(info, key, &len, v, &flag) == MPI_SUCCESS && flag &&
	       !strcmp(v, want) && len == (int)strlen(want) + 1;
}

/* The info calls, not one of them needing MPI initialized. */
static MPI_Info info_calls(int argc, char **argv)
{
	char key[MPI_MAX_INFO_KEY + 1];
	MPI_Info info, dup, env;
	int n, flag, len, version, subversion, cls;

	CHECK(MPI_Get_version(&version, &subversion) == MPI_SUCCESS && version >= 3);
	{
		char lib[MPI_MAX_LIBRARY_VERSION_STRING];

		CHECK(MPI_Get_library_version(lib, &len) == MPI_SUCCESS && len > 0);
	}
	CHECK(MPI_Info_create(&info) == MPI_SUCCESS);
	CHECK(MPI_Info_set(info, "color", "blue") == MPI_SUCCESS);
	CHECK(MPI_Info_set(info, "size", "11") == MPI_SUCCESS);
	CHECK(MPI_Info_f2c(MPI_Info_c2f(info)) == info);
	CHECK(MPI_Info_get_nkeys(info, &n) == MPI_SUCCESS && n == 2);
	CHECK(MPI_Info_get_nthkey(info, 1, key) == MPI_SUCCESS && !strcmp(key, "size"));
	CHECK(MPI_Info_dup(info, &dup) == MPI_SUCCESS);
	CHECK(MPI_Info_delete(dup, "color") == MPI_SUCCESS);
	CHECK(MPI_Info_get_nkeys(dup, &n) == MPI_SUCCESS && n == 1);
	CHECK(has(dup, "size", "11") && has(info, "color", "blue"));
	CHECK(MPI_Info_free(&dup) == MPI_SUCCESS && dup == MPI_INFO_NULL);
	CHECK(MPI_Info_create_env(argc, argv, &env) == MPI_SUCCESS);
	/* the keys are optional: where there, right (shmpi has both) */
	CHECK(MPI_Info_get_valuelen(env, "command", &len, &flag) == MPI_SUCCESS);
	CHECK(!flag || has(env, "command", argv[0]));
	CHECK(MPI_Info_free(&env) == MPI_SUCCESS);
#ifdef SHMPI
	/* an error: shmpi returns its class while MPI is not initialized
	 * (elsewhere the initial handler may end the program) */
	cls = -1;
	MPI_Error_class(MPI_Info_set(MPI_INFO_NULL, "k", "v"), &cls);
	CHECK(cls == MPI_ERR_INFO);
	CHECK(MPI_Info_delete(info, "nothing") != MPI_SUCCESS);
#else
	(void)cls;
#endif
	return info;
}

static void session_errh(MPI_Session *session, int *code, ...)
{
	(void)session;
	(void)code;
}

/* An error handler for sessions, made and freed without MPI initialized
 * (MPICH 4.0 refuses MPI_Session_create_errhandler then). */
static void errh_calls(void)
{
#ifdef SHMPI
	MPI_Errhandler eh = MPI_ERRHANDLER_NULL;

	CHECK(MPI_Session_create_errhandler(session_errh, &eh) == MPI_SUCCESS);
	CHECK(eh != MPI_ERRHANDLER_NULL);
	CHECK(MPI_Errhandler_free(&eh) == MPI_SUCCESS && eh == MPI_ERRHANDLER_NULL);
#endif
}

int main(int argc, char **argv)
{
	MPI_Info before, after;
	int flag, rank, size, maxprocs;
	char v[16];

	CHECK(MPI_Initialized(&flag) == MPI_SUCCESS && !flag);
	CHECK(MPI_Finalized(&flag) == MPI_SUCCESS && !flag);
	before = info_calls(argc, argv);
	errh_calls();

	tu_init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	/* made before MPI_Init, usable after it */
	CHECK(has(before, "color", "blue"));
	CHECK_MPI(MPI_Info_set(before, "color", "green"));
	/* the size of the job, before and after MPI_Init alike */
	{
		MPI_Info env;

		CHECK_MPI(MPI_Info_create_env(argc, argv, &env));
		CHECK_MPI(MPI_Info_get_string(env, "maxprocs", &(int){ sizeof(v) }, v, &flag));
		maxprocs = atoi(v);
		CHECK(!flag || maxprocs == size);
		CHECK_MPI(MPI_Info_free(&env));
	}
	MPI_Finalize();

	CHECK(MPI_Initialized(&flag) == MPI_SUCCESS && flag);
	CHECK(MPI_Finalized(&flag) == MPI_SUCCESS && flag);
	/* made before MPI_Init, still there after MPI_Finalize */
	CHECK(has(before, "color", "green") && has(before, "size", "11"));
	after = info_calls(argc, argv);
	errh_calls();
	CHECK(MPI_Info_free(&before) == MPI_SUCCESS);
	CHECK(MPI_Info_free(&after) == MPI_SUCCESS);
	if (rank == 0)
		printf("ok always\n");
	return 0;
}
