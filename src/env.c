/*
 * Environmental inquiries: version, library version, processor name and the
 * clock.  None of them touches library state, so all work before MPI_Init.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api.h"
#include "errhandler.h"
#include "runtime.h"

/* A NULL output argument: through MPI_COMM_WORLD's handler once it exists. */
static int env_null_arg(const char *call, const char *arg)
{
	if (rt.phase != RUNTIME_ACTIVE)
		return MPI_ERR_ARG;
	return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG, arg, "is NULL");
}

API(int, Get_version, (int *version, int *subversion))
{
	if (!version)
		return env_null_arg("MPI_Get_version", "version");
	if (!subversion)
		return env_null_arg("MPI_Get_version", "subversion");
	*version = MPI_VERSION;
	*subversion = MPI_SUBVERSION;
	return MPI_SUCCESS;
}

API(int, Get_library_version, (char *version, int *resultlen))
{
	int n;

	if (!version)
		return env_null_arg("MPI_Get_library_version", "version");
	if (!resultlen)
		return env_null_arg("MPI_Get_library_version", "resultlen");
	n = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
		     "shmpi %s (MPI %d.%d, without process creation and I/O): "
		     "shared-memory, single-node MPI for one-sided communication",
		     SHMPI_VERSION, MPI_VERSION, MPI_SUBVERSION);
	*resultlen = n;
	return MPI_SUCCESS;
}

API(int, Get_processor_name, (char *name, int *resultlen))
{
	if (!name)
		return env_null_arg("MPI_Get_processor_name", "name");
	if (!resultlen)
		return env_null_arg("MPI_Get_processor_name", "resultlen");
	if (gethostname(name, MPI_MAX_PROCESSOR_NAME) < 0)
		snprintf(name, MPI_MAX_PROCESSOR_NAME, "localhost");
	name[MPI_MAX_PROCESSOR_NAME - 1] = '\0';
	*resultlen = (int)strlen(name);
	return MPI_SUCCESS;
}

/* CLOCK_MONOTONIC is one clock for every process of the node: the times of
 * different ranks compare directly. */
API(double, Wtime, (void))
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

API(double, Wtick, (void))
{
	struct timespec res;

	if (clock_getres(CLOCK_MONOTONIC, &res) < 0)
		return 1e-9;
	return (double)res.tv_sec + (double)res.tv_nsec * 1e-9;
}
