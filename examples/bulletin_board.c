/*
 * A bulletin board through passive-target locks (the "bulletin board" of the
 * MPI standard's RMA chapter): rank 0's window holds one slot per rank plus
 * a shared tally.  At random moments every rank locks the board, reads
 * another rank's slot and the tally, updates its own slot and the tally,
 * and unlocks -- exclusively when it writes, shared when it only reads.
 * Rank 0 never takes part: the origins do everything.  At the end the board
 * must equal a sequential replay of the updates: every slot holds its
 * owner's last value, and the tally the sum of all increments.
 *
 *   shmrun -n 8 ./bulletin_board [updates per rank]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int updates = argc > 1 ? atoi(argv[1]) : 200;
	int rank, size, errors = 0;
	long *board;
	MPI_Win win;
	unsigned seed;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	/* slot r: rank r's last value; slot size: the tally */
	MPI_Win_allocate(rank == 0 ? (MPI_Aint)(size + 1) * (MPI_Aint)sizeof(long) : 0,
			 sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &board, &win);
	if (rank == 0)
		for (int i = 0; i <= size; i++)
			board[i] = 0;
	MPI_Barrier(MPI_COMM_WORLD);
	seed = 12345u + (unsigned)rank;
	for (int u = 1; u <= updates; u++) {
		long other, tally, mine = (long)rank * 1000000 + u;
		int peer = rand_r(&seed) % size;

		/* now and then only read, under a shared lock */
		if (rand_r(&seed) % 4 == 0) {
			MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
			MPI_Get(&other, 1, MPI_LONG, 0, peer, 1, MPI_LONG, win);
			MPI_Win_unlock(0, win);
			/* a slot only ever holds one of its owner's values */
			if (other != 0 && other / 1000000 != peer)
				errors++;
			continue;
		}
		MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
		MPI_Get(&tally, 1, MPI_LONG, 0, size, 1, MPI_LONG, win);
		MPI_Win_flush(0, win);
		tally += u;
		MPI_Put(&mine, 1, MPI_LONG, 0, rank, 1, MPI_LONG, win);
		MPI_Put(&tally, 1, MPI_LONG, 0, size, 1, MPI_LONG, win);
		MPI_Win_unlock(0, win);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	/* the replay: each rank's increments, in any order, add up alike */
	if (rank == 0) {
		long want = 0;

		for (int r = 0; r < size; r++) {
			unsigned s = 12345u + (unsigned)r;
			long last = 0;

			for (int u = 1; u <= updates; u++) {
				rand_r(&s);
				if (rand_r(&s) % 4 == 0)
					continue;
				want += u;
				last = (long)r * 1000000 + u;
			}
			if (board[r] != last) {
				printf("slot %d holds %ld, the replay says %ld\n", r, board[r], last);
				errors++;
			}
		}
		if (board[size] != want) {
			printf("the tally is %ld, the replay says %ld\n", board[size], want);
			errors++;
		}
	}
	MPI_Allreduce(MPI_IN_PLACE, &errors, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("bulletin board: %d ranks x %d updates: %s\n", size, updates,
		       errors ? "WRONG" : "matches the sequential replay");
	MPI_Win_free(&win);
	MPI_Finalize();
	return errors != 0;
}
