/*
 * MPI_Get_hw_resource_info (MPI 4.1), checked against what it promises:
 * each key of the info is a hardware resource type whose value is "true"
 * or "false", "true" exactly when this process is restricted to one
 * resource of that type, which is when MPI_Comm_split_type with
 * MPI_COMM_TYPE_HW_GUIDED, or MPI_COMM_TYPE_RESOURCE_GUIDED, and that type
 * gives it a communicator; and mpi_shared_memory is "true".  Each argument
 * KEY=VALUE is a value the info must have on every rank.  Then
 * MPI_COMM_TYPE_RESOURCE_GUIDED by process set (mpi_pset_name): the whole
 * job for "mpi://WORLD", each process alone for "mpi://SELF", nobody for a
 * name that is no process set.  Prints "ok hw_resource_info" on rank 0.
 * A plain MPI 4.1 program.
 */
#include "testutil.h"

/* The size of the communicator a guided split (split_type) with key =
 * value gives this process, 0 for none (collective: every rank passes
 * the same). */
static int guided(int split_type, const char *key, const char *value)
{
	MPI_Comm c;
	MPI_Info info;
	int got = 0;

	CHECK_MPI(MPI_Info_create(&info));
	CHECK_MPI(MPI_Info_set(info, key, value));
	CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, split_type, 0, info, &c));
	CHECK_MPI(MPI_Info_free(&info));
	if (c != MPI_COMM_NULL) {
		CHECK_MPI(MPI_Comm_size(c, &got));
		CHECK_MPI(MPI_Comm_free(&c));
	}
	return got;
}

int main(int argc, char **argv)
{
	char key[MPI_MAX_INFO_KEY + 1], value[MPI_MAX_INFO_VAL + 1];
	MPI_Info info;
	int nkeys, flag, size;

	tu_init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Get_hw_resource_info(&info));
	CHECK_MPI(MPI_Info_get_nkeys(info, &nkeys));
	CHECK(nkeys > 0);
	for (int k = 0; k < nkeys; k++) {
		int len = sizeof(value), n = 0;

		CHECK_MPI(MPI_Info_get_nthkey(info, k, key));
		CHECK_MPI(MPI_Info_get_string(info, key, &len, value, &flag));
		CHECK(flag && (!strcmp(value, "true") || !strcmp(value, "false")));
		/* every rank splits on every key: the same keys in the same order */
		CHECK_MPI(MPI_Allreduce(&nkeys, &n, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
		CHECK(n == nkeys);
		if (!guided(MPI_COMM_TYPE_HW_GUIDED, "mpi_hw_resource_type", key) !=
		    !!strcmp(value, "true") ||
		    !guided(MPI_COMM_TYPE_RESOURCE_GUIDED, "mpi_hw_resource_type", key) !=
		    !!strcmp(value, "true")) {
			fprintf(stderr, "rank %d: %s is %s, the guided split says otherwise\n",
				tu_rank, key, value);
			CHECK(0);
		}
	}
	CHECK_MPI(MPI_Info_get(info, "mpi_shared_memory", MPI_MAX_INFO_VAL, value, &flag));
	CHECK(flag && !strcmp(value, "true"));
	for (int a = 1; a < argc; a++) {
		char *eq = strchr(argv[a], '=');

		CHECK(eq);
		*eq = '\0';
		CHECK_MPI(MPI_Info_get(info, argv[a], MPI_MAX_INFO_VAL, value, &flag));
		if (!flag || strcmp(value, eq + 1)) {
			fprintf(stderr, "rank %d: %s is %s, want %s\n", tu_rank, argv[a],
				flag ? value : "(absent)", eq + 1);
			CHECK(0);
		}
	}
	CHECK_MPI(MPI_Info_free(&info));
	CHECK(info == MPI_INFO_NULL);
	CHECK(guided(MPI_COMM_TYPE_RESOURCE_GUIDED, "mpi_pset_name", "mpi://WORLD") == size);
	CHECK(guided(MPI_COMM_TYPE_RESOURCE_GUIDED, "mpi_pset_name", "mpi://SELF") == 1);
	CHECK(guided(MPI_COMM_TYPE_RESOURCE_GUIDED, "mpi_pset_name", "mpi://nowhere") == 0);
	if (tu_rank == 0)
		printf("ok hw_resource_info\n");
	MPI_Finalize();
	return 0;
}
