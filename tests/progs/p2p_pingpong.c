/*
 * p2p_pingpong: 8-byte messages back and forth between ranks 0 and 1, each
 * received once it is there, for counting what a send and a receive cost.
 *
 *   p2p_pingpong [ITERATIONS [multiple]]
 *
 * In iteration i rank i % 2 sends one int64 holding i to the other rank
 * with MPI_Send; the other rank calls MPI_Iprobe until the message is
 * there, then receives it with MPI_Recv and checks it.  So no MPI_Send or
 * MPI_Recv waits for the other rank, and the engine handles the message's
 * record once, in an MPI_Iprobe.  `multiple` initializes with
 * MPI_THREAD_MULTIPLE.  Prints "ok".
 *
 * The instructions of one pair, with callgrind: the two calls (the MPI_
 * names are weak aliases, so they are the PMPI_ functions) and the
 * engine's handling of the record (handle_packet, in src/progress.c):
 *
 *   shmrun -n 2 valgrind --tool=callgrind --toggle-collect=PMPI_Send \
 *       --toggle-collect=PMPI_Recv --toggle-collect=handle_packet \
 *       p2p_pingpong 10000
 *
 * the two ranks' totals summed and divided by ITERATIONS.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	long iters = argc > 1 ? atol(argv[1]) : 1000;
	int multiple = argc > 2 && strcmp(argv[2], "multiple") == 0;
	int rank, size, provided;

	if (multiple) {
		MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
		if (provided != MPI_THREAD_MULTIPLE) {
			fprintf(stderr, "p2p_pingpong: MPI_THREAD_MULTIPLE not provided\n");
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
	} else {
		MPI_Init(&argc, &argv);
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 2) {
		if (rank == 0)
			fprintf(stderr, "p2p_pingpong: needs 2 ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	for (long i = 0; i < iters; i++) {
		int64_t v = i;
		int there = 0;

		if (rank == i % 2) {
			MPI_Send(&v, 1, MPI_INT64_T, 1 - rank, 7, MPI_COMM_WORLD);
		} else {
			while (!there)
				MPI_Iprobe(1 - rank, 7, MPI_COMM_WORLD, &there,
					   MPI_STATUS_IGNORE);
			v = -1;
			MPI_Recv(&v, 1, MPI_INT64_T, 1 - rank, 7, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			if (v != i) {
				fprintf(stderr, "p2p_pingpong: rank %d got %lld in "
					"iteration %ld\n", rank, (long long)v, i);
				MPI_Abort(MPI_COMM_WORLD, 1);
			}
		}
	}
	MPI_Finalize();
	if (rank == 0)
		printf("ok\n");
	return 0;
}
