/*
 * make fuzz: the fuzzing core (tests/progs/fuzz_core.h) driven by libFuzzer's
 * inputs instead of a seeded generator, in a job of one rank, the library
 * built with coverage and address/undefined sanitizers.  Each input is one
 * round: its bytes choose the calls and their arguments; then every window,
 * guard and buffer is checked.  A failed check aborts, and libFuzzer keeps
 * the input (and prints the -seed= that found it).
 */
#include <stdlib.h>

#define FZ_DIE() abort()
#include "fuzz_core.h"

static struct fz f;

static void fz_report(void)
{
	fprintf(stderr, "fuzz: libFuzzer, %ld executions (%ld errors returned, "
		"%ld successes), every window and guard intact\n",
		f.execs, f.errors, f.successes);
	fz_teardown(&f);
	MPI_Finalize();
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	MPI_Init(argc, argv);
	fz_setup(&f);
	atexit(fz_report);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	f.in = data;
	f.in_len = size;
	f.in_pos = 0;
	f.rng = size * 0x9E3779B97F4A7C15ull ^ data[0];
	f.round++;
	/* about one call per 8 bytes, as many as the input can choose */
	fz_round(&f, 1 + (int)(size < 512 ? size / 8 : 64));
	fz_verify(&f);
	return 0;
}
