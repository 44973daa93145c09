/*
 * AckInRank0: the deadlock of the MPI standard's progress section (MPI-4.1
 * section 2.9 and the RMA chapter's "Progress" example), as a program.
 *
 *   shmrun -n 2 --progress=weak   ./ack_in_rank0    deadlocks
 *   shmrun -n 2 --progress=strong ./ack_in_rank0    completes
 *
 * Rank 0 owns an integer, AckInRank0, in a shared-memory window that both
 * ranks reach by plain loads and stores (MPI_Win_allocate_shared on a
 * communicator from MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), pointers from
 * MPI_Win_shared_query).  Rank 0 buffers a huge message for rank 1 with
 * MPI_Bsend, which returns at once: the data sits in rank 0's attach buffer.
 * Then rank 0 spins, outside MPI, until AckInRank0 becomes 222.  Rank 1
 * receives the message and then stores 222.
 *
 * Two layers that are each correct (a buffered send; a flag in shared
 * memory) deadlock together: the message is far larger than what can be
 * handed over at once, so moving it needs rank 0's MPI library to act -- a
 * "progress chunk" -- and rank 0 will not call MPI again until rank 1 has
 * stored the flag, which it does only after the receive.
 *
 * Under weak progress (the default of shmpi, MPICH and Open MPI) MPI runs
 * only inside MPI calls, so the program hangs; shmrun's watchdog (or
 * --timeout) ends it.  Under strong progress a thread in rank 0 moves the
 * data while rank 0 spins, and the program completes.  The standard allows
 * both: correct MPI programs must not synchronize through shared memory
 * while MPI still owes a progress chunk.
 *
 * The polling loop reads the flag with an atomic load: a plain read could be
 * kept in a register by the compiler and never see the store (see
 * register_coherence.c).
 *
 *   ack_in_rank0 [MiB] [seconds rank 1 waits before its receive]
 */
#include <mpi.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	int mib = argc > 1 ? atoi(argv[1]) : 64;
	double pause_s = argc > 2 ? atof(argv[2]) : 1.0;
	int count = mib << 20, rank, disp_unit, bufsize;
	MPI_Comm comm_sm;
	MPI_Win win_sm;
	MPI_Aint size;
	atomic_int *myAck, *AckInRank0;
	char *message, *buffer;
	void *detached;

	MPI_Init(&argc, &argv);
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
			    &comm_sm);
	MPI_Comm_rank(comm_sm, &rank);
	MPI_Win_allocate_shared(rank == 0 ? sizeof(atomic_int) : 0, sizeof(atomic_int),
				MPI_INFO_NULL, comm_sm, &myAck, &win_sm);
	MPI_Win_shared_query(win_sm, 0, &size, &disp_unit, &AckInRank0);
	message = calloc((size_t)count, 1);
	if (rank == 0)
		atomic_store(myAck, 0);
	MPI_Win_fence(0, win_sm);

	if (rank == 0) {
		bufsize = count + MPI_BSEND_OVERHEAD;
		buffer = malloc((size_t)bufsize);
		MPI_Buffer_attach(buffer, bufsize);
		MPI_Bsend(message, count, MPI_CHAR, 1, 0, comm_sm);
		printf("rank 0: MPI_Bsend of %d MiB returned; polling AckInRank0 outside MPI\n",
		       mib);
		fflush(stdout);
		while (atomic_load(AckInRank0) != 222)
			;	/* the empty polling loop */
		MPI_Buffer_detach(&detached, &bufsize);
		printf("rank 0: saw the acknowledgement; MPI_Buffer_detach returned\n");
		free(buffer);
	} else if (rank == 1) {
		struct timespec ts = { (time_t)pause_s,
				       (long)((pause_s - (time_t)pause_s) * 1e9) };

		/* so that rank 0's MPI_Bsend has returned and it is polling */
		nanosleep(&ts, NULL);
		MPI_Recv(message, count, MPI_CHAR, 0, 0, comm_sm, MPI_STATUS_IGNORE);
		atomic_store(AckInRank0, 222);
		printf("rank 1: received %d MiB; stored 222 in AckInRank0\n", mib);
	}
	MPI_Win_free(&win_sm);
	MPI_Comm_free(&comm_sm);
	free(message);
	MPI_Finalize();
	return 0;
}
