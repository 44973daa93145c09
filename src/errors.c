/*
 * Error classes and codes: the predefined classes' names and texts, the
 * classes and codes a program adds (MPI-3.1 section 8.5), MPI_Error_string
 * and MPI_Error_class.  Every error code shmpi itself returns is an error
 * class.
 *
 * Added classes and codes share one numbering from MPI_ERR_LASTCODE + 1,
 * in the order they are added; MPI_LASTUSEDCODE (attr.c) is the last value
 * handed out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "errhandler.h"
#include "runtime.h"

static const struct {
	const char *name;
	const char *text;
} err_classes[] = {
#define E(c, t) [c] = { #c, t }
	E(MPI_SUCCESS, "no error"),
	E(MPI_ERR_BUFFER, "invalid buffer pointer"),
	E(MPI_ERR_COUNT, "invalid count argument"),
	E(MPI_ERR_TYPE, "invalid datatype argument"),
	E(MPI_ERR_TAG, "invalid tag argument"),
	E(MPI_ERR_COMM, "invalid communicator"),
	E(MPI_ERR_RANK, "invalid rank"),
	E(MPI_ERR_REQUEST, "invalid request (handle)"),
	E(MPI_ERR_ROOT, "invalid root"),
	E(MPI_ERR_GROUP, "invalid group"),
	E(MPI_ERR_OP, "invalid operation"),
	E(MPI_ERR_TOPOLOGY, "invalid topology"),
	E(MPI_ERR_DIMS, "invalid dimension argument"),
	E(MPI_ERR_ARG, "invalid argument of some other kind"),
	E(MPI_ERR_UNKNOWN, "unknown error"),
	E(MPI_ERR_TRUNCATE, "message truncated on receive"),
	E(MPI_ERR_OTHER, "known error not in this list"),
	E(MPI_ERR_INTERN, "internal MPI (implementation) error"),
	E(MPI_ERR_IN_STATUS, "error code is in status"),
	E(MPI_ERR_PENDING, "pending request"),
	E(MPI_ERR_KEYVAL, "invalid keyval has been passed"),
	E(MPI_ERR_NO_MEM, "MPI_ALLOC_MEM failed because memory is exhausted"),
	E(MPI_ERR_BASE, "invalid base passed to MPI_FREE_MEM"),
	E(MPI_ERR_INFO_KEY, "key longer than MPI_MAX_INFO_KEY"),
	E(MPI_ERR_INFO_VALUE, "value longer than MPI_MAX_INFO_VAL"),
	E(MPI_ERR_INFO_NOKEY, "invalid key passed to MPI_INFO_DELETE"),
	E(MPI_ERR_SPAWN, "error in spawning processes"),
	E(MPI_ERR_PORT, "invalid port name passed to MPI_COMM_CONNECT"),
	E(MPI_ERR_SERVICE, "invalid service name passed to MPI_UNPUBLISH_NAME"),
	E(MPI_ERR_NAME, "invalid service name passed to MPI_LOOKUP_NAME"),
	E(MPI_ERR_WIN, "invalid win argument"),
	E(MPI_ERR_SIZE, "invalid size argument"),
	E(MPI_ERR_DISP, "invalid disp argument"),
	E(MPI_ERR_INFO, "invalid info argument"),
	E(MPI_ERR_LOCKTYPE, "invalid locktype argument"),
	E(MPI_ERR_ASSERT, "invalid assert argument"),
	E(MPI_ERR_RMA_CONFLICT, "conflicting accesses to window"),
	E(MPI_ERR_RMA_SYNC, "wrong synchronization of RMA calls"),
	E(MPI_ERR_RMA_RANGE, "target memory is not part of the window"),
	E(MPI_ERR_RMA_ATTACH, "memory cannot be attached"),
	E(MPI_ERR_RMA_SHARED, "memory cannot be shared"),
	E(MPI_ERR_RMA_FLAVOR, "passed window has wrong flavor for the called function"),
	E(MPI_ERR_FILE, "invalid file handle"),
	E(MPI_ERR_NOT_SAME, "collective argument not identical on all processes"),
	E(MPI_ERR_AMODE, "error related to the amode passed to MPI_FILE_OPEN"),
	E(MPI_ERR_UNSUPPORTED_DATAREP, "unsupported datarep passed to MPI_FILE_SET_VIEW"),
	E(MPI_ERR_UNSUPPORTED_OPERATION, "unsupported operation"),
	E(MPI_ERR_NO_SUCH_FILE, "file does not exist"),
	E(MPI_ERR_FILE_EXISTS, "file exists"),
	E(MPI_ERR_BAD_FILE, "invalid file name"),
	E(MPI_ERR_ACCESS, "permission denied"),
	E(MPI_ERR_NO_SPACE, "not enough space"),
	E(MPI_ERR_QUOTA, "quota exceeded"),
	E(MPI_ERR_READ_ONLY, "read-only file or file system"),
	E(MPI_ERR_FILE_IN_USE, "file operation could not be completed, as the file is in use"),
	E(MPI_ERR_DUP_DATAREP, "conversion functions could not be registered"),
	E(MPI_ERR_CONVERSION, "an error occurred in a user supplied data conversion function"),
	E(MPI_ERR_IO, "other I/O error"),
	E(MPI_T_ERR_MEMORY, "out of memory"),
	E(MPI_T_ERR_NOT_INITIALIZED, "interface not initialized"),
	E(MPI_T_ERR_CANNOT_INIT, "interface not in the state to be initialized"),
	E(MPI_T_ERR_INVALID_INDEX, "the index is invalid or has been deleted"),
	E(MPI_T_ERR_INVALID_ITEM, "item index queried is out of range"),
	E(MPI_T_ERR_INVALID_HANDLE, "the handle is invalid"),
	E(MPI_T_ERR_OUT_OF_HANDLES, "no more handles available"),
	E(MPI_T_ERR_OUT_OF_SESSIONS, "no more sessions available"),
	E(MPI_T_ERR_INVALID_SESSION, "session argument is not valid"),
	E(MPI_T_ERR_CVAR_SET_NOT_NOW, "variable cannot be set at this moment"),
	E(MPI_T_ERR_CVAR_SET_NEVER, "variable cannot be set until end of execution"),
	E(MPI_T_ERR_PVAR_NO_STARTSTOP, "variable cannot be started or stopped"),
	E(MPI_T_ERR_PVAR_NO_WRITE, "variable cannot be written or reset"),
	E(MPI_T_ERR_PVAR_NO_ATOMIC, "variable cannot be read and written atomically"),
	E(MPI_T_ERR_INVALID_NAME, "name doesn't match"),
	E(MPI_T_ERR_INVALID, "invalid use of the interface or bad parameter value(s)"),
	E(MPI_ERR_SESSION, "invalid session handle"),
	E(MPI_T_ERR_NOT_SUPPORTED, "requested functionality not supported"),
	E(MPI_ERR_PROC_ABORTED, "operation with a process that has aborted"),
	E(MPI_ERR_VALUE_TOO_LARGE, "a value does not fit in its output parameter"),
	E(MPI_ERR_ERRHANDLER, "invalid error handler"),
#undef E
};

_Static_assert(sizeof(err_classes) / sizeof(err_classes[0]) == MPI_ERR_LASTCODE + 1,
	       "every error class has a name and a text");

struct err_user {
	int errclass;			/* its own value for a class */
	int removed;			/* MPI_Remove_error_class or _code */
	int has_text;			/* MPI_Add_error_string, not removed since */
	char name[48];			/* "user error class 74" */
	char text[MPI_MAX_ERROR_STRING];	/* MPI_Add_error_string; "" until then */
};

static struct err_user *err_users;	/* value MPI_ERR_LASTCODE + 1 + i */
static int err_nusers;

/* An added class or code that is still there (a removed value is not
 * handed out again: MPI_LASTUSEDCODE only grows). */
static struct err_user *err_user(int code)
{
	int i = code - MPI_ERR_LASTCODE - 1;

	return i >= 0 && i < err_nusers && !err_users[i].removed ? &err_users[i] : NULL;
}

const char *err_class_name(int errclass)
{
	struct err_user *u = err_user(errclass);

	if (u)
		return u->name;
	if (errclass < 0 || errclass > MPI_ERR_LASTCODE)
		return NULL;
	return err_classes[errclass].name;
}

const char *err_class_text(int errclass)
{
	struct err_user *u = err_user(errclass);

	if (u)
		return u->text;
	if (errclass < 0 || errclass > MPI_ERR_LASTCODE)
		return NULL;
	return err_classes[errclass].text;
}

int err_last_used(void)
{
	return MPI_ERR_LASTCODE + err_nusers;
}

void err_fini(void)
{
	free(err_users);
	err_users = NULL;
	err_nusers = 0;
}

/* A new class (errclass < 0) or a code of errclass: its value, or -1 when
 * out of memory. */
static int err_user_add(int errclass)
{
	struct err_user *more = realloc(err_users, sizeof(*more) * (size_t)(err_nusers + 1));
	int value = MPI_ERR_LASTCODE + 1 + err_nusers;
	struct err_user *u;

	if (!more)
		return -1;
	err_users = more;
	u = &err_users[err_nusers++];
	u->errclass = errclass < 0 ? value : errclass;
	u->removed = 0;
	u->has_text = 0;
	if (errclass < 0)
		snprintf(u->name, sizeof(u->name), "user error class %d", value);
	else
		snprintf(u->name, sizeof(u->name), "user error code %d of class %d", value,
			 errclass);
	u->text[0] = '\0';
	return value;
}

/*
 * MPI_Error_string and MPI_Error_class work at any time, even before MPI_Init;
 * a bad argument goes to MPI_COMM_WORLD's handler once there is one.
 */
static int err_bad_arg(const char *call, const char *arg, const char *what)
{
	if (rt.phase != RUNTIME_ACTIVE)
		return MPI_ERR_ARG;
	return err_comm(MPI_COMM_WORLD, call, MPI_ERR_ARG, arg, "%s", what);
}

/* An added code or class says what MPI_Add_error_string gave it, nothing
 * more (MPI-3.1 section 8.5: "" when nothing was given). */
API(int, Error_string, (int errorcode, char *string, int *resultlen))
{
	const char *name;
	int n;

	runtime_hold();		/* the added codes may grow meanwhile */
	name = err_class_name(errorcode);
	if (!name)
		return err_bad_arg("MPI_Error_string", "errorcode", "is not an error code");
	if (!string)
		return err_bad_arg("MPI_Error_string", "string", "is NULL");
	if (!resultlen)
		return err_bad_arg("MPI_Error_string", "resultlen", "is NULL");
	if (err_user(errorcode))
		n = snprintf(string, MPI_MAX_ERROR_STRING, "%s", err_class_text(errorcode));
	else
		n = snprintf(string, MPI_MAX_ERROR_STRING, "%s: %s", name,
			     err_class_text(errorcode));
	*resultlen = n < MPI_MAX_ERROR_STRING ? n : MPI_MAX_ERROR_STRING - 1;
	return MPI_SUCCESS;
}

API(int, Error_class, (int errorcode, int *errorclass))
{
	struct err_user *u;

	runtime_hold();		/* the added codes may grow meanwhile */
	u = err_user(errorcode);
	if (!err_class_name(errorcode))
		return err_bad_arg("MPI_Error_class", "errorcode", "is not an error code");
	if (!errorclass)
		return err_bad_arg("MPI_Error_class", "errorclass", "is NULL");
	*errorclass = u ? u->errclass : errorcode;
	return MPI_SUCCESS;
}

/* ---- classes and codes of the program (MPI-3.1 section 8.5) -------------- */

API(int, Add_error_class, (int *errorclass))
{
	int value;

	runtime_check("MPI_Add_error_class");
	if (!errorclass)
		return err_comm(MPI_COMM_WORLD, "MPI_Add_error_class", MPI_ERR_ARG,
				"errorclass", "is NULL");
	value = err_user_add(-1);
	if (value < 0)
		return err_comm(MPI_COMM_WORLD, "MPI_Add_error_class", MPI_ERR_NO_MEM,
				NULL, "out of memory");
	*errorclass = value;
	return MPI_SUCCESS;
}

API(int, Add_error_code, (int errorclass, int *errorcode))
{
	struct err_user *u = err_user(errorclass);
	int value;

	runtime_check("MPI_Add_error_code");
	if (!err_class_name(errorclass) || (u && u->errclass != errorclass))
		return err_comm(MPI_COMM_WORLD, "MPI_Add_error_code", MPI_ERR_ARG,
				"errorclass", "%d is not an error class", errorclass);
	if (!errorcode)
		return err_comm(MPI_COMM_WORLD, "MPI_Add_error_code", MPI_ERR_ARG,
				"errorcode", "is NULL");
	value = err_user_add(errorclass);
	if (value < 0)
		return err_comm(MPI_COMM_WORLD, "MPI_Add_error_code", MPI_ERR_NO_MEM,
				NULL, "out of memory");
	*errorcode = value;
	return MPI_SUCCESS;
}

/* A later string replaces an earlier one; the predefined classes keep
 * theirs (it is erroneous to give them one). */
API(int, Add_error_string, (int errorcode, const char *string))
{
	struct err_user *u = err_user(errorcode);

	runtime_check("MPI_Add_error_string");
	if (!u)
		return err_comm(MPI_COMM_WORLD, "MPI_Add_error_string", MPI_ERR_ARG,
				"errorcode", "%d is not an error code or class the "
				"program added", errorcode);
	if (!string)
		return err_comm(MPI_COMM_WORLD, "MPI_Add_error_string", MPI_ERR_ARG,
				"string", "is NULL");
	if (strlen(string) >= MPI_MAX_ERROR_STRING)
		return err_comm(MPI_COMM_WORLD, "MPI_Add_error_string", MPI_ERR_ARG,
				"string", "is %zu characters long, the limit is %d",
				strlen(string), MPI_MAX_ERROR_STRING - 1);
	memcpy(u->text, string, strlen(string) + 1);
	u->has_text = 1;
	return MPI_SUCCESS;
}

/* ---- removing them (MPI 4.1, section 9.5) ------------------------------- */

/* The added class (class != 0) or code value still there, else NULL. */
static struct err_user *err_user_added(int value, int class)
{
	struct err_user *u = err_user(value);

	return u && (u->errclass == value) == (class != 0) ? u : NULL;
}

/* MPI 4.1: erroneous to remove a class that was not added, or whose codes
 * are still there. */
API(int, Remove_error_class, (int errorclass))
{
	struct err_user *u = err_user_added(errorclass, 1);

	runtime_check("MPI_Remove_error_class");
	if (!u)
		return err_comm(MPI_COMM_WORLD, "MPI_Remove_error_class", MPI_ERR_ARG,
				"errorclass", "%d is not an error class the program added",
				errorclass);
	for (int i = 0; i < err_nusers; i++)
		if (!err_users[i].removed && err_users[i].errclass == errorclass &&
		    &err_users[i] != u)
			return err_comm(MPI_COMM_WORLD, "MPI_Remove_error_class",
					MPI_ERR_ARG, "errorclass", "%d still has error "
					"code %d", errorclass, MPI_ERR_LASTCODE + 1 + i);
	u->removed = 1;
	return MPI_SUCCESS;
}

API(int, Remove_error_code, (int errorcode))
{
	struct err_user *u = err_user_added(errorcode, 0);

	runtime_check("MPI_Remove_error_code");
	if (!u)
		return err_comm(MPI_COMM_WORLD, "MPI_Remove_error_code", MPI_ERR_ARG,
				"errorcode", "%d is not an error code the program added",
				errorcode);
	u->removed = 1;
	return MPI_SUCCESS;
}

/* The string goes; the code or class stays, with "" as its string. */
API(int, Remove_error_string, (int errorcode))
{
	struct err_user *u = err_user(errorcode);

	runtime_check("MPI_Remove_error_string");
	if (!u || !u->has_text)
		return err_comm(MPI_COMM_WORLD, "MPI_Remove_error_string", MPI_ERR_ARG,
				"errorcode", u ? "%d has no string to remove" :
				"%d is not an error code or class the program added",
				errorcode);
	u->text[0] = '\0';
	u->has_text = 0;
	return MPI_SUCCESS;
}
