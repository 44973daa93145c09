/*
 * The MPI tool information interface (mpit.h): initialization, the control
 * variables and the enumerations.  One control variable per knob of the
 * table (shm/knob.h), in the table's order, named as the environment
 * variable.  Numbers and flags are MPI_INT (count 1); a knob that takes one
 * of a fixed set of values is an MPI_INT too, whose values an enumeration
 * names (MPI 3.1, section 14.3.5: the enumeration has the knob's name, item
 * i is its i-th choice, of value i: SHMPI_PROGRESS has weak = 0 and
 * strong = 1); text is an MPI_CHAR string of MPIT_STR bytes.
 * Knobs writable at any time change the running library at once
 * (knobs_set): the spin counts of the next wait, the placement of the next
 * window.  Those that MPI_Init acts on (the progress mode, the binding
 * report) are writable before MPI_Init only.  A write before MPI_Init stays:
 * MPI_Init then keeps the value.
 *
 * MPI_T works before MPI_Init and after MPI_Finalize, between matching
 * MPI_T_init_thread and MPI_T_finalize calls (they nest), and reports errors
 * by return code alone, never through an error handler.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "knobs.h"
#include "mpit.h"
#include "runtime.h"

#define MPIT_STR 256		/* bytes of a string control variable */
#define MPIT_MAGIC 0x6d706974u	/* "mpit" */

struct MPI_T_cvar_handle_s {
	unsigned magic;
	int index;
	struct MPI_T_cvar_handle_s *next;	/* every live handle */
};

/* The enumeration of a choice knob: its place in mpit_enums. */
struct MPI_T_enum_s {
	enum shm_knob_id knob;
};

int mpit_inits;
static struct MPI_T_cvar_handle_s *mpit_handles;
static struct MPI_T_enum_s mpit_enums[SHM_KNOB_COUNT];

static int mpit_is_string(int k)
{
	return shm_knobs[k].type == SHM_KNOB_TEXT;
}

static int mpit_is_enum(int k)
{
	return shm_knobs[k].type == SHM_KNOB_CHOICE;
}

void mpit_string(const char *s, char *buf, int *len)
{
	size_t n = strlen(s);

	if (!len)
		return;
	if (!buf || *len <= 0) {
		*len = (int)n + 1;
		return;
	}
	if (n > (size_t)*len - 1)
		n = (size_t)*len - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*len = (int)n + 1;
}

API(int, T_init_thread, (int required, int *provided))
{
	int bad;

	if (!provided || required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE)
		return MPI_T_ERR_INVALID;
	if (knobs_load(&bad) < 0)
		return MPI_T_ERR_CANNOT_INIT;
	for (int k = 0; k < SHM_KNOB_COUNT; k++)
		mpit_enums[k].knob = (enum shm_knob_id)k;
	mpit_inits++;
	/* like MPI_Init_thread: the library keeps no per-thread state */
	*provided = required < MPI_THREAD_SERIALIZED ? required : MPI_THREAD_SERIALIZED;
	return MPI_SUCCESS;
}

API(int, T_finalize, (void))
{
	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	if (--mpit_inits == 0) {
		while (mpit_handles) {
			struct MPI_T_cvar_handle_s *h = mpit_handles;

			mpit_handles = h->next;
			h->magic = 0;
			free(h);
		}
		mpit_pvar_fini();
		mpit_event_fini();
	}
	return MPI_SUCCESS;
}

API(int, T_cvar_get_num, (int *num_cvar))
{
	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	if (!num_cvar)
		return MPI_T_ERR_INVALID;
	*num_cvar = SHM_KNOB_COUNT;
	return MPI_SUCCESS;
}

API(int, T_cvar_get_info, (int cvar_index, char *name, int *name_len, int *verbosity,
			   MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc,
			   int *desc_len, int *bind, int *scope))
{
	const struct shm_knob *kn;

	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	if (cvar_index < 0 || cvar_index >= SHM_KNOB_COUNT)
		return MPI_T_ERR_INVALID_INDEX;
	kn = &shm_knobs[cvar_index];
	mpit_string(kn->name, name, name_len);
	mpit_string(kn->help, desc, desc_len);
	if (verbosity)
		*verbosity = kn->writable != SHM_KNOB_FIXED ? MPI_T_VERBOSITY_TUNER_BASIC :
			     MPI_T_VERBOSITY_USER_BASIC;
	if (datatype)
		*datatype = mpit_is_string(cvar_index) ? MPI_CHAR : MPI_INT;
	if (enumtype)
		*enumtype = mpit_is_enum(cvar_index) ? &mpit_enums[cvar_index] : MPI_T_ENUM_NULL;
	if (bind)
		*bind = MPI_T_BIND_NO_OBJECT;
	if (scope)
		*scope = kn->writable != SHM_KNOB_FIXED ? MPI_T_SCOPE_LOCAL :
			 MPI_T_SCOPE_READONLY;
	return MPI_SUCCESS;
}

API(int, T_cvar_get_index, (const char *name, int *cvar_index))
{
	int k;

	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	if (!name || !cvar_index)
		return MPI_T_ERR_INVALID;
	k = shm_knob_find(name);
	if (k < 0)
		return MPI_T_ERR_INVALID_NAME;
	*cvar_index = k;
	return MPI_SUCCESS;
}

API(int, T_cvar_handle_alloc, (int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle,
			       int *count))
{
	struct MPI_T_cvar_handle_s *h;

	(void)obj_handle;	/* no variable is bound to an object */
	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	if (cvar_index < 0 || cvar_index >= SHM_KNOB_COUNT)
		return MPI_T_ERR_INVALID_INDEX;
	if (!handle || !count)
		return MPI_T_ERR_INVALID;
	h = malloc(sizeof(*h));
	if (!h)
		return MPI_T_ERR_OUT_OF_HANDLES;
	h->magic = MPIT_MAGIC;
	h->index = cvar_index;
	h->next = mpit_handles;
	mpit_handles = h;
	*handle = h;
	*count = mpit_is_string(cvar_index) ? MPIT_STR : 1;
	return MPI_SUCCESS;
}

/* Whether h is a live handle of ours. */
static int mpit_handle_ok(const struct MPI_T_cvar_handle_s *h)
{
	for (const struct MPI_T_cvar_handle_s *p = mpit_handles; p; p = p->next) {
		if (p == h)
			return p->magic == MPIT_MAGIC;
	}
	return 0;
}

API(int, T_cvar_handle_free, (MPI_T_cvar_handle *handle))
{
	struct MPI_T_cvar_handle_s **pp;

	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	if (!handle || !mpit_handle_ok(*handle))
		return MPI_T_ERR_INVALID_HANDLE;
	for (pp = &mpit_handles; *pp != *handle; pp = &(*pp)->next)
		;
	*pp = (*handle)->next;
	(*handle)->magic = 0;
	free(*handle);
	*handle = MPI_T_CVAR_HANDLE_NULL;
	return MPI_SUCCESS;
}

API(int, T_cvar_read, (MPI_T_cvar_handle handle, void *buf))
{
	int k;

	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	if (!mpit_handle_ok(handle))
		return MPI_T_ERR_INVALID_HANDLE;
	if (!buf)
		return MPI_T_ERR_INVALID;
	k = handle->index;
	if (mpit_is_string(k))
		shm_knob_format((enum shm_knob_id)k, knobs_val[k], buf, MPIT_STR);
	else
		*(int *)buf = (int)knobs_val[k];
	return MPI_SUCCESS;
}

API(int, T_cvar_write, (MPI_T_cvar_handle handle, const void *buf))
{
	char text[MPIT_STR];
	long v;
	int k;

	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	if (!mpit_handle_ok(handle))
		return MPI_T_ERR_INVALID_HANDLE;
	if (!buf)
		return MPI_T_ERR_INVALID;
	k = handle->index;
	if (shm_knobs[k].writable == SHM_KNOB_FIXED)
		return MPI_T_ERR_CVAR_SET_NEVER;
	if (shm_knobs[k].writable == SHM_KNOB_BEFORE_INIT && rt.phase != RUNTIME_BEFORE_INIT)
		return MPI_T_ERR_CVAR_SET_NOT_NOW;
	if (mpit_is_enum(k)) {
		v = *(const int *)buf;
		if (v < 0 || v >= shm_knob_choice((enum shm_knob_id)k, 0, text, sizeof(text)))
			return MPI_T_ERR_INVALID;
		knobs_set((enum shm_knob_id)k, v);
		return MPI_SUCCESS;
	}
	/* the value goes through the knob's own parser, as from the environment */
	if (mpit_is_string(k)) {
		if (strnlen(buf, sizeof(text)) == sizeof(text))
			return MPI_T_ERR_INVALID;
		memcpy(text, buf, strlen(buf) + 1);
	} else {
		snprintf(text, sizeof(text), "%d", *(const int *)buf);
	}
	if (shm_knob_parse((enum shm_knob_id)k, text, &v) < 0)
		return MPI_T_ERR_INVALID;
	knobs_set((enum shm_knob_id)k, v);
	return MPI_SUCCESS;
}

/* ---- enumerations (MPI 3.1, section 14.3.5) -------------------------------- */

/* The checks of the enumeration calls: *knob becomes e's knob. */
static int mpit_enum_arg(MPI_T_enum e, int *knob)
{
	if (mpit_inits == 0)
		return MPI_T_ERR_NOT_INITIALIZED;
	for (int k = 0; k < SHM_KNOB_COUNT; k++)
		if (e == &mpit_enums[k] && mpit_is_enum(e->knob)) {
			*knob = (int)e->knob;
			return MPI_SUCCESS;
		}
	return MPI_T_ERR_INVALID_HANDLE;
}

/* The name and items of e, a knob's or an event element's enumeration:
 * the number of items, or an error class (negated). */
static int mpit_enum_items(MPI_T_enum e, int index, const char **name, char *item,
			   size_t item_len)
{
	const char *const *items;
	int k, n, rc = mpit_enum_arg(e, &k);

	if (rc == MPI_SUCCESS) {
		*name = shm_knobs[k].name;
		return shm_knob_choice((enum shm_knob_id)k, index, item, item_len);
	}
	if (rc != MPI_T_ERR_INVALID_HANDLE)
		return -rc;
	n = mpit_event_enum(e, name, &items);
	if (n < 0)
		return -MPI_T_ERR_INVALID_HANDLE;
	if (index >= 0 && index < n)
		snprintf(item, item_len, "%s", items[index]);
	return n;
}

API(int, T_enum_get_info, (MPI_T_enum enumtype, int *num, char *name, int *name_len))
{
	char item[MPIT_STR];
	const char *ename;
	int n = mpit_enum_items(enumtype, 0, &ename, item, sizeof(item));

	if (n < 0)
		return -n;
	if (!num)
		return MPI_T_ERR_INVALID;
	*num = n;
	mpit_string(ename, name, name_len);
	return MPI_SUCCESS;
}

API(int, T_enum_get_item, (MPI_T_enum enumtype, int index, int *value, char *name,
			   int *name_len))
{
	char item[MPIT_STR];
	const char *ename;
	int n = mpit_enum_items(enumtype, index, &ename, item, sizeof(item));

	if (n < 0)
		return -n;
	if (index < 0 || index >= n)
		return MPI_T_ERR_INVALID_ITEM;
	if (!value)
		return MPI_T_ERR_INVALID;
	*value = index;
	mpit_string(item, name, name_len);
	return MPI_SUCCESS;
}
