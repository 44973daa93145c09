/*
 * Shared by the MPI test programs: CHECK ends the whole job (MPI_Abort) with
 * a message naming the rank and the line, so a failure never hangs the
 * others.  Also builds with any other MPI.
 */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int tu_rank = -1;

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "rank %d: %s:%d: check failed: %s\n",  \
				tu_rank, __FILE__, __LINE__, #cond);           \
			fflush(stderr);                                        \
			MPI_Abort(MPI_COMM_WORLD, 99);                         \
		}                                                              \
	} while (0)

#define CHECK_MPI(call) CHECK((call) == MPI_SUCCESS)

static inline void tu_init(int *argc, char ***argv)
{
	MPI_Init(argc, argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &tu_rank);
}

static inline void tu_sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* The byte at offset i of the message that rank `from` sends in round r. */
static inline unsigned char tu_pattern(int from, int r, size_t i)
{
	return (unsigned char)(from * 31 + r * 7 + i * 13 + (i >> 8));
}

static inline void tu_fill(unsigned char *b, size_t n, int from, int r)
{
	for (size_t i = 0; i < n; i++)
		b[i] = tu_pattern(from, r, i);
}

static inline int tu_verify(const unsigned char *b, size_t n, int from, int r)
{
	for (size_t i = 0; i < n; i++)
		if (b[i] != tu_pattern(from, r, i))
			return 0;
	return 1;
}

/* Run the named test if argv selects it (or selects "all"). */
#define TU_RUN(name, fn)                                                       \
	do {                                                                   \
		if (!strcmp(which, "all") || !strcmp(which, name)) {           \
			fn();                                                  \
			MPI_Barrier(MPI_COMM_WORLD);                           \
			if (tu_rank == 0)                                      \
				printf("ok %s\n", name);                       \
			fflush(stdout);                                        \
		}                                                              \
	} while (0)

#endif
