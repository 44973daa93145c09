/*
 * Error handlers: the predefined ones, user handlers on communicators, and
 * the single path every error takes from an MPI call to its handler.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "comm.h"
#include "errhandler.h"
#include "runtime.h"

static struct errhandler errh_builtins[] = {
	{ MPI_ERRORS_ARE_FATAL, ERRH_FATAL, ERRH_ANY, NULL, 1 },
	{ MPI_ERRORS_RETURN, ERRH_RETURN, ERRH_ANY, NULL, 1 },
	{ MPI_ERRORS_ABORT, ERRH_ABORT, ERRH_ANY, NULL, 1 },
};

void errh_init_builtins(void)
{
	for (unsigned i = 0; i < sizeof(errh_builtins) / sizeof(errh_builtins[0]); i++)
		handle_set_builtin(HANDLE_ERRHANDLER,
				   (unsigned)errh_builtins[i].handle & 0xff,
				   &errh_builtins[i]);
}

struct errhandler *errh_get(MPI_Errhandler h)
{
	return handle_get(h, HANDLE_ERRHANDLER);
}

void errh_ref(struct errhandler *eh)
{
	if (!handle_is_builtin(eh->handle))
		eh->refs++;
}

void errh_unref(struct errhandler *eh)
{
	if (!eh || handle_is_builtin(eh->handle))
		return;
	if (--eh->refs == 0) {
		handle_release(eh->handle);
		free(eh);
	}
}

/*
 * Print the error and end the job.  One line, so that it stays whole in the
 * launcher's output: rank, call, argument, detail, class.
 */
static void err_fatal(const char *call, int errclass, const char *arg,
		      const char *detail)
{
	/* a program's callback may return a value that is no error code */
	const char *name = err_class_name(errclass);

	fprintf(stderr, "shmpi: rank %d: %s: %s%s%s%s [%s: %s]\n", rt.rank, call,
		arg ? "argument " : "", arg ? arg : "", arg ? ": " : "", detail,
		name ? name : "unknown error code", name ? err_class_text(errclass) : "");
	runtime_abort_job(errclass);
}

/*
 * The one path of every error: handler eh of object obj (a communicator or
 * window handle; fn is called with it for user handlers).
 */
static int err_raise(struct errhandler *eh, int obj, const char *call, int errclass,
		     const char *arg, const char *fmt, va_list ap)
{
	char detail[256];

	if (!eh || eh->action == ERRH_FATAL || eh->action == ERRH_ABORT) {
		vsnprintf(detail, sizeof(detail), fmt, ap);
		err_fatal(call, errclass, arg, detail);
	}
	if (eh->action == ERRH_USER) {
		int h = obj, code = errclass;

		/* the comm, win and session handler functions have the same shape */
		eh->fn(&h, &code, call);
	}
	return errclass;
}

int err_comm(MPI_Comm comm, const char *call, int errclass, const char *arg,
	     const char *fmt, ...)
{
	struct comm *c = comm_get(comm);
	va_list ap;
	int rc;

	if (!c)
		c = comm_get(MPI_COMM_WORLD);
	va_start(ap, fmt);
	rc = err_raise(c ? c->errh : NULL, c ? c->handle : comm, call, errclass, arg,
		       fmt, ap);
	va_end(ap);
	return rc;
}

int err_obj(struct errhandler *eh, int obj, const char *call, int errclass,
	    const char *arg, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = err_raise(eh, obj, call, errclass, arg, fmt, ap);
	va_end(ap);
	return rc;
}

int errh_create(enum errh_kind kind, errh_fn *fn, MPI_Errhandler *out)
{
	struct errhandler *eh = calloc(1, sizeof(*eh));

	if (!eh || handle_alloc(HANDLE_ERRHANDLER, eh, &eh->handle) < 0) {
		free(eh);
		return MPI_ERR_NO_MEM;
	}
	eh->action = ERRH_USER;
	eh->kind = kind;
	eh->fn = fn;
	eh->refs = 1;
	*out = eh->handle;
	return MPI_SUCCESS;
}

API(int, Comm_create_errhandler, (MPI_Comm_errhandler_function *fn, MPI_Errhandler *errhandler))
{
	runtime_check("MPI_Comm_create_errhandler");
	if (!fn)
		return err_comm(MPI_COMM_WORLD, "MPI_Comm_create_errhandler",
				MPI_ERR_ARG, "comm_errhandler_fn", "is NULL");
	if (!errhandler)
		return err_comm(MPI_COMM_WORLD, "MPI_Comm_create_errhandler",
				MPI_ERR_ARG, "errhandler", "is NULL");
	if (errh_create(ERRH_COMM, (errh_fn *)fn, errhandler) != MPI_SUCCESS)
		return err_comm(MPI_COMM_WORLD, "MPI_Comm_create_errhandler",
				MPI_ERR_NO_MEM, NULL, "out of memory");
	return MPI_SUCCESS;
}

API(int, Comm_set_errhandler, (MPI_Comm comm, MPI_Errhandler errhandler))
{
	struct comm *c;
	struct errhandler *eh;

	runtime_check("MPI_Comm_set_errhandler");
	c = comm_get(comm);
	if (!c)
		return comm_err_invalid(comm, "MPI_Comm_set_errhandler");
	eh = errh_get(errhandler);
	if (!eh)
		return err_comm(comm, "MPI_Comm_set_errhandler", MPI_ERR_ARG,
				"errhandler", "0x%x is not a valid error handler",
				(unsigned)errhandler);
	if (eh->kind != ERRH_ANY && eh->kind != ERRH_COMM)
		return err_comm(comm, "MPI_Comm_set_errhandler", MPI_ERR_ARG,
				"errhandler", "was not created for communicators");
	errh_ref(eh);
	errh_unref(c->errh);
	c->errh = eh;
	return MPI_SUCCESS;
}

API(int, Comm_get_errhandler, (MPI_Comm comm, MPI_Errhandler *errhandler))
{
	struct comm *c;

	runtime_check("MPI_Comm_get_errhandler");
	c = comm_get(comm);
	if (!c)
		return comm_err_invalid(comm, "MPI_Comm_get_errhandler");
	if (!errhandler)
		return err_comm(comm, "MPI_Comm_get_errhandler", MPI_ERR_ARG,
				"errhandler", "is NULL");
	/* the caller gets a new reference, to be dropped by MPI_Errhandler_free */
	errh_ref(c->errh);
	*errhandler = c->errh->handle;
	return MPI_SUCCESS;
}

API(int, Comm_call_errhandler, (MPI_Comm comm, int errorcode))
{
	runtime_check("MPI_Comm_call_errhandler");
	if (!comm_get(comm))
		return comm_err_invalid(comm, "MPI_Comm_call_errhandler");
	if (!err_class_name(errorcode) || errorcode == MPI_SUCCESS)
		return err_comm(comm, "MPI_Comm_call_errhandler", MPI_ERR_ARG,
				"errorcode", "%d is not an error code", errorcode);
	err_comm(comm, "MPI_Comm_call_errhandler", errorcode, NULL,
		 "raised by the program");
	/* the call itself succeeded when the handler returned */
	return MPI_SUCCESS;
}

API(int, Errhandler_free, (MPI_Errhandler *errhandler))
{
	struct errhandler *eh;

	/* at any time, as MPI_Session_create_errhandler (session.c): the
	 * errors are returned while the library is not up */
	runtime_hold();
	if (!errhandler)
		return rt.phase != RUNTIME_ACTIVE ? MPI_ERR_ARG :
		       err_comm(MPI_COMM_WORLD, "MPI_Errhandler_free", MPI_ERR_ARG,
				"errhandler", "is NULL");
	eh = errh_get(*errhandler);
	if (!eh)
		return rt.phase != RUNTIME_ACTIVE ? MPI_ERR_ARG :
		       err_comm(MPI_COMM_WORLD, "MPI_Errhandler_free", MPI_ERR_ARG,
				"errhandler", "0x%x is not a valid error handler",
				(unsigned)*errhandler);
	errh_unref(eh);
	*errhandler = MPI_ERRHANDLER_NULL;
	return MPI_SUCCESS;
}
