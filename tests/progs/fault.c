/*
 * Rank 1 dies in the middle of things, in the way and the place argv says,
 * while the other ranks are blocked waiting for it or for each other:
 *   fault HOW WHERE
 *   HOW:   segv | kill | exit | abort   (SIGSEGV, SIGKILL, exit(0) without
 *          MPI_Finalize, MPI_Abort(comm, 9))
 *   WHERE: lock (holding an exclusive window lock that rank 0 waits for),
 *          fence (the others wait in MPI_Win_fence), epoch (inside a PSCW
 *          access epoch rank 0 waits to end), recv (the others wait in
 *          MPI_Recv for it), send (rank 0 copies a 128 MiB message from
 *          rank 1's memory, rank 1 dies a few milliseconds into the copy;
 *          the others wait in MPI_Recv for it), shared (the same, but rank
 *          0 shares the copy with rank 1, which helps from inside MPI_Wait
 *          until another of its threads makes it die: SHMPI_SINGLE_COPY_SHARE;
 *          not with abort, which that thread may not call)
 *   fault hold S: nobody dies; every rank holds still for S seconds (for
 *          probes from outside the job)
 * The job must end within seconds, whatever the others block in.
 */
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include "testutil.h"

static void die(const char *how)
{
	fflush(stdout);
	if (!strcmp(how, "segv"))
		raise(SIGSEGV);
	else if (!strcmp(how, "kill"))
		raise(SIGKILL);
	else if (!strcmp(how, "exit"))
		_exit(0);
	else
		MPI_Abort(MPI_COMM_WORLD, 9);
	_exit(3);
}

/* The thread that ends rank 1 a few milliseconds into the shared copy. */
static void *die_soon(void *how)
{
	tu_sleep_ms(5);
	die(how);
	return NULL;
}

int main(int argc, char **argv)
{
	const char *how = argc > 2 ? argv[1] : "segv", *where = argc > 2 ? argv[2] : "recv";
	MPI_Group world, one;
	MPI_Win win;
	int *base, v = 0, peer = 1, size;

	tu_init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK(size >= 2);
	CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
				   &base, &win));
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Group_incl(world, 1, &peer, &one);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (!strcmp(how, "hold")) {
		tu_sleep_ms(atoi(where) * 1000);
		MPI_Finalize();
		return 0;
	}
	if (!strcmp(where, "lock")) {
		if (tu_rank == 1) {
			CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
			CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD));
			tu_sleep_ms(200);
			die(how);
		}
		if (tu_rank == 0)
			CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		/* everybody else waits for the lock rank 1 holds */
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
		CHECK_MPI(MPI_Win_unlock(0, win));
	} else if (!strcmp(where, "fence")) {
		CHECK_MPI(MPI_Win_fence(0, win));
		if (tu_rank == 1) {
			tu_sleep_ms(200);
			die(how);
		}
		CHECK_MPI(MPI_Win_fence(0, win));
	} else if (!strcmp(where, "epoch")) {
		/* rank 1 posts to rank 0 and dies before its wait; rank 0 would
		 * complete; the others wait in a barrier */
		if (tu_rank == 1) {
			MPI_Group zero;
			int r0 = 0;

			MPI_Group_incl(world, 1, &r0, &zero);
			CHECK_MPI(MPI_Win_post(zero, 0, win));
			tu_sleep_ms(200);
			die(how);
		}
		if (tu_rank == 0) {
			CHECK_MPI(MPI_Win_start(one, 0, win));
			CHECK_MPI(MPI_Put(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win));
			CHECK_MPI(MPI_Win_complete(win));
		}
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	} else if (!strcmp(where, "shared")) {
		size_t n = (size_t)128 << 20;
		char *big = malloc(n);
		MPI_Request req;
		pthread_t t;

		CHECK(big != NULL);
		memset(big, 1, n);
		/* a first large message: rank 0 then knows process_vm_readv
		 * works, and shares the next copy */
		if (tu_rank == 1) {
			CHECK_MPI(MPI_Send(big, 1 << 20, MPI_CHAR, 0, 1, MPI_COMM_WORLD));
			CHECK_MPI(MPI_Isend(big, (int)n, MPI_CHAR, 0, 0, MPI_COMM_WORLD, &req));
			CHECK(pthread_create(&t, NULL, die_soon, (void *)how) == 0);
			CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
			pthread_join(t, NULL);
		}
		if (tu_rank == 0) {
			CHECK_MPI(MPI_Recv(big, 1 << 20, MPI_CHAR, 1, 1, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
			CHECK_MPI(MPI_Recv(big, (int)n, MPI_CHAR, 1, 0, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
		}
		CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	} else if (!strcmp(where, "send")) {
		size_t n = (size_t)128 << 20;
		char *big = malloc(n);
		MPI_Request req;

		CHECK(big != NULL);
		memset(big, 1, n);
		if (tu_rank == 1) {
			CHECK_MPI(MPI_Isend(big, (int)n, MPI_CHAR, 0, 0, MPI_COMM_WORLD, &req));
			tu_sleep_ms(5);
			die(how);
		}
		if (tu_rank == 0)
			CHECK_MPI(MPI_Recv(big, (int)n, MPI_CHAR, 1, 0, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	} else {
		if (tu_rank == 1) {
			tu_sleep_ms(200);
			die(how);
		}
		CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	}
	printf("rank %d: got through, which it should not\n", tu_rank);
	MPI_Finalize();
	return 0;
}
