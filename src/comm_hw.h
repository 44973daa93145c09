/*
 * The hardware split types of MPI_Comm_split_type (MPI-4.0).
 */
#ifndef SRC_COMM_HW_H
#define SRC_COMM_HW_H

#include <mpi.h>

struct comm;
struct info;

/* MPI_Comm_split_type for MPI_COMM_TYPE_HW_GUIDED and _HW_UNGUIDED on the
 * intracommunicator p (handle comm), arguments already checked: collective
 * over p; errors through comm's handler. */
int comm_hw_split_type(MPI_Comm comm, struct comm *p, int split_type, int key,
		       const struct info *info, MPI_Comm *newcomm);

#endif
