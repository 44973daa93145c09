/*
 * The one table of knobs: every environment variable that shmpi reads, with
 * its type, default, help and who reads it (the ranks, shmrun, shmcc).
 * shmrun's --help and --info, the library's MPI_T control variables and the
 * README's environment section all come from this table, and every reader
 * parses a value with shm_knob_parse(), so a malformed value is an error
 * everywhere, never silently ignored.
 *
 * Plain data and parsers: nothing here knows MPI.  A value is held as a
 * long: a number, the index of a choice, or 0/1 for a flag; text knobs
 * keep their text (the environment's, or the default).
 */
#ifndef SHM_KNOB_H
#define SHM_KNOB_H

#include <stddef.h>

enum shm_knob_type {
	SHM_KNOB_UINT,		/* decimal, min to max */
	SHM_KNOB_BOOL,		/* 0/1, also no/yes, off/on, false/true */
	SHM_KNOB_CHOICE,	/* one of `choices`, separated by '|' */
	SHM_KNOB_TEXT,		/* any text, not parsed here */
};

/* Who reads a knob (bits). */
#define SHM_KNOB_RANKS	1u	/* the library, in MPI_Init */
#define SHM_KNOB_SHMRUN	2u	/* the launcher */
#define SHM_KNOB_SHMCC	4u	/* the compiler wrapper */

enum shm_knob_id {
	SHM_KNOB_PROGRESS,
	SHM_KNOB_SPINS,
	SHM_KNOB_SPINS_OVERSUB,
	SHM_KNOB_OVERSUB,
	SHM_KNOB_NUMA,
	SHM_KNOB_CHANNEL,
	SHM_KNOB_CHANNEL_RINGS,
	SHM_KNOB_BIND_TO,
	SHM_KNOB_MAP_BY,
	SHM_KNOB_REPORT_BINDINGS,
	SHM_KNOB_CC,
	SHM_KNOB_CXX,
	SHM_KNOB_ADVERSARIAL,
	SHM_KNOB_MEMBARRIER,
	SHM_KNOB_YIELDS,
	SHM_KNOB_EVENT_LOOP,
	SHM_KNOB_SINGLE_COPY,
	SHM_KNOB_SINGLE_COPY_MIN,
	SHM_KNOB_SINGLE_COPY_SHARE,
	SHM_KNOB_SINGLE_COPY_RMA_MIN,
	SHM_KNOB_WIN_CREATE_SHARE,
	SHM_KNOB_COUNT
};

/* Values of SHM_KNOB_BIND_TO (the order of its choices). */
enum shm_knob_bind {
	SHM_BIND_AUTO, SHM_BIND_NONE, SHM_BIND_CORE, SHM_BIND_HWTHREAD,
	SHM_BIND_L3CACHE, SHM_BIND_NUMA, SHM_BIND_SOCKET
};

/* Values of SHM_KNOB_SINGLE_COPY (the order of its choices). */
enum shm_knob_single_copy {
	SHM_COPY_AUTO, SHM_COPY_CMA, SHM_COPY_MAPPED, SHM_COPY_PIPELINE
};

/* When a rank may change a knob (MPI_T_cvar_write). */
enum shm_knob_write {
	SHM_KNOB_FIXED,		/* never: shmrun or shmcc uses it */
	SHM_KNOB_ANYTIME,	/* the change acts at once */
	SHM_KNOB_BEFORE_INIT,	/* MPI_Init uses it: before MPI_Init only */
};

struct shm_knob {
	const char *name;	/* the environment variable */
	enum shm_knob_type type;
	const char *def;	/* the default, as text parsed like a value */
	const char *choices;	/* SHM_KNOB_CHOICE: "a|b|c" */
	unsigned long max;	/* SHM_KNOB_UINT: largest value (min is 0) */
	unsigned where;		/* SHM_KNOB_RANKS | ... */
	enum shm_knob_write writable;	/* through MPI_T */
	const char *help;	/* one sentence */
};

extern const struct shm_knob shm_knobs[SHM_KNOB_COUNT];

/* Parse text as knob k's value into *out: 0, or -EINVAL when malformed or
 * out of range (a text knob takes anything and stores 0). */
int shm_knob_parse(enum shm_knob_id k, const char *text, long *out);

/* Knob k's text from the environment, or its default when unset or empty. */
const char *shm_knob_text(enum shm_knob_id k);

/* Knob k's value from the environment (or its default) into *out; -EINVAL
 * when the environment's text is malformed (*out untouched). */
int shm_knob_get(enum shm_knob_id k, long *out);

/* The text of value v of knob k ("strong", "4000", "1") into buf. */
void shm_knob_format(enum shm_knob_id k, long v, char *buf, size_t len);

/* The i-th choice of a choice knob into buf ("" past the last one);
 * returns how many choices there are. */
int shm_knob_choice(enum shm_knob_id k, int i, char *buf, size_t len);

/* What a knob takes, for messages and help: "weak|strong", "0 to 1000000000",
 * "0 or 1", "text" into buf. */
void shm_knob_describe(enum shm_knob_id k, char *buf, size_t len);

/* Find a knob by its variable name; -1 if none. */
int shm_knob_find(const char *name);

#endif
