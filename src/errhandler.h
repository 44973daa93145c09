/*
 * Error handler objects and how an error reaches one.
 *
 * Every MPI call validates its arguments and, on a user error, calls
 * err_comm() (or err_obj() for a window or a session) exactly once at the API
 * boundary; internal functions return 0 or a negative errno and never raise.
 */
#ifndef SRC_ERRHANDLER_H
#define SRC_ERRHANDLER_H

#include <mpi.h>
#include <stdarg.h>

enum errh_action {
	ERRH_FATAL,	/* print call, rank, argument and class; end the job */
	ERRH_RETURN,	/* return the error class to the caller */
	ERRH_ABORT,	/* like FATAL (MPI-4 MPI_ERRORS_ABORT): end the job */
	ERRH_USER,	/* call the user's function, then return the class */
};

/* Which objects a handler may be attached to. */
enum errh_kind {
	ERRH_ANY,	/* the predefined handlers */
	ERRH_COMM,
	ERRH_WIN,
	ERRH_SESSION,
};

/* MPI_Comm_errhandler_function, MPI_Win_errhandler_function and
 * MPI_Session_errhandler_function alike. */
typedef void errh_fn(int *obj, int *code, ...);

struct errhandler {
	MPI_Errhandler handle;
	enum errh_action action;
	enum errh_kind kind;
	errh_fn *fn;
	int refs;	/* the handle itself, plus each object it is set on */
};

/* Register the predefined handlers. */
void errh_init_builtins(void);

/* The live handler behind h, or NULL. */
struct errhandler *errh_get(MPI_Errhandler h);

void errh_ref(struct errhandler *eh);
void errh_unref(struct errhandler *eh);

/*
 * Raise errclass in `call` on communicator comm (MPI_COMM_WORLD's handler if
 * comm itself is invalid).  arg names the offending argument (NULL: none);
 * the printf-style detail says what is wrong with it.  Returns the class for
 * the call to return (when the handler lets it return).
 */
int err_comm(MPI_Comm comm, const char *call, int errclass, const char *arg,
	     const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* The same for a window or a session, handle obj, whose error handler is
 * eh (the caller resolves the object; an invalid one raises on
 * MPI_COMM_WORLD through err_comm). */
int err_obj(struct errhandler *eh, int obj, const char *call, int errclass,
	    const char *arg, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Create a user handler of a kind (MPI error class). */
int errh_create(enum errh_kind kind, errh_fn *fn, MPI_Errhandler *out);

/* The name ("MPI_ERR_RANK") and text of an error class, or of an error
 * class or code the program added (errors.c); NULL if there is none. */
const char *err_class_name(int errclass);
const char *err_class_text(int errclass);

/* The largest error class or code there is now (MPI_LASTUSEDCODE). */
int err_last_used(void);

/* Forget the classes and codes the program added (MPI_Finalize). */
void err_fini(void);

#endif
