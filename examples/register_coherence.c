/*
 * A demonstration, not a program to imitate: why window memory shared by
 * load and store must be read through atomics (or volatile), as the MPI
 * standard's "Registers and Compiler Optimizations" section warns.
 *
 * Rank 1 stores 1 into a flag that lives in rank 0's part of a shared
 * window.  Rank 0 then looks at the flag in two loops of a bounded number
 * of rounds: once through a plain int pointer, once with an atomic load.
 * With optimisation the compiler may read the plain int once, keep it in a
 * register and never see the store: that loop reports a stale 0.  The
 * atomic load reads memory every time and sees 1.  (Whether the plain loop
 * goes stale depends on the compiler; at -O2 GCC and Clang hoist the load.)
 *
 *   shmrun -n 2 ./register_coherence
 */
#include <mpi.h>
#include <stdatomic.h>
#include <stdio.h>

#define ROUNDS 200000000L

/* A separate function, so the compiler cannot see the store by rank 1. */
__attribute__((noinline)) static long plain_poll(const int *flag)
{
	long rounds = 0;

	while (*flag == 0 && rounds < ROUNDS)
		rounds++;
	return *flag == 0 ? -1 : rounds;
}

__attribute__((noinline)) static long atomic_poll(atomic_int *flag)
{
	long rounds = 0;

	while (atomic_load(flag) == 0 && rounds < ROUNDS)
		rounds++;
	return atomic_load(flag) == 0 ? -1 : rounds;
}

int main(int argc, char **argv)
{
	int rank, disp_unit, *mine, *flag;
	MPI_Aint size;
	MPI_Win win;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Win_allocate_shared(rank == 0 ? sizeof(int) : 0, sizeof(int), MPI_INFO_NULL,
				MPI_COMM_WORLD, &mine, &win);
	MPI_Win_shared_query(win, 0, &size, &disp_unit, &flag);
	if (rank == 0)
		atomic_store((atomic_int *)flag, 0);
	MPI_Win_fence(0, win);
	if (rank == 1) {
		atomic_store((atomic_int *)flag, 1);
	} else if (rank == 0) {
		long plain, atomic;

		/* give rank 1 time to store, then look at the flag */
		MPI_Recv(NULL, 0, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		atomic_store((atomic_int *)flag, 0);
		MPI_Send(NULL, 0, MPI_INT, 1, 1, MPI_COMM_WORLD);
		plain = plain_poll(flag);
		atomic = atomic_poll((atomic_int *)flag);
		printf("plain int load:  %s\n", plain < 0 ? "stale: never saw the store "
		       "(the value stayed in a register)" : "saw the store");
		printf("atomic load:     %s\n", atomic < 0 ? "never saw the store" :
		       "saw the store");
	}
	if (rank == 1) {
		/* first round: tell rank 0 we are here; second: store after it
		 * cleared the flag and started polling */
		MPI_Send(NULL, 0, MPI_INT, 0, 0, MPI_COMM_WORLD);
		MPI_Recv(NULL, 0, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (volatile long spin = 0; spin < 20000000; spin++)
			;
		atomic_store((atomic_int *)flag, 1);
	}
	MPI_Win_fence(0, win);
	MPI_Win_free(&win);
	MPI_Finalize();
	return 0;
}
