/*
 * What a window tells about itself and what can be hung on it: attributes
 * (predefined and user keyvals), its group, info hints, name and error
 * handler.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "attr.h"
#include "comm.h"
#include "errhandler.h"
#include "group.h"
#include "info.h"
#include "memkinds.h"
#include "progress.h"
#include "rma_pkt.h"
#include "runtime.h"
#include "win.h"

API(int, Win_get_attr, (MPI_Win win, int win_keyval, void *attribute_val, int *flag))
{
	struct win *w;
	int rc;

	runtime_check("MPI_Win_get_attr");
	if (!(w = win_arg("MPI_Win_get_attr", win, &rc)))
		return rc;
	if (!attribute_val || !flag)
		return win_err(w, "MPI_Win_get_attr", MPI_ERR_ARG,
			       !flag ? "flag" : "attribute_val", "is NULL");
	*flag = 1;
	switch (win_keyval) {
	case MPI_WIN_BASE:
		*(void **)attribute_val = w->base;
		return MPI_SUCCESS;
	case MPI_WIN_SIZE:
		*(MPI_Aint **)attribute_val = &w->my_size;
		return MPI_SUCCESS;
	case MPI_WIN_DISP_UNIT:
		*(int **)attribute_val = &w->disp_unit;
		return MPI_SUCCESS;
	case MPI_WIN_CREATE_FLAVOR:
		*(int **)attribute_val = &w->flavor;
		return MPI_SUCCESS;
	case MPI_WIN_MODEL:
		*(int **)attribute_val = &w->model;
		return MPI_SUCCESS;
	}
	if (!attr_keyval_valid(ATTR_WIN, win_keyval))
		return win_err(w, "MPI_Win_get_attr", MPI_ERR_KEYVAL, "win_keyval",
			       "%d is not a window keyval", win_keyval);
	return attr_get(w->attrs, win_keyval, (void **)attribute_val, flag);
}

static int win_predefined_keyval(int keyval)
{
	return keyval >= MPI_WIN_BASE && keyval <= MPI_WIN_MODEL;
}

API(int, Win_set_attr, (MPI_Win win, int win_keyval, void *attribute_val))
{
	char detail[64];
	struct win *w;
	int rc;

	runtime_check("MPI_Win_set_attr");
	if (!(w = win_arg("MPI_Win_set_attr", win, &rc)))
		return rc;
	if (win_predefined_keyval(win_keyval))
		return win_err(w, "MPI_Win_set_attr", MPI_ERR_KEYVAL, "win_keyval",
			       "%d is predefined and cannot be set", win_keyval);
	rc = attr_set(ATTR_WIN, win, &w->attrs, win_keyval, attribute_val);
	if (rc != MPI_SUCCESS)
		return win_err(w, "MPI_Win_set_attr", rc, "win_keyval", "%s",
			       attr_err_detail(ATTR_WIN, rc, win_keyval, detail,
					       sizeof(detail)));
	return MPI_SUCCESS;
}

API(int, Win_delete_attr, (MPI_Win win, int win_keyval))
{
	char detail[64];
	struct win *w;
	int rc;

	runtime_check("MPI_Win_delete_attr");
	if (!(w = win_arg("MPI_Win_delete_attr", win, &rc)))
		return rc;
	rc = attr_delete(ATTR_WIN, win, &w->attrs, win_keyval);
	if (rc != MPI_SUCCESS)
		return win_err(w, "MPI_Win_delete_attr", rc, "win_keyval", "%s",
			       attr_err_detail(ATTR_WIN, rc, win_keyval, detail,
					       sizeof(detail)));
	return MPI_SUCCESS;
}

API(int, Win_create_keyval, (MPI_Win_copy_attr_function *win_copy_attr_fn,
			     MPI_Win_delete_attr_function *win_delete_attr_fn,
			     int *win_keyval, void *extra_state))
{
	return attr_keyval_create_call("MPI_Win_create_keyval", ATTR_WIN, "win_keyval",
				       (attr_copy_fn *)win_copy_attr_fn,
				       (attr_delete_fn *)win_delete_attr_fn, win_keyval,
				       extra_state);
}

API(int, Win_free_keyval, (int *win_keyval))
{
	return attr_keyval_free_call("MPI_Win_free_keyval", ATTR_WIN, "win_keyval",
				     win_keyval);
}

API(int, Win_get_group, (MPI_Win win, MPI_Group *group))
{
	struct win *w;
	int rc;

	runtime_check("MPI_Win_get_group");
	if (!(w = win_arg("MPI_Win_get_group", win, &rc)))
		return rc;
	if (!group)
		return win_err(w, "MPI_Win_get_group", MPI_ERR_ARG, "group", "is NULL");
	group_ref(w->comm->group);
	*group = w->comm->group->handle;
	return MPI_SUCCESS;
}

/* The hints a window keeps; shmpi_memory is set by shmpi alone. */
static const char *const win_info_keys[] = {
	"no_locks", "accumulate_ordering", "accumulate_ops", "same_size",
	"same_disp_unit", "alloc_shared_noncontig", "mpi_minimum_alignment",
	"mpi_accumulate_granularity", "mpi_assert_memory_alloc_kinds",
};

API(int, Win_set_info, (MPI_Win win, MPI_Info info))
{
	struct info *i;
	struct win *w;
	int rc;

	runtime_check("MPI_Win_set_info");
	if (!(w = win_arg("MPI_Win_set_info", win, &rc)))
		return rc;
	if (!(i = info_get(info)))
		return win_err(w, "MPI_Win_set_info", MPI_ERR_INFO, "info",
			       "0x%x is not a valid info object", (unsigned)info);
	if (!w->info && !(w->info = info_dup_internal(&(struct info){ 0 })))
		return win_err(w, "MPI_Win_set_info", MPI_ERR_NO_MEM, NULL, "out of memory");
	for (struct info_entry *e = i->head; e; e = e->next)
		for (size_t k = 0; k < sizeof(win_info_keys) / sizeof(win_info_keys[0]); k++)
			if (!strcmp(e->key, win_info_keys[k]) &&
			    info_put(w->info, e->key, e->value) < 0)
				return win_err(w, "MPI_Win_set_info", MPI_ERR_NO_MEM, NULL,
					       "out of memory");
	return MPI_SUCCESS;
}

/*
 * The hints of MPI 4.1 about memory (sections 12.2.7 and 11.4.3): the
 * memory allocation kinds of the window's communicator; and, as given,
 * what the program asserts it uses (mpi_assert_memory_alloc_kinds) and
 * the granularity it asks of accumulates (mpi_accumulate_granularity:
 * shmpi's are atomic per element whatever it is).
 */
static void win_info_memory(const struct win *w, struct info *copy)
{
	static const char *const given[] = {
		"mpi_assert_memory_alloc_kinds", "mpi_accumulate_granularity",
	};
	char kinds[MEMKINDS_MAX];

	memkinds_format(memkinds_of(w->comm->group->memkinds), kinds, sizeof(kinds));
	info_put(copy, "mpi_memory_alloc_kinds", kinds);
	for (size_t k = 0; k < sizeof(given) / sizeof(given[0]); k++)
		if (info_lookup(w->info, given[k]))
			info_put(copy, given[k], info_lookup(w->info, given[k]));
}

API(int, Win_get_info, (MPI_Win win, MPI_Info *info_used))
{
	struct info *copy;
	const char *ordering;
	struct win *w;
	MPI_Info h;
	int rc;

	runtime_check("MPI_Win_get_info");
	if (!(w = win_arg("MPI_Win_get_info", win, &rc)))
		return rc;
	if (!info_used)
		return win_err(w, "MPI_Win_get_info", MPI_ERR_ARG, "info_used", "is NULL");
	rc = PMPI_Info_create(&h);
	if (rc != MPI_SUCCESS)
		return rc;
	copy = info_get(h);
	ordering = info_lookup(w->info, "accumulate_ordering");
	/* the hints in force, with the defaults of the ones never given */
	if (info_put(copy, "no_locks", w->no_locks ? "true" : "false") < 0 ||
	    info_put(copy, "accumulate_ordering", ordering ? ordering : "rar,raw,war,waw") < 0 ||
	    info_put(copy, "accumulate_ops", info_lookup(w->info, "accumulate_ops") ?
		     info_lookup(w->info, "accumulate_ops") : "same_op_no_op") < 0 ||
	    info_put(copy, "same_size", info_lookup(w->info, "same_size") ?
		     info_lookup(w->info, "same_size") : "false") < 0 ||
	    info_put(copy, "same_disp_unit", info_lookup(w->info, "same_disp_unit") ?
		     info_lookup(w->info, "same_disp_unit") : "false") < 0 ||
	    info_put(copy, "shmpi_memory", w->t[w->rank].ops->memory) < 0 ||
	    info_put(copy, "shmpi_progress", progress_is_strong() ? "strong" : "weak") < 0) {
		PMPI_Info_free(&h);
		return win_err(w, "MPI_Win_get_info", MPI_ERR_NO_MEM, NULL, "out of memory");
	}
	if (w->npriv) {
		struct rma_pkt_stats st;
		char v[24];

		/* how this rank's lock epochs on private memory went */
		rma_pkt_stats(w, &st);
		snprintf(v, sizeof(v), "%llu", (unsigned long long)st.lock_requests);
		info_put(copy, "shmpi_lock_requests", v);
		snprintf(v, sizeof(v), "%llu", (unsigned long long)st.single_ops);
		info_put(copy, "shmpi_single_op_unlocks", v);
		/* and how many puts and gets went in one copy */
		snprintf(v, sizeof(v), "%llu", (unsigned long long)st.single_copies);
		info_put(copy, "shmpi_single_copies", v);
		/* and, as a target, the requests its lock table holds back */
		if (w->t[w->rank].path == WIN_PATH_PRIVATE) {
			snprintf(v, sizeof(v), "%d", rma_pkt_target_queued(w));
			info_put(copy, "shmpi_lock_queue", v);
		}
	}
	if (w->flavor == MPI_WIN_FLAVOR_SHARED)
		info_put(copy, "alloc_shared_noncontig",
			 info_lookup(w->info, "alloc_shared_noncontig") ?
			 info_lookup(w->info, "alloc_shared_noncontig") : "false");
	win_info_memory(w, copy);
	*info_used = h;
	return MPI_SUCCESS;
}

API(int, Win_set_name, (MPI_Win win, const char *win_name))
{
	struct win *w;
	int rc;

	runtime_check("MPI_Win_set_name");
	if (!(w = win_arg("MPI_Win_set_name", win, &rc)))
		return rc;
	if (!win_name)
		return win_err(w, "MPI_Win_set_name", MPI_ERR_ARG, "win_name", "is NULL");
	snprintf(w->name, sizeof(w->name), "%s", win_name);
	return MPI_SUCCESS;
}

API(int, Win_get_name, (MPI_Win win, char *win_name, int *resultlen))
{
	struct win *w;
	int rc;

	runtime_check("MPI_Win_get_name");
	if (!(w = win_arg("MPI_Win_get_name", win, &rc)))
		return rc;
	if (!win_name || !resultlen)
		return win_err(w, "MPI_Win_get_name", MPI_ERR_ARG,
			       !win_name ? "win_name" : "resultlen", "is NULL");
	snprintf(win_name, MPI_MAX_OBJECT_NAME, "%s", w->name);
	*resultlen = (int)strlen(win_name);
	return MPI_SUCCESS;
}

API(int, Win_create_errhandler, (MPI_Win_errhandler_function *win_errhandler_fn,
				 MPI_Errhandler *errhandler))
{
	runtime_check("MPI_Win_create_errhandler");
	if (!win_errhandler_fn || !errhandler)
		return err_comm(MPI_COMM_WORLD, "MPI_Win_create_errhandler", MPI_ERR_ARG,
				!errhandler ? "errhandler" : "win_errhandler_fn",
				"is NULL");
	if (errh_create(ERRH_WIN, (errh_fn *)win_errhandler_fn, errhandler) != MPI_SUCCESS)
		return err_comm(MPI_COMM_WORLD, "MPI_Win_create_errhandler",
				MPI_ERR_NO_MEM, NULL, "out of memory");
	return MPI_SUCCESS;
}

API(int, Win_set_errhandler, (MPI_Win win, MPI_Errhandler errhandler))
{
	struct errhandler *eh;
	struct win *w;
	int rc;

	runtime_check("MPI_Win_set_errhandler");
	if (!(w = win_arg("MPI_Win_set_errhandler", win, &rc)))
		return rc;
	eh = errh_get(errhandler);
	if (!eh || (eh->kind != ERRH_ANY && eh->kind != ERRH_WIN))
		return win_err(w, "MPI_Win_set_errhandler", MPI_ERR_ARG, "errhandler",
			       "0x%x is not an error handler for windows",
			       (unsigned)errhandler);
	errh_ref(eh);
	errh_unref(w->errh);
	w->errh = eh;
	return MPI_SUCCESS;
}

API(int, Win_get_errhandler, (MPI_Win win, MPI_Errhandler *errhandler))
{
	struct win *w;
	int rc;

	runtime_check("MPI_Win_get_errhandler");
	if (!(w = win_arg("MPI_Win_get_errhandler", win, &rc)))
		return rc;
	if (!errhandler)
		return win_err(w, "MPI_Win_get_errhandler", MPI_ERR_ARG, "errhandler",
			       "is NULL");
	errh_ref(w->errh);
	*errhandler = w->errh->handle;
	return MPI_SUCCESS;
}

API(int, Win_call_errhandler, (MPI_Win win, int errorcode))
{
	struct win *w;
	int rc;

	runtime_check("MPI_Win_call_errhandler");
	if (!(w = win_arg("MPI_Win_call_errhandler", win, &rc)))
		return rc;
	if (!err_class_name(errorcode) || errorcode == MPI_SUCCESS)
		return win_err(w, "MPI_Win_call_errhandler", MPI_ERR_ARG, "errorcode",
			       "%d is not an error code", errorcode);
	win_err(w, "MPI_Win_call_errhandler", errorcode, NULL, "raised by the program");
	return MPI_SUCCESS;
}
