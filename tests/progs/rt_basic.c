/*
 * The runtime calls: init/finalize state, rank and size, versions, names,
 * the clock and the thread level.  Prints one line per rank; exits non-zero
 * with a message on the first wrong answer.
 *   rt_basic [required-thread-level]
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "rt_basic: %s:%d: %s\n", __FILE__,     \
				__LINE__, #cond);                              \
			exit(2);                                               \
		}                                                              \
	} while (0)

static void *not_main(void *arg)
{
	int *flag = arg;

	MPI_Is_thread_main(flag);
	return NULL;
}

int main(int argc, char **argv)
{
	int flag, rank, size, self_rank, self_size, v, sv, len, provided, main_flag;
	char lib[MPI_MAX_LIBRARY_VERSION_STRING], host[MPI_MAX_PROCESSOR_NAME];
	int required = argc > 1 ? atoi(argv[1]) : -1;
	double t0, t1;
	pthread_t th;

	CHECK(MPI_Initialized(&flag) == MPI_SUCCESS && !flag);
	CHECK(MPI_Finalized(&flag) == MPI_SUCCESS && !flag);
	CHECK(MPI_Get_version(&v, &sv) == MPI_SUCCESS && v == 4 && sv == 1);
	if (required < 0) {
		CHECK(MPI_Init(&argc, &argv) == MPI_SUCCESS);
		CHECK(MPI_Query_thread(&provided) == MPI_SUCCESS);
		CHECK(provided == MPI_THREAD_SINGLE);
	} else {
		CHECK(MPI_Init_thread(&argc, &argv, required, &provided) == MPI_SUCCESS);
		/* every level is provided as asked, MULTIPLE included */
		CHECK(provided == required);
		CHECK(MPI_Query_thread(&v) == MPI_SUCCESS && v == provided);
	}
	CHECK(MPI_Initialized(&flag) == MPI_SUCCESS && flag);
	CHECK(MPI_Finalized(&flag) == MPI_SUCCESS && !flag);
	CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS);
	CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size) == MPI_SUCCESS);
	CHECK(size >= 1 && rank >= 0 && rank < size);
	CHECK(MPI_Comm_rank(MPI_COMM_SELF, &self_rank) == MPI_SUCCESS && self_rank == 0);
	CHECK(MPI_Comm_size(MPI_COMM_SELF, &self_size) == MPI_SUCCESS && self_size == 1);
	if (getenv("SHMPI_RANK"))
		CHECK(atoi(getenv("SHMPI_RANK")) == rank);

	CHECK(MPI_Get_library_version(lib, &len) == MPI_SUCCESS);
	CHECK(len == (int)strlen(lib) && strncmp(lib, "shmpi ", 6) == 0);
	CHECK(MPI_Get_processor_name(host, &len) == MPI_SUCCESS);
	CHECK(len > 0 && len == (int)strlen(host) && len < MPI_MAX_PROCESSOR_NAME);

	t0 = MPI_Wtime();
	CHECK(MPI_Wtick() > 0 && MPI_Wtick() <= 1e-6);
	do
		t1 = MPI_Wtime();
	while (t1 == t0);
	CHECK(t1 > t0 && t1 - t0 < 0.1);

	CHECK(MPI_Is_thread_main(&main_flag) == MPI_SUCCESS && main_flag);
	main_flag = -1;
	CHECK(pthread_create(&th, NULL, not_main, &main_flag) == 0);
	CHECK(pthread_join(th, NULL) == 0);
	CHECK(main_flag == 0);

	printf("rank %d of %d ok\n", rank, size);
	CHECK(MPI_Finalize() == MPI_SUCCESS);
	CHECK(MPI_Initialized(&flag) == MPI_SUCCESS && flag);
	CHECK(MPI_Finalized(&flag) == MPI_SUCCESS && flag);
	return 0;
}
