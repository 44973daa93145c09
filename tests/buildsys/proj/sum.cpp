// The test project of tests/buildsys in C++, calling MPI's C interface: every
// rank adds rank + 1 to a counter in rank 0's window (MPI_Fetch_and_op in a
// lock_all epoch), gathers every rank's number into a std::vector and passes
// its rank around a ring; rank 0 prints what it got.  A correct MPI
// program: it builds and runs the same with MPICH's and Open MPI's mpicxx.
#include <mpi.h>

#include <iostream>
#include <numeric>
#include <vector>

int main(int argc, char **argv)
{
	int rank = 0, size = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	int *counter = nullptr;
	MPI_Win win;
	MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &counter, &win);
	MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
	*counter = 0;
	MPI_Win_unlock(rank, win);
	MPI_Barrier(MPI_COMM_WORLD);
	int mine = rank + 1, before = 0;
	MPI_Win_lock_all(0, win);
	MPI_Fetch_and_op(&mine, &before, MPI_INT, 0, 0, MPI_SUM, win);
	MPI_Win_unlock_all(win);
	MPI_Barrier(MPI_COMM_WORLD);

	std::vector<int> all(static_cast<std::size_t>(size));
	MPI_Allgather(&mine, 1, MPI_INT, all.data(), 1, MPI_INT, MPI_COMM_WORLD);
	int left = -1;
	MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 0, &left, 1, MPI_INT,
		     (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	int ring = left == (rank + size - 1) % size;
	MPI_Allreduce(MPI_IN_PLACE, &ring, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);

	if (rank == 0) {
		MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
		std::cout << "C++: " << size << " ranks, fetch_and_op " << *counter
			  << ", allgather " << std::accumulate(all.begin(), all.end(), 0)
			  << ", ring " << (ring ? "ok" : "broken") << std::endl;
		MPI_Win_unlock(0, win);
	}
	MPI_Win_free(&win);
	MPI_Finalize();
	return 0;
}
