/*
 * bench.h: what the shmpi microbenchmarks share.
 *
 * The benchmarks are ordinary MPI programs: standard MPI and libc, nothing
 * of shmpi, so the same sources build with shmcc, mpicc.mpich and
 * mpicc.openmpi and the comparison measures the libraries, not the code.
 *
 * Points.  Each program enumerates its measurement points in a fixed order
 * (flavour, synchronization, operation, type, size) and numbers them from 0.
 * Every point prints exactly one record, also when its configuration is
 * unsupported, so a driver can tell a crash (records stop) from a point that
 * was skipped.  `--skip N` starts at point N: the driver uses it to resume
 * after a point that crashed.  Before a step that several points depend on
 * (creating a window) the program prints `#at A B what`: if the job dies
 * before the next record, points A..B are the ones lost; an empty range
 * (A > B) names a step that loses no point (freeing a window).  `--list`
 * prints every point's record with status "listed" and measures nothing:
 * the driver learns the points' names from it, also for points that crash.
 *
 * Timing.  A point is measured by a kernel that runs `iters` iterations on
 * every rank and returns the seconds this rank timed (0 on a rank that only
 * waits); the harness takes the maximum over the ranks.  It grows `iters`
 * until one run lasts a BENCH_CHUNKS-th of a sample, then times --samples
 * samples, each made of such runs until it lasts --min-time/--samples, and
 * reports the median and the best sample (MPI_Wtime over milliseconds, so
 * a nanosecond per operation is resolved).  Calibration runs double as
 * warm-up (page faults, caches).
 *
 * Output.  Rank 0 prints a human table (default), CSV lines (--csv, with a
 * header line starting with '#') or JSON lines (--json).  Latencies are in
 * nanoseconds with one decimal, bandwidths in MB/s (10^6 bytes/s, as OSU),
 * message rates in millions per second, ratios as such (six significant
 * digits).
 *
 * Errors.  MPI calls run under MPI_ERRORS_ARE_FATAL (the default), so a
 * failing call ends the job and the driver reports the point as crashed;
 * only window creation runs under MPI_ERRORS_RETURN, so that a flavour the
 * library does not support is reported as unsupported.
 */
#ifndef SHMPI_BENCH_H
#define SHMPI_BENCH_H

#define _POSIX_C_SOURCE 200809L

#include <mpi.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---------------------------------------------------------------- names */

enum bench_sync {
	BENCH_SYNC_LOCK,        /* lock(shared)+op+unlock per operation */
	BENCH_SYNC_LOCK_ALL,    /* lock_all+op+unlock_all per operation */
	BENCH_SYNC_FLUSH,       /* op+flush inside one lock(shared) epoch */
	BENCH_SYNC_FLUSH_LOCAL, /* op+flush_local inside one lock(shared) epoch */
	BENCH_SYNC_FENCE,       /* fence+op+fence, both ranks, halved */
	BENCH_SYNC_PSCW,        /* start/op/complete against post/wait, halved */
	BENCH_SYNC_COUNT
};

static const char *const bench_sync_names[BENCH_SYNC_COUNT] = {
	"lock", "lock_all", "flush", "flush_local", "fence", "pscw",
};

enum bench_flavor {
	BENCH_FLAVOR_ALLOCATE,       /* MPI_Win_allocate */
	BENCH_FLAVOR_CREATE,         /* MPI_Win_create on MPI_Alloc_mem memory */
	BENCH_FLAVOR_CREATE_MALLOC,  /* MPI_Win_create on malloc memory */
	BENCH_FLAVOR_DYNAMIC,        /* MPI_Win_create_dynamic + attach of MPI_Alloc_mem memory */
	BENCH_FLAVOR_DYNAMIC_MALLOC, /* MPI_Win_create_dynamic + attach of malloc memory */
	BENCH_FLAVOR_COUNT
};

static const char *const bench_flavor_names[BENCH_FLAVOR_COUNT] = {
	"allocate", "create", "create_malloc", "dynamic", "dynamic_malloc",
};

enum bench_type {
	BENCH_TYPE_CHAR,
	BENCH_TYPE_INT,
	BENCH_TYPE_DOUBLE,
	BENCH_TYPE_INT64,
	BENCH_TYPE_COUNT
};

static const char *const bench_type_names[BENCH_TYPE_COUNT] = {
	"char", "int", "double", "int64",
};

static inline MPI_Datatype bench_type_mpi(int type)
{
	switch (type) {
	case BENCH_TYPE_CHAR:
		return MPI_CHAR;
	case BENCH_TYPE_INT:
		return MPI_INT;
	case BENCH_TYPE_DOUBLE:
		return MPI_DOUBLE;
	default:
		return MPI_INT64_T;
	}
}

static inline int bench_type_size(int type)
{
	static const int size[BENCH_TYPE_COUNT] = { 1, (int)sizeof(int), 8, 8 };
	return size[type];
}

/* ------------------------------------------------------------- options */

#define BENCH_LIST_MAX 64        /* entries of one list option */
#define BENCH_SAMPLES_MAX 64     /* --samples */
#define BENCH_NOTE_MAX 160       /* note of a record (error strings) */
#define BENCH_SIZE_MAX (1L << 30) /* largest size: MPI counts are int */
#define BENCH_CALIB_MIN 16       /* iterations a calibration run needs to count */
#define BENCH_CALIB_LONG 10      /* ... unless it lasts this many samples */
#define BENCH_CHUNKS 4           /* timed runs per sample, when the speed holds */

/* options a program accepts, as bits of bench_init's `accept` */
enum bench_opt_bit {
	BENCH_OPT_OPS = 1 << 0,
	BENCH_OPT_TYPES = 1 << 1,
	BENCH_OPT_FTYPES = 1 << 2,
	BENCH_OPT_SYNCS = 1 << 3,
	BENCH_OPT_FLAVORS = 1 << 4,
	BENCH_OPT_SIZES = 1 << 5,
	BENCH_OPT_WINDOW = 1 << 6,
	BENCH_OPT_DIRS = 1 << 7,
};

typedef struct bench_list {
	int n;
	long v[BENCH_LIST_MAX];
} bench_list_t;

enum bench_format { BENCH_OUT_TABLE, BENCH_OUT_CSV, BENCH_OUT_JSON };

typedef struct bench {
	const char *prog;
	int rank, size;
	MPI_Comm comm;
	/* options */
	int format;
	int list;             /* --list: enumerate the points, measure nothing */
	double min_time;      /* seconds per point, all samples together */
	int samples;
	long skip;            /* first point to run */
	int window;           /* operations per synchronization (bandwidth) */
	const char *ops;      /* names of operations, checked by the program */
	const char *dirs;
	bench_list_t types, ftypes, syncs, flavors, sizes;
	/* state */
	long idx;             /* index of the next point */
	int header_done;
} bench_t;

/* position of `name` in `names`, or -EINVAL */
static inline int bench_name_find(const char *const *names, int n, const char *name, size_t len)
{
	for (int i = 0; i < n; i++)
		if (strlen(names[i]) == len && strncmp(names[i], name, len) == 0)
			return i;
	return -EINVAL;
}

/* "a,b,c" against a table of names; 0 or -EINVAL */
static inline int bench_list_names(bench_list_t *l, const char *s, const char *const *names, int n)
{
	bench_list_t out = { 0 };

	while (*s) {
		size_t len = strcspn(s, ",");
		int i = bench_name_find(names, n, s, len);

		if (i < 0 || out.n == BENCH_LIST_MAX)
			return -EINVAL;
		out.v[out.n++] = i;
		s += len;
		if (*s == ',')
			s++;
	}
	if (out.n == 0)
		return -EINVAL;
	*l = out;
	return 0;
}

/* one size: digits with an optional K, M or G (binary) suffix */
static inline int bench_size_parse(const char *s, char **end, long *out)
{
	long v = strtol(s, end, 10);

	if (*end == s || v < 0 || v > BENCH_SIZE_MAX)
		return -EINVAL;
	switch (**end) {
	case 'K':
	case 'k':
		v <<= 10;
		(*end)++;
		break;
	case 'M':
	case 'm':
		v <<= 20;
		(*end)++;
		break;
	case 'G':
	case 'g':
		v <<= 30;
		(*end)++;
		break;
	}
	if (v > BENCH_SIZE_MAX)
		return -EINVAL;
	*out = v;
	return 0;
}

/* "8,1K,64K:4M": single sizes and power-of-two ranges lo:hi; 0 or -EINVAL */
static inline int bench_list_sizes(bench_list_t *l, const char *s)
{
	bench_list_t out = { 0 };

	while (*s) {
		char *end;
		long lo, hi;

		if (bench_size_parse(s, &end, &lo) < 0)
			return -EINVAL;
		hi = lo;
		if (*end == ':' && bench_size_parse(end + 1, &end, &hi) < 0)
			return -EINVAL;
		if (*end != ',' && *end != '\0')
			return -EINVAL;
		for (long v = lo; v <= hi; v = v ? v * 2 : 1) {
			if (out.n == BENCH_LIST_MAX)
				return -EINVAL;
			out.v[out.n++] = v;
		}
		s = *end == ',' ? end + 1 : end;
	}
	if (out.n == 0)
		return -EINVAL;
	*l = out;
	return 0;
}

/* a decimal number within [lo, hi], a whole one if `whole`; 0 or -EINVAL */
static inline int bench_number(const char *s, double lo, double hi, int whole, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end != '\0' || v < lo || v > hi || (whole && v != (double)(long)v))
		return -EINVAL;
	*out = v;
	return 0;
}

static inline void bench_usage(const bench_t *b, const char *extra)
{
	if (b->rank != 0)
		return;
	fprintf(stderr,
		"usage: %s [--csv|--json] [--list] [--min-time MS] [--samples N] [--skip N]%s\n"
		"  --min-time MS   time spent on one point, all samples (default 50)\n"
		"  --samples N     samples per point; median and best reported (default 5)\n"
		"  --skip N        start at point N (for a driver resuming after a crash)\n"
		"  --list          print every point (status \"listed\"), measure nothing\n"
		"  sizes: 8,1K,64K:4M (K M G binary; lo:hi is every power of two between)\n"
		"  syncs: lock,lock_all,flush,flush_local,fence,pscw\n"
		"  flavors: allocate,create,create_malloc,dynamic,dynamic_malloc\n",
		b->prog, extra ? extra : "");
}

/*
 * Parse the common options after MPI_Init.  `accept` says which of the list
 * options this program takes, `defaults` gives their defaults as
 * "name=value" strings.  `need_ranks` is the exact number of ranks the
 * program needs, or 0.  Returns 0, or -EINVAL after the usage message (the
 * program then finalizes and exits 2).
 */
static inline int bench_init(bench_t *b, int argc, char **argv, unsigned accept,
			     const char *const *defaults, int need_ranks, const char *usage)
{
	const char *v_types = "char,int,double", *v_ftypes = "int64";
	const char *v_syncs = "flush", *v_flavors = "allocate", *v_sizes = "8";
	int rc = 0;

	memset(b, 0, sizeof(*b));
	b->prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	b->comm = MPI_COMM_WORLD;
	MPI_Comm_rank(b->comm, &b->rank);
	MPI_Comm_size(b->comm, &b->size);
	b->format = BENCH_OUT_TABLE;
	b->min_time = 0.050;
	b->samples = 5;
	b->window = 64;
	b->ops = "";
	b->dirs = "uni";

	for (int pass = 0; pass < 2 && rc == 0; pass++) {
		/* pass 0: the program's defaults; pass 1: the command line */
		int n = pass == 0 ? 0 : argc;
		const char *const *args = pass == 0 ? defaults : (const char *const *)argv;
		int i = pass == 0 ? 0 : 1;

		if (pass == 0)
			while (defaults && defaults[n])
				n++;
		for (; i < n && rc == 0; i++) {
			const char *a = args[i], *val = NULL;
			double num = 0;
			char key[32];
			size_t klen;

			if (pass == 1 && strcmp(a, "--csv") == 0) {
				b->format = BENCH_OUT_CSV;
				continue;
			}
			if (pass == 1 && strcmp(a, "--json") == 0) {
				b->format = BENCH_OUT_JSON;
				continue;
			}
			if (pass == 1 && strcmp(a, "--list") == 0) {
				b->list = 1;
				continue;
			}
			if (pass == 1 && strncmp(a, "--", 2) != 0) {
				rc = -EINVAL;
				break;
			}
			if (pass == 1)
				a += 2;
			klen = strcspn(a, "=");
			if (klen >= sizeof(key)) {
				rc = -EINVAL;
				break;
			}
			memcpy(key, a, klen);
			key[klen] = '\0';
			if (a[klen] == '=')
				val = a + klen + 1;
			else if (pass == 1 && i + 1 < n)
				val = args[++i];
			if (!val) {
				rc = -EINVAL;
				break;
			}
			if (strcmp(key, "min-time") == 0) {
				rc = bench_number(val, 1e-3, 1e6, 0, &num);
				b->min_time = num / 1000.0;
			} else if (strcmp(key, "samples") == 0) {
				rc = bench_number(val, 1, BENCH_SAMPLES_MAX, 1, &num);
				b->samples = (int)num;
			} else if (strcmp(key, "skip") == 0) {
				rc = bench_number(val, 0, 1e15, 1, &num);
				b->skip = (long)num;
			} else if (strcmp(key, "ops") == 0 && (accept & BENCH_OPT_OPS)) {
				b->ops = val;
			} else if (strcmp(key, "types") == 0 && (accept & BENCH_OPT_TYPES)) {
				v_types = val;
			} else if (strcmp(key, "ftypes") == 0 && (accept & BENCH_OPT_FTYPES)) {
				v_ftypes = val;
			} else if (strcmp(key, "syncs") == 0 && (accept & BENCH_OPT_SYNCS)) {
				v_syncs = val;
			} else if (strcmp(key, "flavors") == 0 && (accept & BENCH_OPT_FLAVORS)) {
				v_flavors = val;
			} else if (strcmp(key, "sizes") == 0 && (accept & BENCH_OPT_SIZES)) {
				v_sizes = val;
			} else if (strcmp(key, "window") == 0 && (accept & BENCH_OPT_WINDOW)) {
				rc = bench_number(val, 1, 1 << 20, 1, &num);
				b->window = (int)num;
			} else if (strcmp(key, "dirs") == 0 && (accept & BENCH_OPT_DIRS)) {
				b->dirs = val;
			} else {
				rc = -EINVAL;
			}
		}
	}
	if (rc == 0)
		rc = bench_list_names(&b->types, v_types, bench_type_names, BENCH_TYPE_COUNT);
	if (rc == 0)
		rc = bench_list_names(&b->ftypes, v_ftypes, bench_type_names, BENCH_TYPE_COUNT);
	if (rc == 0)
		rc = bench_list_names(&b->syncs, v_syncs, bench_sync_names, BENCH_SYNC_COUNT);
	if (rc == 0)
		rc = bench_list_names(&b->flavors, v_flavors, bench_flavor_names, BENCH_FLAVOR_COUNT);
	if (rc == 0)
		rc = bench_list_sizes(&b->sizes, v_sizes);
	if (rc < 0) {
		bench_usage(b, usage);
		return rc;
	}
	if (need_ranks && b->size != need_ranks) {
		if (b->rank == 0)
			fprintf(stderr, "%s: needs exactly %d ranks, has %d\n", b->prog, need_ranks,
				b->size);
		return -EINVAL;
	}
	return 0;
}

/* the largest size of --sizes, and at least `floor` */
static inline long bench_sizes_max(const bench_t *b, long floor)
{
	long max = floor;

	for (int s = 0; s < b->sizes.n; s++)
		if (b->sizes.v[s] > max)
			max = b->sizes.v[s];
	return max;
}

/* -------------------------------------------------------------- output */

typedef struct bench_rec {
	const char *bench;  /* family: rma_lat, rma_bw, atomic_lat, barrier, ... */
	const char *op;     /* put, get, acc, ... */
	const char *type;   /* element type, or "-" */
	const char *sync;   /* synchronization mode, or "-" */
	const char *flavor; /* window flavour, or "-" */
	long bytes;         /* bytes per operation, 0 if none */
	const char *unit;   /* ns, MB/s, Mmsg/s, x */
	double median;
	double best;        /* lowest time, or highest rate */
	long iters;         /* iterations of the shortest sample */
	const char *status; /* ok, unsupported */
	const char *note;   /* why unsupported, or "" */
} bench_rec_t;

/* nanoseconds with one decimal; rates and ratios with six significant digits */
static inline const char *bench_unit_format(const char *unit)
{
	return strcmp(unit, "ns") == 0 ? "%.1f" : "%.6g";
}

/* a note fit for one CSV field and one JSON string */
static inline void bench_note_clean(char *dst, size_t n, const char *src)
{
	size_t i = 0;

	for (; src && *src && i + 1 < n; src++)
		dst[i++] = (*src == ',' || *src == '"' || *src == '\\' || *src < ' ') ? ' ' : *src;
	dst[i] = '\0';
}

/* the next point's index; a point runs only when bench_want() says so */
static inline long bench_point(bench_t *b)
{
	return b->idx++;
}

static inline int bench_want(const bench_t *b, long idx)
{
	return idx >= b->skip;
}

/* does a step serving points first..last (creating a window) have to run? */
static inline int bench_need(const bench_t *b, long first, long last)
{
	return !b->list && first <= last && last >= b->skip;
}

/* `#at A B what`: the points at stake until the next record (see top) */
static inline void bench_at(const bench_t *b, long first, long last, const char *what)
{
	if (b->rank != 0 || b->format == BENCH_OUT_TABLE)
		return;
	printf("#at %ld %ld %s\n", first, last, what);
	fflush(stdout);
}

static inline void bench_emit(bench_t *b, long idx, const bench_rec_t *r)
{
	const char *fmt = bench_unit_format(r->unit);
	char note[BENCH_NOTE_MAX], med[32], best[32];
	bench_rec_t listed;

	if (b->rank != 0)
		return;
	if (b->list) {
		listed = *r;
		listed.status = "listed";
		listed.note = "";
		r = &listed;
	}
	bench_note_clean(note, sizeof(note), r->note);
	snprintf(med, sizeof(med), fmt, r->median);
	snprintf(best, sizeof(best), fmt, r->best);
	switch (b->format) {
	case BENCH_OUT_CSV:
		if (!b->header_done)
			printf("#idx,bench,op,type,sync,flavor,bytes,ranks,unit,median,best,iters,status,note\n");
		printf("%ld,%s,%s,%s,%s,%s,%ld,%d,%s,%s,%s,%ld,%s,%s\n", idx, r->bench, r->op, r->type,
		       r->sync, r->flavor, r->bytes, b->size, r->unit, med, best, r->iters, r->status,
		       note);
		break;
	case BENCH_OUT_JSON:
		printf("{\"idx\":%ld,\"bench\":\"%s\",\"op\":\"%s\",\"type\":\"%s\",\"sync\":\"%s\","
		       "\"flavor\":\"%s\",\"bytes\":%ld,\"ranks\":%d,\"unit\":\"%s\",\"median\":%s,"
		       "\"best\":%s,\"iters\":%ld,\"status\":\"%s\",\"note\":\"%s\"}\n",
		       idx, r->bench, r->op, r->type, r->sync, r->flavor, r->bytes, b->size, r->unit,
		       med, best, r->iters, r->status, note);
		break;
	default:
		if (!b->header_done)
			printf("%-19s %-8s %-6s %-11s %-14s %8s %5s %12s %-6s %12s %10s  %s\n",
			       "bench", "op", "type", "sync", "flavor", "bytes", "ranks", "median",
			       "unit", "best", "iters", "status");
		if (strcmp(r->status, "ok") == 0)
			printf("%-19s %-8s %-6s %-11s %-14s %8ld %5d %12s %-6s %12s %10ld  ok\n",
			       r->bench, r->op, r->type, r->sync, r->flavor, r->bytes, b->size, med,
			       r->unit, best, r->iters);
		else
			printf("%-19s %-8s %-6s %-11s %-14s %8ld %5d %12s %-6s %12s %10s  %s%s%s\n",
			       r->bench, r->op, r->type, r->sync, r->flavor, r->bytes, b->size, "-",
			       r->unit, "-", "-", r->status, note[0] ? ": " : "", note);
		break;
	}
	b->header_done = 1;
	fflush(stdout);
}

/* ------------------------------------------------------------- windows */

typedef struct bench_win {
	MPI_Win win;
	int flavor;
	char *base;     /* this rank's memory in the window */
	MPI_Aint bytes;
	MPI_Aint *disp; /* per rank: the displacement of its memory's first byte */
} bench_win_t;

static inline void bench_mem_free(char *mem, int from_mpi)
{
	if (!mem)
		return;
	if (from_mpi)
		MPI_Free_mem(mem);
	else
		free(mem);
}

/* MPI_Alloc_mem or page-aligned malloc memory; an MPI error code */
static inline int bench_mem_alloc(MPI_Aint bytes, int from_mpi, char **mem)
{
	void *p = NULL;
	int rc;

	if (from_mpi) {
		rc = MPI_Alloc_mem(bytes, MPI_INFO_NULL, &p);
	} else {
		rc = posix_memalign(&p, 4096, (size_t)bytes) == 0 ? MPI_SUCCESS : MPI_ERR_NO_MEM;
	}
	if (rc == MPI_SUCCESS)
		*mem = p;
	return rc;
}

/* every rank's verdict on a collective step: MPI_SUCCESS or the first failure */
static inline int bench_agree(const bench_t *b, int rc)
{
	int bad = rc == MPI_SUCCESS ? 0 : 1, anybad = 0;

	MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, b->comm);
	if (anybad && rc == MPI_SUCCESS)
		return MPI_ERR_OTHER; /* another rank failed */
	return rc;
}

static inline void bench_errstr(char *msg, size_t n, const char *call, int rc)
{
	char s[MPI_MAX_ERROR_STRING];
	int len = 0;

	if (MPI_Error_string(rc, s, &len) != MPI_SUCCESS)
		snprintf(s, sizeof(s), "error %d", rc);
	/* "call: text", cut to fit */
	snprintf(msg, n, "%s: ", call);
	for (size_t i = strlen(msg), j = 0; i + 1 < n && s[j]; i++, j++) {
		msg[i] = s[j];
		msg[i + 1] = '\0';
	}
}

/* attach `mem` to a dynamic window; on failure anywhere the window is freed */
static inline int bench_win_attach(const bench_t *b, MPI_Win *win, char *mem, MPI_Aint bytes)
{
	int rc, all;

	/* attach reports through the window's handler, not the communicator's */
	MPI_Win_set_errhandler(*win, MPI_ERRORS_RETURN);
	rc = MPI_Win_attach(*win, mem, bytes);
	MPI_Win_set_errhandler(*win, MPI_ERRORS_ARE_FATAL);
	all = bench_agree(b, rc);
	if (all == MPI_SUCCESS)
		return MPI_SUCCESS;
	if (rc == MPI_SUCCESS)
		MPI_Win_detach(*win, mem);
	MPI_Win_free(win);
	return all;
}

/*
 * Create a window of `bytes` per rank in `flavor`, zeroed.  Returns
 * MPI_SUCCESS, or the MPI error code when some rank could not create it
 * (`msg` then says which call failed and why).  A window that only some
 * ranks created cannot be freed collectively, so it is left behind.
 */
static inline int bench_win_create(const bench_t *b, bench_win_t *w, int flavor, MPI_Aint bytes,
				   char *msg, size_t msglen)
{
	int from_mpi = flavor == BENCH_FLAVOR_CREATE || flavor == BENCH_FLAVOR_DYNAMIC;
	int dynamic = flavor == BENCH_FLAVOR_DYNAMIC || flavor == BENCH_FLAVOR_DYNAMIC_MALLOC;
	const char *call = "MPI_Win_allocate";
	MPI_Win win = MPI_WIN_NULL;
	char *mem = NULL;
	MPI_Aint *disp;
	int rc;

	disp = calloc((size_t)b->size, sizeof(*disp));
	if (!disp) {
		snprintf(msg, msglen, "out of memory");
		return MPI_ERR_NO_MEM;
	}
	/* window creation reports through the communicator's handler */
	MPI_Comm_set_errhandler(b->comm, MPI_ERRORS_RETURN);
	if (flavor == BENCH_FLAVOR_ALLOCATE) {
		rc = bench_agree(b, MPI_Win_allocate(bytes, 1, MPI_INFO_NULL, b->comm, &mem, &win));
	} else {
		call = from_mpi ? "MPI_Alloc_mem" : "posix_memalign";
		rc = bench_agree(b, bench_mem_alloc(bytes, from_mpi, &mem));
		if (rc == MPI_SUCCESS && !dynamic) {
			call = "MPI_Win_create";
			rc = bench_agree(b, MPI_Win_create(mem, bytes, 1, MPI_INFO_NULL, b->comm, &win));
		} else if (rc == MPI_SUCCESS) {
			call = "MPI_Win_create_dynamic";
			rc = bench_agree(b, MPI_Win_create_dynamic(MPI_INFO_NULL, b->comm, &win));
			if (rc == MPI_SUCCESS) {
				call = "MPI_Win_attach";
				rc = bench_win_attach(b, &win, mem, bytes);
			}
		}
		if (rc != MPI_SUCCESS && mem)
			bench_mem_free(mem, from_mpi);
	}
	MPI_Comm_set_errhandler(b->comm, MPI_ERRORS_ARE_FATAL);
	if (rc != MPI_SUCCESS) {
		bench_errstr(msg, msglen, call, rc);
		free(disp);
		return rc;
	}
	if (dynamic) {
		/* the target displacement of attached memory is its address */
		MPI_Aint addr;

		MPI_Get_address(mem, &addr);
		MPI_Allgather(&addr, 1, MPI_AINT, disp, 1, MPI_AINT, b->comm);
	}
	memset(mem, 0, (size_t)bytes);
	w->win = win;
	w->flavor = flavor;
	w->base = mem;
	w->bytes = bytes;
	w->disp = disp;
	MPI_Barrier(b->comm);
	return MPI_SUCCESS;
}

/*
 * The window of `bytes` per rank in `flavor` that serves points first..last,
 * created only when one of them runs (bench_need).  Returns 1 when created,
 * 0 otherwise; `msg` then says why, if the library refused it.
 */
static inline int bench_win_open(const bench_t *b, bench_win_t *w, int flavor, MPI_Aint bytes,
				 long first, long last, char *msg, size_t msglen)
{
	if (!bench_need(b, first, last))
		return 0;
	bench_at(b, first, last, "window-create");
	return bench_win_create(b, w, flavor, bytes, msg, msglen) == MPI_SUCCESS;
}

static inline void bench_win_free(bench_win_t *w)
{
	int dynamic = w->flavor == BENCH_FLAVOR_DYNAMIC || w->flavor == BENCH_FLAVOR_DYNAMIC_MALLOC;
	int from_mpi = w->flavor == BENCH_FLAVOR_CREATE || w->flavor == BENCH_FLAVOR_DYNAMIC;

	if (dynamic)
		MPI_Win_detach(w->win, w->base);
	MPI_Win_free(&w->win);
	if (w->flavor != BENCH_FLAVOR_ALLOCATE)
		bench_mem_free(w->base, from_mpi);
	free(w->disp);
	w->disp = NULL;
	w->base = NULL;
}

/* free the window bench_win_open made for points ..last */
static inline void bench_win_close(const bench_t *b, bench_win_t *w, long last)
{
	bench_at(b, last + 1, last, "window-free");
	bench_win_free(w);
}

/* ------------------------------------------------------------- timing */

/*
 * CLOCK_MONOTONIC in seconds: one clock for every process of the node,
 * where MPI_Wtime need not be (MPI 3.1, section 8.1.2, MPI_WTIME_IS_GLOBAL)
 */
static inline double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* run `iters` iterations; return the seconds this rank timed, or 0 */
typedef double bench_kernel_fn(void *ctx, long iters);

typedef struct bench_stat {
	double sample[BENCH_SAMPLES_MAX]; /* seconds per iteration */
	int nsamples;
	long iters;                       /* iterations per sample */
} bench_stat_t;

/* one run on every rank, started together; the longest time any rank took */
static inline double bench_run(const bench_t *b, bench_kernel_fn *fn, void *ctx, long iters)
{
	double t, tmax = 0;

	MPI_Barrier(b->comm);
	t = fn(ctx, iters);
	MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, b->comm);
	return tmax;
}

/*
 * Calibrate a chunk of iterations lasting about a BENCH_CHUNKS-th of a
 * sample, then time b->samples samples, each made of whole chunks until it
 * lasts min_time/samples.  Chunks keep a sample's length right when the
 * speed changes after calibration (an implementation that sometimes sleeps
 * is fast in one run and a thousand times slower in the next); every rank
 * takes the same decisions because they rest on the agreed maximum time.
 */
static inline void bench_measure(const bench_t *b, bench_kernel_fn *fn, void *ctx, bench_stat_t *st)
{
	double per_sample = b->min_time / b->samples, per_chunk = per_sample / BENCH_CHUNKS;
	long n = 1;
	double t;

	/*
	 * One slow run (a page fault, a sleeping peer, a preemption) must not
	 * end the calibration at a handful of iterations: stop only once a
	 * run is both long enough and made of BENCH_CALIB_MIN iterations, or
	 * when iterations are so slow that a run lasts BENCH_CALIB_LONG
	 * samples (then a chunk holds a single iteration).
	 */
	for (;;) {
		t = bench_run(b, fn, ctx, n);
		if ((t >= per_chunk && n >= BENCH_CALIB_MIN) ||
		    t >= BENCH_CALIB_LONG * per_sample || n >= (1L << 40))
			break;
		n *= t < per_chunk / 100 ? 10 : 2;
	}
	if (t > 0)
		n = (long)((double)n * per_chunk / t + 0.5);
	if (n < 1)
		n = 1;
	st->nsamples = b->samples;
	st->iters = 0;
	for (int s = 0; s < b->samples; s++) {
		double sum = 0;
		long iters = 0;

		do {
			sum += bench_run(b, fn, ctx, n);
			iters += n;
		} while (sum < per_sample);
		st->sample[s] = sum / (double)iters;
		if (st->iters == 0 || iters < st->iters)
			st->iters = iters;
	}
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static inline double bench_stat_median(const bench_stat_t *st)
{
	double s[BENCH_SAMPLES_MAX];
	int n = st->nsamples;

	memcpy(s, st->sample, sizeof(double) * (size_t)n);
	qsort(s, (size_t)n, sizeof(double), bench_cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static inline double bench_stat_min(const bench_stat_t *st)
{
	double m = st->sample[0];

	for (int s = 1; s < st->nsamples; s++)
		if (st->sample[s] < m)
			m = st->sample[s];
	return m;
}

/* seconds per iteration -> nanoseconds per operation */
static inline void bench_rec_latency(bench_rec_t *r, const bench_stat_t *st, double ops_per_iter)
{
	r->unit = "ns";
	r->median = bench_stat_median(st) * 1e9 / ops_per_iter;
	r->best = bench_stat_min(st) * 1e9 / ops_per_iter;
	r->iters = st->iters;
	r->status = "ok";
	r->note = "";
}

/* seconds per iteration -> MB/s, moving `bytes_per_iter` */
static inline void bench_rec_bandwidth(bench_rec_t *r, const bench_stat_t *st, double bytes_per_iter)
{
	r->unit = "MB/s";
	r->median = bytes_per_iter / bench_stat_median(st) / 1e6;
	r->best = bytes_per_iter / bench_stat_min(st) / 1e6;
	r->iters = st->iters;
	r->status = "ok";
	r->note = "";
}

/* ------------------------------------------- latency of one RMA call */

/*
 * The latency patterns of the OSU one-sided benchmarks, for any operation:
 * rank 0 is the origin and rank 1 the target; in the active-target modes
 * (fence, pscw) the ranks take turns, and the time is halved.  The
 * operation is a callback so that put/get and the accumulate family share
 * the patterns; its cost is one indirect call.
 */
typedef struct bench_op bench_op_t;
typedef void bench_issue_fn(const bench_op_t *op, int target, MPI_Aint disp, MPI_Win win);

struct bench_op {
	bench_issue_fn *issue;
	MPI_Datatype type;
	int count;      /* elements per operation */
	MPI_Op mop;     /* reduction of the accumulate family */
	char *src;      /* origin data */
	char *res;      /* result buffer (get, get_accumulate, fetch, cas) */
	char *cmp;      /* compare value (cas) */
};

typedef struct bench_lat {
	const bench_t *b;
	const bench_op_t *op;
	const bench_win_t *w;
	int sync;
	MPI_Group peer; /* the other rank, for pscw */
} bench_lat_t;

static inline double bench_lat_kernel(void *arg, long n)
{
	const bench_lat_t *k = arg;
	const bench_op_t *op = k->op;
	MPI_Win win = k->w->win;
	int me = k->b->rank, other = 1 - me;
	MPI_Aint disp = k->w->disp[other];
	double t0, t = 0;

	switch (k->sync) {
	case BENCH_SYNC_LOCK:
		if (me == 0) {
			t0 = MPI_Wtime();
			for (long i = 0; i < n; i++) {
				MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
				op->issue(op, 1, disp, win);
				MPI_Win_unlock(1, win);
			}
			t = MPI_Wtime() - t0;
		}
		MPI_Barrier(k->b->comm);
		break;
	case BENCH_SYNC_LOCK_ALL:
		if (me == 0) {
			t0 = MPI_Wtime();
			for (long i = 0; i < n; i++) {
				MPI_Win_lock_all(0, win);
				op->issue(op, 1, disp, win);
				MPI_Win_unlock_all(win);
			}
			t = MPI_Wtime() - t0;
		}
		MPI_Barrier(k->b->comm);
		break;
	case BENCH_SYNC_FLUSH:
	case BENCH_SYNC_FLUSH_LOCAL:
		if (me == 0) {
			int local = k->sync == BENCH_SYNC_FLUSH_LOCAL;

			MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
			t0 = MPI_Wtime();
			for (long i = 0; i < n; i++) {
				op->issue(op, 1, disp, win);
				if (local)
					MPI_Win_flush_local(1, win);
				else
					MPI_Win_flush(1, win);
			}
			t = MPI_Wtime() - t0;
			MPI_Win_unlock(1, win);
		}
		MPI_Barrier(k->b->comm);
		break;
	case BENCH_SYNC_FENCE:
		/* OSU: the origin's op is closed by one fence, the target's by the next two */
		t0 = MPI_Wtime();
		for (long i = 0; i < n; i++) {
			if (me == 0) {
				MPI_Win_fence(0, win);
				op->issue(op, 1, disp, win);
				MPI_Win_fence(0, win);
				MPI_Win_fence(0, win);
			} else {
				MPI_Win_fence(0, win);
				MPI_Win_fence(0, win);
				op->issue(op, 0, disp, win);
				MPI_Win_fence(0, win);
			}
		}
		t = MPI_Wtime() - t0;
		break;
	default: /* BENCH_SYNC_PSCW */
		t0 = MPI_Wtime();
		for (long i = 0; i < n; i++) {
			if (me == 0) {
				MPI_Win_start(k->peer, 0, win);
				op->issue(op, 1, disp, win);
				MPI_Win_complete(win);
				MPI_Win_post(k->peer, 0, win);
				MPI_Win_wait(win);
			} else {
				MPI_Win_post(k->peer, 0, win);
				MPI_Win_wait(win);
				MPI_Win_start(k->peer, 0, win);
				op->issue(op, 0, disp, win);
				MPI_Win_complete(win);
			}
		}
		t = MPI_Wtime() - t0;
		break;
	}
	return t;
}

/* operations per timed iteration: the active modes time a round trip */
static inline double bench_lat_ops_per_iter(int sync)
{
	return sync == BENCH_SYNC_FENCE || sync == BENCH_SYNC_PSCW ? 2.0 : 1.0;
}

/* leave the window with no epoch open after a point in `sync` */
static inline void bench_sync_close(MPI_Win win, int sync)
{
	if (sync == BENCH_SYNC_FENCE)
		MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
}

/* the group holding only the other rank of a two-rank job */
static inline void bench_peer_group(const bench_t *b, MPI_Group *peer)
{
	MPI_Group world;
	int other = 1 - b->rank;

	MPI_Comm_group(b->comm, &world);
	MPI_Group_incl(world, 1, &other, peer);
	MPI_Group_free(&world);
}

#endif /* SHMPI_BENCH_H */
