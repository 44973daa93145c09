/*
 * MPI_Comm_split_type with the hardware split types (MPI-4.0).
 *   hw_split SPEC...   SPEC: guided:TYPE (mpi_hw_resource_type=TYPE),
 *                      guided (no info), unguided, shared
 * For each SPEC every rank prints one line:
 *   "R SPEC size S type T"  (T: the new communicator's mpi_hw_resource_type)
 *   "R SPEC null"           (MPI_COMM_NULL)
 * and checks that the members of its new communicator agree on the type.
 * Last, a split type that does not exist must be MPI_ERR_ARG and change
 * nothing.
 */
#include <stdio.h>
#include <string.h>

#include "testutil.h"

static void split(const char *spec)
{
	MPI_Info info = MPI_INFO_NULL;
	MPI_Comm c = MPI_COMM_WORLD;
	int type = MPI_COMM_TYPE_HW_GUIDED, size, flag, len;
	char value[MPI_MAX_INFO_VAL + 1] = "", first[MPI_MAX_INFO_VAL + 1];
	MPI_Info got;

	if (strncmp(spec, "guided:", 7) == 0) {
		CHECK_MPI(MPI_Info_create(&info));
		CHECK_MPI(MPI_Info_set(info, "mpi_hw_resource_type", spec + 7));
	} else if (strcmp(spec, "unguided") == 0) {
		type = MPI_COMM_TYPE_HW_UNGUIDED;
	} else if (strcmp(spec, "shared") == 0) {
		type = MPI_COMM_TYPE_SHARED;
	}
	CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, type, 0, info, &c));
	if (info != MPI_INFO_NULL)
		MPI_Info_free(&info);
	if (c == MPI_COMM_NULL) {
		printf("%d %s null\n", tu_rank, spec);
		return;
	}
	CHECK_MPI(MPI_Comm_size(c, &size));
	CHECK_MPI(MPI_Comm_get_info(c, &got));
	len = MPI_MAX_INFO_VAL;
	CHECK_MPI(MPI_Info_get(got, "mpi_hw_resource_type", len, value, &flag));
	MPI_Info_free(&got);
	if (type == MPI_COMM_TYPE_SHARED)
		strcpy(value, flag ? value : "-");
	else
		CHECK(flag);
	/* every member of the new communicator names the same type */
	memcpy(first, value, sizeof(first));
	CHECK_MPI(MPI_Bcast(first, (int)sizeof(first), MPI_CHAR, 0, c));
	CHECK(strcmp(first, value) == 0);
	printf("%d %s size %d type %s\n", tu_rank, spec, size, value);
	MPI_Comm_free(&c);
}

int main(int argc, char **argv)
{
	MPI_Comm c = MPI_COMM_SELF;

	tu_init(&argc, &argv);
	for (int i = 1; i < argc; i++)
		split(argv[i]);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, 99, 0, MPI_INFO_NULL, &c) != MPI_SUCCESS);
	CHECK(c == MPI_COMM_SELF);
	MPI_Finalize();
	return 0;
}
