/*
 * MPI_Win_create (and MPI_Win_attach) on whole pages of private memory,
 * which shmpi makes shared memory while the window lives (README, "What is implemented":
 * windows on private memory made shared; SHMPI_WIN_CREATE_SHARE):
 *   adopt     page-aligned malloc memory keeps the contents it had, becomes
 *             a shared mapping (/proc/self/maps), is reached directly by
 *             the others (MPI_Win_shared_query gives their pointers), takes
 *             puts, gets and accumulates from every rank (element-wise
 *             atomic: every rank adds to the same words), and after
 *             MPI_Win_free is private memory again, with what the others
 *             wrote in it, and free() takes it back
 *   refuse    memory that stays as it is, each still a working window:
 *             a base inside a page, a size that ends inside a page, shared
 *             anonymous memory, a private mapping of a file, the stack
 *   twice     a second window on part of the same pages: the pages stay
 *             shared until the last of the two is freed; a window on more
 *             than the adopted pages leaves everything as it is
 *   free_mem  MPI_Free_mem on adopted memory is MPI_ERR_BASE (shmpi's
 *             check: the call is erroneous), and changes nothing
 *   send      a 1 MiB message sent from adopted memory and received into it
 *   dynamic   the same of MPI_Win_attach: whole pages shared while
 *             attached (to one window or two), given back at the last
 *             detach or at MPI_Win_free; a region that ends inside a page
 *             left as it is
 *   finalize  a window still open at MPI_Finalize: its pages are private
 *             again after it, with their contents
 *   crash     (alone) rank 1 is killed while every rank's window is on
 *             adopted pages: the job ends, and nothing stays in /dev/shm
 * argv[2] "shared" or "private": what whole pages must become ("private":
 * SHMPI_WIN_CREATE_SHARE=0, one rank, the adversarial mode, or another
 * MPI, where nothing is checked of the mappings); "" for another MPI.
 * Rank 0 prints "ok NAME" per test.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "testutil.h"

#define PAGES 16
#define ADDS 200

static int rank, size;
static size_t page;
static const char *expect = "";	/* "shared", "private", or "" (no check) */

/*
 * What /proc/self/maps says of [p, p + len): 's' when every page is in a
 * shared mapping, 'p' when every page is private memory, 'm' for a mix or
 * a gap.
 */
static int maps_kind(const void *p, size_t len)
{
	uintptr_t at = (uintptr_t)p, end = at + len;
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	int kind = 0;

	CHECK(f);
	while (at < end && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		char perms[8];

		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3 || hi <= at)
			continue;
		if (lo > at)
			break;
		if (kind && kind != perms[3])
			kind = 'm';
		else if (!kind)
			kind = perms[3];
		at = hi;
	}
	fclose(f);
	return at < end ? 'm' : kind;
}

/* The mappings of [p, p + len) are what `want` says ('s' or 'p'), when
 * this is shmpi and the run says what to expect. */
static void check_kind(const void *p, size_t len, int want)
{
#ifdef SHMPI
	if (*expect) {
		int got = maps_kind(p, len);

		if (got != want)
			fprintf(stderr, "rank %d: %p+%zu is '%c', not '%c'\n", rank, p, len,
				got, want);
		CHECK(got == want);
	}
#else
	(void)p;
	(void)len;
	(void)want;
#endif
}

static int want_adopted(void)
{
	return !strcmp(expect, "shared") ? 's' : 'p';
}

/* Every rank puts its rank into word `rank` of every window, reads the
 * others' back, then adds 1 ADDS times to word `size` of every window in
 * one passive epoch, as accumulates and fetch-and-ops mixed with reads
 * (MPI_NO_OP, which the default accumulate_ops, same_op_no_op, allows
 * beside MPI_SUM: MPI 3.1, section 11.7.1): element-wise atomicity sums
 * them all. */
static void exercise(MPI_Win win, int *mem, int nwords)
{
	int one = 1, got, *olds;

	MPI_Win_lock_all(0, win);
	for (int t = 0; t < size; t++)
		MPI_Put(&rank, 1, MPI_INT, t, rank, 1, MPI_INT, win);
	MPI_Win_flush_all(win);
	MPI_Barrier(MPI_COMM_WORLD);
	for (int t = 0; t < size; t++)
		for (int r = 0; r < size; r++) {
			MPI_Get(&got, 1, MPI_INT, t, r, 1, MPI_INT, win);
			MPI_Win_flush(t, win);
			CHECK(got == r);
		}
	/* every fetch its own result word: they land as late as the unlock */
	olds = malloc(2 * ADDS * (size_t)size * sizeof(*olds));
	CHECK(olds);
	for (int i = 0; i < ADDS; i++)
		for (int t = 0; t < size; t++) {
			int *old = &olds[2 * (i * size + t)];

			if (i % 2)
				MPI_Fetch_and_op(&one, old, MPI_INT, t, size, MPI_SUM, win);
			else
				MPI_Accumulate(&one, 1, MPI_INT, t, size, 1, MPI_INT, MPI_SUM, win);
			if (i % 5 == 0)
				MPI_Fetch_and_op(NULL, old + 1, MPI_INT, t, size, MPI_NO_OP, win);
		}
	MPI_Win_unlock_all(win);
	free(olds);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
	for (int r = 0; r < size; r++)
		CHECK(mem[r] == r);
	CHECK(mem[size] == ADDS * size);
	for (int i = size + 1; i < nwords; i++)
		CHECK(mem[i] == rank * 1000 + i);
	MPI_Win_unlock(rank, win);
}

/* Words 0..size are what exercise() leaves, the rest this rank's mark. */
static void fill(int *mem, int nwords)
{
	for (int i = 0; i < nwords; i++)
		mem[i] = rank * 1000 + i;
	mem[size] = 0;
}

static void verify_left(const int *mem, int nwords)
{
	for (int r = 0; r < size; r++)
		CHECK(mem[r] == r);
	CHECK(mem[size] == ADDS * size);
	for (int i = size + 1; i < nwords; i++)
		CHECK(mem[i] == rank * 1000 + i);
}

static void test_adopt(void)
{
	size_t bytes = PAGES * page;
	int nwords = (int)(bytes / sizeof(int));
	int *mem;
	MPI_Win win;

	CHECK(posix_memalign((void **)&mem, page, bytes) == 0);
	fill(mem, nwords);
	check_kind(mem, bytes, 'p');
	CHECK_MPI(MPI_Win_create(mem, (MPI_Aint)bytes, sizeof(int), MPI_INFO_NULL,
				 MPI_COMM_WORLD, &win));
	check_kind(mem, bytes, want_adopted());
	/* the contents it had */
	for (int i = size + 1; i < nwords; i++)
		CHECK(mem[i] == rank * 1000 + i);
#ifdef SHMPI
	/* the others' memory is reachable directly, where it became shared */
	for (int r = 0; r < size && *expect; r++) {
		MPI_Aint sz;
		int du;
		int *p;

		CHECK_MPI(MPI_Win_shared_query(win, r, &sz, &du, &p));
		if (r != rank && !strcmp(expect, "shared")) {
			CHECK(p && sz == (MPI_Aint)bytes && du == (int)sizeof(int));
			CHECK(p[nwords - 1] == r * 1000 + nwords - 1);
		} else if (r != rank) {
			CHECK(!p && sz == 0);
		}
	}
#endif
	exercise(win, mem, nwords);
	CHECK_MPI(MPI_Win_free(&win));
	check_kind(mem, bytes, 'p');
	verify_left(mem, nwords);
	/* private, writable memory again, which malloc takes back */
	mem[nwords - 1] = -1;
	free(mem);
}

/* A window on [p, p + bytes) that must stay as it is ('p' or 's'). */
static void refused(void *p, size_t bytes, int kind)
{
	int nwords = (int)(bytes / sizeof(int));
	MPI_Win win;

	fill(p, nwords);
	check_kind(p, bytes, kind);
	CHECK_MPI(MPI_Win_create(p, (MPI_Aint)bytes, sizeof(int), MPI_INFO_NULL,
				 MPI_COMM_WORLD, &win));
	check_kind(p, bytes, kind);
	exercise(win, p, nwords);
	CHECK_MPI(MPI_Win_free(&win));
	check_kind(p, bytes, kind);
	verify_left(p, nwords);
}

static void test_refuse(void)
{
	size_t bytes = 4 * page;
	char path[] = "/tmp/win_adopt.XXXXXX";
	_Alignas(4096) int stack[4096];
	char *mem, *shared, *file;
	int fd;

	CHECK(page <= 4096);
	CHECK(posix_memalign((void **)&mem, page, bytes + page) == 0);
	refused(mem + 64, bytes, 'p');		/* a base inside a page */
	refused(mem, bytes + 64, 'p');		/* a size that ends inside one */
	free(mem);
	shared = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(shared != MAP_FAILED);
	refused(shared, bytes, 's');
	munmap(shared, bytes);
	fd = mkstemp(path);
	CHECK(fd >= 0 && ftruncate(fd, (off_t)bytes) == 0);
	unlink(path);
	file = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	CHECK(file != MAP_FAILED);
	close(fd);
	refused(file, bytes, 'p');
	munmap(file, bytes);
	refused(stack, sizeof(stack), 'p');
}

static void test_twice(void)
{
	size_t bytes = PAGES * page;
	int nwords = (int)(bytes / sizeof(int));
	int *mem, *big;
	MPI_Win a, b, c;

	CHECK(posix_memalign((void **)&mem, page, bytes) == 0);
	fill(mem, nwords);
	CHECK_MPI(MPI_Win_create(mem, (MPI_Aint)bytes, sizeof(int), MPI_INFO_NULL,
				 MPI_COMM_WORLD, &a));
	/* the second half, as a window of its own */
	CHECK_MPI(MPI_Win_create(mem + nwords / 2, (MPI_Aint)bytes / 2, sizeof(int),
				 MPI_INFO_NULL, MPI_COMM_WORLD, &b));
	check_kind(mem, bytes, want_adopted());
	CHECK_MPI(MPI_Win_free(&a));
	check_kind(mem, bytes, want_adopted());
	fill(mem + nwords / 2, nwords / 2);
	MPI_Barrier(MPI_COMM_WORLD);	/* filled before anybody puts */
	exercise(b, mem + nwords / 2, nwords / 2);
	CHECK_MPI(MPI_Win_free(&b));
	check_kind(mem, bytes, 'p');
	free(mem);

	/* a window on more than the adopted pages: left as it is */
	CHECK(posix_memalign((void **)&big, page, 2 * bytes) == 0);
	fill(big + nwords, nwords);
	CHECK_MPI(MPI_Win_create(big + nwords, (MPI_Aint)bytes, sizeof(int), MPI_INFO_NULL,
				 MPI_COMM_WORLD, &a));
	check_kind(big + nwords, bytes, want_adopted());
	fill(big, 2 * nwords);
	CHECK_MPI(MPI_Win_create(big, (MPI_Aint)(2 * bytes), sizeof(int), MPI_INFO_NULL,
				 MPI_COMM_WORLD, &c));
	check_kind(big, bytes, 'p');
	exercise(c, big, 2 * nwords);
	CHECK_MPI(MPI_Win_free(&c));
	CHECK_MPI(MPI_Win_free(&a));
	check_kind(big, 2 * bytes, 'p');
	verify_left(big, 2 * nwords);
	free(big);
}

static void test_free_mem(void)
{
	size_t bytes = PAGES * page;
	int *mem;
	MPI_Win win;

	CHECK(posix_memalign((void **)&mem, page, bytes) == 0);
	fill(mem, (int)(bytes / sizeof(int)));
	CHECK_MPI(MPI_Win_create(mem, (MPI_Aint)bytes, sizeof(int), MPI_INFO_NULL,
				 MPI_COMM_WORLD, &win));
#ifdef SHMPI	/* erroneous, and not checked by every MPI */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	CHECK(tu_check_class(MPI_Free_mem(mem), MPI_ERR_BASE));
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
#endif
	check_kind(mem, bytes, want_adopted());
	CHECK(mem[size + 1] == rank * 1000 + size + 1);
	CHECK_MPI(MPI_Win_free(&win));
	free(mem);
}

/* exercise() on a dynamic window whose displacements are addresses: the
 * same checks, through a window of unit 1 over each rank's region */
static void dyn_exercise(MPI_Win win, int *mem, int nwords)
{
	MPI_Aint *at = malloc((size_t)size * sizeof(*at)), mine;
	int one = 1, got;

	CHECK(at);
	MPI_Get_address(mem, &mine);
	MPI_Allgather(&mine, 1, MPI_AINT, at, 1, MPI_AINT, MPI_COMM_WORLD);
	MPI_Win_lock_all(0, win);
	for (int t = 0; t < size; t++)
		MPI_Put(&rank, 1, MPI_INT, t, at[t] + rank * (MPI_Aint)sizeof(int), 1, MPI_INT,
			win);
	MPI_Win_flush_all(win);
	MPI_Barrier(MPI_COMM_WORLD);
	for (int t = 0; t < size; t++)
		for (int r = 0; r < size; r++) {
			MPI_Get(&got, 1, MPI_INT, t, at[t] + r * (MPI_Aint)sizeof(int), 1, MPI_INT,
				win);
			MPI_Win_flush(t, win);
			CHECK(got == r);
		}
	for (int i = 0; i < ADDS; i++)
		for (int t = 0; t < size; t++)
			MPI_Accumulate(&one, 1, MPI_INT, t, at[t] + size * (MPI_Aint)sizeof(int), 1,
				       MPI_INT, MPI_SUM, win);
	MPI_Win_unlock_all(win);
	MPI_Barrier(MPI_COMM_WORLD);
	verify_left(mem, nwords);
	MPI_Barrier(MPI_COMM_WORLD);
	free(at);
}

static void test_dynamic(void)
{
	size_t bytes = PAGES * page;
	int nwords = (int)(bytes / sizeof(int));
	int *mem, *odd;
	MPI_Win win, other;

	CHECK(posix_memalign((void **)&mem, page, bytes) == 0);
	CHECK(posix_memalign((void **)&odd, page, bytes + page) == 0);
	fill(mem, nwords);
	CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
	CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &other));
	CHECK_MPI(MPI_Win_attach(win, mem, (MPI_Aint)bytes));
	check_kind(mem, bytes, want_adopted());
	/* the same pages in another window too: shared until both let go */
	CHECK_MPI(MPI_Win_attach(other, mem, (MPI_Aint)bytes));
	/* a region that ends inside a page stays as it is */
	fill(odd, nwords);
	CHECK_MPI(MPI_Win_attach(win, odd + 16, (MPI_Aint)bytes));
	check_kind(odd, bytes + page, 'p');
	MPI_Barrier(MPI_COMM_WORLD);
	dyn_exercise(win, mem, nwords);
	fill(odd + 16, nwords);
	MPI_Barrier(MPI_COMM_WORLD);
	dyn_exercise(win, odd + 16, nwords);
	CHECK_MPI(MPI_Win_detach(win, odd + 16));
	CHECK_MPI(MPI_Win_detach(win, mem));
	check_kind(mem, bytes, want_adopted());
	CHECK_MPI(MPI_Win_detach(other, mem));
	check_kind(mem, bytes, 'p');
	verify_left(mem, nwords);
	/* attached again, and left attached when the window is freed */
	CHECK_MPI(MPI_Win_attach(win, mem, (MPI_Aint)bytes));
	check_kind(mem, bytes, want_adopted());
	CHECK_MPI(MPI_Win_free(&win));
	check_kind(mem, bytes, 'p');
	verify_left(mem, nwords);
	CHECK_MPI(MPI_Win_free(&other));
	free(odd);
	free(mem);
}

static void test_send(void)
{
	size_t bytes = 1u << 20;
	unsigned char *mem;
	int to = (rank + 1) % size, from = (rank + size - 1) % size;
	MPI_Win win;

	CHECK(posix_memalign((void **)&mem, page, 2 * bytes) == 0);
	tu_fill(mem, bytes, rank, 7);
	memset(mem + bytes, 0, bytes);
	CHECK_MPI(MPI_Win_create(mem, (MPI_Aint)(2 * bytes), 1, MPI_INFO_NULL, MPI_COMM_WORLD,
				 &win));
	CHECK_MPI(MPI_Sendrecv(mem, (int)bytes, MPI_BYTE, to, 0, mem + bytes, (int)bytes,
			       MPI_BYTE, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	CHECK(tu_verify(mem + bytes, bytes, from, 7));
	CHECK_MPI(MPI_Win_free(&win));
	free(mem);
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";
	int *left = NULL, nwords = 0;
	MPI_Win win = MPI_WIN_NULL;

	if (argc > 2)
		expect = argv[2];
	page = (size_t)sysconf(_SC_PAGESIZE);
	tu_init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	TU_RUN("adopt", test_adopt);
	TU_RUN("refuse", test_refuse);
	TU_RUN("twice", test_twice);
	TU_RUN("free_mem", test_free_mem);
	TU_RUN("send", test_send);
	TU_RUN("dynamic", test_dynamic);
	if (!strcmp(which, "crash")) {
		size_t bytes = PAGES * page;

		CHECK(posix_memalign((void **)&left, page, bytes) == 0);
		CHECK_MPI(MPI_Win_create(left, (MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
					 &win));
		check_kind(left, bytes, want_adopted());
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 1)
			raise(SIGKILL);
		MPI_Barrier(MPI_COMM_WORLD);	/* not left: the job ends */
		return 1;
	}
	if (!strcmp(which, "all") || !strcmp(which, "finalize")) {
		size_t bytes = PAGES * page;

		nwords = (int)(bytes / sizeof(int));
		CHECK(posix_memalign((void **)&left, page, bytes) == 0);
		fill(left, nwords);
		CHECK_MPI(MPI_Win_create(left, (MPI_Aint)bytes, sizeof(int), MPI_INFO_NULL,
					 MPI_COMM_WORLD, &win));
		exercise(win, left, nwords);
	}
	MPI_Finalize();
	if (left) {
		check_kind(left, PAGES * page, 'p');
		verify_left(left, nwords);
		free(left);
		if (rank == 0)
			printf("ok finalize\n");
	}
	return 0;
}
