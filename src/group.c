/*
 * Group objects and the group calls.  A group lists job ranks in group rank
 * order and keeps the reverse index, so translating either way is O(1).
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "bsend.h"
#include "errhandler.h"
#include "group.h"
#include "runtime.h"

static struct group group_empty;
static struct group *world_group;

struct group *group_new(const int *world, int n)
{
	struct group *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	g->world = malloc(sizeof(int) * (size_t)(n ? n : 1));
	g->index = malloc(sizeof(int) * (size_t)rt.size);
	if (!g->world || !g->index || handle_alloc(HANDLE_GROUP, g, &g->handle) < 0)
		goto err_free;
	g->refs = 1;
	g->size = n;
	memcpy(g->world, world, sizeof(int) * (size_t)n);
	for (int w = 0; w < rt.size; w++)
		g->index[w] = -1;
	for (int r = 0; r < n; r++)
		g->index[world[r]] = r;
	g->rank = g->index[rt.rank] >= 0 ? g->index[rt.rank] : MPI_UNDEFINED;
	return g;

err_free:
	free(g->world);
	free(g->index);
	free(g);
	return NULL;
}

/* splitmix64's finalizer: every input bit moves every output bit. */
static uint64_t mix64(uint64_t x)
{
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

uint64_t group_hash(const struct group *g)
{
	uint64_t h = mix64((uint64_t)g->size);

	for (int r = 0; r < g->size; r++)
		h = mix64(h ^ (0x9e3779b97f4a7c15ULL + (uint64_t)g->world[r]));
	return h;
}

void group_ref(struct group *g)
{
	g->refs++;
}

void group_unref(struct group *g)
{
	if (!g || --g->refs > 0)
		return;
	if (!handle_is_builtin(g->handle))
		handle_release(g->handle);
	bsend_pool_unref(g->bsend_session);
	free(g->world);
	free(g->index);
	if (g != &group_empty)
		free(g);
}

void group_init_builtins(void)
{
	int *all = malloc(sizeof(int) * (size_t)rt.size);

	for (int r = 0; r < rt.size; r++)
		all[r] = r;
	world_group = group_new(all, rt.size);
	free(all);
	memset(&group_empty, 0, sizeof(group_empty));
	group_empty.handle = MPI_GROUP_EMPTY;
	group_empty.refs = 1;
	group_empty.rank = MPI_UNDEFINED;
	handle_set_builtin(HANDLE_GROUP, (unsigned)MPI_GROUP_EMPTY & 0xff, &group_empty);
}

void group_fini_builtins(void)
{
	group_unref(world_group);
	world_group = NULL;
}

struct group *group_world(void)
{
	return world_group;
}

/* ---- the calls --------------------------------------------------------- */

/* Errors of calls without a communicator go to MPI_COMM_WORLD's handler. */
#define group_err(...) err_comm(MPI_COMM_WORLD, __VA_ARGS__)

/* The group behind h, or NULL after raising MPI_ERR_GROUP. */
static struct group *group_arg(const char *call, MPI_Group h, const char *arg, int *rc)
{
	struct group *g = group_get(h);

	*rc = MPI_SUCCESS;
	if (!g)
		*rc = err_comm(MPI_COMM_WORLD, call, MPI_ERR_GROUP, arg,
			       h == MPI_GROUP_NULL ? "is MPI_GROUP_NULL" :
			       "0x%x is not a valid group", (unsigned)h);
	return g;
}

/* Hand out a new group of n job ranks, or the empty group. */
static int group_out(const char *call, const int *world, int n, MPI_Group *out)
{
	struct group *g;

	if (n == 0) {
		*out = MPI_GROUP_EMPTY;
		return MPI_SUCCESS;
	}
	g = group_new(world, n);
	if (!g)
		return err_comm(MPI_COMM_WORLD, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	*out = g->handle;
	return MPI_SUCCESS;
}

API(int, Group_size, (MPI_Group group, int *size))
{
	struct group *g;
	int rc;

	runtime_check("MPI_Group_size");
	if (!(g = group_arg("MPI_Group_size", group, "group", &rc)))
		return rc;
	if (!size)
		return group_err("MPI_Group_size", MPI_ERR_ARG, "size", "is NULL");
	*size = g->size;
	return MPI_SUCCESS;
}

API(int, Group_rank, (MPI_Group group, int *rank))
{
	struct group *g;
	int rc;

	runtime_check("MPI_Group_rank");
	if (!(g = group_arg("MPI_Group_rank", group, "group", &rc)))
		return rc;
	if (!rank)
		return group_err("MPI_Group_rank", MPI_ERR_ARG, "rank", "is NULL");
	*rank = g->rank;
	return MPI_SUCCESS;
}

API(int, Group_free, (MPI_Group *group))
{
	struct group *g;
	int rc;

	runtime_check("MPI_Group_free");
	if (!group)
		return group_err("MPI_Group_free", MPI_ERR_ARG, "group", "is NULL");
	if (!(g = group_arg("MPI_Group_free", *group, "group", &rc)))
		return rc;
	/* MPI_GROUP_EMPTY may be freed like any other handle: a no-op here */
	if (!handle_is_builtin(g->handle))
		group_unref(g);
	*group = MPI_GROUP_NULL;
	return MPI_SUCCESS;
}

/* Check n ranks of g in ranks[]: in range and, if distinct, no repeats. */
static int group_check_ranks(const char *call, const struct group *g, int n,
			     const int *ranks, int distinct)
{
	char *seen;

	if (n < 0 || n > g->size)
		return group_err(call, MPI_ERR_ARG, "n", "%d is out of range", n);
	if (n > 0 && !ranks)
		return group_err(call, MPI_ERR_ARG, "ranks", "is NULL");
	seen = calloc((size_t)g->size + 1, 1);
	if (!seen)
		return group_err(call, MPI_ERR_NO_MEM, NULL, "out of memory");
	for (int i = 0; i < n; i++) {
		if (ranks[i] < 0 || ranks[i] >= g->size) {
			free(seen);
			return group_err(call, MPI_ERR_RANK, "ranks",
					 "%d is not a rank of the group", ranks[i]);
		}
		if (distinct && seen[ranks[i]]++) {
			free(seen);
			return group_err(call, MPI_ERR_RANK, "ranks",
					 "rank %d appears twice", ranks[i]);
		}
	}
	free(seen);
	return MPI_SUCCESS;
}

API(int, Group_incl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup))
{
	struct group *g;
	int rc, *w;

	runtime_check("MPI_Group_incl");
	if (!(g = group_arg("MPI_Group_incl", group, "group", &rc)))
		return rc;
	if (!newgroup)
		return group_err("MPI_Group_incl", MPI_ERR_ARG, "newgroup", "is NULL");
	rc = group_check_ranks("MPI_Group_incl", g, n, ranks, 1);
	if (rc != MPI_SUCCESS)
		return rc;
	w = malloc(sizeof(int) * (size_t)(n + 1));
	for (int i = 0; i < n; i++)
		w[i] = g->world[ranks[i]];
	rc = group_out("MPI_Group_incl", w, n, newgroup);
	free(w);
	return rc;
}

API(int, Group_excl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup))
{
	struct group *g;
	int rc, k = 0, *w;
	char *drop;

	runtime_check("MPI_Group_excl");
	if (!(g = group_arg("MPI_Group_excl", group, "group", &rc)))
		return rc;
	if (!newgroup)
		return group_err("MPI_Group_excl", MPI_ERR_ARG, "newgroup", "is NULL");
	rc = group_check_ranks("MPI_Group_excl", g, n, ranks, 1);
	if (rc != MPI_SUCCESS)
		return rc;
	drop = calloc((size_t)g->size + 1, 1);
	w = malloc(sizeof(int) * (size_t)(g->size + 1));
	for (int i = 0; i < n; i++)
		drop[ranks[i]] = 1;
	for (int r = 0; r < g->size; r++)
		if (!drop[r])
			w[k++] = g->world[r];
	rc = group_out("MPI_Group_excl", w, k, newgroup);
	free(drop);
	free(w);
	return rc;
}

/* Expand n (first, last, stride) triplets into group ranks; -1 on a bad one. */
static int group_expand_ranges(const char *call, const struct group *g, int n,
			       int ranges[][3], int **out, int *count)
{
	long total = 0;
	int k = 0, *list;

	if (n < 0)
		return group_err(call, MPI_ERR_ARG, "n", "%d is negative", n);
	if (n > 0 && !ranges)
		return group_err(call, MPI_ERR_ARG, "ranges", "is NULL");
	for (int i = 0; i < n; i++) {
		int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];

		if (stride == 0)
			return group_err(call, MPI_ERR_ARG, "ranges",
					 "triplet %d has stride 0", i);
		if (first < 0 || first >= g->size || last < 0 || last >= g->size)
			return group_err(call, MPI_ERR_RANK, "ranges",
					 "triplet %d leaves the group", i);
		if ((stride > 0 && first > last) || (stride < 0 && first < last))
			continue;
		total += (last - first) / stride + 1;
	}
	list = malloc(sizeof(int) * (size_t)(total + 1));
	if (!list)
		return group_err(call, MPI_ERR_NO_MEM, NULL, "out of memory");
	for (int i = 0; i < n; i++) {
		int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];

		for (int r = first; stride > 0 ? r <= last : r >= last; r += stride)
			list[k++] = r;
	}
	*out = list;
	*count = k;
	return MPI_SUCCESS;
}

API(int, Group_range_incl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup))
{
	struct group *g;
	int rc, *ranks, count;

	runtime_check("MPI_Group_range_incl");
	if (!(g = group_arg("MPI_Group_range_incl", group, "group", &rc)))
		return rc;
	if (!newgroup)
		return group_err("MPI_Group_range_incl", MPI_ERR_ARG, "newgroup",
				 "is NULL");
	rc = group_expand_ranges("MPI_Group_range_incl", g, n, ranges, &ranks, &count);
	if (rc != MPI_SUCCESS)
		return rc;
	rc = count > g->size ? group_err("MPI_Group_range_incl", MPI_ERR_RANK, "ranges",
					 "name %d ranks: some twice", count) :
	     group_check_ranks("MPI_Group_range_incl", g, count, ranks, 1);
	if (rc == MPI_SUCCESS)
		rc = PMPI_Group_incl(group, count, ranks, newgroup);
	free(ranks);
	return rc;
}

API(int, Group_range_excl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup))
{
	struct group *g;
	int rc, *ranks, count;

	runtime_check("MPI_Group_range_excl");
	if (!(g = group_arg("MPI_Group_range_excl", group, "group", &rc)))
		return rc;
	if (!newgroup)
		return group_err("MPI_Group_range_excl", MPI_ERR_ARG, "newgroup",
				 "is NULL");
	rc = group_expand_ranges("MPI_Group_range_excl", g, n, ranges, &ranks, &count);
	if (rc != MPI_SUCCESS)
		return rc;
	rc = count > g->size ? group_err("MPI_Group_range_excl", MPI_ERR_RANK, "ranges",
					 "name %d ranks: some twice", count) :
	     group_check_ranks("MPI_Group_range_excl", g, count, ranks, 1);
	if (rc == MPI_SUCCESS)
		rc = PMPI_Group_excl(group, count, ranks, newgroup);
	free(ranks);
	return rc;
}

enum group_setop { SET_UNION, SET_INTERSECTION, SET_DIFFERENCE };

/* The set operations keep the order of group1, then (union) group2. */
static int group_setop(const char *call, MPI_Group group1, MPI_Group group2,
		       MPI_Group *newgroup, enum group_setop op)
{
	struct group *a, *b;
	int rc, k = 0, *w;

	runtime_check(call);
	if (!(a = group_arg(call, group1, "group1", &rc)))
		return rc;
	if (!(b = group_arg(call, group2, "group2", &rc)))
		return rc;
	if (!newgroup)
		return group_err(call, MPI_ERR_ARG, "newgroup", "is NULL");
	w = malloc(sizeof(int) * (size_t)(a->size + b->size + 1));
	if (!w)
		return group_err(call, MPI_ERR_NO_MEM, NULL, "out of memory");
	for (int r = 0; r < a->size; r++) {
		int in_b = b->size && b->index[a->world[r]] >= 0;

		if (op == SET_UNION || (op == SET_INTERSECTION) == in_b)
			w[k++] = a->world[r];
	}
	if (op == SET_UNION)
		for (int r = 0; r < b->size; r++)
			if (!a->size || a->index[b->world[r]] < 0)
				w[k++] = b->world[r];
	rc = group_out(call, w, k, newgroup);
	free(w);
	return rc;
}

API(int, Group_union, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
{
	return group_setop("MPI_Group_union", group1, group2, newgroup, SET_UNION);
}

API(int, Group_intersection, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
{
	return group_setop("MPI_Group_intersection", group1, group2, newgroup,
			   SET_INTERSECTION);
}

API(int, Group_difference, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
{
	return group_setop("MPI_Group_difference", group1, group2, newgroup,
			   SET_DIFFERENCE);
}

API(int, Group_translate_ranks, (MPI_Group group1, int n, const int ranks1[],
				 MPI_Group group2, int ranks2[]))
{
	struct group *a, *b;
	int rc;

	runtime_check("MPI_Group_translate_ranks");
	if (!(a = group_arg("MPI_Group_translate_ranks", group1, "group1", &rc)))
		return rc;
	if (!(b = group_arg("MPI_Group_translate_ranks", group2, "group2", &rc)))
		return rc;
	if (n < 0 || (n > 0 && (!ranks1 || !ranks2)))
		return group_err("MPI_Group_translate_ranks", MPI_ERR_ARG,
				 n < 0 ? "n" : "ranks1", "%d elements%s", n,
				 n < 0 ? ": negative" : " of a NULL array");
	for (int i = 0; i < n; i++)
		if (ranks1[i] != MPI_PROC_NULL && (ranks1[i] < 0 || ranks1[i] >= a->size))
			return group_err("MPI_Group_translate_ranks", MPI_ERR_RANK,
					 "ranks1", "%d is not a rank of group1",
					 ranks1[i]);
	for (int i = 0; i < n; i++) {
		int w;

		if (ranks1[i] == MPI_PROC_NULL) {
			ranks2[i] = MPI_PROC_NULL;
			continue;
		}
		w = a->world[ranks1[i]];
		ranks2[i] = b->size && b->index[w] >= 0 ? b->index[w] : MPI_UNDEFINED;
	}
	return MPI_SUCCESS;
}

API(int, Group_compare, (MPI_Group group1, MPI_Group group2, int *result))
{
	struct group *a, *b;
	int rc, same_order = 1;

	runtime_check("MPI_Group_compare");
	if (!(a = group_arg("MPI_Group_compare", group1, "group1", &rc)))
		return rc;
	if (!(b = group_arg("MPI_Group_compare", group2, "group2", &rc)))
		return rc;
	if (!result)
		return group_err("MPI_Group_compare", MPI_ERR_ARG, "result", "is NULL");
	if (a->size != b->size) {
		*result = MPI_UNEQUAL;
		return MPI_SUCCESS;
	}
	for (int r = 0; r < a->size; r++) {
		if (b->index[a->world[r]] < 0) {
			*result = MPI_UNEQUAL;
			return MPI_SUCCESS;
		}
		if (b->world[r] != a->world[r])
			same_order = 0;
	}
	*result = same_order ? MPI_IDENT : MPI_SIMILAR;
	return MPI_SUCCESS;
}
