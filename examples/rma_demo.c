/*
 * A short tour of one-sided communication on one node.
 *
 * Every rank draws tickets from a counter in rank 0's window with
 * MPI_Fetch_and_op (atomic, and rank 0 does nothing to serve them), writes
 * its rank into the slot of each ticket with MPI_Put, and all of it inside
 * one MPI_Win_lock_all epoch.  After a barrier rank 0 checks that every
 * ticket was drawn exactly once and prints who drew how many, then times a
 * put+flush to the next rank.
 *
 *   shmrun -n 8 ./rma_demo [tickets per rank]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int per = argc > 1 ? atoi(argv[1]) : 1000;
	int rank, size, errors = 0, iters = 20000;
	long *mem, one = 1, ticket, x = 0;
	MPI_Win win;
	double t;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	/* rank 0: the counter, then one slot per ticket; others: one word */
	MPI_Win_allocate(rank == 0 ? (MPI_Aint)(1 + per * size) * (MPI_Aint)sizeof(long) :
			 (MPI_Aint)sizeof(long), sizeof(long), MPI_INFO_NULL,
			 MPI_COMM_WORLD, &mem, &win);
	if (rank == 0)
		for (int i = 0; i <= per * size; i++)
			mem[i] = -1;
	if (rank == 0)
		mem[0] = 0;
	MPI_Barrier(MPI_COMM_WORLD);

	MPI_Win_lock_all(0, win);
	for (int i = 0; i < per; i++) {
		long me = rank;

		MPI_Fetch_and_op(&one, &ticket, MPI_LONG, 0, 0, MPI_SUM, win);
		MPI_Win_flush(0, win);
		MPI_Put(&me, 1, MPI_LONG, 0, 1 + ticket, 1, MPI_LONG, win);
	}
	MPI_Win_unlock_all(win);
	MPI_Barrier(MPI_COMM_WORLD);

	if (rank == 0) {
		int *drawn = calloc((size_t)size, sizeof(int));

		errors += mem[0] != (long)per * size;
		for (int i = 1; i <= per * size; i++) {
			if (mem[i] < 0 || mem[i] >= size)
				errors++;
			else
				drawn[mem[i]]++;
		}
		printf("%d ranks drew %ld tickets from rank 0's counter:", size, mem[0]);
		for (int r = 0; r < size; r++)
			printf(" %d", drawn[r]);
		printf("  (%s)\n", errors ? "WRONG" : "each ticket exactly once");
		free(drawn);
	}
	/* put + flush latency to the next rank */
	MPI_Win_lock_all(0, win);
	MPI_Barrier(MPI_COMM_WORLD);
	t = MPI_Wtime();
	for (int i = 0; i < iters; i++) {
		MPI_Put(&x, 1, MPI_LONG, (rank + 1) % size, 0, 1, MPI_LONG, win);
		MPI_Win_flush((rank + 1) % size, win);
	}
	t = MPI_Wtime() - t;
	MPI_Win_unlock_all(win);
	if (rank == 0)
		printf("8-byte put+flush to the next rank: %.0f ns each\n", t / iters * 1e9);
	MPI_Win_free(&win);
	MPI_Finalize();
	return errors != 0;
}
