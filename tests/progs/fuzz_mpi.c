/*
 * Fuzz driver (tests/progs/fuzz_core.h): every rank throws random and
 * boundary arguments at the RMA, point-to-point and datatype calls under
 * MPI_ERRORS_RETURN, in rounds; after each round every rank checks every
 * window, its guards and its buffers.
 *   fuzz_mpi SEED SECONDS [ROUNDS [SELFTEST]]
 * runs rounds until SECONDS have passed (or ROUNDS rounds, when given: a
 * failure prints the seed and round R, and `fuzz_mpi SEED 0 R+1` on as
 * many ranks replays it exactly).
 * Prints how many executions ran.  SELFTEST 1 or 2 breaks a rule on purpose
 * (see struct fz), to show that the checks catch it.
 */
#include "fuzz_core.h"

int main(int argc, char **argv)
{
	struct fz f;
	unsigned long long seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
	double seconds = argc > 2 ? atof(argv[2]) : 2, t0;
	long rounds = argc > 3 ? atol(argv[3]) : 0, round = 0;
	long counts[3], totals[3];
	int stop = 0;

	tu_init(&argc, &argv);
	memset(&f, 0, sizeof(f));
	f.seed = seed;
	f.selftest = argc > 4 ? atoi(argv[4]) : 0;
	fz_setup(&f);
	f.rng = seed * 0x100000001B3ull + (uint64_t)f.rank;
	t0 = MPI_Wtime();
	while (!stop) {
		fz_round(&f, 20 + (int)fz_pick(&f, 30));
		MPI_Barrier(MPI_COMM_WORLD);
		fz_verify(&f);
		f.round = ++round;
		if (f.rank == 0)
			stop = rounds ? round >= rounds : MPI_Wtime() - t0 >= seconds;
		MPI_Bcast(&stop, 1, MPI_INT, 0, MPI_COMM_WORLD);
	}
	counts[0] = f.execs;
	counts[1] = f.errors;
	counts[2] = f.successes;
	MPI_Reduce(counts, totals, 3, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
	fz_teardown(&f);
	if (f.rank == 0)
		printf("fuzz: seed %llu, %d ranks, %ld rounds, %ld executions "
		       "(%ld errors returned, %ld successes), every window and guard intact\n",
		       seed, f.size, round, totals[0], totals[1], totals[2]);
	MPI_Finalize();
	return 0;
}
