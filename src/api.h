/*
 * Defining MPI functions: API(ret, Name, (args)) defines PMPI_Name, exported,
 * and makes MPI_Name a weak alias of it (the profiling interface: a tool
 * defines MPI_Name itself and calls PMPI_Name).
 */
#ifndef SRC_API_H
#define SRC_API_H

#include <mpi.h>

#define API(ret, name, args)                                                   \
	ret MPI_##name args                                                    \
		__attribute__((weak, alias("PMPI_" #name), visibility("default"))); \
	__attribute__((visibility("default"))) ret PMPI_##name args

#endif
