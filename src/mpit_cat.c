/*
 * The MPI_T categories (MPI 3.1, section 14.3.8): a fixed tree.  "shmpi"
 * holds the other four and the knobs that belong to none of them; "rma",
 * "p2p" and "progress" hold the performance variables of their part and
 * the knobs that tune it, "rma" and "p2p" the event types of their part
 * too (MPI 4.1, section 15.3.9); "placement" holds the knobs of binding and memory
 * placement.  The tree never changes while the library runs, so
 * MPI_T_category_changed always gives the same stamp.
 */
#include <string.h>

#include "api.h"
#include "knobs.h"
#include "mpit.h"

static const struct {
	const char *name;
	const char *desc;
} cats[MPIT_CAT_COUNT] = {
	[MPIT_CAT_SHMPI] = { "shmpi", "everything shmpi counts and every knob it reads" },
	[MPIT_CAT_RMA] = { "rma", "one-sided communication: operations by kind and path, "
			   "passive-target locks, flushes" },
	[MPIT_CAT_P2P] = { "p2p", "point-to-point messages and the unexpected queue" },
	[MPIT_CAT_PROGRESS] = { "progress", "the progress engine, blocking waits and "
				"futex sleeps, and the knobs of waiting" },
	[MPIT_CAT_PLACEMENT] = { "placement", "binding ranks to the hardware and placing "
				 "memory on NUMA nodes" },
};

/* The category of each knob (control variable); unnamed ones are shmpi's. */
static const enum mpit_cat knob_cat[SHM_KNOB_COUNT] = {
	[SHM_KNOB_PROGRESS] = MPIT_CAT_PROGRESS,
	[SHM_KNOB_SPINS] = MPIT_CAT_PROGRESS,
	[SHM_KNOB_SPINS_OVERSUB] = MPIT_CAT_PROGRESS,
	[SHM_KNOB_OVERSUB] = MPIT_CAT_PROGRESS,
	[SHM_KNOB_YIELDS] = MPIT_CAT_PROGRESS,
	[SHM_KNOB_MEMBARRIER] = MPIT_CAT_PROGRESS,
	[SHM_KNOB_NUMA] = MPIT_CAT_PLACEMENT,
	[SHM_KNOB_BIND_TO] = MPIT_CAT_PLACEMENT,
	[SHM_KNOB_MAP_BY] = MPIT_CAT_PLACEMENT,
	[SHM_KNOB_REPORT_BINDINGS] = MPIT_CAT_PLACEMENT,
	[SHM_KNOB_CHANNEL] = MPIT_CAT_P2P,
	[SHM_KNOB_CHANNEL_RINGS] = MPIT_CAT_P2P,
	[SHM_KNOB_SINGLE_COPY] = MPIT_CAT_P2P,
	[SHM_KNOB_SINGLE_COPY_MIN] = MPIT_CAT_P2P,
	[SHM_KNOB_SINGLE_COPY_SHARE] = MPIT_CAT_P2P,
	[SHM_KNOB_SINGLE_COPY_RMA_MIN] = MPIT_CAT_RMA,
	[SHM_KNOB_WIN_CREATE_SHARE] = MPIT_CAT_RMA,
	[SHM_KNOB_ADVERSARIAL] = MPIT_CAT_RMA,
};

enum member { CVARS, PVARS, EVENTS, CATEGORIES };

/* Whether item i of kind `what` belongs to category c. */
static int cat_has(int c, enum member what, int i)
{
	switch (what) {
	case CVARS:
		return knob_cat[i] == (enum mpit_cat)c;
	case PVARS:
		return mpit_pvar_cat(i) == (enum mpit_cat)c;
	case EVENTS:
		return mpit_event_cat(i) == (enum mpit_cat)c;
	case CATEGORIES:
		return c == MPIT_CAT_SHMPI && i != MPIT_CAT_SHMPI;
	}
	return 0;
}

static int cat_size(enum member what)
{
	switch (what) {
	case CVARS:
		return SHM_KNOB_COUNT;
	case PVARS:
		return mpit_pvar_count();
	case EVENTS:
		return mpit_event_count();
	case CATEGORIES:
		break;
	}
	return MPIT_CAT_COUNT;
}

/* The first len members of kind `what` into indices (all of them into
 * *n when indices is NULL). */
static int cat_members(int c, enum member what, int len, int *indices, int *n)
{
	int got = 0;

	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	if (c < 0 || c >= MPIT_CAT_COUNT)
		return MPI_T_ERR_INVALID_INDEX;
	if (len < 0 || (len > 0 && !indices && !n))
		return MPI_T_ERR_INVALID;
	for (int i = 0; i < cat_size(what); i++) {
		if (!cat_has(c, what, i))
			continue;
		if (indices && got < len)
			indices[got] = i;
		got++;
	}
	if (n)
		*n = got;
	return MPI_SUCCESS;
}

API(int, T_category_get_num, (int *num_cat))
{
	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	if (!num_cat)
		return MPI_T_ERR_INVALID;
	*num_cat = MPIT_CAT_COUNT;
	return MPI_SUCCESS;
}

API(int, T_category_get_info, (int cat_index, char *name, int *name_len, char *desc,
			       int *desc_len, int *num_cvars, int *num_pvars,
			       int *num_categories))
{
	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	if (cat_index < 0 || cat_index >= MPIT_CAT_COUNT)
		return MPI_T_ERR_INVALID_INDEX;
	mpit_string(cats[cat_index].name, name, name_len);
	mpit_string(cats[cat_index].desc, desc, desc_len);
	if (num_cvars)
		cat_members(cat_index, CVARS, 0, NULL, num_cvars);
	if (num_pvars)
		cat_members(cat_index, PVARS, 0, NULL, num_pvars);
	if (num_categories)
		cat_members(cat_index, CATEGORIES, 0, NULL, num_categories);
	return MPI_SUCCESS;
}

API(int, T_category_get_index, (const char *name, int *cat_index))
{
	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	if (!name || !cat_index)
		return MPI_T_ERR_INVALID;
	for (int c = 0; c < MPIT_CAT_COUNT; c++)
		if (strcmp(cats[c].name, name) == 0) {
			*cat_index = c;
			return MPI_SUCCESS;
		}
	return MPI_T_ERR_INVALID_NAME;
}

API(int, T_category_get_cvars, (int cat_index, int len, int indices[]))
{
	return cat_members(cat_index, CVARS, len, indices, NULL);
}

API(int, T_category_get_pvars, (int cat_index, int len, int indices[]))
{
	return cat_members(cat_index, PVARS, len, indices, NULL);
}

API(int, T_category_get_categories, (int cat_index, int len, int indices[]))
{
	return cat_members(cat_index, CATEGORIES, len, indices, NULL);
}

API(int, T_category_get_num_events, (int cat_index, int *num_events))
{
	if (!num_events)
		return mpit_inits == 0 ? MPI_T_ERR_NOT_INITIALIZED : MPI_T_ERR_INVALID;
	return cat_members(cat_index, EVENTS, 0, NULL, num_events);
}

API(int, T_category_get_events, (int cat_index, int len, int indices[]))
{
	return cat_members(cat_index, EVENTS, len, indices, NULL);
}

API(int, T_category_changed, (int *stamp))
{
	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	if (!stamp)
		return MPI_T_ERR_INVALID;
	*stamp = 0;
	return MPI_SUCCESS;
}
