/*
 * Window flavours and queries: MPI_Win_get_attr of every predefined
 * attribute on each flavour, MPI_Win_get_group, the info keys
 * MPI_Win_get_info reports (and the read-only shmpi_memory), window names,
 * keyvals with copy and delete callbacks, MPI_Win_shared_query (size-0
 * ranks, MPI_PROC_NULL, contiguity, load/store from every rank, other
 * flavours), mpi_minimum_alignment, each target's own disp_unit,
 * several windows over the same MPI_Alloc_mem buffer, and windows used by
 * some ranks while others are still creating them.
 *
 *   rma_win [test]
 */
#include <stdint.h>

#include "testutil.h"

static int rank, size;

enum { F_ALLOCATE, F_SHARED, F_CREATE, F_DYNAMIC, NFLAVOUR };

static const int flavour_attr[NFLAVOUR] = {
	MPI_WIN_FLAVOR_ALLOCATE, MPI_WIN_FLAVOR_SHARED, MPI_WIN_FLAVOR_CREATE,
	MPI_WIN_FLAVOR_DYNAMIC,
};

/* This rank's window size and disp_unit in the flavour tests: rank 1 has
 * no memory, sizes are odd, disp_units differ between ranks. */
static MPI_Aint my_size(void) { return rank == 1 ? 0 : 40 + 12 * rank; }
static int my_disp_unit(void) { return 1 + rank % 3 * 3; }	/* 1, 4, 7 */

static MPI_Win make_window(int f, void **base, void **mem, MPI_Info info)
{
	MPI_Win win;

	*mem = NULL;
	switch (f) {
	case F_ALLOCATE:
		CHECK_MPI(MPI_Win_allocate(my_size(), my_disp_unit(), info, MPI_COMM_WORLD, base,
					   &win));
		break;
	case F_SHARED:
		CHECK_MPI(MPI_Win_allocate_shared(my_size(), my_disp_unit(), info,
						  MPI_COMM_WORLD, base, &win));
		break;
	case F_CREATE:
		CHECK_MPI(MPI_Alloc_mem(my_size() ? my_size() : 1, MPI_INFO_NULL, mem));
		CHECK_MPI(MPI_Win_create(*mem, my_size(), my_disp_unit(), info, MPI_COMM_WORLD,
					 &win));
		*base = *mem;
		break;
	default:
		CHECK_MPI(MPI_Win_create_dynamic(info, MPI_COMM_WORLD, &win));
		*base = MPI_BOTTOM;
		break;
	}
	return win;
}

static void free_window(MPI_Win *win, void *mem)
{
	CHECK_MPI(MPI_Win_free(win));
	CHECK(*win == MPI_WIN_NULL);
	if (mem)
		CHECK_MPI(MPI_Free_mem(mem));
}

/* Every predefined attribute on every flavour. */
static void test_attributes(void)
{
	for (int f = 0; f < NFLAVOUR; f++) {
		void *base, *mem, *abase;
		MPI_Aint *asize;
		int *adu, *aflavour, *amodel, flag;
		MPI_Win win = make_window(f, &base, &mem, MPI_INFO_NULL);

		CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &abase, &flag));
		CHECK(flag && abase == base);
		CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &asize, &flag));
		CHECK(flag && *asize == (f == F_DYNAMIC ? 0 : my_size()));
		CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &adu, &flag));
		CHECK(flag && *adu == (f == F_DYNAMIC ? 1 : my_disp_unit()));
		CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &aflavour, &flag));
		CHECK(flag && *aflavour == flavour_attr[f]);
		CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_MODEL, &amodel, &flag));
		CHECK(flag && *amodel == MPI_WIN_UNIFIED);
		free_window(&win, mem);
	}
}

/* The group of the window is the group of its communicator. */
static void test_group(void)
{
	MPI_Comm half;
	MPI_Group wg, cg;
	MPI_Win win;
	void *base;
	int cmp, n, r, hrank;

	CHECK_MPI(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
	CHECK_MPI(MPI_Win_get_group(win, &wg));
	CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &cg));
	CHECK_MPI(MPI_Group_compare(wg, cg, &cmp));
	CHECK(cmp == MPI_IDENT);
	CHECK_MPI(MPI_Group_free(&wg));
	CHECK_MPI(MPI_Group_free(&cg));
	CHECK_MPI(MPI_Win_free(&win));
	/* a window over the odd or even ranks, in reverse order */
	CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half));
	CHECK_MPI(MPI_Comm_rank(half, &hrank));
	CHECK_MPI(MPI_Win_allocate(8, 1, MPI_INFO_NULL, half, &base, &win));
	CHECK_MPI(MPI_Win_get_group(win, &wg));
	CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &cg));
	CHECK_MPI(MPI_Group_size(wg, &n));
	CHECK(n == (size + 1 - rank % 2) / 2);
	CHECK_MPI(MPI_Group_translate_ranks(wg, 1, &hrank, cg, &r));
	CHECK(r == rank);
	hrank = 0;
	CHECK_MPI(MPI_Group_translate_ranks(wg, 1, &hrank, cg, &r));
	CHECK(r % 2 == rank % 2 && r + 2 >= size);	/* the highest rank first */
	CHECK_MPI(MPI_Group_free(&wg));
	CHECK_MPI(MPI_Group_free(&cg));
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Comm_free(&half));
}

static void expect_info(MPI_Info info, const char *key, const char *want)
{
	char value[MPI_MAX_INFO_VAL];
	int flag;

	CHECK_MPI(MPI_Info_get(info, key, MPI_MAX_INFO_VAL - 1, value, &flag));
	if (!flag || strcmp(value, want)) {
		fprintf(stderr, "rank %d: info %s: got '%s', want '%s'\n", rank, key,
			flag ? value : "(not set)", want);
		CHECK(flag && !strcmp(value, want));
	}
}

/* The info keys, by default and as given; shmpi_memory is read-only. */
static void test_info(void)
{
	MPI_Info used, hints;

	for (int f = 0; f < NFLAVOUR; f++) {
		void *base, *mem;
		MPI_Win win = make_window(f, &base, &mem, MPI_INFO_NULL);

		CHECK_MPI(MPI_Win_get_info(win, &used));
		expect_info(used, "accumulate_ordering", "rar,raw,war,waw");
		expect_info(used, "accumulate_ops", "same_op_no_op");
		expect_info(used, "no_locks", "false");
		expect_info(used, "same_size", "false");
		expect_info(used, "same_disp_unit", "false");
		/* dynamic windows decide per attached region */
		expect_info(used, "shmpi_memory", f == F_DYNAMIC ? "dynamic" : "direct");
		CHECK_MPI(MPI_Info_free(&used));
		/* setting the read-only key changes nothing */
		CHECK_MPI(MPI_Info_create(&hints));
		CHECK_MPI(MPI_Info_set(hints, "shmpi_memory", "private"));
		CHECK_MPI(MPI_Info_set(hints, "shmpi_no_such_key", "1"));
		CHECK_MPI(MPI_Win_set_info(win, hints));
		CHECK_MPI(MPI_Info_free(&hints));
		CHECK_MPI(MPI_Win_get_info(win, &used));
		expect_info(used, "shmpi_memory", f == F_DYNAMIC ? "dynamic" : "direct");
		CHECK_MPI(MPI_Info_free(&used));
		free_window(&win, mem);
	}
	/* hints given at creation */
	CHECK_MPI(MPI_Info_create(&hints));
	CHECK_MPI(MPI_Info_set(hints, "no_locks", "true"));
	CHECK_MPI(MPI_Info_set(hints, "shmpi_memory", "private"));
	for (int f = 0; f < NFLAVOUR; f++) {
		void *base, *mem;
		MPI_Win win = make_window(f, &base, &mem, hints);

		CHECK_MPI(MPI_Win_get_info(win, &used));
		expect_info(used, "no_locks", "true");
		expect_info(used, "shmpi_memory", f == F_DYNAMIC ? "dynamic" : "direct");
		CHECK_MPI(MPI_Info_free(&used));
		free_window(&win, mem);
	}
	CHECK_MPI(MPI_Info_free(&hints));
}

/* Names: empty by default, set and read back, truncated when too long. */
static void test_names(void)
{
	char name[MPI_MAX_OBJECT_NAME], longname[2 * MPI_MAX_OBJECT_NAME];
	MPI_Win a, b;
	void *ba, *bb;
	int len = -1;

	CHECK_MPI(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &ba, &a));
	CHECK_MPI(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &bb, &b));
	memset(name, 'x', sizeof(name));
	CHECK_MPI(MPI_Win_get_name(a, name, &len));
	if (len != 0 || name[0] != '\0')
		fprintf(stderr, "rank %d: a window never named is called '%.*s' (%d)\n", rank,
			MPI_MAX_OBJECT_NAME, name, len);
	CHECK(len == 0 && name[0] == '\0');	/* MPI: "an empty string" */
	CHECK_MPI(MPI_Win_set_name(a, "the a window"));
	CHECK_MPI(MPI_Win_set_name(b, rank % 2 ? "odd" : "even"));
	CHECK_MPI(MPI_Win_get_name(a, name, &len));
	CHECK(len == 12 && !strcmp(name, "the a window"));
	CHECK_MPI(MPI_Win_get_name(b, name, &len));
	CHECK(!strcmp(name, rank % 2 ? "odd" : "even") && len == (int)strlen(name));
	CHECK_MPI(MPI_Win_set_name(a, "renamed"));
	CHECK_MPI(MPI_Win_get_name(a, name, &len));
	CHECK(len == 7 && !strcmp(name, "renamed"));
	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	CHECK_MPI(MPI_Win_set_name(a, longname));
	CHECK_MPI(MPI_Win_get_name(a, name, &len));
	CHECK(len == MPI_MAX_OBJECT_NAME - 1 && strlen(name) == (size_t)len);
	CHECK(!strncmp(name, longname, (size_t)len));
	CHECK_MPI(MPI_Win_free(&a));
	CHECK_MPI(MPI_Win_free(&b));
}

/* Keyvals: set, get, replace and delete attributes; the delete callback
 * runs for each value that goes away, including at MPI_Win_free, even
 * after the keyval was freed. */
static int deleted[8], delete_calls, extra = 77;
static MPI_Win delete_win;

static int on_copy(MPI_Win w, int key, void *extra_state, void *in, void *out, int *flag)
{
	(void)w, (void)key, (void)extra_state, (void)in, (void)out;
	*flag = 0;
	CHECK(0);	/* windows are never duplicated */
	return MPI_SUCCESS;
}

static int on_delete(MPI_Win w, int key, void *value, void *extra_state)
{
	(void)key;
	CHECK(extra_state == &extra);
	CHECK(w == delete_win);
	deleted[delete_calls++ % 8] = (int)(intptr_t)value;
	return MPI_SUCCESS;
}

static void test_keyvals(void)
{
	int key1, key2, flag;
	void *base, *val;
	MPI_Win win;

	CHECK_MPI(MPI_Win_create_keyval(on_copy, on_delete, &key1, &extra));
	CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &key2,
					NULL));
	CHECK_MPI(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
	delete_win = win;
	CHECK_MPI(MPI_Win_get_attr(win, key1, &val, &flag));
	CHECK(!flag);
	CHECK_MPI(MPI_Win_set_attr(win, key1, (void *)(intptr_t)11));
	CHECK_MPI(MPI_Win_set_attr(win, key2, (void *)(intptr_t)22));
	CHECK_MPI(MPI_Win_get_attr(win, key1, &val, &flag));
	CHECK(flag && val == (void *)(intptr_t)11);
	CHECK(delete_calls == 0);
	/* replacing deletes the old value */
	CHECK_MPI(MPI_Win_set_attr(win, key1, (void *)(intptr_t)12));
	CHECK(delete_calls == 1 && deleted[0] == 11);
	CHECK_MPI(MPI_Win_get_attr(win, key1, &val, &flag));
	CHECK(flag && val == (void *)(intptr_t)12);
	CHECK_MPI(MPI_Win_delete_attr(win, key1));
	CHECK(delete_calls == 2 && deleted[1] == 12);
	CHECK_MPI(MPI_Win_get_attr(win, key1, &val, &flag));
	CHECK(!flag);
	CHECK_MPI(MPI_Win_get_attr(win, key2, &val, &flag));
	CHECK(flag && val == (void *)(intptr_t)22);
	/* the value set last goes away with the window, keyval freed or not */
	CHECK_MPI(MPI_Win_set_attr(win, key1, (void *)(intptr_t)13));
	CHECK_MPI(MPI_Win_free_keyval(&key1));
	CHECK(key1 == MPI_KEYVAL_INVALID);
	CHECK(delete_calls == 2);
	CHECK_MPI(MPI_Win_free(&win));
	CHECK(delete_calls == 3 && deleted[2] == 13);
	CHECK_MPI(MPI_Win_free_keyval(&key2));
}

/*
 * MPI_Win_shared_query on MPI_Win_allocate_shared: sizes of multiples of a
 * cache line (every third rank none) lie back to back in rank order; odd
 * sizes are padded only to alignment; MPI_PROC_NULL names the lowest rank
 * with memory; every rank loads and stores every other rank's memory.
 */
static void test_shared_query(void)
{
	MPI_Aint sz, *sizes = malloc(sizeof(MPI_Aint) * (size_t)size);
	char **ptr = malloc(sizeof(char *) * (size_t)size), *mine, *p;
	MPI_Win win;
	int du, first = -1;

	CHECK(sizes && ptr);
	for (int odd = 0; odd < 2; odd++) {
		for (int q = 0; q < size; q++)
			sizes[q] = q % 3 == 0 ? 0 : odd ? 13 * q + 5 : 64 * q;
		CHECK_MPI(MPI_Win_allocate_shared(sizes[rank], 1, MPI_INFO_NULL, MPI_COMM_WORLD,
						  &mine, &win));
		CHECK_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
		char *prev_end = NULL;

		first = -1;
		for (int q = 0; q < size; q++) {
			CHECK_MPI(MPI_Win_shared_query(win, q, &sz, &du, &ptr[q]));
			CHECK(sz == sizes[q] && du == 1);
			if (q == rank)
				CHECK(ptr[q] == mine || sz == 0);
			if (sz == 0)
				continue;
			if (first < 0)
				first = q;
			CHECK((uintptr_t)ptr[q] % 64 == 0);
			if (prev_end) {
				CHECK(ptr[q] >= prev_end && ptr[q] - prev_end < 64);
				if (!odd)
					CHECK(ptr[q] == prev_end);	/* contiguous */
			}
			prev_end = ptr[q] + sz;
			/* store into rank q's memory: one byte per writer */
			if (sz > rank)
				ptr[q][rank] = (char)(q * 7 + rank);
		}
		CHECK_MPI(MPI_Win_shared_query(win, MPI_PROC_NULL, &sz, &du, &p));
		if (first < 0) {
			CHECK(sz == 0);
		} else {
			CHECK(sz == sizes[first] && p == ptr[first]);
		}
		CHECK_MPI(MPI_Win_sync(win));
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		CHECK_MPI(MPI_Win_sync(win));
		for (int q = 0; q < size; q++)
			for (int w = 0; w < size && w < sizes[q]; w++)
				CHECK(ptr[q][w] == (char)(q * 7 + w));
		CHECK_MPI(MPI_Win_unlock_all(win));
		CHECK_MPI(MPI_Win_free(&win));
	}
	/* nobody brings memory */
	CHECK_MPI(MPI_Win_allocate_shared(0, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &mine, &win));
	CHECK_MPI(MPI_Win_shared_query(win, MPI_PROC_NULL, &sz, &du, &p));
	CHECK(sz == 0);
	CHECK_MPI(MPI_Win_shared_query(win, size - 1, &sz, &du, &p));
	CHECK(sz == 0 && du == 4);
	CHECK_MPI(MPI_Win_free(&win));
	/* other flavours whose memory is shared: allocate, create on Alloc_mem */
	for (int f = F_ALLOCATE; f <= F_CREATE; f += F_CREATE - F_ALLOCATE) {
		void *base, *mem;
		MPI_Win w = make_window(f, &base, &mem, MPI_INFO_NULL);

		if (my_size())
			memset(base, rank + 1, (size_t)my_size());
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		for (int q = 0; q < size; q++) {
			int qsz = q == 1 ? 0 : 40 + 12 * q;

			CHECK_MPI(MPI_Win_shared_query(w, q, &sz, &du, &p));
			CHECK(sz == qsz && du == 1 + q % 3 * 3);
			if (q == rank)
				CHECK(p == base || sz == 0);
			for (int i = 0; i < qsz; i++)
				CHECK(p[i] == (char)(q + 1));
		}
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		free_window(&w, mem);
	}
	free(sizes);
	free(ptr);
}

/* mpi_minimum_alignment on Alloc_mem, Win_allocate, Win_allocate_shared. */
static void test_alignment(void)
{
	const char *aligns[2] = { "256", "4096" };

	for (int a = 0; a < 2; a++) {
		uintptr_t al = (uintptr_t)atoi(aligns[a]);
		MPI_Info info;
		MPI_Win win;
		char *base, *p;
		MPI_Aint sz;
		int du;

		CHECK_MPI(MPI_Info_create(&info));
		CHECK_MPI(MPI_Info_set(info, "mpi_minimum_alignment", aligns[a]));
		CHECK_MPI(MPI_Alloc_mem(100, info, &base));
		CHECK((uintptr_t)base % al == 0);
		CHECK_MPI(MPI_Free_mem(base));
		CHECK_MPI(MPI_Win_allocate(24 + rank, 1, info, MPI_COMM_WORLD, &base, &win));
		CHECK((uintptr_t)base % al == 0);
		CHECK_MPI(MPI_Win_free(&win));
		CHECK_MPI(MPI_Win_allocate_shared(rank == 0 ? 0 : 24 + 3 * rank, 1, info,
						  MPI_COMM_WORLD, &base, &win));
		for (int q = 1; q < size; q++) {
			CHECK_MPI(MPI_Win_shared_query(win, q, &sz, &du, &p));
			CHECK(sz == 24 + 3 * q && (uintptr_t)p % al == 0);
		}
		CHECK_MPI(MPI_Win_free(&win));
		CHECK_MPI(MPI_Info_free(&info));
	}
}

/* Every target's own disp_unit scales the displacement, on each flavour. */
static void test_disp_unit(void)
{
	for (int f = F_ALLOCATE; f <= F_CREATE; f++) {
		void *base, *mem;
		MPI_Win win;
		int right = (rank + 1) % size, left = (rank + size - 1) % size;
		int v = 1000 + rank, rdu = 1 + right % 3 * 3, got = 0;
		MPI_Aint rsz = right == 1 ? 0 : 40 + 12 * right;

		win = make_window(f, &base, &mem, MPI_INFO_NULL);
		if (my_size())
			memset(base, 0, (size_t)my_size());
		CHECK_MPI(MPI_Win_fence(0, win));
		/* displacement 3, or 2 when 3 units do not leave room */
		int disp = 3 * rdu + 4 <= rsz ? 3 : 2;

		if (rsz >= 4 + disp * rdu)
			CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, disp, 1, MPI_INT, win));
		CHECK_MPI(MPI_Win_fence(0, win));
		if (rsz >= 4 + disp * rdu)
			CHECK_MPI(MPI_Get(&got, 1, MPI_INT, right, disp, 1, MPI_INT, win));
		CHECK_MPI(MPI_Win_fence(0, win));
		if (rsz >= 4 + disp * rdu)
			CHECK(got == v);
		/* what the left neighbour put, at its disp times my disp_unit */
		MPI_Aint msz = my_size();
		int du = my_disp_unit(), mdisp = 3 * du + 4 <= msz ? 3 : 2;

		if (msz >= 4 + mdisp * du) {
			int at;

			memcpy(&at, (char *)base + mdisp * du, sizeof(int));
			CHECK(at == 1000 + left);
			for (MPI_Aint i = 0; i < msz; i++)
				if (i < mdisp * du || i >= mdisp * du + 4)
					CHECK(((char *)base)[i] == 0);
		}
		free_window(&win, mem);
	}
}

/*
 * Several windows over one MPI_Alloc_mem buffer (with different bases and
 * disp_units), and a window over memory inside another window: each sees
 * the others' updates at the same bytes, all on the direct path.
 */
static void test_overlap(void)
{
	int *buf, *abase, got[2], right = (rank + 1) % size, left = (rank + size - 1) % size;
	MPI_Win w1, w2, wa, wi;
	MPI_Info used;

	CHECK_MPI(MPI_Alloc_mem(64 * sizeof(int), MPI_INFO_NULL, &buf));
	for (int i = 0; i < 64; i++)
		buf[i] = i;
	CHECK_MPI(MPI_Win_create(buf, 64 * sizeof(int), sizeof(int), MPI_INFO_NULL,
				 MPI_COMM_WORLD, &w1));
	CHECK_MPI(MPI_Win_create(buf + 16, 32 * sizeof(int), 8, MPI_INFO_NULL, MPI_COMM_WORLD,
				 &w2));
	CHECK_MPI(MPI_Win_allocate(32 * sizeof(int), sizeof(int), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &abase, &wa));
	for (int i = 0; i < 32; i++)
		abase[i] = -i;
	CHECK_MPI(MPI_Win_create(abase + 8, 8 * sizeof(int), sizeof(int), MPI_INFO_NULL,
				 MPI_COMM_WORLD, &wi));
	MPI_Win all[4] = { w1, w2, wa, wi };

	for (int k = 0; k < 4; k++) {
		CHECK_MPI(MPI_Win_get_info(all[k], &used));
		expect_info(used, "shmpi_memory", "direct");
		CHECK_MPI(MPI_Info_free(&used));
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	/* put through w1 at int 20 = byte 80 = w2's disp (80 - 64) / 8 = 2 */
	int v = 5000 + rank, pair[2] = { 7000 + rank, 8000 + rank };

	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, w1));
	CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, 20, 1, MPI_INT, w1));
	CHECK_MPI(MPI_Win_unlock(right, w1));
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w2));
	CHECK_MPI(MPI_Get(got, 1, MPI_INT, right, 2, 1, MPI_INT, w2));
	CHECK_MPI(MPI_Win_unlock(right, w2));
	CHECK(got[0] == v);
	/* accumulate through w2 at disp 5 = byte 64 + 40 = int 26 of w1 */
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, w2));
	CHECK_MPI(MPI_Accumulate(pair, 2, MPI_INT, right, 5, 2, MPI_INT, MPI_SUM, w2));
	CHECK_MPI(MPI_Win_unlock(right, w2));
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w1));
	CHECK_MPI(MPI_Get(got, 2, MPI_INT, right, 26, 2, MPI_INT, w1));
	CHECK_MPI(MPI_Win_unlock(right, w1));
	CHECK(got[0] == 26 + pair[0] && got[1] == 27 + pair[1]);
	/* through the inner window at 3 = the outer window's 11 */
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, wi));
	CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, 3, 1, MPI_INT, wi));
	CHECK_MPI(MPI_Win_unlock(right, wi));
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, wa));
	CHECK_MPI(MPI_Get(got, 2, MPI_INT, right, 10, 2, MPI_INT, wa));
	CHECK_MPI(MPI_Win_unlock(right, wa));
	CHECK(got[0] == -10 && got[1] == v);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	/* and the target's own loads see all of it */
	CHECK(buf[20] == 5000 + left && buf[26] == 26 + 7000 + left &&
	      buf[27] == 27 + 8000 + left && buf[19] == 19 && buf[21] == 21);
	CHECK(abase[11] == 5000 + left && abase[10] == -10 && abase[12] == -12);
	CHECK_MPI(MPI_Win_free(&wi));
	CHECK_MPI(MPI_Win_free(&wa));
	CHECK_MPI(MPI_Win_free(&w2));
	CHECK_MPI(MPI_Win_free(&w1));
	CHECK_MPI(MPI_Free_mem(buf));
}

/* A dynamic window with two attached regions, one detached later. */
static void test_dynamic(void)
{
	int *r1, *r2, right = (rank + 1) % size, left = (rank + size - 1) % size;
	MPI_Aint a[2], *all = malloc(sizeof(MPI_Aint) * 2 * (size_t)size);
	MPI_Win win;
	int v[2] = { rank, -rank }, got[2];

	CHECK(all);
	CHECK_MPI(MPI_Alloc_mem(16 * sizeof(int), MPI_INFO_NULL, &r1));
	CHECK_MPI(MPI_Alloc_mem(16 * sizeof(int), MPI_INFO_NULL, &r2));
	memset(r1, 0, 16 * sizeof(int));
	memset(r2, 0, 16 * sizeof(int));
	CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
	CHECK_MPI(MPI_Win_attach(win, r1, 16 * sizeof(int)));
	CHECK_MPI(MPI_Win_attach(win, r2, 16 * sizeof(int)));
	CHECK_MPI(MPI_Get_address(&r1[4], &a[0]));
	CHECK_MPI(MPI_Get_address(&r2[9], &a[1]));
	CHECK_MPI(MPI_Allgather(a, 2, MPI_AINT, all, 2, MPI_AINT, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_lock_all(0, win));
	CHECK_MPI(MPI_Put(&v[0], 1, MPI_INT, right, all[2 * right], 1, MPI_INT, win));
	CHECK_MPI(MPI_Put(&v[1], 1, MPI_INT, right, all[2 * right + 1], 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_flush(right, win));
	CHECK_MPI(MPI_Get(got, 1, MPI_INT, right, all[2 * right + 1], 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK(got[0] == -rank);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK(r1[4] == left && r2[9] == -left && r1[3] == 0 && r2[10] == 0);
	CHECK_MPI(MPI_Win_detach(win, r1));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_lock_all(0, win));
	CHECK_MPI(MPI_Get(got, 1, MPI_INT, right, all[2 * right + 1], 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK(got[0] == -rank);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));	/* nobody accesses r2 any more */
	CHECK_MPI(MPI_Win_detach(win, r2));
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Free_mem(r1));
	CHECK_MPI(MPI_Free_mem(r2));
	free(all);
}

/*
 * A window used the moment its creation call returns: the creation calls
 * are collective (MPI 3.1, section 11.2), and a collective call need not
 * synchronize (section 5.1), so a rank that has left MPI_Win_allocate (or
 * another creation call) may lock and access a target that is still inside
 * it.  Every rank puts
 * and accumulates into every other rank's window right after creating it,
 * many times over, each flavour; on the paths that go through the target
 * (the adversarial mode, private memory) the operations may reach a rank
 * before its creation call has returned.
 */
static void test_early(void)
{
	enum { ROUNDS = 60 };

	for (int f = 0; f < NFLAVOUR; f++) {
		for (int r = 0; r < ROUNDS && f != F_DYNAMIC; r++) {
			/* row 0 takes puts, row 1 accumulates (MPI_REPLACE: the
			 * values before need not be known) */
			MPI_Aint bytes = (MPI_Aint)sizeof(long) * 2 * (size_t)size;
			long *mem = NULL, v = 1000 * r + rank + 1;
			void *base = NULL;
			MPI_Win win;

			if (f == F_ALLOCATE) {
				CHECK_MPI(MPI_Win_allocate(bytes, sizeof(long), MPI_INFO_NULL,
							   MPI_COMM_WORLD, &base, &win));
			} else if (f == F_SHARED) {
				CHECK_MPI(MPI_Win_allocate_shared(bytes, sizeof(long), MPI_INFO_NULL,
								  MPI_COMM_WORLD, &base, &win));
			} else {
				/* not whole pages: private memory, the packet path */
				CHECK(mem = malloc((size_t)bytes));
				CHECK_MPI(MPI_Win_create(mem, bytes, sizeof(long), MPI_INFO_NULL,
							 MPI_COMM_WORLD, &win));
				base = mem;
			}
			/* no barrier: the others may still be in the creation call */
			CHECK_MPI(MPI_Win_lock_all(0, win));
			for (int t = 0; t < size; t++) {
				if (t == rank)
					continue;
				CHECK_MPI(MPI_Put(&v, 1, MPI_LONG, t, rank, 1, MPI_LONG, win));
				CHECK_MPI(MPI_Accumulate(&v, 1, MPI_LONG, t, size + rank, 1, MPI_LONG,
							 MPI_REPLACE, win));
			}
			CHECK_MPI(MPI_Win_unlock_all(win));
			CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
			CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
			for (int q = 0; q < size; q++) {
				if (q == rank)
					continue;
				CHECK(((long *)base)[q] == 1000 * r + q + 1);
				CHECK(((long *)base)[size + q] == 1000 * r + q + 1);
			}
			CHECK_MPI(MPI_Win_unlock(rank, win));
			CHECK_MPI(MPI_Win_free(&win));
			free(mem);
		}
	}
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	TU_RUN("attributes", test_attributes);
	TU_RUN("group", test_group);
	TU_RUN("info", test_info);
	TU_RUN("names", test_names);
	TU_RUN("keyvals", test_keyvals);
	TU_RUN("shared_query", test_shared_query);
	TU_RUN("alignment", test_alignment);
	TU_RUN("disp_unit", test_disp_unit);
	TU_RUN("overlap", test_overlap);
	TU_RUN("dynamic", test_dynamic);
	TU_RUN("early", test_early);
	MPI_Finalize();
	return 0;
}
