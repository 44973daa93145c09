/*
 * Which of hwloc's libraries (and libnuma) a rank has mapped: none, unless
 * something it asked for needs them.
 *   hw_maps            every rank prints "R init: hwloc H udev U numa N"
 *                      after MPI_Init (1: /proc/self/maps shows it)
 *   hw_maps split      then also an MPI_COMM_TYPE_HW_GUIDED split by Core,
 *                      and "R split: hwloc H size S" (S: 0 for
 *                      MPI_COMM_NULL)
 */
#include <stdio.h>
#include <string.h>

#include "testutil.h"

/* Whether a mapped file's name contains what. */
static int mapped(const char *what)
{
	char line[4096];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	CHECK(f != NULL);
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, what) != NULL;
	fclose(f);
	return found;
}

int main(int argc, char **argv)
{
	MPI_Comm c;
	MPI_Info info;
	int size = 0;

	tu_init(&argc, &argv);
	printf("%d init: hwloc %d udev %d numa %d\n", tu_rank, mapped("/libhwloc."),
	       mapped("/libudev."), mapped("/libnuma."));
	if (argc > 1 && strcmp(argv[1], "split") == 0) {
		CHECK_MPI(MPI_Info_create(&info));
		CHECK_MPI(MPI_Info_set(info, "mpi_hw_resource_type", "Core"));
		CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, info,
					      &c));
		if (c != MPI_COMM_NULL) {
			CHECK_MPI(MPI_Comm_size(c, &size));
			CHECK_MPI(MPI_Comm_free(&c));
		}
		CHECK_MPI(MPI_Info_free(&info));
		printf("%d split: hwloc %d size %d\n", tu_rank, mapped("/libhwloc."), size);
	}
	fflush(stdout);
	MPI_Finalize();
	return 0;
}
