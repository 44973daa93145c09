/*
 * MPI_Pcontrol (MPI-3.1 section 14.2.4): the profiling interface's knob,
 * for a profiling library that wraps it; the MPI library itself only
 * accepts it, with any level and any further arguments, at any time.
 */
#include "api.h"

API(int, Pcontrol, (const int level, ...))
{
	(void)level;
	return MPI_SUCCESS;
}
