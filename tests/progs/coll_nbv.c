/*
 * The remaining nonblocking collectives on intracommunicators and the
 * calls next to them: MPI_Iscan, MPI_Iexscan, MPI_Ireduce_scatter(_block),
 * MPI_Igatherv, MPI_Iscatterv, MPI_Ialltoallw and the blocking
 * MPI_Alltoallw (also on an intercommunicator), and MPI_Comm_idup.  Every
 * call against values each rank computes itself (byte-exact, every root,
 * zero, small and rendezvous sizes, derived datatypes, MPI_IN_PLACE where
 * the standard allows it, a non-commutative user op reduced in rank
 * order), on MPI_COMM_WORLD, a split and a duplicate; several outstanding
 * at once, completed in different orders, with idups among them; and the
 * error classes, after which the next collectives still match.
 * Under strong progress, rank 0's operations complete while the others
 * compute outside MPI; under weak progress they cannot.
 *   coll_nbv [test [weak|strong]]
 */
#include "nbutil.h"

static int rank, size;

/* Complete req by MPI_Wait or by testing until done, by turns. */
static void finish(MPI_Request *req, int how)
{
	int flag = 0;

	if (how % 2 == 0) {
		CHECK_MPI(MPI_Wait(req, MPI_STATUS_IGNORE));
	} else {
		while (!flag)
			CHECK_MPI(MPI_Test(req, &flag, MPI_STATUS_IGNORE));
	}
	CHECK(*req == MPI_REQUEST_NULL);
}

/* ---- scan and exscan -------------------------------------------------------- */

static void t_scan(MPI_Comm comm)
{
	int me, n;
	MPI_Request req;
	MPI_Datatype pair;
	MPI_Op op;

	MPI_Comm_rank(comm, &me);
	MPI_Comm_size(comm, &n);
	for (int ex = 0; ex < 2; ex++)
		for (int s = 0; s < NSIZES; s++)
			for (int in_place = 0; in_place < 2; in_place++) {
				int cnt = sizes[s], *in = ints((size_t)cnt, 0);
				int *out = ints((size_t)cnt, -7);

				for (int i = 0; i < cnt; i++)
					(in_place ? out : in)[i] = val(me, i);
				CHECK_MPI((ex ? MPI_Iexscan : MPI_Iscan)(in_place ? MPI_IN_PLACE :
									 in, out, cnt, MPI_INT,
									 MPI_SUM, comm, &req));
				finish(&req, s + in_place);
				for (int i = 0; i < cnt && (!ex || me > 0); i++) {
					int want = 0;

					for (int r = 0; r < me + !ex; r++)
						want += val(r, i);
					CHECK(out[i] == want);
				}
				/* exscan leaves rank 0's recvbuf alone */
				for (int i = 0; ex && me == 0 && i < cnt; i++)
					CHECK(out[i] == (in_place ? val(0, i) : -7));
				CHECK(out[cnt] == -7);
				free(in);
				free(out);
			}
	/* a user op that does not commute, on a derived type */
	CHECK_MPI(MPI_Type_contiguous(2, MPI_UNSIGNED, &pair));
	CHECK_MPI(MPI_Type_commit(&pair));
	for (int ex = 0; ex < 2; ex++) {
		int cnt = 700;
		affine *in = malloc(sizeof(affine) * (size_t)cnt);
		affine *out = malloc(sizeof(affine) * (size_t)cnt);

		CHECK_MPI(MPI_Op_create(affine_op, 0, &op));
		for (int i = 0; i < cnt; i++) {
			in[i] = aff(me, i);
			out[i] = (affine){ 0, 0 };
		}
		CHECK_MPI((ex ? MPI_Iexscan : MPI_Iscan)(in, out, cnt, pair, op, comm, &req));
		CHECK_MPI(MPI_Op_free(&op));	/* the operation keeps it */
		finish(&req, ex);
		for (int i = 0; i < cnt && (!ex || me > 0); i++) {
			affine want = aff_range(0, me + !ex, i);

			CHECK(out[i].a == want.a && out[i].b == want.b);
		}
		free(in);
		free(out);
	}
	CHECK_MPI(MPI_Type_free(&pair));
}

/* ---- reduce-scatter ----------------------------------------------------------- */

/* Member m's block of MPI_Ireduce_scatter: some empty, one large. */
static int rs_count(int m)
{
	return m % 4 == 3 ? 0 : m + 1 + (m == 1 ? 4000 : 0);
}

static void t_reduce_scatter(MPI_Comm comm)
{
	int me, n, counts[64], total = 0, off = 0;
	MPI_Request req;
	MPI_Datatype pair;
	MPI_Op op;

	MPI_Comm_rank(comm, &me);
	MPI_Comm_size(comm, &n);
	for (int m = 0; m < n; m++) {
		counts[m] = rs_count(m);
		off += m < me ? counts[m] : 0;
		total += counts[m];
	}
	for (int in_place = 0; in_place < 2; in_place++) {
		int *in = ints((size_t)total, 0), *out = ints((size_t)total, -8);

		for (int j = 0; j < total; j++)
			(in_place ? out : in)[j] = val(me, j);
		CHECK_MPI(MPI_Ireduce_scatter(in_place ? MPI_IN_PLACE : in, out, counts,
					      MPI_INT, MPI_SUM, comm, &req));
		finish(&req, in_place);
		for (int k = 0; k < counts[me]; k++) {
			int want = 0;

			for (int r = 0; r < n; r++)
				want += val(r, off + k);
			CHECK(out[k] == want);
		}
		if (!in_place)
			CHECK(out[counts[me]] == -8);
		free(in);
		free(out);
	}
	/* the block variant, every size, in place by turns */
	for (int s = 0; s < NSIZES; s++) {
		int cnt = sizes[s], in_place = s % 2;
		int *in = ints((size_t)cnt * (size_t)n, 0), *out = ints((size_t)cnt * (size_t)n, -8);

		for (int j = 0; j < cnt * n; j++)
			(in_place ? out : in)[j] = val(me, j);
		CHECK_MPI(MPI_Ireduce_scatter_block(in_place ? MPI_IN_PLACE : in, out, cnt,
						    MPI_INT, MPI_SUM, comm, &req));
		finish(&req, s);
		for (int k = 0; k < cnt; k++) {
			int want = 0;

			for (int r = 0; r < n; r++)
				want += val(r, me * cnt + k);
			CHECK(out[k] == want);
		}
		CHECK(out[cnt * n] == -8);
		if (!in_place)
			CHECK(out[cnt] == -8 || cnt * n == cnt);
		free(in);
		free(out);
	}
	/* a user op that does not commute, on a derived type */
	CHECK_MPI(MPI_Type_contiguous(2, MPI_UNSIGNED, &pair));
	CHECK_MPI(MPI_Type_commit(&pair));
	CHECK_MPI(MPI_Op_create(affine_op, 0, &op));
	for (int block = 0; block < 2; block++) {
		int cnt = block ? 33 * n : total;
		affine *in = malloc(sizeof(affine) * (size_t)cnt);
		affine *out = malloc(sizeof(affine) * (size_t)cnt);
		int mine = block ? 33 : counts[me], at = block ? 33 * me : off;

		for (int i = 0; i < cnt; i++) {
			in[i] = aff(me, i);
			out[i] = (affine){ 0, 0 };
		}
		if (block)
			CHECK_MPI(MPI_Ireduce_scatter_block(in, out, 33, pair, op, comm, &req));
		else
			CHECK_MPI(MPI_Ireduce_scatter(in, out, counts, pair, op, comm, &req));
		finish(&req, block);
		for (int k = 0; k < mine; k++) {
			affine want = aff_range(0, n, at + k);

			CHECK(out[k].a == want.a && out[k].b == want.b);
		}
		free(in);
		free(out);
	}
	CHECK_MPI(MPI_Op_free(&op));
	CHECK_MPI(MPI_Type_free(&pair));
}

/* ---- gatherv and scatterv -------------------------------------------------- */

/* Member m's block: some empty, one large; blocks in reverse order of
 * members, with a gap of m + 1 ints after each. */
static int gv_count(int m)
{
	return m == 2 ? 0 : m + 2 + (m == 1 ? 3000 : 0);
}

static int gv_layout(int n, int *counts, int *displs)
{
	int at = 0;

	for (int m = n - 1; m >= 0; m--) {
		counts[m] = gv_count(m);
		displs[m] = at;
		at += counts[m] + m + 1;
	}
	return at;
}

static void t_gatherv_scatterv(MPI_Comm comm)
{
	int me, n, counts[64], displs[64], span;
	MPI_Request req;
	MPI_Datatype strided;

	MPI_Comm_rank(comm, &me);
	MPI_Comm_size(comm, &n);
	span = gv_layout(n, counts, displs);
	/* every other int: the send side of gatherv, the receive side of
	 * scatterv, against contiguous ints at the root */
	CHECK_MPI(MPI_Type_vector(counts[me] ? counts[me] : 1, 1, 2, MPI_INT, &strided));
	CHECK_MPI(MPI_Type_commit(&strided));
	for (int root = 0; root < n; root++) {
		int in_place = root % 2 && me == root;
		int *mine = ints(2 * (size_t)counts[me], -4), *all = ints((size_t)span, -5);

		for (int i = 0; i < counts[me]; i++) {
			if (in_place)
				all[displs[me] + i] = val(me, i);
			else
				mine[2 * i] = val(me, i);
		}
		CHECK_MPI(MPI_Igatherv(in_place ? MPI_IN_PLACE : mine, counts[me] ? 1 : 0,
				       strided, all, counts, displs, MPI_INT, root, comm, &req));
		finish(&req, root);
		for (int m = 0; me == root && m < n; m++) {
			for (int i = 0; i < counts[m]; i++)
				CHECK(all[displs[m] + i] == val(m, i));
			for (int g = 0; g <= m; g++)
				CHECK(all[displs[m] + counts[m] + g] == -5);
		}
		/* scatter back, shifted */
		for (int m = 0; me == root && m < n; m++)
			for (int i = 0; i < counts[m]; i++)
				all[displs[m] + i] = val(m + 1, i);
		for (int i = 0; i <= 2 * counts[me]; i++)
			mine[i] = -6;
		CHECK_MPI(MPI_Iscatterv(all, counts, displs, MPI_INT,
					in_place ? MPI_IN_PLACE : mine, counts[me] ? 1 : 0,
					strided, root, comm, &req));
		finish(&req, root + 1);
		for (int i = 0; i < counts[me]; i++) {
			CHECK((in_place ? all[displs[me] + i] : mine[2 * i]) == val(me + 1, i));
			CHECK(in_place || mine[2 * i + 1] == -6);
		}
		free(mine);
		free(all);
	}
	CHECK_MPI(MPI_Type_free(&strided));
}

/* ---- alltoallw ---------------------------------------------------------------- */

/* What member i sends member j: c(i, j) ints, value k = code(i, j, k).
 * sym: the same count both ways (for MPI_IN_PLACE). */
static int a2w_count(int i, int j, int sym)
{
	int base = sym ? (i + j) % 4 : (i + 2 * j) % 4;

	return base + ((sym ? i + j == 1 : i == j + 1) ? 2500 : 0);
}

static int code(int i, int j, int k)
{
	return i * 100000 + j * 1000 + k % 997;
}

/* Block m of this member's buffer: ints at every other place (type wide:
 * an int of extent 2 ints) when m is odd (send side) or even (receive
 * side), else contiguous; placed one after the other from byte 0, with a
 * gap of one int, in reverse order.  Returns the ints the buffer needs. */
struct a2w {
	int counts[64], displs[64], wide[64];
	MPI_Datatype types[64];
};

static int a2w_layout(struct a2w *l, int n, int wide_parity, MPI_Datatype wide)
{
	int at = 0;

	for (int m = n - 1; m >= 0; m--) {
		l->wide[m] = m % 2 == wide_parity;
		l->types[m] = l->wide[m] ? wide : MPI_INT;
		l->displs[m] = at * (int)sizeof(int);
		at += l->counts[m] * (l->wide[m] ? 2 : 1) + 1;
	}
	return at;
}

/* Where element k of block m lies (in ints). */
static int a2w_at(const struct a2w *l, int m, int k)
{
	return l->displs[m] / (int)sizeof(int) + k * (l->wide[m] ? 2 : 1);
}

static void t_alltoallw_on(MPI_Comm comm, int blocking, int in_place)
{
	struct a2w snd, rcv;
	int me, n, sspan, rspan, *sb, *rb, *seen;
	MPI_Datatype wide;
	MPI_Request req;

	MPI_Comm_rank(comm, &me);
	MPI_Comm_size(comm, &n);
	CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &wide));
	CHECK_MPI(MPI_Type_commit(&wide));
	for (int m = 0; m < n; m++) {
		snd.counts[m] = a2w_count(me, m, in_place);
		rcv.counts[m] = a2w_count(m, me, in_place);
	}
	sspan = a2w_layout(&snd, n, 1, wide);
	rspan = a2w_layout(&rcv, n, 0, wide);
	sb = ints((size_t)sspan, -1);
	rb = ints((size_t)rspan, -2);
	seen = calloc((size_t)rspan + 1, sizeof(int));
	CHECK(seen);
	/* in place, what goes to m is in recvbuf's block m */
	for (int m = 0; m < n; m++)
		for (int k = 0; k < snd.counts[m]; k++) {
			if (in_place)
				rb[a2w_at(&rcv, m, k)] = code(me, m, k);
			else
				sb[a2w_at(&snd, m, k)] = code(me, m, k);
		}
	if (blocking) {
		CHECK_MPI(MPI_Alltoallw(in_place ? MPI_IN_PLACE : sb, snd.counts, snd.displs,
					snd.types, rb, rcv.counts, rcv.displs, rcv.types,
					comm));
		CHECK_MPI(MPI_Type_free(&wide));
	} else {
		CHECK_MPI(MPI_Ialltoallw(in_place ? MPI_IN_PLACE : sb, snd.counts,
					 snd.displs, snd.types, rb, rcv.counts, rcv.displs,
					 rcv.types, comm, &req));
		CHECK_MPI(MPI_Type_free(&wide));	/* the operation keeps it */
		finish(&req, in_place);
	}
	for (int m = 0; m < n; m++)
		for (int k = 0; k < rcv.counts[m]; k++) {
			CHECK(rb[a2w_at(&rcv, m, k)] == code(m, me, k));
			seen[a2w_at(&rcv, m, k)] = 1;
		}
	/* the gaps stay */
	for (int i = 0; i <= rspan; i++)
		CHECK(seen[i] || rb[i] == -2);
	free(seen);
	free(sb);
	free(rb);
}

static void t_alltoallw(MPI_Comm comm)
{
	for (int blocking = 0; blocking < 2; blocking++)
		for (int in_place = 0; in_place < 2; in_place++)
			t_alltoallw_on(comm, blocking, in_place);
}

/* The blocking form on an intercommunicator: block m to and from member m
 * of the other group. */
static void test_alltoallw_inter(void)
{
	MPI_Comm half, inter;
	int low = rank < size / 2, me, rn, sc[64], rc[64], sd[64], rd[64];
	int sb[64 * 4], rb[64 * 4 + 1];
	MPI_Datatype t[64];

	if (size < 2)
		return;
	halves(&half, &inter);
	MPI_Comm_rank(inter, &me);
	MPI_Comm_remote_size(inter, &rn);
	for (int m = 0; m < rn; m++) {
		/* low group's member i sends high's member j (i + j) % 3 + 1 */
		sc[m] = (me + m) % 3 + 1;
		rc[m] = sc[m];
		sd[m] = m * 4 * (int)sizeof(int);
		rd[m] = (rn - 1 - m) * 4 * (int)sizeof(int);
		t[m] = MPI_INT;
		for (int k = 0; k < sc[m]; k++)
			sb[m * 4 + k] = code(low * 64 + me, m, k);
	}
	for (int i = 0; i <= 4 * rn; i++)
		rb[i] = -3;
	CHECK_MPI(MPI_Alltoallw(sb, sc, sd, t, rb, rc, rd, t, inter));
	for (int m = 0; m < rn; m++)
		for (int k = 0; k < 4; k++)
			CHECK(rb[(rn - 1 - m) * 4 + k] == (k < rc[m] ?
							   code(!low * 64 + m, me, k) : -3));
	CHECK(rb[4 * rn] == -3);
	CHECK_MPI(MPI_Comm_free(&inter));
	CHECK_MPI(MPI_Comm_free(&half));
}

static void test_scan(void) { on_comms(t_scan); }
static void test_reduce_scatter(void) { on_comms(t_reduce_scatter); }
static void test_gatherv_scatterv(void) { on_comms(t_gatherv_scatterv); }
static void test_alltoallw(void) { on_comms(t_alltoallw); }

/* ---- MPI_Comm_idup ---------------------------------------------------------- */

static int copies;

/* Copies the attribute as its value + 1, and counts. */
static int plus_one(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
	(void)comm;
	(void)keyval;
	(void)extra;
	copies++;
	*(intptr_t *)out = (intptr_t)in + 1;
	*flag = 1;
	return MPI_SUCCESS;
}

/* The new communicator works: a collective, point-to-point in a ring,
 * and it is congruent with its parent. */
static void check_usable(MPI_Comm parent, MPI_Comm c)
{
	int me, n, sum, got = -1, result;

	MPI_Comm_rank(c, &me);
	MPI_Comm_size(c, &n);
	CHECK_MPI(MPI_Comm_compare(parent, c, &result));
	CHECK(result == MPI_CONGRUENT);
	CHECK_MPI(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, c));
	CHECK(sum == n * (n - 1) / 2);
	CHECK_MPI(MPI_Sendrecv(&me, 1, MPI_INT, (me + 1) % n, 5, &got, 1, MPI_INT,
			       (me + n - 1) % n, 5, c, MPI_STATUS_IGNORE));
	CHECK(got == (me + n - 1) % n);
}

/*
 * Several idups outstanding on one communicator, between other nonblocking
 * collectives, completed in reverse order; attributes copied as by
 * MPI_Comm_dup (by a callback, by MPI_COMM_DUP_FN, not by
 * MPI_COMM_NULL_COPY_FN), the error handler inherited; each new
 * communicator usable, and an idup of one of them.
 */
static void t_idup(MPI_Comm parent)
{
	enum { NDUP = 3 };
	MPI_Comm dup[NDUP], again;
	MPI_Request req[2 * NDUP + 1];
	int kv_plus, kv_same, kv_none, me, n, ks[NDUP], sums[NDUP], flag, before = copies;
	MPI_Errhandler eh;
	void *v;

	MPI_Comm_rank(parent, &me);
	MPI_Comm_size(parent, &n);
	CHECK_MPI(MPI_Comm_create_keyval(plus_one, MPI_COMM_NULL_DELETE_FN, &kv_plus, NULL));
	CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kv_same,
					 NULL));
	CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN,
					 &kv_none, NULL));
	CHECK_MPI(MPI_Comm_set_attr(parent, kv_plus, (void *)(intptr_t)41));
	CHECK_MPI(MPI_Comm_set_attr(parent, kv_same, (void *)(intptr_t)7));
	CHECK_MPI(MPI_Comm_set_attr(parent, kv_none, (void *)(intptr_t)9));
	CHECK_MPI(MPI_Comm_set_errhandler(parent, MPI_ERRORS_RETURN));
	for (int k = 0; k < NDUP; k++) {
		CHECK_MPI(MPI_Comm_idup(parent, &dup[k], &req[2 * k]));
		ks[k] = k;
		CHECK_MPI(MPI_Iallreduce(&ks[k], &sums[k], 1, MPI_INT, MPI_SUM, parent,
					 &req[2 * k + 1]));
	}
	CHECK_MPI(MPI_Ibarrier(parent, &req[2 * NDUP]));
	for (int k = 2 * NDUP; k >= 0; k--)
		finish(&req[k], k);
	CHECK(copies == before + NDUP);
	CHECK_MPI(MPI_Comm_set_errhandler(parent, MPI_ERRORS_ARE_FATAL));
	for (int k = 0; k < NDUP; k++) {
		CHECK(sums[k] == k * n);
		check_usable(parent, dup[k]);
		CHECK_MPI(MPI_Comm_get_attr(dup[k], kv_plus, &v, &flag));
		CHECK(flag && (intptr_t)v == 42);
		CHECK_MPI(MPI_Comm_get_attr(dup[k], kv_same, &v, &flag));
		CHECK(flag && (intptr_t)v == 7);
		CHECK_MPI(MPI_Comm_get_attr(dup[k], kv_none, &v, &flag));
		CHECK(!flag);
		CHECK_MPI(MPI_Comm_get_errhandler(dup[k], &eh));
		CHECK(eh == MPI_ERRORS_RETURN);
		CHECK_MPI(MPI_Errhandler_free(&eh));
	}
	/* the duplicates are distinct: a message on one is not for another */
	if (n >= 2) {
		int a = -1, b = -1;

		if (me == 0) {
			CHECK_MPI(MPI_Send(&me, 1, MPI_INT, 1, 0, dup[0]));
			CHECK_MPI(MPI_Send(&n, 1, MPI_INT, 1, 0, dup[1]));
		} else if (me == 1) {
			CHECK_MPI(MPI_Recv(&b, 1, MPI_INT, 0, 0, dup[1], MPI_STATUS_IGNORE));
			CHECK_MPI(MPI_Recv(&a, 1, MPI_INT, 0, 0, dup[0], MPI_STATUS_IGNORE));
			CHECK(a == 0 && b == n);
		}
	}
	CHECK_MPI(MPI_Comm_idup(dup[1], &again, &req[0]));
	finish(&req[0], 1);
	check_usable(parent, again);
	CHECK_MPI(MPI_Comm_free(&again));
	for (int k = 0; k < NDUP; k++)
		CHECK_MPI(MPI_Comm_free(&dup[k]));
	CHECK_MPI(MPI_Comm_delete_attr(parent, kv_plus));
	CHECK_MPI(MPI_Comm_delete_attr(parent, kv_same));
	CHECK_MPI(MPI_Comm_delete_attr(parent, kv_none));
	CHECK_MPI(MPI_Comm_free_keyval(&kv_plus));
	CHECK_MPI(MPI_Comm_free_keyval(&kv_same));
	CHECK_MPI(MPI_Comm_free_keyval(&kv_none));
}

static void test_idup(void) { on_comms(t_idup); }

/* ---- several at once ---------------------------------------------------------- */

/* Every call of this program started at once on two communicators,
 * completed in the order `how` picks, then checked. */
static void test_overlap(void)
{
	enum { N = 600, NREQ = 8 };
	MPI_Comm other, fresh;
	MPI_Request req[NREQ];
	int *scan = ints(N, 0), *exs = ints(N, 0), *rsb = ints((size_t)N * size, 0);
	int *rsbo = ints(N, 0), *gv = ints((size_t)N * size, -1), *sv = ints(N, -1);
	int *a2s = ints((size_t)N * size, 0), *a2r = ints((size_t)N * size, -1);
	int *gvo = ints((size_t)size, -1), ones[64], idx[64], counts[64], displs[64], sd[64];
	MPI_Datatype types[64];

	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &other));
	for (int how = 0; how < 3; how++) {
		for (int i = 0; i < N; i++) {
			scan[i] = val(rank, i);
			exs[i] = val(rank, i + 1);
		}
		for (int j = 0; j < N * size; j++) {
			rsb[j] = val(rank, j);
			a2s[j] = code(rank, j / N, j % N);
		}
		for (int m = 0; m < size; m++) {
			counts[m] = N;
			displs[m] = (size - 1 - m) * N;
			sd[m] = m * N * (int)sizeof(int);
			types[m] = MPI_INT;
			ones[m] = 1;
			idx[m] = m;
		}
		for (int m = 0; rank == 1 % size && m < size; m++)
			for (int k = 0; k < N; k++)
				gv[displs[m] + k] = val(m, k + 5);
		CHECK_MPI(MPI_Iscan(MPI_IN_PLACE, scan, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
				    &req[0]));
		CHECK_MPI(MPI_Iexscan(MPI_IN_PLACE, exs, N, MPI_INT, MPI_SUM, other, &req[1]));
		CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &fresh, &req[2]));
		CHECK_MPI(MPI_Ireduce_scatter_block(rsb, rsbo, N, MPI_INT, MPI_SUM,
						    MPI_COMM_WORLD, &req[3]));
		CHECK_MPI(MPI_Iscatterv(gv, counts, displs, MPI_INT, sv, N, MPI_INT, 1 % size,
					other, &req[4]));
		CHECK_MPI(MPI_Ialltoallw(a2s, counts, sd, types, a2r, counts, sd, types,
					 MPI_COMM_WORLD, &req[5]));
		CHECK_MPI(MPI_Igatherv(&ones[0], 1, MPI_INT, gvo, ones, idx, MPI_INT, 0,
				       MPI_COMM_WORLD, &req[6]));
		CHECK_MPI(MPI_Ibarrier(other, &req[7]));
		if (how == 0) {
			CHECK_MPI(MPI_Waitall(NREQ, req, MPI_STATUSES_IGNORE));
		} else {
			for (int k = 0; k < NREQ; k++)
				finish(&req[how == 1 ? NREQ - 1 - k : (k * 3) % NREQ], k);
		}
		for (int i = 0; i < N; i++) {
			int s = 0, e = 0, r = 0;

			for (int m = 0; m <= rank; m++) {
				s += val(m, i);
				e += m < rank ? val(m, i + 1) : 0;
			}
			for (int m = 0; m < size; m++)
				r += val(m, rank * N + i);
			CHECK(scan[i] == s && (rank == 0 || exs[i] == e) && rsbo[i] == r);
			CHECK(sv[i] == val(rank, i + 5));
		}
		for (int j = 0; j < N * size; j++)
			CHECK(a2r[j] == code(j / N, rank, j % N));
		for (int m = 0; rank == 0 && m < size; m++)
			CHECK(gvo[m] == 1);
		check_usable(MPI_COMM_WORLD, fresh);
		CHECK_MPI(MPI_Comm_free(&fresh));
	}
	CHECK_MPI(MPI_Comm_free(&other));
	free(scan);
	free(exs);
	free(rsb);
	free(rsbo);
	free(gv);
	free(gvo);
	free(sv);
	free(a2s);
	free(a2r);
}

/* ---- progress ------------------------------------------------------------------ */

/* Which progress the job runs under: the script says (argv[2]). */
static int strong;

/*
 * Everybody starts a large scan, a large alltoallw and an idup of
 * MPI_COMM_WORLD (rank 0 last); then every rank but 0 computes outside MPI until rank 0 says
 * it is done.  Strong progress: rank 0's operations complete while the
 * others compute (their progress threads map the new communicator's area
 * and answer, pass the scan on, send their blocks).  Weak progress: rank
 * 0's idup cannot complete - the others answer only once they call MPI -
 * however often rank 0 tests.
 */
static void test_outside(void)
{
	enum { N = 20000 };
	int *in = ints(N, 0), *out = ints(N, -1), *a2s = ints((size_t)N * size, 0);
	int *a2r = ints((size_t)N * size, -1), counts[64], sd[64];
	MPI_Datatype types[64];
	MPI_Request req[3];
	MPI_Comm fresh;
	struct outside o;

	for (int i = 0; i < N; i++)
		in[i] = val(rank, i);
	for (int m = 0; m < size; m++) {
		counts[m] = N;
		sd[m] = m * N * (int)sizeof(int);
		types[m] = MPI_INT;
		for (int k = 0; k < N; k++)
			a2s[m * N + k] = code(rank, m, k);
	}
	outside_begin(&o);
	CHECK_MPI(MPI_Iscan(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[1]));
	CHECK_MPI(MPI_Ialltoallw(a2s, counts, sd, types, a2r, counts, sd, types,
				 MPI_COMM_WORLD, &req[2]));
	/* rank 0 starts the idup once the others are outside MPI: had its
	 * message reached them in their MPI_Comm_idup, they could have
	 * answered at once */
	if (rank == 0)
		outside_wait(&o);
	CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &fresh, &req[0]));
	if (rank != 0)
		outside_arrive(&o);
	outside_end(&o, strong ? "strong" : "weak", 3, req);
	for (int i = 0; i < N; i++) {
		int want = 0;

		for (int r = 0; r <= rank; r++)
			want += val(r, i);
		CHECK(out[i] == want);
	}
	for (int j = 0; j < N * size; j++)
		CHECK(a2r[j] == code(j / N, rank, j % N));
	check_usable(MPI_COMM_WORLD, fresh);
	CHECK_MPI(MPI_Comm_free(&fresh));
	free(in);
	free(out);
	free(a2s);
	free(a2r);
}

/* ---- errors ------------------------------------------------------------------ */

static void test_errors(void)
{
	MPI_Comm comm, newcomm = MPI_COMM_NULL;
	MPI_Request req;
	MPI_Datatype types[64], badtypes[64], uncommitted;
	int a[64] = { 0 }, b[64], counts[64], displs[64], neg[64], sum;

	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
	CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &uncommitted));
	for (int i = 0; i < 64; i++) {
		counts[i] = 1;
		displs[i] = i;
		neg[i] = i == size - 1 ? -1 : 1;
		types[i] = MPI_INT;
		badtypes[i] = i == size - 1 ? MPI_DATATYPE_NULL : MPI_INT;
	}
	EXPECT_ERR(MPI_ERR_ROOT, MPI_Igatherv(a, 1, MPI_INT, b, counts, displs, MPI_INT,
					      size, comm, &req));
	EXPECT_ERR(MPI_ERR_ROOT, MPI_Iscatterv(a, counts, displs, MPI_INT, b, 1, MPI_INT,
					       -1, comm, &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Iscan(a, b, -1, MPI_INT, MPI_SUM, comm, &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Iexscan(a, b, -1, MPI_INT, MPI_SUM, comm, &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Ireduce_scatter_block(a, b, -1, MPI_INT, MPI_SUM,
							    comm, &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Ireduce_scatter(a, b, neg, MPI_INT, MPI_SUM, comm,
						      &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Ialltoallw(a, neg, displs, types, b, counts, displs,
						 types, comm, &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Alltoallw(a, counts, displs, types, b, neg, displs,
						types, comm));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Iscatterv(a, counts, displs, MPI_INT, b, -1, MPI_INT,
						0, comm, &req));
	if (rank == 0) {
		/* the root's vectors, checked at the root only */
		EXPECT_ERR(MPI_ERR_COUNT, MPI_Igatherv(a, 1, MPI_INT, b, neg, displs, MPI_INT,
						       0, comm, &req));
		EXPECT_ERR(MPI_ERR_ARG, MPI_Iscatterv(a, counts, NULL, MPI_INT, b, 1,
						      MPI_INT, 0, comm, &req));
	}
	EXPECT_ERR(MPI_ERR_ARG, MPI_Ireduce_scatter(a, b, NULL, MPI_INT, MPI_SUM, comm,
						    &req));
	EXPECT_ERR(MPI_ERR_ARG, MPI_Ialltoallw(a, counts, displs, NULL, b, counts, displs,
					       types, comm, &req));
	EXPECT_ERR(MPI_ERR_ARG, MPI_Alltoallw(a, counts, displs, types, b, counts, NULL,
					      types, comm));
	EXPECT_ERR(MPI_ERR_TYPE, MPI_Ialltoallw(a, counts, displs, types, b, counts, displs,
						badtypes, comm, &req));
	EXPECT_ERR(MPI_ERR_TYPE, MPI_Alltoallw(a, counts, displs, badtypes, b, counts,
					       displs, types, comm));
	types[0] = uncommitted;
	EXPECT_ERR(MPI_ERR_TYPE, MPI_Ialltoallw(a, counts, displs, types, b, counts, displs,
						badtypes, comm, &req));
	types[0] = MPI_INT;
	EXPECT_ERR(MPI_ERR_TYPE, MPI_Iscan(a, b, 1, uncommitted, MPI_SUM, comm, &req));
	EXPECT_ERR(MPI_ERR_OP, MPI_Iscan(a, b, 1, MPI_INT, MPI_OP_NULL, comm, &req));
	EXPECT_ERR(MPI_ERR_OP, MPI_Iexscan(a, b, 1, MPI_DOUBLE, MPI_BAND, comm, &req));
	EXPECT_ERR(MPI_ERR_OP, MPI_Ireduce_scatter_block(a, b, 1, MPI_INT, MPI_REPLACE,
							 comm, &req));
	EXPECT_ERR(MPI_ERR_OP, MPI_Ireduce_scatter(a, b, counts, MPI_BYTE, MPI_SUM, comm,
						   &req));
	/* MPI_IN_PLACE where the standard does not allow it */
	EXPECT_ERR(MPI_ERR_BUFFER, MPI_Iscan(a, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, comm,
					     &req));
	EXPECT_ERR(MPI_ERR_BUFFER, MPI_Ireduce_scatter(a, MPI_IN_PLACE, counts, MPI_INT,
						       MPI_SUM, comm, &req));
	EXPECT_ERR(MPI_ERR_BUFFER, MPI_Ialltoallw(a, counts, displs, types, MPI_IN_PLACE,
						  counts, displs, types, comm, &req));
	if (rank != 0) {
		EXPECT_ERR(MPI_ERR_BUFFER, MPI_Igatherv(MPI_IN_PLACE, 1, MPI_INT, b, counts,
							displs, MPI_INT, 0, comm, &req));
		EXPECT_ERR(MPI_ERR_BUFFER, MPI_Iscatterv(a, counts, displs, MPI_INT,
							 MPI_IN_PLACE, 1, MPI_INT, 0, comm,
							 &req));
	}
	EXPECT_ERR(MPI_ERR_BUFFER, MPI_Iexscan(NULL, b, 1, MPI_INT, MPI_SUM, comm, &req));
	EXPECT_ERR(MPI_ERR_ARG, MPI_Iscan(a, b, 1, MPI_INT, MPI_SUM, comm, NULL));
	EXPECT_ERR(MPI_ERR_ARG, MPI_Ialltoallw(a, counts, displs, types, b, counts, displs,
					       types, comm, NULL));
	EXPECT_ERR(MPI_ERR_ARG, MPI_Comm_idup(comm, &newcomm, NULL));
	EXPECT_ERR(MPI_ERR_ARG, MPI_Comm_idup(comm, NULL, &req));
	CHECK(newcomm == MPI_COMM_NULL);
	/* an invalid communicator raises on MPI_COMM_WORLD */
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	EXPECT_ERR(MPI_ERR_COMM, MPI_Iscan(a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL, &req));
	EXPECT_ERR(MPI_ERR_COMM, MPI_Alltoallw(a, counts, displs, types, b, counts, displs,
					       types, MPI_COMM_NULL));
	EXPECT_ERR(MPI_ERR_COMM, MPI_Comm_idup(MPI_COMM_NULL, &newcomm, &req));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
	/* these are for intracommunicators */
	if (size >= 2) {
		MPI_Comm half, inter;

		halves(&half, &inter);
		CHECK_MPI(MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN));
		EXPECT_ERR(MPI_ERR_COMM, MPI_Iscan(a, b, 1, MPI_INT, MPI_SUM, inter, &req));
		EXPECT_ERR(MPI_ERR_COMM, MPI_Iexscan(a, b, 1, MPI_INT, MPI_SUM, inter, &req));
		/* and MPI_IN_PLACE is not for intercommunicators */
		EXPECT_ERR(MPI_ERR_BUFFER, MPI_Alltoallw(MPI_IN_PLACE, counts, displs, types,
							 b, counts, displs, types, inter));
		CHECK_MPI(MPI_Comm_free(&inter));
		CHECK_MPI(MPI_Comm_free(&half));
	}
	CHECK_MPI(MPI_Type_free(&uncommitted));
	/* nothing changed: the next collectives match on every rank */
	CHECK_MPI(MPI_Iscan(&rank, &sum, 1, MPI_INT, MPI_SUM, comm, &req));
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	CHECK(sum == rank * (rank + 1) / 2);
	for (int i = 0; i < size; i++)
		a[i] = rank * 10 + i;
	for (int i = 0; i < size; i++)
		displs[i] = i * (int)sizeof(int);	/* bytes, for alltoallw */
	CHECK_MPI(MPI_Alltoallw(a, counts, displs, types, b, counts, displs, types, comm));
	for (int i = 0; i < size; i++)
		CHECK(b[i] == i * 10 + rank);
	CHECK_MPI(MPI_Comm_free(&comm));
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	strong = argc > 2 && !strcmp(argv[2], "strong");
	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK(size <= 64);
	TU_RUN("scan", test_scan);
	TU_RUN("reduce_scatter", test_reduce_scatter);
	TU_RUN("gatherv_scatterv", test_gatherv_scatterv);
	TU_RUN("alltoallw", test_alltoallw);
	TU_RUN("alltoallw_inter", test_alltoallw_inter);
	TU_RUN("idup", test_idup);
	TU_RUN("overlap", test_overlap);
	if (size >= 2)
		TU_RUN("outside", test_outside);
	TU_RUN("errors", test_errors);
	MPI_Finalize();
	return 0;
}
