/*
 * Groups, communicators, attributes, info and MPI_Alloc_mem against
 * hand-computed results.
 *   comm_group [test]
 */
#include "testutil.h"

static int rank, size;

static void test_groups(void)
{
	MPI_Group world, evens, odds, u, inter, diff, rng, ex;
	int n, r, res, ranks[64], out[64];

	CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
	CHECK_MPI(MPI_Group_size(world, &n));
	CHECK_MPI(MPI_Group_rank(world, &r));
	CHECK(n == size && r == rank);
	for (int i = 0; i < (size + 1) / 2; i++)
		ranks[i] = 2 * i;
	CHECK_MPI(MPI_Group_incl(world, (size + 1) / 2, ranks, &evens));
	CHECK_MPI(MPI_Group_excl(world, (size + 1) / 2, ranks, &odds));
	CHECK_MPI(MPI_Group_size(evens, &n));
	CHECK(n == (size + 1) / 2);
	CHECK_MPI(MPI_Group_rank(evens, &r));
	CHECK(r == (rank % 2 ? MPI_UNDEFINED : rank / 2));
	CHECK_MPI(MPI_Group_rank(odds, &r));
	CHECK(r == (rank % 2 ? rank / 2 : MPI_UNDEFINED));
	/* union keeps group1's order, then group2's newcomers */
	CHECK_MPI(MPI_Group_union(odds, evens, &u));
	CHECK_MPI(MPI_Group_size(u, &n));
	CHECK(n == size);
	for (int i = 0; i < size; i++)
		ranks[i] = i;
	CHECK_MPI(MPI_Group_translate_ranks(u, size, ranks, world, out));
	for (int i = 0; i < size / 2; i++)
		CHECK(out[i] == 2 * i + 1);
	for (int i = size / 2; i < size; i++)
		CHECK(out[i] == 2 * (i - size / 2));
	CHECK_MPI(MPI_Group_compare(u, world, &res));
	CHECK(res == (size > 1 ? MPI_SIMILAR : MPI_IDENT));
	CHECK_MPI(MPI_Group_compare(world, world, &res));
	CHECK(res == MPI_IDENT);
	CHECK_MPI(MPI_Group_intersection(evens, odds, &inter));
	CHECK(inter == MPI_GROUP_EMPTY);
	CHECK_MPI(MPI_Group_difference(world, odds, &diff));
	CHECK_MPI(MPI_Group_compare(diff, evens, &res));
	CHECK(res == MPI_IDENT);
	/* ranges: every third rank from the top down */
	int range[1][3] = { { size - 1, 0, -3 } };

	CHECK_MPI(MPI_Group_range_incl(world, 1, range, &rng));
	CHECK_MPI(MPI_Group_size(rng, &n));
	CHECK(n == (size - 1) / 3 + 1);
	ranks[0] = 0;
	CHECK_MPI(MPI_Group_translate_ranks(rng, 1, ranks, world, out));
	CHECK(out[0] == size - 1);
	CHECK_MPI(MPI_Group_range_excl(world, 1, range, &ex));
	CHECK_MPI(MPI_Group_size(ex, &n));
	CHECK(n == size - ((size - 1) / 3 + 1));
	ranks[0] = MPI_PROC_NULL;
	CHECK_MPI(MPI_Group_translate_ranks(world, 1, ranks, evens, out));
	CHECK(out[0] == MPI_PROC_NULL);
	/* errors */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	ranks[0] = size;
	CHECK(MPI_Group_incl(world, 1, ranks, &res) == MPI_ERR_RANK);
	ranks[0] = ranks[1] = 0;
	CHECK(size < 2 || MPI_Group_incl(world, 2, ranks, &res) == MPI_ERR_RANK);
	CHECK(MPI_Group_size(MPI_GROUP_NULL, &n) == MPI_ERR_GROUP);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	MPI_Group gs[] = { world, evens, odds, u, inter, diff, rng, ex };

	for (unsigned i = 0; i < sizeof(gs) / sizeof(gs[0]); i++) {
		CHECK_MPI(MPI_Group_free(&gs[i]));
		CHECK(gs[i] == MPI_GROUP_NULL);
	}
}

static void test_comms(void)
{
	MPI_Comm dup, split, created, cg, shared, none;
	MPI_Group world, evens;
	int r, n, res, ranks[64], sum;

	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
	CHECK_MPI(MPI_Comm_compare(dup, MPI_COMM_WORLD, &res));
	CHECK(res == MPI_CONGRUENT);
	CHECK_MPI(MPI_Comm_compare(dup, dup, &res));
	CHECK(res == MPI_IDENT);
	/* messages on different communicators never match */
	if (size > 1) {
		int a = 1, b = 2, x, y;
		MPI_Request req[2];

		if (rank == 0) {
			CHECK_MPI(MPI_Send(&a, 1, MPI_INT, 1, 5, MPI_COMM_WORLD));
			CHECK_MPI(MPI_Send(&b, 1, MPI_INT, 1, 5, dup));
		} else if (rank == 1) {
			CHECK_MPI(MPI_Irecv(&y, 1, MPI_INT, 0, 5, dup, &req[0]));
			CHECK_MPI(MPI_Irecv(&x, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &req[1]));
			CHECK_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
			CHECK(x == 1 && y == 2);
		}
	}
	/* split by colour with keys reversing the order; MPI_UNDEFINED */
	CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 3 == 2 ? MPI_UNDEFINED : rank % 3,
				 size - rank, &split));
	if (rank % 3 == 2) {
		CHECK(split == MPI_COMM_NULL);
	} else {
		int members = 0, pos = 0;

		for (int q = 0; q < size; q++)
			if (q % 3 == rank % 3) {
				members++;
				if (q > rank)
					pos++;
			}
		CHECK_MPI(MPI_Comm_size(split, &n));
		CHECK_MPI(MPI_Comm_rank(split, &r));
		CHECK(n == members && r == pos);
		CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, split));
		int want = 0;

		for (int q = 0; q < size; q++)
			if (q % 3 == rank % 3)
				want += q;
		CHECK(sum == want);
		CHECK_MPI(MPI_Comm_free(&split));
	}
	/* create from the even ranks, in their order */
	CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
	for (int i = 0; i < (size + 1) / 2; i++)
		ranks[i] = 2 * i;
	CHECK_MPI(MPI_Group_incl(world, (size + 1) / 2, ranks, &evens));
	CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, evens, &created));
	if (rank % 2) {
		CHECK(created == MPI_COMM_NULL);
	} else {
		CHECK_MPI(MPI_Comm_rank(created, &r));
		CHECK(r == rank / 2);
		CHECK_MPI(MPI_Comm_free(&created));
	}
	/* create_group: only the even ranks call it */
	if (rank % 2 == 0) {
		CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, evens, 77, &cg));
		CHECK_MPI(MPI_Comm_size(cg, &n));
		CHECK(n == (size + 1) / 2);
		CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, cg));
		int want = 0;

		for (int q = 0; q < size; q += 2)
			want += q;
		CHECK(sum == want);
		CHECK_MPI(MPI_Comm_free(&cg));
	}
	CHECK_MPI(MPI_Group_free(&evens));
	CHECK_MPI(MPI_Group_free(&world));
	/* every rank shares memory with every other */
	CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank,
				      MPI_INFO_NULL, &shared));
	CHECK_MPI(MPI_Comm_size(shared, &n));
	CHECK(n == size);
	CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL, &none));
	CHECK(none == MPI_COMM_NULL);
	CHECK_MPI(MPI_Comm_free(&shared));
	/* names, test_inter */
	char name[MPI_MAX_OBJECT_NAME];
	int len, flag;

	CHECK_MPI(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
	CHECK(!strcmp(name, "MPI_COMM_WORLD") && len == 14);
	CHECK_MPI(MPI_Comm_set_name(dup, "my dup"));
	CHECK_MPI(MPI_Comm_get_name(dup, name, &len));
	CHECK(!strcmp(name, "my dup"));
	CHECK_MPI(MPI_Comm_test_inter(dup, &flag));
	CHECK(!flag);
	/* the error handler is inherited */
	MPI_Errhandler eh;
	MPI_Comm d2;

	CHECK_MPI(MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_dup(dup, &d2));
	CHECK_MPI(MPI_Comm_get_errhandler(d2, &eh));
	CHECK(eh == MPI_ERRORS_RETURN);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	CHECK(MPI_Comm_free(&(MPI_Comm){ MPI_COMM_WORLD }) == MPI_ERR_COMM);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	CHECK_MPI(MPI_Comm_free(&d2));
	CHECK_MPI(MPI_Comm_free(&dup));
	CHECK(dup == MPI_COMM_NULL);
	/* many communicators, created and freed in a loop */
	for (int i = 0; i < 50; i++) {
		MPI_Comm c;

		CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
		CHECK_MPI(MPI_Barrier(c));
		CHECK_MPI(MPI_Comm_free(&c));
	}
}

static int copies, deletes;

static int copy_fn(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
	(void)comm, (void)keyval;
	copies++;
	CHECK(*(int *)extra == 42);
	*(void **)out = (char *)in + 1;
	*flag = 1;
	return MPI_SUCCESS;
}

static int delete_fn(MPI_Comm comm, int keyval, void *value, void *extra)
{
	(void)comm, (void)keyval, (void)value, (void)extra;
	deletes++;
	return MPI_SUCCESS;
}

static void test_attributes(void)
{
	static int extra = 42;
	static char base[4];
	int keyval, nocopy, flag, *ip;
	void *v;
	MPI_Comm dup;

	CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ip, &flag));
	CHECK(flag && *ip >= 32767);
	CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &ip, &flag));
	CHECK(flag && *ip == 1);
	CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &ip, &flag));
	CHECK(flag && *ip == size);
	CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &ip, &flag));
	CHECK(flag && *ip == 0);

	CHECK_MPI(MPI_Comm_create_keyval(copy_fn, delete_fn, &keyval, &extra));
	CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN,
					 &nocopy, NULL));
	CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, base));
	CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, nocopy, base));
	CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &v, &flag));
	CHECK(flag && v == base);
	/* dup runs the copy callback; the null copy drops the attribute */
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
	CHECK(copies == 1);
	CHECK_MPI(MPI_Comm_get_attr(dup, keyval, &v, &flag));
	CHECK(flag && v == base + 1);
	CHECK_MPI(MPI_Comm_get_attr(dup, nocopy, &v, &flag));
	CHECK(!flag);
	/* replacing runs the delete callback on the old value */
	CHECK_MPI(MPI_Comm_set_attr(dup, keyval, base + 2));
	CHECK(deletes == 1);
	/* freeing the communicator deletes its attributes */
	CHECK_MPI(MPI_Comm_free(&dup));
	CHECK(deletes == 2);
	CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval));
	CHECK(deletes == 3);
	CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &v, &flag));
	CHECK(!flag);
	CHECK_MPI(MPI_Comm_free_keyval(&keyval));
	CHECK(keyval == MPI_KEYVAL_INVALID);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, 9999, base) == MPI_ERR_KEYVAL);
	CHECK(MPI_Comm_free_keyval(&keyval) == MPI_ERR_KEYVAL);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, nocopy));
	CHECK_MPI(MPI_Comm_free_keyval(&nocopy));
}

static void test_info(void)
{
	MPI_Info info, dup;
	char value[MPI_MAX_INFO_VAL + 1], key[MPI_MAX_INFO_KEY + 1];
	int flag, n, len;

	CHECK_MPI(MPI_Info_create(&info));
	CHECK_MPI(MPI_Info_set(info, "alpha", "1"));
	CHECK_MPI(MPI_Info_set(info, "beta", "two"));
	CHECK_MPI(MPI_Info_set(info, "alpha", "one"));	/* replaces, keeps place */
	CHECK_MPI(MPI_Info_get_nkeys(info, &n));
	CHECK(n == 2);
	CHECK_MPI(MPI_Info_get_nthkey(info, 0, key));
	CHECK(!strcmp(key, "alpha"));
	CHECK_MPI(MPI_Info_get(info, "alpha", MPI_MAX_INFO_VAL, value, &flag));
	CHECK(flag && !strcmp(value, "one"));
	CHECK_MPI(MPI_Info_get(info, "beta", 2, value, &flag));
	CHECK(flag && !strcmp(value, "tw"));	/* truncated to valuelen */
	CHECK_MPI(MPI_Info_get_valuelen(info, "beta", &len, &flag));
	CHECK(flag && len == 3);
	CHECK_MPI(MPI_Info_get(info, "gamma", MPI_MAX_INFO_VAL, value, &flag));
	CHECK(!flag);
	CHECK_MPI(MPI_Info_dup(info, &dup));
	CHECK_MPI(MPI_Info_delete(info, "alpha"));
	CHECK_MPI(MPI_Info_get_nkeys(info, &n));
	CHECK(n == 1);
	CHECK_MPI(MPI_Info_get_nkeys(dup, &n));
	CHECK(n == 2);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	CHECK(MPI_Info_delete(info, "alpha") == MPI_ERR_INFO_NOKEY);
	CHECK(MPI_Info_set(info, "", "x") == MPI_ERR_INFO_KEY);
	CHECK(MPI_Info_get_nthkey(info, 5, key) == MPI_ERR_ARG);
	CHECK(MPI_Info_set(MPI_INFO_NULL, "a", "b") == MPI_ERR_INFO);
	CHECK(MPI_Info_free(&(MPI_Info){ MPI_INFO_ENV }) == MPI_ERR_INFO);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	CHECK_MPI(MPI_Info_free(&info));
	CHECK(info == MPI_INFO_NULL);
	CHECK_MPI(MPI_Info_free(&dup));
	CHECK_MPI(MPI_Info_get(MPI_INFO_ENV, "maxprocs", MPI_MAX_INFO_VAL, value, &flag));
	CHECK(flag && atoi(value) == size);
	CHECK_MPI(MPI_Info_get(MPI_INFO_ENV, "command", MPI_MAX_INFO_VAL, value, &flag));
	CHECK(flag && strstr(value, "comm_group"));
}

static void test_alloc_mem(void)
{
	char *p, *q;

	CHECK_MPI(MPI_Alloc_mem(100000, MPI_INFO_NULL, &p));
	CHECK_MPI(MPI_Alloc_mem(0, MPI_INFO_NULL, &q));
	CHECK(p && q && p != q);
	memset(p, 7, 100000);
	CHECK(p[99999] == 7);
	CHECK_MPI(MPI_Free_mem(p));
	CHECK_MPI(MPI_Free_mem(q));
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	CHECK(MPI_Free_mem(p) == MPI_ERR_BASE);
	CHECK(MPI_Alloc_mem(-1, MPI_INFO_NULL, &p) == MPI_ERR_SIZE);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	TU_RUN("groups", test_groups);
	TU_RUN("comms", test_comms);
	TU_RUN("attributes", test_attributes);
	TU_RUN("info", test_info);
	TU_RUN("alloc_mem", test_alloc_mem);
	MPI_Finalize();
	return 0;
}
