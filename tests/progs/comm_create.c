/*
 * MPI_Comm_create with a different group on each process (MPI 3.1, 6.4.2):
 * disjoint groups of one, two and uneven sizes, in orders other than the
 * parent's, processes passing MPI_GROUP_EMPTY or a group they are not in,
 * on MPI_COMM_WORLD and on a parent whose ranks run the other way; then
 * MPI_Comm_create_group on the same groups, and MPI_Comm_create on an
 * intercommunicator.  Every new communicator runs collectives,
 * point-to-point and a window whose base addresses its members gather
 * and into whose memory, at the gathered base, an MPI_Rget lands; every
 * result is checked against the group.
 *   comm_create [test]
 * Every test but errors and fatal (all of them: "all", the default) is a
 * correct MPI program and behaves alike under any MPI.  errors passes
 * groups that overlap, under MPI_ERRORS_RETURN, and wants MPI_ERR_GROUP;
 * fatal does so once under MPI_ERRORS_ARE_FATAL.
 */
#include "testutil.h"

#define MAXR 64

static int rank, size;

/*
 * The group that rank r of a parent of n ranks passes in layout `kind`, as
 * parent ranks in group order, in out[]; returns how many (0 is
 * MPI_GROUP_EMPTY).  Every member of a group computes the same list.
 */
static int layout(const char *kind, int n, int r, int *out)
{
	static const int blocks[] = { 1, 3, 2, 4 };
	int m, k = 0;

	if (!strcmp(kind, "singletons")) {
		out[0] = r;
		return 1;
	}
	if (!strcmp(kind, "pairs")) {
		/* {1, 0}, {3, 2}, ...: each pair the other way round */
		int first = r / 2 * 2;

		if (first + 1 < n)
			out[k++] = first + 1;
		out[k++] = first;
		return k;
	}
	if (!strcmp(kind, "same")) {
		/* MPI-1's form: every process passes the odd ranks, highest first */
		for (int q = n - 1; q >= 0; q--)
			if (q % 2)
				out[k++] = q;
		return k;
	}
	/* "uneven": blocks of 1, 3, 2, 4, 1, ... ranks, every other one
	 * backwards, over all ranks but the last (MPI_GROUP_EMPTY, from 3
	 * ranks on) and the one before it (from 5 ranks on: the group of rank
	 * 0, which does not hold it) */
	m = n - (n >= 3) - (n >= 5);
	if (n >= 3 && r == n - 1)
		return 0;
	if (n >= 5 && r == n - 2)
		r = 0;
	for (int start = 0, b = 0;; start += blocks[b % 4], b++) {
		int len = blocks[b % 4];

		if (start + len > m)
			len = m - start;
		if (r < start + len) {
			for (int i = 0; i < len; i++)
				out[i] = b % 2 ? start + len - 1 - i : start + i;
			return len;
		}
	}
}

/* Job ranks of the n ranks of comm in ranks[]. */
static void to_world(MPI_Comm comm, int remote, int n, const int *ranks, int *out)
{
	MPI_Group g, world;

	CHECK_MPI(remote ? MPI_Comm_remote_group(comm, &g) : MPI_Comm_group(comm, &g));
	CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
	if (n > 0)
		CHECK_MPI(MPI_Group_translate_ranks(g, n, ranks, world, out));
	MPI_Group_free(&g);
	MPI_Group_free(&world);
}

/*
 * A window over c (member r of n, job ranks world[]): the base addresses
 * gathered, a fence epoch of puts, then under lock_all an MPI_Rget into
 * this member's own memory at its gathered base and a flushed get.
 */
static void exercise_window(MPI_Comm c, const int *world, int n, int r)
{
	int *base, *land, vals[MAXR], got[MAXR], next = (r + 1) % n, prev = (r + n - 1) % n;
	void *bases[MAXR];
	MPI_Request req;
	MPI_Win win;

	CHECK_MPI(MPI_Win_allocate((MPI_Aint)(2 * n * sizeof(int)), sizeof(int), MPI_INFO_NULL,
				   c, &base, &win));
	for (int i = 0; i < 2 * n; i++)
		base[i] = -1;
	CHECK_MPI(MPI_Allgather(&base, sizeof(base), MPI_BYTE, bases, sizeof(base), MPI_BYTE,
				c));
	CHECK(bases[r] == (void *)base);
	/* member r writes 1000 * its job rank + t into element r of member t */
	CHECK_MPI(MPI_Win_fence(0, win));
	for (int t = 0; t < n; t++) {
		vals[t] = 1000 * rank + t;
		CHECK_MPI(MPI_Put(&vals[t], 1, MPI_INT, t, r, 1, MPI_INT, win));
	}
	CHECK_MPI(MPI_Win_fence(0, win));
	for (int i = 0; i < n; i++)
		CHECK(base[i] == 1000 * world[i] + r);
	CHECK_MPI(MPI_Win_fence(0, win));
	/* the next member's row lands in the second half of this member's
	 * memory, reached through its gathered base */
	land = (int *)bases[r] + n;
	CHECK_MPI(MPI_Win_lock_all(0, win));
	CHECK_MPI(MPI_Rget(land, n, MPI_INT, next, 0, n, MPI_INT, win, &req));
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	for (int i = 0; i < n; i++)
		CHECK(land[i] == 1000 * world[i] + next);
	CHECK_MPI(MPI_Get(got, n, MPI_INT, prev, 0, n, MPI_INT, win));
	CHECK_MPI(MPI_Win_flush(prev, win));
	for (int i = 0; i < n; i++)
		CHECK(got[i] == 1000 * world[i] + prev);
	CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK_MPI(MPI_Win_free(&win));
}

/* c is the communicator of the job ranks world[0 .. n-1], in that order. */
static void exercise(MPI_Comm c, const int *world, int n)
{
	int r = -1, k, v, sum = 0, all[MAXR], ranks[MAXR], out[MAXR], seen[MAXR] = { 0 };
	MPI_Status st;

	for (int i = 0; i < n; i++) {
		if (world[i] == rank)
			r = i;
		sum += world[i];
		ranks[i] = i;
	}
	CHECK(r >= 0);
	CHECK_MPI(MPI_Comm_size(c, &k));
	CHECK(k == n);
	CHECK_MPI(MPI_Comm_rank(c, &k));
	CHECK(k == r);
	to_world(c, 0, n, ranks, out);
	for (int i = 0; i < n; i++)
		CHECK(out[i] == world[i]);
	CHECK_MPI(MPI_Barrier(c));
	v = r == n - 1 ? 1000 + rank : -1;
	CHECK_MPI(MPI_Bcast(&v, 1, MPI_INT, n - 1, c));
	CHECK(v == 1000 + world[n - 1]);
	CHECK_MPI(MPI_Allreduce(&rank, &v, 1, MPI_INT, MPI_SUM, c));
	CHECK(v == sum);
	CHECK_MPI(MPI_Allreduce(&r, &v, 1, MPI_INT, MPI_MAX, c));
	CHECK(v == n - 1);
	CHECK_MPI(MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, c));
	for (int i = 0; i < n; i++)
		CHECK(all[i] == world[i]);
	/* a ring, then everybody to rank 0 from any source */
	CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, (r + 1) % n, 7, &v, 1, MPI_INT,
			       (r + n - 1) % n, 7, c, &st));
	CHECK(v == world[(r + n - 1) % n] && st.MPI_SOURCE == (r + n - 1) % n);
	if (r != 0) {
		CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, 0, 8, c));
	} else {
		for (int i = 1; i < n; i++) {
			CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 8, c, &st));
			CHECK(st.MPI_SOURCE > 0 && st.MPI_SOURCE < n && !seen[st.MPI_SOURCE]);
			CHECK(v == world[st.MPI_SOURCE]);
			seen[st.MPI_SOURCE] = 1;
		}
	}
	exercise_window(c, world, n, r);
}

/* Two communicators of the same group keep their messages apart. */
static void apart(MPI_Comm c1, MPI_Comm c2, const int *world, int n)
{
	int r, v1 = -1, v2 = -1, x1 = 10 * rank + 1, x2 = 10 * rank + 2, res;
	MPI_Request req;

	CHECK_MPI(MPI_Comm_compare(c1, c2, &res));
	CHECK(res == MPI_CONGRUENT);
	CHECK_MPI(MPI_Comm_rank(c1, &r));
	CHECK_MPI(MPI_Irecv(&v2, 1, MPI_INT, (r + n - 1) % n, 9, c2, &req));
	CHECK_MPI(MPI_Sendrecv(&x1, 1, MPI_INT, (r + 1) % n, 9, &v1, 1, MPI_INT,
			       (r + n - 1) % n, 9, c1, MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Send(&x2, 1, MPI_INT, (r + 1) % n, 9, c2));
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	CHECK(v1 == 10 * world[(r + n - 1) % n] + 1 && v2 == 10 * world[(r + n - 1) % n] + 2);
}

/*
 * Every rank of parent passes the group of `kind`, twice, to
 * MPI_Comm_create (or, with tag >= 0, to MPI_Comm_create_group); the
 * members check both communicators, the others get MPI_COMM_NULL.
 */
static void run_layout(MPI_Comm parent, const char *kind, int tag)
{
	int pn, pr, n, list[MAXR], world[MAXR], member = 0;
	MPI_Comm c1, c2;
	MPI_Group pg, g;

	CHECK_MPI(MPI_Comm_size(parent, &pn));
	CHECK_MPI(MPI_Comm_rank(parent, &pr));
	n = layout(kind, pn, pr, list);
	CHECK_MPI(MPI_Comm_group(parent, &pg));
	g = MPI_GROUP_EMPTY;
	if (n > 0)
		CHECK_MPI(MPI_Group_incl(pg, n, list, &g));
	to_world(parent, 0, n, list, world);
	for (int i = 0; i < n; i++)
		member |= list[i] == pr;
	if (tag < 0) {
		CHECK_MPI(MPI_Comm_create(parent, g, &c1));
		CHECK_MPI(MPI_Comm_create(parent, g, &c2));
	} else {
		CHECK_MPI(MPI_Comm_create_group(parent, g, tag, &c1));
		CHECK_MPI(MPI_Comm_create_group(parent, g, tag, &c2));
	}
	if (!member) {
		CHECK(c1 == MPI_COMM_NULL && c2 == MPI_COMM_NULL);
	} else {
		exercise(c1, world, n);
		apart(c1, c2, world, n);
		CHECK_MPI(MPI_Comm_free(&c1));
		CHECK_MPI(MPI_Comm_free(&c2));
	}
	if (g != MPI_GROUP_EMPTY)
		MPI_Group_free(&g);
	MPI_Group_free(&pg);
}

/* An intercommunicator of job ranks 0 .. size/2 - 1 (A) and the rest (B). */
static MPI_Comm make_inter(int *in_a)
{
	MPI_Comm local, inter;
	int a = size / 2;

	*in_a = rank < a;
	CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, *in_a, rank, &local));
	CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, *in_a ? a : 0, 11, &inter));
	CHECK_MPI(MPI_Comm_free(&local));
	return inter;
}

/* The local ranks side A (in_a) or B of an intercommunicator of `lsize`
 * local processes passes: A its even ranks, B all; both highest first. */
static int inter_list(int in_a, int lsize, int *out)
{
	int k = 0;

	for (int l = lsize - 1; l >= 0; l--)
		if (!in_a || l % 2 == 0)
			out[k++] = l;
	return k;
}

/*
 * MPI_Comm_create on an intercommunicator: each side passes one group of
 * its own processes; the members get an intercommunicator of the two,
 * the others MPI_COMM_NULL, and everybody does when one side's group is
 * MPI_GROUP_EMPTY.
 */
static void test_inter(void)
{
	int in_a, lsize, lrank, rsize, n, rn, v, sum = 0, member = 0;
	int list[MAXR], rlist[MAXR], world[MAXR], rworld[MAXR], ranks[MAXR], out[MAXR];
	MPI_Request reqs[MAXR];
	MPI_Status sts[MAXR];
	MPI_Comm inter, c;
	MPI_Group lg, g;

	inter = make_inter(&in_a);
	CHECK_MPI(MPI_Comm_size(inter, &lsize));
	CHECK_MPI(MPI_Comm_rank(inter, &lrank));
	CHECK_MPI(MPI_Comm_remote_size(inter, &rsize));
	n = inter_list(in_a, lsize, list);
	rn = inter_list(!in_a, rsize, rlist);
	to_world(inter, 0, n, list, world);
	to_world(inter, 1, rn, rlist, rworld);
	for (int i = 0; i < n; i++)
		member |= list[i] == lrank;
	for (int i = 0; i < rn; i++) {
		sum += rworld[i];
		ranks[i] = i;
	}
	CHECK_MPI(MPI_Comm_group(inter, &lg));
	CHECK_MPI(MPI_Group_incl(lg, n, list, &g));
	CHECK_MPI(MPI_Comm_create(inter, g, &c));
	if (!member) {
		CHECK(c == MPI_COMM_NULL);
	} else {
		CHECK_MPI(MPI_Comm_test_inter(c, &v));
		CHECK(v);
		CHECK_MPI(MPI_Comm_size(c, &v));
		CHECK(v == n);
		CHECK_MPI(MPI_Comm_remote_size(c, &v));
		CHECK(v == rn);
		CHECK_MPI(MPI_Comm_rank(c, &v));
		CHECK(world[v] == rank);
		to_world(c, 1, rn, ranks, out);
		for (int i = 0; i < rn; i++)
			CHECK(out[i] == rworld[i]);
		CHECK_MPI(MPI_Allreduce(&rank, &v, 1, MPI_INT, MPI_SUM, c));
		CHECK(v == sum);
		/* each process sends its job rank to every remote one */
		for (int i = 0; i < rn; i++)
			CHECK_MPI(MPI_Isend(&rank, 1, MPI_INT, i, 12, c, &reqs[i]));
		for (int i = 0; i < rn; i++) {
			CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, i, 12, c, MPI_STATUS_IGNORE));
			CHECK(v == rworld[i]);
		}
		CHECK_MPI(MPI_Waitall(rn, reqs, sts));
		CHECK_MPI(MPI_Comm_free(&c));
	}
	/* B passes MPI_GROUP_EMPTY: nobody gets a communicator */
	CHECK_MPI(MPI_Comm_create(inter, in_a ? g : MPI_GROUP_EMPTY, &c));
	CHECK(c == MPI_COMM_NULL);
	MPI_Group_free(&g);
	MPI_Group_free(&lg);
	CHECK_MPI(MPI_Comm_free(&inter));
}

static void test_singletons(void)
{
	run_layout(MPI_COMM_WORLD, "singletons", -1);
}

static void test_pairs(void)
{
	run_layout(MPI_COMM_WORLD, "pairs", -1);
}

static void test_uneven(void)
{
	run_layout(MPI_COMM_WORLD, "uneven", -1);
}

static void test_same(void)
{
	run_layout(MPI_COMM_WORLD, "same", -1);
}

/* On a parent whose rank r is job rank size - 1 - r. */
static void test_nested(void)
{
	MPI_Comm reversed;

	CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed));
	run_layout(reversed, "uneven", -1);
	run_layout(reversed, "pairs", -1);
	CHECK_MPI(MPI_Comm_free(&reversed));
}

static void test_create_group(void)
{
	static const char *kinds[] = { "singletons", "pairs", "uneven", "same" };

	for (int i = 0; i < 4; i++)
		run_layout(MPI_COMM_WORLD, kinds[i], 5);
}

/* A group of the n job ranks in list[] (MPI_GROUP_EMPTY for none). */
static MPI_Group group_of(int n, const int *list)
{
	MPI_Group world, g = MPI_GROUP_EMPTY;

	if (n > 0) {
		CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
		CHECK_MPI(MPI_Group_incl(world, n, list, &g));
		MPI_Group_free(&world);
	}
	return g;
}

/* Every rank r passes the group of the n[r] job ranks lists[r]; all must
 * fail with MPI_ERR_GROUP and leave newcomm alone. */
static void create_fails(const int *n, int (*lists)[3])
{
	MPI_Group g = group_of(n[rank], lists[rank]);
	MPI_Comm c = MPI_COMM_SELF;

	CHECK(tu_check_class(MPI_Comm_create(MPI_COMM_WORLD, g, &c), MPI_ERR_GROUP));
	CHECK(c == MPI_COMM_SELF);
	if (g != MPI_GROUP_EMPTY)
		MPI_Group_free(&g);
}

/* Overlapping groups, under MPI_ERRORS_RETURN (shmpi's checks). */
static void test_errors(void)
{
	int n[MAXR] = { 0 }, lists[MAXR][3];
	MPI_Group g;
	MPI_Comm c;

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	/* 0 passes {0, 1}, 1 passes {1} */
	n[0] = 2, lists[0][0] = 0, lists[0][1] = 1;
	n[1] = 1, lists[1][0] = 1;
	create_fails(n, lists);
	if (size >= 3) {
		/* 0 and 1 pass {0, 1}, 2 passes {0, 2} */
		n[1] = 2, lists[1][0] = 0, lists[1][1] = 1;
		n[2] = 2, lists[2][0] = 0, lists[2][1] = 2;
		create_fails(n, lists);
		/* 0 passes {0}, 1 passes {1}, 2 (outside) passes {0, 1} */
		n[0] = 1, n[1] = 1, lists[1][0] = 1;
		n[2] = 2, lists[2][0] = 0, lists[2][1] = 1;
		create_fails(n, lists);
		/* create_group: 0 and 1 pass {0, 1, 2}, 2 passes {0, 2}; only
		 * 0, which tells the others, and 2 see the difference */
		int all3[3] = { 0, 1, 2 }, two[2] = { 0, 2 };

		g = rank == 2 ? group_of(2, two) : rank < 2 ? group_of(3, all3) : MPI_GROUP_EMPTY;
		c = MPI_COMM_SELF;
		if (rank == 1) {
			CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, g, 21, &c));
			CHECK_MPI(MPI_Comm_free(&c));
		} else if (rank < 3) {
			CHECK(tu_check_class(MPI_Comm_create_group(MPI_COMM_WORLD, g, 21, &c),
					  MPI_ERR_GROUP));
			CHECK(c == MPI_COMM_SELF);
		} else {
			CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, g, 21, &c));
			CHECK(c == MPI_COMM_NULL);
		}
		if (g != MPI_GROUP_EMPTY)
			MPI_Group_free(&g);
	}
	if (size >= 4) {
		/* intercommunicator: each process of A passes a group of its own,
		 * B one group: A fails, B gets MPI_COMM_NULL */
		int in_a, lrank;
		MPI_Comm inter = make_inter(&in_a);
		MPI_Group lg;

		MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
		CHECK_MPI(MPI_Comm_rank(inter, &lrank));
		CHECK_MPI(MPI_Comm_group(inter, &lg));
		if (in_a)
			CHECK_MPI(MPI_Group_incl(lg, 1, &lrank, &g));
		else
			CHECK_MPI(MPI_Group_incl(lg, 1, (int[]){ 0 }, &g));
		c = MPI_COMM_SELF;
		CHECK(tu_check_class(MPI_Comm_create(inter, g, &c),
				  in_a ? MPI_ERR_GROUP : MPI_SUCCESS));
		CHECK(c == (in_a ? MPI_COMM_SELF : MPI_COMM_NULL));
		MPI_Group_free(&g);
		MPI_Group_free(&lg);
		CHECK_MPI(MPI_Comm_free(&inter));
	}
	/* and everything still works */
	run_layout(MPI_COMM_WORLD, "uneven", -1);
}

/* 0 passes {0, 1}, 1 passes {1}: the default handler ends the job. */
static void test_fatal(void)
{
	int n[MAXR] = { 2, 1 }, lists[MAXR][3] = { { 0, 1 }, { 1 } };
	MPI_Group g = group_of(n[rank], lists[rank]);
	MPI_Comm c;

	MPI_Comm_create(MPI_COMM_WORLD, g, &c);
	CHECK(0);
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	tu_init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	rank = tu_rank;
	CHECK(size >= 2 && size <= MAXR);
	if (!strcmp(which, "fatal"))
		test_fatal();
	TU_RUN("singletons", test_singletons);
	TU_RUN("pairs", test_pairs);
	TU_RUN("uneven", test_uneven);
	TU_RUN("same", test_same);
	TU_RUN("nested", test_nested);
	TU_RUN("create_group", test_create_group);
	TU_RUN("inter", test_inter);
	/* not in "all": the groups overlap, which only shmpi promises to catch */
	if (!strcmp(which, "errors"))
		TU_RUN("errors", test_errors);
	MPI_Finalize();
	return 0;
}
