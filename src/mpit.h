/*
 * The MPI tool information interface (MPI 3.1, section 14.3) inside the
 * library: mpit.c (initialization, control variables, enumerations),
 * mpit_pvar.c (performance variables, sessions, handles), mpit_cat.c
 * (categories).  Every MPI_T call returns its error class and never calls
 * an error handler (section 14.3.9).
 */
#ifndef SRC_MPIT_H
#define SRC_MPIT_H

#include <mpi.h>

/* MPI_T_init_thread calls minus MPI_T_finalize calls. */
extern int mpit_inits;

/* The standard's way of returning a string (section 14.3.3): at most *len
 * bytes with the NUL; *len becomes what was written (or, with no buffer,
 * what is needed). */
void mpit_string(const char *s, char *buf, int *len);

/* The categories (mpit_cat.c) that variables belong to. */
enum mpit_cat {
	MPIT_CAT_SHMPI,		/* the library: every other category */
	MPIT_CAT_RMA,
	MPIT_CAT_P2P,
	MPIT_CAT_PROGRESS,
	MPIT_CAT_PLACEMENT,
	MPIT_CAT_COUNT
};

/* The performance variables (mpit_pvar.c): how many, and the category of
 * variable i. */
int mpit_pvar_count(void);
enum mpit_cat mpit_pvar_cat(int i);

/* The last MPI_T_finalize: every session and handle goes. */
void mpit_pvar_fini(void);

/* The event types (mpit_event.c): how many, and the category of type i. */
int mpit_event_count(void);
enum mpit_cat mpit_event_cat(int i);

/* The enumerations of the events' elements: the number of items of e, its
 * name and items, or -1 when e is not one of them. */
int mpit_event_enum(MPI_T_enum e, const char **name, const char *const **items);

/* The last MPI_T_finalize: every event handle goes. */
void mpit_event_fini(void);

#endif
