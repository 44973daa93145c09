/*
 * A linked list spread over the ranks of a dynamic window, one attached
 * region per element: every rank appends N elements at once, linking each
 * to the tail with MPI_Compare_and_swap on the tail's next pointer (a
 * (rank, address) pair), then every rank walks the whole list with MPI_Get
 * and checks that it holds each rank's elements once, in the order they
 * were appended.  The accesses run in passive-target epochs of one kind:
 * MPI_Win_lock_all (with flushes), MPI_Win_lock shared, or exclusive.
 * The elements come from malloc (private memory), from one MPI_Alloc_mem
 * each, or from one MPI_Alloc_mem pool, an element per region.
 *
 *   rma_dyn_list all|shared|exclusive malloc|alloc|pool [N]
 */
#include <stddef.h>

#include "testutil.h"

struct elem {
	int next_rank;		/* -1: none yet */
	int owner;		/* who appended it (-1: the head) */
	MPI_Aint next_disp;	/* the next element's address there; 0: not
				 * written yet */
	long seq;		/* its place among its owner's elements */
};

enum lock_kind { LOCK_ALL, LOCK_SHARED, LOCK_EXCLUSIVE };

static int rank, size;
static enum lock_kind kind;
static MPI_Win win;

/* Open access to target t for one step of the algorithm, and close it
 * (lock_all stays open: a flush completes the step). */
static void step_begin(int t)
{
	if (kind != LOCK_ALL)
		CHECK_MPI(MPI_Win_lock(kind == LOCK_SHARED ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE,
				       t, 0, win));
}

static void step_end(int t)
{
	if (kind == LOCK_ALL)
		CHECK_MPI(MPI_Win_flush(t, win));
	else
		CHECK_MPI(MPI_Win_unlock(t, win));
}

/* Where the elements come from. */
static const char *memkind;
static struct elem *pool;

static struct elem *elem_new(size_t i)
{
	struct elem *e = NULL;

	if (!strcmp(memkind, "malloc"))
		e = malloc(sizeof(*e));
	else if (!strcmp(memkind, "alloc"))
		CHECK_MPI(MPI_Alloc_mem(sizeof(*e), MPI_INFO_NULL, &e));
	else
		e = pool + i;
	CHECK(e);
	return e;
}

static void elem_free(struct elem *e)
{
	if (!strcmp(memkind, "malloc"))
		free(e);
	else if (!strcmp(memkind, "alloc"))
		CHECK_MPI(MPI_Free_mem(e));
}

/*
 * Append element e (at address disp here) after the list's tail, which
 * *tr, *td guess (any element of the list): compare-and-swap the guess's
 * next rank from -1 to ours; when that fails another rank got there
 * first, so move to its element (waiting until its address is written)
 * and try again.
 */
static void append(MPI_Aint disp, int *tr, MPI_Aint *td)
{
	const int nil = -1;

	for (;;) {
		int old = -2;
		MPI_Aint next = 0;

		step_begin(*tr);
		CHECK_MPI(MPI_Compare_and_swap(&rank, &nil, &old, MPI_INT, *tr,
					       *td + (MPI_Aint)offsetof(struct elem, next_rank),
					       win));
		step_end(*tr);
		if (old == nil) {
			step_begin(*tr);
			CHECK_MPI(MPI_Accumulate(&disp, 1, MPI_AINT, *tr,
						 *td + (MPI_Aint)offsetof(struct elem, next_disp),
						 1, MPI_AINT, MPI_REPLACE, win));
			step_end(*tr);
			*tr = rank;
			*td = disp;
			return;
		}
		CHECK(old >= 0 && old < size);
		while (next == 0) {
			step_begin(*tr);
			CHECK_MPI(MPI_Fetch_and_op(NULL, &next, MPI_AINT, *tr,
						   *td + (MPI_Aint)offsetof(struct elem, next_disp),
						   MPI_NO_OP, win));
			step_end(*tr);
		}
		*tr = old;
		*td = next;
	}
}

/* Walk the list from the head with MPI_Get and check it. */
static void walk(MPI_Aint head, long n)
{
	long *seen = calloc((size_t)size, sizeof(*seen)), len = 0;
	int r = 0;
	MPI_Aint d = head;
	struct elem e;

	CHECK(seen);
	for (;;) {
		step_begin(r);
		CHECK_MPI(MPI_Get(&e, (int)sizeof(e), MPI_BYTE, r, d, (int)sizeof(e), MPI_BYTE,
				  win));
		step_end(r);
		if (len == 0) {
			CHECK(e.owner == -1);
		} else {
			CHECK(e.owner == r && e.seq == seen[r]);
			seen[r]++;
		}
		len++;
		if (e.next_rank < 0)
			break;
		CHECK(e.next_rank < size && e.next_disp != 0);
		r = e.next_rank;
		d = e.next_disp;
	}
	CHECK(len == n * size + 1);
	for (int i = 0; i < size; i++)
		CHECK(seen[i] == n);
	free(seen);
}

int main(int argc, char **argv)
{
	long n;
	struct elem **mine, *head = NULL;
	MPI_Aint head_disp = 0, td;
	int tr = 0;

	tu_init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK(argc >= 3);
	kind = !strcmp(argv[1], "all") ? LOCK_ALL : !strcmp(argv[1], "shared") ? LOCK_SHARED :
	       LOCK_EXCLUSIVE;
	memkind = argv[2];
	n = argc > 3 ? atol(argv[3]) : 2000;
	mine = calloc((size_t)n, sizeof(*mine));
	CHECK(mine);
	if (!strcmp(memkind, "pool"))
		CHECK_MPI(MPI_Alloc_mem((MPI_Aint)(sizeof(struct elem) * (size_t)(n + 1)),
					MPI_INFO_NULL, &pool));
	CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
	if (rank == 0) {
		head = elem_new((size_t)n);
		*head = (struct elem){ .next_rank = -1, .owner = -1 };
		CHECK_MPI(MPI_Win_attach(win, head, sizeof(*head)));
		CHECK_MPI(MPI_Get_address(head, &head_disp));
	}
	CHECK_MPI(MPI_Bcast(&head_disp, 1, MPI_AINT, 0, MPI_COMM_WORLD));
	td = head_disp;
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));	/* all append at once */

	if (kind == LOCK_ALL)
		CHECK_MPI(MPI_Win_lock_all(0, win));
	for (long i = 0; i < n; i++) {
		MPI_Aint d;

		/* attached before anybody can learn its address */
		mine[i] = elem_new((size_t)i);
		*mine[i] = (struct elem){ .next_rank = -1, .owner = rank, .seq = i };
		CHECK_MPI(MPI_Win_attach(win, mine[i], sizeof(*mine[i])));
		CHECK_MPI(MPI_Get_address(mine[i], &d));
		append(d, &tr, &td);
	}
	if (kind == LOCK_ALL)
		CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	if (kind == LOCK_ALL)
		CHECK_MPI(MPI_Win_lock_all(0, win));
	walk(head_disp, n);
	if (kind == LOCK_ALL)
		CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	for (long i = 0; i < n; i++) {
		CHECK_MPI(MPI_Win_detach(win, mine[i]));
		elem_free(mine[i]);
	}
	if (head) {
		CHECK_MPI(MPI_Win_detach(win, head));
		elem_free(head);
	}
	CHECK_MPI(MPI_Win_free(&win));
	if (pool)
		CHECK_MPI(MPI_Free_mem(pool));
	free(mine);
	if (rank == 0)
		printf("ok list %s %s\n", argv[1], memkind);
	MPI_Finalize();
	return 0;
}
