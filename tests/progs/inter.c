/*
 * Intercommunicators against hand-computed results: the job splits into
 * group A (job ranks 0 .. a-1) and group B (the rest), joined by
 * MPI_Intercomm_create; then point-to-point across, every collective
 * with MPI_ROOT / MPI_PROC_NULL roots, merge in both orders, dup, split,
 * create, free, and the error classes.
 *   inter a [test]	(test "fatal": a bad root under MPI_ERRORS_ARE_FATAL)
 */
#include "interutil.h"

/* Whether comm's remote group is the other group, in order. */
static int remote_is_other(MPI_Comm comm)
{
	MPI_Group world, remote;
	int n, ranks[256], out[256];

	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Comm_remote_group(comm, &remote);
	MPI_Group_size(remote, &n);
	for (int i = 0; i < n; i++)
		ranks[i] = i;
	MPI_Group_translate_ranks(remote, n, ranks, world, out);
	MPI_Group_free(&remote);
	MPI_Group_free(&world);
	if (n != rsize)
		return 0;
	for (int i = 0; i < n; i++)
		if (out[i] != world_of(!in_a, i))
			return 0;
	return 1;
}

static void test_create(void)
{
	MPI_Comm rev_local, rev, dup;
	MPI_Group g, world, rg;
	int flag, n, r, res, ranks[256], out[256];

	CHECK_MPI(MPI_Comm_test_inter(inter, &flag));
	CHECK(flag);
	CHECK_MPI(MPI_Comm_test_inter(local, &flag));
	CHECK(!flag);
	CHECK_MPI(MPI_Comm_size(inter, &n));
	CHECK_MPI(MPI_Comm_rank(inter, &r));
	CHECK(n == lsize && r == lrank);
	CHECK_MPI(MPI_Comm_remote_size(inter, &n));
	CHECK(n == rsize);
	CHECK(remote_is_other(inter));
	/* MPI_Comm_group is the local group */
	CHECK_MPI(MPI_Comm_group(inter, &g));
	CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
	for (int i = 0; i < lsize; i++)
		ranks[i] = i;
	CHECK_MPI(MPI_Group_translate_ranks(g, lsize, ranks, world, out));
	for (int i = 0; i < lsize; i++)
		CHECK(out[i] == world_of(in_a, i));
	CHECK_MPI(MPI_Group_free(&g));
	CHECK_MPI(MPI_Comm_compare(inter, inter, &res));
	CHECK(res == MPI_IDENT);
	CHECK_MPI(MPI_Comm_compare(inter, MPI_COMM_WORLD, &res));
	CHECK(res == MPI_UNEQUAL);
	CHECK_MPI(MPI_Comm_compare(inter, local, &res));
	CHECK(res == MPI_UNEQUAL);

	/*
	 * Local groups in reverse order: the remote group is in the order of
	 * the remote local_comm.  The leaders are the last of each local_comm
	 * (job ranks 0 and a), named through MPI_COMM_WORLD.
	 */
	CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, in_a, -rank, &rev_local));
	CHECK_MPI(MPI_Intercomm_create(rev_local, lsize - 1, MPI_COMM_WORLD, in_a ? a : 0,
				       11, &rev));
	CHECK_MPI(MPI_Comm_rank(rev, &r));
	CHECK(r == lsize - 1 - lrank);
	CHECK_MPI(MPI_Comm_remote_group(rev, &rg));
	CHECK_MPI(MPI_Group_size(rg, &n));
	CHECK(n == rsize);
	for (int i = 0; i < rsize; i++)
		ranks[i] = i;
	CHECK_MPI(MPI_Group_translate_ranks(rg, rsize, ranks, world, out));
	for (int i = 0; i < rsize; i++)
		CHECK(out[i] == world_of(!in_a, rsize - 1 - i));
	CHECK_MPI(MPI_Comm_compare(inter, rev, &res));
	CHECK(res == (lsize > 1 || rsize > 1 ? MPI_SIMILAR : MPI_CONGRUENT));
	CHECK_MPI(MPI_Group_free(&rg));
	/* a message across names the remote rank */
	if (r == 0) {
		int v = in_a ? 1000 : 2000;
		MPI_Status st;

		CHECK_MPI(MPI_Sendrecv_replace(&v, 1, MPI_INT, 0, 3, 0, 3, rev, &st));
		CHECK(v == (in_a ? 2000 : 1000) && st.MPI_SOURCE == 0);
	}
	CHECK_MPI(MPI_Comm_dup(inter, &dup));
	CHECK_MPI(MPI_Comm_compare(inter, dup, &res));
	CHECK(res == MPI_CONGRUENT);
	CHECK_MPI(MPI_Comm_free(&dup));
	/* the leaders may meet through an intercommunicator too */
	CHECK_MPI(MPI_Intercomm_create(local, 0, inter, 0, 12, &dup));
	CHECK_MPI(MPI_Comm_compare(inter, dup, &res));
	CHECK(res == MPI_CONGRUENT);
	CHECK(remote_is_other(dup));
	CHECK_MPI(MPI_Comm_free(&dup));
	CHECK_MPI(MPI_Comm_free(&rev));
	CHECK_MPI(MPI_Comm_free(&rev_local));
	CHECK_MPI(MPI_Group_free(&world));
}

static void test_p2p(void)
{
	enum { BIG = 1 << 20 };
	MPI_Request reqs[512];
	MPI_Status st;
	int k = 0, v, flag, *big, outv[256];

	/* every process to every remote process, received from any source */
	for (int j = 0; j < rsize; j++) {
		outv[j] = world_of(in_a, lrank) * 1000 + j;
		CHECK_MPI(MPI_Isend(&outv[j], 1, MPI_INT, j, 5, inter, &reqs[k++]));
	}
	for (int i = 0; i < rsize; i++) {
		CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 5, inter, &st));
		CHECK(st.MPI_SOURCE >= 0 && st.MPI_SOURCE < rsize && st.MPI_TAG == 5);
		CHECK(v == world_of(!in_a, st.MPI_SOURCE) * 1000 + lrank);
	}
	CHECK_MPI(MPI_Waitall(k, reqs, MPI_STATUSES_IGNORE));
	/* probe names the remote rank too */
	if (in_a && lrank == 0)
		CHECK_MPI(MPI_Send(&lrank, 1, MPI_INT, rsize - 1, 6, inter));
	if (!in_a && lrank == lsize - 1) {
		do
			CHECK_MPI(MPI_Iprobe(0, 6, inter, &flag, &st));
		while (!flag);
		CHECK(st.MPI_SOURCE == 0);
		CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 6, inter, &st));
		CHECK(v == 0);
	}
	/* a large message (rendezvous), both ways between the leaders, and
	 * MPI_PROC_NULL */
	big = malloc(sizeof(int) * BIG);
	if (lrank == 0) {
		int *in = malloc(sizeof(int) * BIG);

		for (int i = 0; i < BIG; i++)
			big[i] = i ^ (in_a ? 0x55 : 0xaa);
		CHECK_MPI(MPI_Sendrecv(big, BIG, MPI_INT, 0, 7, in, BIG, MPI_INT, 0, 7, inter,
				       &st));
		for (int i = 0; i < BIG; i++)
			CHECK(in[i] == (i ^ (in_a ? 0xaa : 0x55)));
		free(in);
	}
	CHECK_MPI(MPI_Send(big, 1, MPI_INT, MPI_PROC_NULL, 7, inter));
	CHECK_MPI(MPI_Recv(big, 1, MPI_INT, MPI_PROC_NULL, 7, inter, &st));
	CHECK(st.MPI_SOURCE == MPI_PROC_NULL);
	free(big);
	/* the same tag on the same pair: an intracommunicator message never
	 * matches an intercommunicator receive */
	if (in_a && lrank == 0) {
		int x = 1, y = 2;

		CHECK_MPI(MPI_Send(&x, 1, MPI_INT, a, 9, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Send(&y, 1, MPI_INT, 0, 9, inter));
	}
	if (!in_a && lrank == 0) {
		CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 9, inter, &st));
		CHECK(v == 2);
		CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &st));
		CHECK(v == 1);
	}
}

/* The barrier holds everybody until both groups have arrived: each
 * process counts itself in at rank 0's window before, and reads the count
 * after; group B arrives late. */
static void test_barrier(void)
{
	MPI_Win win;
	int *counter, one = 1, got = 0, dummy;

	CHECK_MPI(MPI_Win_allocate(rank == 0 ? sizeof(int) : 0, sizeof(int), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &counter, &win));
	if (rank == 0)
		*counter = 0;
	MPI_Barrier(MPI_COMM_WORLD);
	CHECK_MPI(MPI_Win_lock_all(0, win));
	for (int round = 1; round <= 3; round++) {
		if (!in_a)
			tu_sleep_ms(20);
		CHECK_MPI(MPI_Fetch_and_op(&one, &dummy, MPI_INT, 0, 0, MPI_SUM, win));
		CHECK_MPI(MPI_Win_flush(0, win));
		CHECK_MPI(MPI_Barrier(inter));
		CHECK_MPI(MPI_Fetch_and_op(NULL, &got, MPI_INT, 0, 0, MPI_NO_OP, win));
		CHECK_MPI(MPI_Win_flush(0, win));
		CHECK(got >= round * size);
		CHECK_MPI(MPI_Barrier(inter));
	}
	CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK_MPI(MPI_Win_free(&win));
}

static void test_rooted(void)
{
	enum { N = 100000 };
	MPI_Datatype vec;
	int *buf = malloc(sizeof(int) * 2 * N), v[6], sum;

	/* bcast from the last process of A, then from rank 0 of B, large */
	for (int from_a = 1; from_a >= 0; from_a--) {
		int rr = from_a ? a - 1 : 0, root = root_arg(from_a, rr);

		for (int i = 0; i < N; i++)
			buf[i] = root == MPI_ROOT ? i * 3 + from_a : -1;
		CHECK_MPI(MPI_Bcast(buf, N, MPI_INT, root, inter));
		for (int i = 0; i < N; i++)
			CHECK(buf[i] == (root == MPI_PROC_NULL ? -1 : i * 3 + from_a));
	}
	/* a derived type: every other int */
	MPI_Type_vector(3, 1, 2, MPI_INT, &vec);
	MPI_Type_commit(&vec);
	for (int i = 0; i < 6; i++)
		v[i] = in_a && lrank == 0 ? 10 + i : -1;
	CHECK_MPI(MPI_Bcast(v, 1, vec, root_arg(1, 0), inter));
	if (!in_a)
		CHECK(v[0] == 10 && v[1] == -1 && v[2] == 12 && v[3] == -1 && v[4] == 14);
	MPI_Type_free(&vec);

	/* reduce to each side's last process: the sum over the other group */
	for (int from_a = 0; from_a <= 1; from_a++) {
		int root = root_arg(from_a, (from_a ? a : size - a) - 1);
		int mine = world_of(in_a, lrank) + 1, other = from_a ? size - a : a;
		double d = mine, dsum = -1;

		sum = -1;
		CHECK_MPI(MPI_Reduce(&mine, &sum, 1, MPI_INT, MPI_SUM, root, inter));
		CHECK_MPI(MPI_Reduce(&d, &dsum, 1, MPI_DOUBLE, MPI_MAX, root, inter));
		if (root == MPI_ROOT) {
			/* job ranks of the other group: b0 .. b0 + other - 1, plus one */
			int b0 = from_a ? a : 0;

			CHECK(sum == other * b0 + other * (other + 1) / 2);
			CHECK(dsum == b0 + other);
		} else if (root == MPI_PROC_NULL) {
			CHECK(sum == -1 && dsum == -1);
		}
	}
	/* a large reduction from B to A's rank 0 */
	for (int i = 0; i < N; i++)
		buf[i] = in_a ? -1 : i + lrank;
	CHECK_MPI(MPI_Reduce(in_a ? NULL : buf, in_a ? buf : NULL, N, MPI_INT, MPI_SUM,
			     root_arg(1, 0), inter));
	if (in_a && lrank == 0)
		for (int i = 0; i < N; i++)
			CHECK(buf[i] == rsize * i + rsize * (rsize - 1) / 2);

	/* gather to and scatter from A's rank 0 */
	for (int i = 0; i < 2 * N && i < 2 * size; i++)
		buf[i] = -1;
	v[0] = world_of(in_a, lrank);
	v[1] = -v[0];
	CHECK_MPI(MPI_Gather(v, 2, MPI_INT, buf, 2, MPI_INT, root_arg(1, 0), inter));
	if (in_a && lrank == 0)
		for (int j = 0; j < rsize; j++)
			CHECK(buf[2 * j] == a + j && buf[2 * j + 1] == -(a + j));
	for (int j = 0; j < rsize; j++)
		buf[j] = 7 * j;
	v[0] = -1;
	CHECK_MPI(MPI_Scatter(buf, 1, MPI_INT, v, 1, MPI_INT, root_arg(1, 0), inter));
	if (!in_a)
		CHECK(v[0] == 7 * lrank);
	/* v-variants from B's last process: rank j gets j + 1 ints */
	{
		int counts[256], displs[256], at = 0, got[256], root;

		for (int j = 0; j < (in_a ? lsize : rsize); j++) {
			counts[j] = j + 1;
			displs[j] = at;
			at += j + 1;
		}
		for (int i = 0; i < at; i++)
			buf[i] = 100 + i;
		for (int i = 0; i < 256; i++)
			got[i] = -1;
		root = root_arg(0, size - a - 1);

		CHECK_MPI(MPI_Scatterv(buf, counts, displs, MPI_INT, got, lrank + 1, MPI_INT,
				       root, inter));
		if (in_a)
			for (int i = 0; i <= lrank; i++)
				CHECK(got[i] == 100 + displs[lrank] + i);
		for (int i = 0; i < at; i++)
			buf[i] = -1;
		CHECK_MPI(MPI_Gatherv(got, in_a ? lrank + 1 : 0, MPI_INT, buf, counts, displs,
				      MPI_INT, root, inter));
		if (root == MPI_ROOT)
			for (int i = 0; i < at; i++)
				CHECK(buf[i] == 100 + i);
	}
	free(buf);
}

/* A non-commutative op: the decimal digits of in, then those of inout. */
static void concat(void *in, void *inout, int *len, MPI_Datatype *dt)
{
	(void)dt;
	for (int i = 0; i < *len; i++) {
		int a = ((int *)in)[i], b = ((int *)inout)[i], shift = 1;

		for (int t = b; t > 0; t /= 10)
			shift *= 10;
		((int *)inout)[i] = a * shift + b;
	}
}

/* 12...n */
static int digits_to(int n)
{
	int v = 0;

	for (int i = 1; i <= n; i++)
		v = v * 10 + i;
	return v;
}

static void test_collectives(void)
{
	int mine = world_of(in_a, lrank), sum = -1, *got, *out, counts[256], displs[256];
	long total = 0;
	int sc = in_a ? 2 : 3, rc = in_a ? 3 : 2;	/* A sends 2 ints, B 3 */

	/* nothing to move: NULL buffers are fine */
	CHECK_MPI(MPI_Allgather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, inter));
	CHECK_MPI(MPI_Alltoall(NULL, 0, MPI_INT, NULL, 0, MPI_INT, inter));
	CHECK_MPI(MPI_Bcast(NULL, 0, MPI_INT, root_arg(1, 0), inter));
	CHECK_MPI(MPI_Allreduce(NULL, NULL, 0, MPI_INT, MPI_SUM, inter));
	/* a user op that does not commute: the remote group in rank order */
	{
		MPI_Op cat;
		int digit = lrank + 1, r = -1;

		CHECK_MPI(MPI_Op_create(concat, 0, &cat));
		CHECK_MPI(MPI_Allreduce(&digit, &r, 1, MPI_INT, cat, inter));
		CHECK(r == digits_to(rsize));
		r = -1;
		CHECK_MPI(MPI_Reduce(&digit, &r, 1, MPI_INT, cat, root_arg(0, 0), inter));
		CHECK(r == (!in_a && lrank == 0 ? digits_to(rsize) : -1));
		CHECK_MPI(MPI_Op_free(&cat));
	}
	CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, inter));
	for (int j = 0; j < rsize; j++)
		total += world_of(!in_a, j);
	CHECK(sum == total);
	/* allgather: the remote group's contributions in remote rank order */
	got = malloc(sizeof(int) * 3 * 256);
	out = malloc(sizeof(int) * 3 * 256);
	for (int i = 0; i < sc; i++)
		out[i] = mine * 10 + i;
	CHECK_MPI(MPI_Allgather(out, sc, MPI_INT, got, rc, MPI_INT, inter));
	for (int j = 0; j < rsize; j++)
		for (int i = 0; i < rc; i++)
			CHECK(got[j * rc + i] == world_of(!in_a, j) * 10 + i);
	/* allgatherv: remote rank j's part at displacement 4 * j */
	for (int j = 0; j < rsize; j++) {
		counts[j] = rc;
		displs[j] = 4 * j;
	}
	CHECK_MPI(MPI_Allgatherv(out, sc, MPI_INT, got, counts, displs, MPI_INT, inter));
	for (int j = 0; j < rsize; j++)
		for (int i = 0; i < rc; i++)
			CHECK(got[4 * j + i] == world_of(!in_a, j) * 10 + i);
	/* alltoall: block j goes to remote rank j */
	for (int j = 0; j < rsize; j++)
		out[j] = mine * 1000 + j;
	CHECK_MPI(MPI_Alltoall(out, 1, MPI_INT, got, 1, MPI_INT, inter));
	for (int j = 0; j < rsize; j++)
		CHECK(got[j] == world_of(!in_a, j) * 1000 + lrank);
	/* alltoallv: to remote rank j, j + 1 ints */
	{
		int sc2[256], sd[256], rc2[256], rd[256], at = 0;

		for (int j = 0; j < rsize; j++) {
			sc2[j] = j + 1;
			sd[j] = at;
			for (int i = 0; i <= j; i++)
				out[at + i] = mine * 1000 + j;
			at += j + 1;
			rc2[j] = lrank + 1;
			rd[j] = j * (lrank + 1);
		}
		CHECK_MPI(MPI_Alltoallv(out, sc2, sd, MPI_INT, got, rc2, rd, MPI_INT, inter));
		for (int j = 0; j < rsize; j++)
			for (int i = 0; i <= lrank; i++)
				CHECK(got[rd[j] + i] == world_of(!in_a, j) * 1000 + lrank);
	}
	/* reduce_scatter_block: both groups reduce vectors of lsize * rsize
	 * ints (element e: job rank + e); each side cuts the other side's sum
	 * into blocks of rsize */
	for (int i = 0; i < lsize * rsize; i++)
		out[i] = mine + i;
	CHECK_MPI(MPI_Reduce_scatter_block(out, got, rsize, MPI_INT, MPI_SUM, inter));
	for (int i = 0; i < rsize; i++)
		CHECK(got[i] == total + rsize * (lrank * rsize + i));
	/* reduce_scatter: vectors of 12, cut unevenly over the local group */
	{
		int start = 0;

		for (int r = 0; r < lsize; r++) {
			counts[r] = 12 / lsize + (r < 12 % lsize);
			if (r < lrank)
				start += counts[r];
		}
		for (int i = 0; i < 12; i++)
			out[i] = mine + i;
		CHECK_MPI(MPI_Reduce_scatter(out, got, counts, MPI_INT, MPI_SUM, inter));
		for (int i = 0; i < counts[lrank]; i++)
			CHECK(got[i] == total + rsize * (start + i));
	}
	free(got);
	free(out);
}

static void test_merge(void)
{
	for (int pass = 0; pass < 3; pass++) {
		/* pass 0: A low, B high; pass 1: the reverse; pass 2: both low */
		int high = pass == 2 ? 0 : pass == 0 ? !in_a : in_a;
		int n, r, sum, worlds[256], first_a;
		MPI_Comm m;

		CHECK_MPI(MPI_Intercomm_merge(inter, high, &m));
		CHECK_MPI(MPI_Comm_size(m, &n));
		CHECK_MPI(MPI_Comm_rank(m, &r));
		CHECK(n == size);
		CHECK_MPI(MPI_Allgather(&rank, 1, MPI_INT, worlds, 1, MPI_INT, m));
		first_a = worlds[0] == 0;
		if (pass == 0)
			CHECK(first_a);
		if (pass == 1)
			CHECK(!first_a);
		CHECK(r == (in_a == first_a ? lrank : rsize + lrank));
		for (int i = 0; i < size; i++)
			CHECK(worlds[i] == (first_a ? i : (i + a) % size));
		CHECK_MPI(MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, m));
		CHECK(sum == size * (size - 1) / 2);
		CHECK_MPI(MPI_Comm_free(&m));
	}
}

static int copies;

static int count_copy(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
	(void)c, (void)k, (void)extra;
	copies++;
	*(void **)out = in;
	*flag = 1;
	return MPI_SUCCESS;
}

static void test_dup_split(void)
{
	MPI_Comm dup, sp, cr;
	MPI_Group g, lg;
	int key, flag, *val, n, res, len, v, ranks[256];
	char name[MPI_MAX_OBJECT_NAME];

	CHECK_MPI(MPI_Comm_create_keyval(count_copy, MPI_COMM_NULL_DELETE_FN, &key, NULL));
	CHECK_MPI(MPI_Comm_set_attr(inter, key, &copies));
	CHECK_MPI(MPI_Comm_set_name(inter, "the intercomm"));
	CHECK_MPI(MPI_Comm_dup(inter, &dup));
	CHECK(copies == 1);
	CHECK_MPI(MPI_Comm_get_attr(dup, key, &val, &flag));
	CHECK(flag && val == &copies);
	CHECK_MPI(MPI_Comm_get_name(inter, name, &len));
	CHECK(!strcmp(name, "the intercomm"));
	CHECK_MPI(MPI_Comm_test_inter(dup, &flag));
	CHECK(flag);
	CHECK(remote_is_other(dup));
	/* a message on the duplicate does not match one on the original */
	if (lrank == 0) {
		int x = in_a ? 1 : 2, y = x + 10;
		MPI_Request rq[2];

		CHECK_MPI(MPI_Isend(&x, 1, MPI_INT, 0, 4, inter, &rq[0]));
		CHECK_MPI(MPI_Isend(&y, 1, MPI_INT, 0, 4, dup, &rq[1]));
		CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 4, dup, MPI_STATUS_IGNORE));
		CHECK(v == (in_a ? 12 : 11));
		CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 4, inter, MPI_STATUS_IGNORE));
		CHECK(v == (in_a ? 2 : 1));
		CHECK_MPI(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
	}
	CHECK_MPI(MPI_Barrier(dup));
	CHECK_MPI(MPI_Comm_free(&dup));
	CHECK_MPI(MPI_Comm_delete_attr(inter, key));
	CHECK_MPI(MPI_Comm_free_keyval(&key));

	/* split by parity of the local rank, reversed: a color exists only
	 * where both sides have it */
	CHECK_MPI(MPI_Comm_split(inter, lrank % 2, -lrank, &sp));
	if (lrank % 2 == 1 && rsize < 2) {
		CHECK(sp == MPI_COMM_NULL);
	} else {
		int lcount = (lsize + 1 - lrank % 2) / 2, rcount = (rsize + 1 - lrank % 2) / 2;
		int r, rs;
		MPI_Group rg, world;
		int out[256];

		CHECK(sp != MPI_COMM_NULL);
		CHECK_MPI(MPI_Comm_size(sp, &n));
		CHECK_MPI(MPI_Comm_rank(sp, &r));
		CHECK_MPI(MPI_Comm_remote_size(sp, &rs));
		CHECK(n == lcount && rs == rcount);
		CHECK(r == lcount - 1 - lrank / 2);
		CHECK_MPI(MPI_Comm_remote_group(sp, &rg));
		CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
		for (int i = 0; i < rs; i++)
			ranks[i] = i;
		CHECK_MPI(MPI_Group_translate_ranks(rg, rs, ranks, world, out));
		for (int i = 0; i < rs; i++)
			CHECK(out[i] == world_of(!in_a, 2 * (rcount - 1 - i) + lrank % 2));
		MPI_Group_free(&rg);
		MPI_Group_free(&world);
		/* usable: an allreduce of job ranks across */
		CHECK_MPI(MPI_Allreduce(&rank, &v, 1, MPI_INT, MPI_SUM, sp));
		{
			int want = 0;

			for (int i = 0; i < rcount; i++)
				want += world_of(!in_a, 2 * i + lrank % 2);
			CHECK(v == want);
		}
		CHECK_MPI(MPI_Comm_free(&sp));
	}
	/* undefined everywhere on one side: nobody gets a communicator */
	CHECK_MPI(MPI_Comm_split(inter, in_a ? MPI_UNDEFINED : 0, 0, &sp));
	CHECK(sp == MPI_COMM_NULL);

	/* create: the first local process of each side */
	CHECK_MPI(MPI_Comm_group(inter, &lg));
	ranks[0] = 0;
	CHECK_MPI(MPI_Group_incl(lg, 1, ranks, &g));
	CHECK_MPI(MPI_Comm_create(inter, g, &cr));
	if (lrank == 0) {
		CHECK(cr != MPI_COMM_NULL);
		CHECK_MPI(MPI_Comm_remote_size(cr, &n));
		CHECK(n == 1);
		CHECK_MPI(MPI_Comm_compare(cr, inter, &res));
		CHECK(res == (lsize == 1 && rsize == 1 ? MPI_CONGRUENT : MPI_UNEQUAL));
		CHECK_MPI(MPI_Comm_free(&cr));
	} else {
		CHECK(cr == MPI_COMM_NULL);
	}
	MPI_Group_free(&g);
	MPI_Group_free(&lg);
}

static void test_errors(void)
{
	MPI_Comm bad = MPI_COMM_NULL, c2;
	MPI_Win win;
	void *base;
	int n, x = 0, y, flag, dims[1] = { 1 }, periods[1] = { 0 };
	MPI_Group g;

	MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(local, MPI_ERRORS_RETURN);
	CHECK(tu_check_class(MPI_Comm_remote_size(MPI_COMM_WORLD, &n), MPI_ERR_COMM));
	CHECK(tu_check_class(MPI_Comm_remote_group(local, &g), MPI_ERR_COMM));
	CHECK(tu_check_class(MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &bad), MPI_ERR_COMM));
	CHECK(tu_check_class(MPI_Intercomm_create(inter, 0, MPI_COMM_WORLD, 0, 1, &bad),
			  MPI_ERR_COMM));
	CHECK(tu_check_class(MPI_Intercomm_create(local, lsize, MPI_COMM_WORLD, 0, 1, &bad),
			  MPI_ERR_RANK));
	/* a bad tag: the leaders find it, and tell their groups */
	CHECK(tu_check_class(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, in_a ? a : 0, -1,
					       &bad), MPI_ERR_TAG));
	CHECK(bad == MPI_COMM_NULL);
	/* point-to-point ranks are remote ranks */
	CHECK(tu_check_class(MPI_Send(&x, 1, MPI_INT, rsize, 0, inter), MPI_ERR_RANK));
	CHECK(tu_check_class(MPI_Recv(&x, 1, MPI_INT, -7, 0, inter, MPI_STATUS_IGNORE),
			  MPI_ERR_RANK));
	/* roots */
	CHECK(tu_check_class(MPI_Bcast(&x, 1, MPI_INT, rsize, inter), MPI_ERR_ROOT));
	CHECK(tu_check_class(MPI_Bcast(&x, 1, MPI_INT, -7, inter), MPI_ERR_ROOT));
	CHECK(tu_check_class(MPI_Reduce(&x, &y, 1, MPI_INT, MPI_SUM, rsize, inter),
			  MPI_ERR_ROOT));
	CHECK(tu_check_class(MPI_Gather(&x, 1, MPI_INT, &y, 1, MPI_INT, -2, inter),
			  MPI_ERR_ROOT));
	CHECK(tu_check_class(MPI_Reduce(&x, &y, 1, MPI_INT, MPI_OP_NULL, 0, inter),
			  MPI_ERR_OP));
	CHECK(tu_check_class(MPI_Allreduce(MPI_IN_PLACE, &y, 1, MPI_INT, MPI_SUM, inter),
			  MPI_ERR_BUFFER));
	CHECK(tu_check_class(MPI_Allgather(&x, -1, MPI_INT, &y, 1, MPI_INT, inter),
			  MPI_ERR_COUNT));
	/* calls for intracommunicators only */
	CHECK(tu_check_class(MPI_Scan(&x, &y, 1, MPI_INT, MPI_SUM, inter), MPI_ERR_COMM));
	CHECK(tu_check_class(MPI_Exscan(&x, &y, 1, MPI_INT, MPI_SUM, inter), MPI_ERR_COMM));
	CHECK(tu_check_class(MPI_Win_allocate(8, 1, MPI_INFO_NULL, inter, &base, &win),
			  MPI_ERR_COMM));
	CHECK(tu_check_class(MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, inter, &win),
			  MPI_ERR_COMM));
	CHECK(tu_check_class(MPI_Win_allocate_shared(8, 1, MPI_INFO_NULL, inter, &base, &win),
			  MPI_ERR_COMM));
	CHECK(tu_check_class(MPI_Win_create_dynamic(MPI_INFO_NULL, inter, &win), MPI_ERR_COMM));
	CHECK(tu_check_class(MPI_Cart_create(inter, 1, dims, periods, 0, &bad), MPI_ERR_COMM));
	CHECK(tu_check_class(MPI_Dist_graph_create(inter, 0, NULL, NULL, NULL, MPI_UNWEIGHTED,
					       MPI_INFO_NULL, 0, &bad), MPI_ERR_COMM));
	CHECK(tu_check_class(MPI_Dist_graph_create_adjacent(inter, 0, NULL, MPI_UNWEIGHTED, 0,
							 NULL, MPI_UNWEIGHTED,
							 MPI_INFO_NULL, 0, &bad),
			  MPI_ERR_COMM));
	CHECK(tu_check_class(MPI_Comm_split_type(inter, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
					      &bad), MPI_ERR_COMM));
	CHECK(tu_check_class(MPI_Comm_split_type(inter, MPI_COMM_TYPE_HW_UNGUIDED, 0,
					      MPI_INFO_NULL, &bad), MPI_ERR_COMM));
	CHECK_MPI(MPI_Comm_group(inter, &g));
	CHECK(tu_check_class(MPI_Comm_create_group(inter, g, 0, &bad), MPI_ERR_COMM));
	MPI_Group_free(&g);
	CHECK_MPI(MPI_Topo_test(inter, &n));
	CHECK(n == MPI_UNDEFINED);
	CHECK_MPI(MPI_Comm_test_inter(inter, &flag));
	CHECK(flag);
	/* nothing changed: the intercommunicator still works */
	CHECK_MPI(MPI_Comm_dup(inter, &c2));
	CHECK_MPI(MPI_Barrier(c2));
	CHECK_MPI(MPI_Comm_free(&c2));
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
	const char *which = argc > 2 ? argv[2] : "all";

	tu_init(&argc, &argv);
	inter_begin(argc > 1 ? argv[1] : NULL);
	if (!strcmp(which, "fatal")) {
		/* the default handler ends the job, the class as exit status */
		int x = 0;

		MPI_Bcast(&x, 1, MPI_INT, rsize, inter);
		CHECK(0);
	}
	TU_RUN("create", test_create);
	TU_RUN("p2p", test_p2p);
	TU_RUN("barrier", test_barrier);
	TU_RUN("rooted", test_rooted);
	TU_RUN("collectives", test_collectives);
	TU_RUN("merge", test_merge);
	TU_RUN("dup_split", test_dup_split);
	TU_RUN("errors", test_errors);
	inter_end();
	MPI_Finalize();
	return 0;
}
