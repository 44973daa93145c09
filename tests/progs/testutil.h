/*
 * Shared by the MPI test programs: CHECK ends the whole job (MPI_Abort) with
 * a message naming the rank and the line, so a failure never hangs the
 * others.  Also builds with any other MPI.
 */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include <mpi.h>
#include <stdint.h>
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

/* Whether rc is of error class want (MPI_SUCCESS: rc is); says so if not. */
static inline int tu_check_class(int rc, int want)
{
	int cls = -1;

	if (rc == MPI_SUCCESS)
		return want == MPI_SUCCESS;
	MPI_Error_class(rc, &cls);
	if (cls != want)
		fprintf(stderr, "rank %d: class %d, want %d\n", tu_rank, cls, want);
	return cls == want;
}

/* A request value no call hands out, to see that a failing call leaves
 * its request argument alone. */
#define TU_SENTINEL_REQ ((MPI_Request)0x5a5a5a5a)

/* The call returns class `want` and leaves the request variable req (set
 * to TU_SENTINEL_REQ first) alone. */
#define TU_EXPECT_REQ_ERR(want, req, call)                                    \
	do {                                                                   \
		int ok_;                                                       \
		(req) = TU_SENTINEL_REQ;                                       \
		ok_ = tu_check_class((call), (want));                          \
		if (!ok_)                                                      \
			fprintf(stderr, "rank %d: line %d: want class %d\n",    \
				tu_rank, __LINE__, (want));                    \
		CHECK(ok_);                                                    \
		CHECK((req) == TU_SENTINEL_REQ);                               \
	} while (0)

/* The group of MPI_COMM_WORLD's rank `who` alone (for post and start). */
static inline MPI_Group tu_group_of(int who)
{
	MPI_Group world, g;

	CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
	CHECK_MPI(MPI_Group_incl(world, 1, &who, &g));
	CHECK_MPI(MPI_Group_free(&world));
	return g;
}

/* How much longer than here the test's timings must be: the factor
 * SHMPI_TEST_TIME_SCALE gives (tests/run sets it where the programs run
 * emulated, several times slower), 1 without it. */
static inline int tu_time_scale(void)
{
	const char *s = getenv("SHMPI_TEST_TIME_SCALE");
	int k = s ? atoi(s) : 1;

	return k > 1 ? k : 1;
}

static inline void tu_sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* The next number of the splitmix64 sequence whose state is *s: what the
 * randomized tests draw their programs from, so that a seed replays. */
static inline uint64_t tu_splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
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

/* Frees a window's malloc memory when the window goes. */
static int tu_free_mem(MPI_Win win, int keyval, void *mem, void *extra)
{
	(void)win;
	(void)keyval;
	(void)extra;
	free(mem);
	return MPI_SUCCESS;
}

/*
 * MPI_Win_allocate, or, with TU_PRIVATE=1 in the environment, MPI_Win_create
 * on malloc memory, which nobody else can map: the same checks then run on
 * windows of private memory.  The memory is freed with the window.
 */
static inline int tu_win_allocate(MPI_Aint size, int disp_unit, MPI_Info info,
				  MPI_Comm comm, void *baseptr, MPI_Win *win)
{
	static int keyval = MPI_KEYVAL_INVALID;
	const char *priv = getenv("TU_PRIVATE");
	void *mem;
	int rc;

	if (!priv || strcmp(priv, "1"))
		return MPI_Win_allocate(size, disp_unit, info, comm, baseptr, win);
	if (keyval == MPI_KEYVAL_INVALID)
		MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, tu_free_mem, &keyval, NULL);
	mem = malloc(size > 0 ? (size_t)size : 1);
	if (!mem)
		return MPI_ERR_NO_MEM;
	rc = MPI_Win_create(mem, size, disp_unit, info, comm, win);
	if (rc != MPI_SUCCESS) {
		free(mem);
		return rc;
	}
	MPI_Win_set_attr(*win, keyval, mem);
	*(void **)baseptr = mem;
	return MPI_SUCCESS;
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
