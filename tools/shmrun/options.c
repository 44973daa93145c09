/*
 * shmrun's command line: one table, one entry per option, from which both
 * the parser and --help are made.
 *
 * Options come before the program; the first argument that is not an
 * option (or the one after "--") is the program, and everything after it
 * belongs to the program untouched.  Every option is spelt with one or two
 * dashes (-np, --np, -tag-output); a value follows as the next argument or
 * after '=' (--timeout=2.5), and a one-letter option also takes it attached
 * (-n4, -xFOO=1).  Each default is a string parsed by the same code as a
 * value on the command line, so the default shown is the default used.  A
 * malformed value is an error, never ignored.
 *
 * shmrun is also mpiexec and mpirun (PREFIX/lib/shmpi/mpi-bin, README
 * "Build systems"), so it takes the spellings of MPICH's and Open MPI's
 * launchers that make sense on one machine: -genv VAR VALUE beside -x,
 * --oversubscribe and --allow-run-as-root as no-ops, and --host naming this
 * machine; any other host is refused, saying where such a job runs.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../shm/knob.h"
#include "shmrun.h"

enum opt_type {
	OPT_RANKS,	/* long: 1 to RUN_MAX_RANKS */
	OPT_SECONDS,	/* double: >= 0, fractions allowed */
	OPT_FLAG,	/* bool: set, takes no value */
	OPT_ENV,	/* appended to the -x list; repeatable */
	OPT_GENV,	/* VAR VALUE, two arguments: OPT_ENV's VAR=VALUE */
	OPT_HOST,	/* HOST[:SLOTS][,...]: this machine only, checked */
	OPT_COMPAT,	/* a flag other launchers need, nothing to do here */
	OPT_PROGRESS,	/* weak|strong: SHMPI_PROGRESS for the ranks */
	OPT_STALL,	/* auto|report|kill: enum run_stall_action */
	OPT_KNOB,	/* long: a knob's value (shm/knob.h); default from it */
	OPT_KNOB_FLAG,	/* bool: set, and the knob set to 1 for the ranks */
	OPT_KNOB_ENV,	/* a knob's value, checked, for the ranks (-x) */
};

struct opt {
	const char *name;	/* without dashes */
	const char *alias;	/* another spelling, or NULL */
	enum opt_type type;
	const char *metavar;	/* the value in --help; NULL for flags */
	const char *def;	/* default as parsed, or NULL for none */
	size_t off;		/* the field in struct run_opts */
	const char *help;
	enum shm_knob_id knob;	/* OPT_KNOB, OPT_KNOB_FLAG, OPT_KNOB_ENV */
};

#define OFF(field) offsetof(struct run_opts, field)
#define NO_KNOB SHM_KNOB_COUNT

static const struct opt opts_table[] = {
	{ "n", "np", OPT_RANKS, "N", NULL, OFF(nranks),
	  "number of ranks, 1 to 4096", NO_KNOB },
	{ "x", NULL, OPT_ENV, "VAR[=VALUE]", NULL, OFF(xvars),
	  "give the ranks VAR=VALUE, or VAR as shmrun has it\n"
	  "(unset if shmrun has none); repeatable, last one wins", NO_KNOB },
	{ "genv", "env", OPT_GENV, "VAR VAL", NULL, OFF(xvars),
	  "-x VAR=VAL, as MPICH's mpiexec spells it", NO_KNOB },
	{ "host", "hosts", OPT_HOST, "HOSTS", "localhost", OFF(xvars),
	  "HOST[:N],...: accepted when every HOST is this\n"
	  "machine (localhost, 127.0.0.1 or its name), N\n"
	  "ignored; another host is an error (shmpi is\n"
	  "single-node)", NO_KNOB },
	{ "oversubscribe", NULL, OPT_COMPAT, NULL, NULL, OFF(xvars),
	  "accepted and ignored: ranks may always outnumber\n"
	  "the cores", NO_KNOB },
	{ "allow-run-as-root", NULL, OPT_COMPAT, NULL, NULL, OFF(xvars),
	  "accepted and ignored: root may always run a job", NO_KNOB },
	{ "progress", NULL, OPT_PROGRESS, "MODE", NULL, OFF(xvars),
	  "weak: the ranks move data only inside MPI calls;\n"
	  "strong: a progress thread per rank moves it too",
	  SHM_KNOB_PROGRESS },
	{ "adversarial", NULL, OPT_KNOB_ENV, "SEED", NULL, OFF(xvars),
	  "RMA within what MPI allows, at its most hostile:\n"
	  "operations as late as possible, reordered, puts\n"
	  "split, lock grants and PSCW starts shuffled (seed\n"
	  "> 0; a racing program shows it)",
	  SHM_KNOB_ADVERSARIAL },
	{ "tag-output", NULL, OPT_FLAG, NULL, "off", OFF(tag_output),
	  "prefix every line of output with \"[rank] \"", NO_KNOB },
	{ "timeout", NULL, OPT_SECONDS, "S", "0", OFF(timeout_s),
	  "stop the job after S seconds (fractions allowed;\n"
	  "0: never)", NO_KNOB },
	{ "kill-grace", NULL, OPT_SECONDS, "S", "3", OFF(grace_s),
	  "seconds between stopping the ranks (the forwarded\n"
	  "signal or SIGTERM) and SIGKILL", NO_KNOB },
	{ "deadlock-timeout", NULL, OPT_SECONDS, "S", "3", OFF(deadlock_s),
	  "the watchdog: when every rank is blocked in MPI and\n"
	  "nothing moved for S seconds, report who waits for\n"
	  "whom and end the job (status 123); report a rank\n"
	  "blocked for S seconds on work that only the engine\n"
	  "of a rank outside MPI can do (a weak-progress\n"
	  "stall); 0: no watchdog", NO_KNOB },
	{ "stall-action", NULL, OPT_STALL, "ACTION", "auto", OFF(stall_action),
	  "after reporting a weak-progress stall: report (go\n"
	  "on), kill (end the job, status 123), or auto: kill\n"
	  "when every rank is blocked or stalled, else report", NO_KNOB },
	{ "report-on-timeout", NULL, OPT_FLAG, NULL, "off", OFF(report_on_timeout),
	  "when --timeout expires, print what each rank is\n"
	  "doing and who waits for whom before stopping them", NO_KNOB },
	{ "bind-to", NULL, OPT_KNOB, "OBJ", NULL, OFF(bind_to),
	  "bind each rank to one none|core|hwthread|l3cache|\n"
	  "numa|socket (auto: core when ranks <= cores, else\n"
	  "none); an object the machine lacks is an error",
	  SHM_KNOB_BIND_TO },
	{ "map-by", NULL, OPT_KNOB, "OBJ", NULL, OFF(map_by),
	  "deal ranks round-robin over the core|hwthread|\n"
	  "l3cache|numa|socket objects, each rank then bound\n"
	  "to a --bind-to object within its one (auto: the\n"
	  "--bind-to object)", SHM_KNOB_MAP_BY },
	{ "report-bindings", NULL, OPT_KNOB_FLAG, NULL, NULL, OFF(report_bindings),
	  "each rank prints on stderr, from inside MPI_Init,\n"
	  "the CPUs it may run on and the hwloc objects they\n"
	  "make up", SHM_KNOB_REPORT_BINDINGS },
	{ "info", "topology", OPT_FLAG, NULL, NULL, OFF(info),
	  "print the machine as hwloc sees it, the version,\n"
	  "the build and every knob (value and default), then\n"
	  "exit", NO_KNOB },
	{ "verbose", "v", OPT_FLAG, NULL, "off", OFF(verbose),
	  "say what shmrun does (job id, oversubscription,\n"
	  "event loop) on stderr", NO_KNOB },
	{ "cleanup", NULL, OPT_FLAG, NULL, NULL, OFF(cleanup),
	  "remove what dead jobs left in /dev/shm, then exit", NO_KNOB },
	{ "help", "h", OPT_FLAG, NULL, NULL, OFF(help),
	  "show this help and exit", NO_KNOB },
	{ "version", "V", OPT_FLAG, NULL, NULL, OFF(version),
	  "show shmrun's version and exit", NO_KNOB },
};

#define OPTS_COUNT (sizeof(opts_table) / sizeof(opts_table[0]))

static void __attribute__((format(printf, 1, 2))) usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "shmrun: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\nshmrun: try 'shmrun --help'\n");
	va_end(ap);
}

static int parse_ranks(const char *s, long *out)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end != '\0' || v < 1 || v > RUN_MAX_RANKS)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	/* digits and a point only: no sign, "inf", "nan" or hex */
	if (!((*s >= '0' && *s <= '9') || *s == '.') || strpbrk(s, "xXpP"))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end != '\0' || !isfinite(v) || v < 0 ||
	    v > 1e9)
		return -EINVAL;
	*out = v;
	return 0;
}

/* Whether the first namelen bytes of s are the name of knob k. */
static int knob_named(enum shm_knob_id k, const char *s, size_t namelen)
{
	return strncmp(s, shm_knobs[k].name, namelen) == 0 && shm_knobs[k].name[namelen] == '\0';
}

/* Append "VAR=VALUE" (which must outlive o) to the ranks' environment. */
int run_opts_setenv(struct run_opts *o, const char *assignment)
{
	const char **more = realloc(o->xvars, (o->nxvars + 1) * sizeof(*more));

	if (!more)
		return -ENOMEM;
	more[o->nxvars++] = assignment;
	o->xvars = more;
	return 0;
}

static int parse_env(const char *s, struct run_opts *o)
{
	size_t namelen = strcspn(s, "=");

	if (namelen == 0)
		return -EINVAL;
	for (size_t i = 0; i < run_env_nvars; i++) {
		if (strlen(run_env_vars[i].name) == namelen &&
		    strncmp(run_env_vars[i].name, s, namelen) == 0)
			return -EPERM;
	}
	/* the job is laid out from shmrun's values; the ranks check those */
	if (knob_named(SHM_KNOB_CHANNEL, s, namelen) ||
	    knob_named(SHM_KNOB_CHANNEL_RINGS, s, namelen))
		return -EPERM;
	return run_opts_setenv(o, s);
}

/* --progress MODE is -x SHMPI_PROGRESS=MODE, with MODE checked. */
static int parse_progress(const char *s, struct run_opts *o)
{
	static const char *const set[] = { "SHMPI_PROGRESS=weak", "SHMPI_PROGRESS=strong" };
	int strong = strcmp(s, "strong") == 0;

	if (!strong && strcmp(s, "weak") != 0)
		return -EINVAL;
	return run_opts_setenv(o, set[strong]);
}

/* --adversarial SEED is -x SHMPI_ADVERSARIAL=SEED, with SEED checked (the
 * -x list keeps the pointer: one buffer per knob, the last value wins). */
static int parse_knob_env(enum shm_knob_id k, const char *s, struct run_opts *o)
{
	static char sets[SHM_KNOB_COUNT][64];
	char *set = sets[k];
	long v;

	if (shm_knob_parse(k, s, &v) < 0 ||
	    (size_t)snprintf(set, sizeof(sets[k]), "%s=%s", shm_knobs[k].name, s) >=
	    sizeof(sets[k]))
		return -EINVAL;
	return run_opts_setenv(o, set);
}

/* -genv VAR VALUE: "VAR=VALUE", kept by o until run_opts_free. */
static int join_env(struct run_opts *o, const char *var, const char *value,
		    const char **out)
{
	char **more;
	char *set;

	if (strchr(var, '='))
		return -EINVAL;
	more = realloc(o->owned, (o->nowned + 1) * sizeof(*more));
	if (!more)
		return -ENOMEM;
	o->owned = more;
	if (asprintf(&set, "%s=%s", var, value) < 0)
		return -ENOMEM;
	o->owned[o->nowned++] = set;
	*out = set;
	return 0;
}

/* Whether the len bytes at name are this machine's name. */
static bool host_is_local(const char *name, size_t len)
{
	static const char *const local[] = { "localhost", "127.0.0.1" };
	char self[256];

	for (size_t i = 0; i < sizeof(local) / sizeof(local[0]); i++) {
		if (strlen(local[i]) == len && strncmp(local[i], name, len) == 0)
			return true;
	}
	if (gethostname(self, sizeof(self)) < 0)
		return false;
	self[sizeof(self) - 1] = '\0';
	/* its whole name, or the first label of it (vm for vm.example.org) */
	return strncmp(self, name, len) == 0 && (self[len] == '\0' || self[len] == '.');
}

/*
 * --host HOST[:SLOTS][,HOST[:SLOTS]...]: 0 when every HOST is this machine,
 * -EHOSTUNREACH when one is not (shmpi is single-node), -EINVAL when
 * malformed.  The slots, which Open MPI counts, limit nothing here.
 */
static int parse_host(const char *s)
{
	int rc = 0;

	do {
		size_t len = strcspn(s, ",");
		size_t name = strcspn(s, ":,");
		size_t nslots = name < len ? len - name - 1 : 0;
		const char *slots = s + name + 1;

		if (name == 0 || (name < len && (nslots == 0 ||
		    strspn(slots, "0123456789") != nslots || strspn(slots, "0") == nslots)))
			return -EINVAL;
		if (!host_is_local(s, name))
			rc = -EHOSTUNREACH;
		s += len;
	} while (*s++ == ',');
	return rc;
}

static int parse_stall(const char *s, enum run_stall_action *out)
{
	static const char *const names[] = {
		[RUN_STALL_AUTO] = "auto",
		[RUN_STALL_REPORT] = "report",
		[RUN_STALL_KILL] = "kill",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(s, names[i]) == 0) {
			*out = (enum run_stall_action)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* Store value (NULL for a flag) into the option's field. */
static int opt_set(const struct opt *opt, const char *value, struct run_opts *o)
{
	char *field = (char *)o + opt->off;
	int rc = -EINVAL;

	switch (opt->type) {
	case OPT_RANKS:
		rc = parse_ranks(value, (long *)field);
		break;
	case OPT_SECONDS:
		rc = parse_seconds(value, (double *)field);
		break;
	case OPT_FLAG:
		/* a default of "off" is the only value a flag is given */
		*(bool *)field = value == NULL;
		rc = value == NULL || strcmp(value, "off") == 0 ? 0 : -EINVAL;
		break;
	case OPT_ENV:
	case OPT_GENV:
		rc = parse_env(value, o);
		break;
	case OPT_HOST:
		rc = parse_host(value);
		break;
	case OPT_PROGRESS:
		rc = parse_progress(value, o);
		break;
	case OPT_STALL:
		rc = parse_stall(value, (enum run_stall_action *)field);
		break;
	case OPT_KNOB:
		rc = shm_knob_parse(opt->knob, value, (long *)field);
		break;
	case OPT_KNOB_FLAG:
		*(bool *)field = true;
		rc = value ? -EINVAL : 0;
		break;
	case OPT_COMPAT:
		rc = value ? -EINVAL : 0;
		break;
	case OPT_KNOB_ENV:
		rc = parse_knob_env(opt->knob, value, o);
		break;
	}
	return rc;
}

static const char *opt_value_error(const struct opt *opt, int rc)
{
	if (rc == -EPERM)
		return "%s %s: shmrun sets this variable for every rank itself";
	if (rc == -EHOSTUNREACH)
		return "%s %s: shmpi is single-node, every rank runs on this machine; "
		       "across nodes, the same program runs with MPICH or Open MPI "
		       "(build it with their mpicc, start it with their mpiexec)";
	switch (opt->type) {
	case OPT_RANKS:
		return "%s: '%s' is not a number of ranks (1 to 4096)";
	case OPT_SECONDS:
		return "%s: '%s' is not a number of seconds (like 2 or 0.5)";
	case OPT_ENV:
		return "%s: '%s' is not VAR or VAR=VALUE";
	case OPT_GENV:
		return "%s: '%s' is not a variable's name";
	case OPT_HOST:
		return "%s: '%s' is not HOST[:SLOTS][,HOST[:SLOTS]...]";
	case OPT_PROGRESS:
		return "%s: '%s' is neither weak nor strong";
	case OPT_STALL:
		return "%s: '%s' is not auto, report or kill";
	case OPT_KNOB:
	case OPT_KNOB_ENV:
		return "%s: '%s' is not one of the values --help lists";
	case OPT_FLAG:
	case OPT_KNOB_FLAG:
	case OPT_COMPAT:
		break;
	}
	return "%s: takes no value ('%s')";
}

static bool opt_is_flag(const struct opt *opt)
{
	return opt->type == OPT_FLAG || opt->type == OPT_KNOB_FLAG || opt->type == OPT_COMPAT;
}

static const struct opt *opt_find(const char *name, size_t len)
{
	for (size_t i = 0; i < OPTS_COUNT; i++) {
		const struct opt *opt = &opts_table[i];

		if ((strlen(opt->name) == len && strncmp(opt->name, name, len) == 0) ||
		    (opt->alias && strlen(opt->alias) == len &&
		     strncmp(opt->alias, name, len) == 0))
			return opt;
	}
	return NULL;
}

/*
 * Parse the option at argv[*i]: its value is after '=', attached to a
 * one-letter name, or the next argument.  Advances *i past what it used.
 */
static int opt_parse_one(int argc, char **argv, int *i, struct run_opts *o)
{
	const char *arg = argv[*i];
	const char *name = arg + (arg[1] == '-' ? 2 : 1);
	size_t len = strcspn(name, "=");
	const char *value = name[len] == '=' ? name + len + 1 : NULL;
	const struct opt *opt = opt_find(name, len);
	bool flag;
	int rc;

	if (!opt && arg[1] != '-' && len > 1) {
		/* -n4, -xFOO=1: a one-letter option with its value attached */
		opt = opt_find(name, 1);
		if (opt && !opt_is_flag(opt))
			value = name + 1;
		else
			opt = NULL;
	}
	if (!opt) {
		usage_error("unknown option '%s'", arg);
		return -EINVAL;
	}
	flag = opt_is_flag(opt);
	if (!flag && !value) {
		if (*i + 1 >= argc) {
			usage_error("%s needs a value (%s)", arg, opt->metavar);
			return -EINVAL;
		}
		value = argv[++*i];
	} else if (flag && value) {
		usage_error("%s takes no value", arg);
		return -EINVAL;
	}
	rc = 0;
	if (opt->type == OPT_GENV) {
		/* the variable's value is one more argument */
		if (*i + 1 >= argc) {
			usage_error("%s needs a variable and a value (%s)", arg, opt->metavar);
			return -EINVAL;
		}
		rc = join_env(o, value, argv[++*i], &value);
	}
	(*i)++;
	if (rc == 0)
		rc = opt_set(opt, value, o);
	if (rc == -ENOMEM) {
		fprintf(stderr, "shmrun: out of memory\n");
		return rc;
	}
	if (rc < 0) {
		usage_error(opt_value_error(opt, rc), arg, value ? value : "");
		return -EINVAL;
	}
	return 0;
}

/* The knobs shmrun reads must be well-formed in its environment. */
static int opts_check_knobs(void)
{
	char what[96];
	long v;

	for (int k = 0; k < SHM_KNOB_COUNT; k++) {
		if (!(shm_knobs[k].where & SHM_KNOB_SHMRUN) ||
		    shm_knob_get((enum shm_knob_id)k, &v) == 0)
			continue;
		shm_knob_describe((enum shm_knob_id)k, what, sizeof(what));
		usage_error("%s=%s is malformed (it takes %s)", shm_knobs[k].name,
			    shm_knob_text((enum shm_knob_id)k), what);
		return -EINVAL;
	}
	return 0;
}

/* The default of an option: a knob's (from the environment), or the table's. */
static const char *opt_default(const struct opt *opt)
{
	return opt->type == OPT_KNOB ? shm_knob_text(opt->knob) : opt->def;
}

int run_opts_parse(struct run_opts *o, int argc, char **argv)
{
	int i = 1, rc;

	memset(o, 0, sizeof(*o));
	if (opts_check_knobs() < 0)
		return -EINVAL;
	for (size_t k = 0; k < OPTS_COUNT; k++) {
		const char *def = opt_default(&opts_table[k]);

		/* the table's defaults must parse: a bad one is our bug */
		if (def && opt_set(&opts_table[k], def, o) < 0) {
			fprintf(stderr, "shmrun: bad default for --%s\n", opts_table[k].name);
			return -EINVAL;
		}
	}
	while (i < argc && argv[i][0] == '-' && argv[i][1] != '\0') {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		rc = opt_parse_one(argc, argv, &i, o);
		if (rc < 0)
			goto err_free;
	}
	o->argv = argv + i;
	if (o->report_bindings) {
		rc = run_opts_setenv(o, "SHMRUN_REPORT_BINDINGS=1");
		if (rc < 0)
			goto err_free;
	}
	if (o->help || o->version || o->info)
		return 0;
	if (o->cleanup) {
		if (i < argc || o->nranks) {
			usage_error("--cleanup takes no program and no -n");
			rc = -EINVAL;
			goto err_free;
		}
		return 0;
	}
	if (!o->nranks) {
		if (i < argc)
			usage_error("-n N is missing");
		else
			usage_error("usage: shmrun -n N [options] program [args]");
		rc = -EINVAL;
		goto err_free;
	}
	if (i >= argc) {
		usage_error("no program to run");
		rc = -EINVAL;
		goto err_free;
	}
	return 0;

err_free:
	run_opts_free(o);
	return rc;
}

void run_opts_free(struct run_opts *o)
{
	free(o->bind_cpus);
	o->bind_cpus = NULL;
	free(o->xvars);
	o->xvars = NULL;
	o->nxvars = 0;
	for (size_t i = 0; i < o->nowned; i++)
		free(o->owned[i]);
	free(o->owned);
	o->owned = NULL;
	o->nowned = 0;
}

static void help_option(const struct opt *opt)
{
	char left[64];
	const char *dash = strlen(opt->name) > 1 ? "--" : "-";
	const char *adash = opt->alias && strlen(opt->alias) > 1 && opt_is_flag(opt) ?
			    "--" : "-";
	const char *line = opt->help;
	int n;

	n = snprintf(left, sizeof(left), "%s%s", dash, opt->name);
	if (opt->alias)
		n += snprintf(left + n, sizeof(left) - (size_t)n, ", %s%s", adash, opt->alias);
	if (opt->metavar)
		snprintf(left + n, sizeof(left) - (size_t)n, " %s", opt->metavar);
	/* the help text's lines, indented under one another */
	while (*line) {
		size_t len = strcspn(line, "\n");

		printf("  %-22s%.*s\n", left, (int)len, line);
		left[0] = '\0';
		line += len + (line[len] == '\n');
	}
	if (opt->type == OPT_RANKS)
		printf("  %-22s(required)\n", "");
	else if (opt->type == OPT_PROGRESS || opt->type == OPT_KNOB ||
		 opt->type == OPT_KNOB_ENV)
		printf("  %-22s(default: $%s, else %s)\n", "",
		       shm_knobs[opt->knob].name, shm_knobs[opt->knob].def);
	else if (opt->type == OPT_KNOB_FLAG)
		printf("  %-22s(default: $%s, else off)\n", "",
		       shm_knobs[opt->knob].name);
	else if (opt->def || !opt_is_flag(opt))
		printf("  %-22s(default: %s)\n", "", opt->def ? opt->def : "none");
}

void run_opts_help(void)
{
	printf("usage: shmrun -n N [options] program [args...]\n"
	       "Run N processes (ranks) of an MPI program as one shmpi job on this machine.\n"
	       "Options come before the program; every argument after it is the program's.\n"
	       "\noptions:\n");
	for (size_t i = 0; i < OPTS_COUNT; i++)
		help_option(&opts_table[i]);
	printf("\nThe ranks get shmrun's environment (with the -x changes) and:\n");
	for (size_t i = 0; i < run_env_nvars; i++) {
		static const char *const what[] = {
			[RUN_ENV_RANK] = "the rank, 0 to N-1",
			[RUN_ENV_SIZE] = "N",
			[RUN_ENV_JOB] = "the job id",
		};

		printf("  %-28s%s\n", run_env_vars[i].name, what[run_env_vars[i].value]);
	}
	printf("Knobs: environment variables read by the ranks or shmrun (shmrun --info\n"
	       "shows each one's value, default and meaning; a malformed value is an error):\n");
	for (int k = 0; k < SHM_KNOB_COUNT; k++) {
		char what[96];

		shm_knob_describe((enum shm_knob_id)k, what, sizeof(what));
		printf("  %-28s%s (default %s)\n", shm_knobs[k].name, what, shm_knobs[k].def);
	}
	printf("Rank 0 reads shmrun's stdin, the others /dev/null.  Each rank's stdout\n"
	       "and stderr go to shmrun's, in whole lines.  A signal (INT, TERM, HUP,\n"
	       "QUIT) is forwarded to the ranks, which get SIGKILL after the grace\n"
	       "period; a second signal kills them at once.  When a rank fails, the\n"
	       "others get SIGTERM, then SIGKILL after the grace period.\n"
	       "The watchdog (--deadlock-timeout) reads what each rank publishes: the MPI\n"
	       "call it is blocked in and what it waits for, or since when it is outside\n"
	       "MPI.  A rank outside MPI that nobody waits for is computing and is left\n"
	       "alone, and so is one that others wait for only in a barrier or another\n"
	       "shared-memory wait.  Its report goes to stderr: a line per rank, the\n"
	       "wait-for cycle or chain, the verdict and a hint.\n"
	       "\nexit status:\n"
	       "  0       every rank exited with 0\n"
	       "  N       the exit status of the first rank that failed (1 if it left\n"
	       "          between MPI_Init and MPI_Finalize; the rank's status if it\n"
	       "          called MPI_Abort)\n"
	       "  128+S   the first rank that failed, or shmrun, was killed by signal S\n"
	       "  123     the watchdog ended the job: a deadlock, or a weak-progress stall\n"
	       "          that nothing else could end\n"
	       "  124     --timeout expired\n"
	       "  125     bad usage, or shmrun's own error\n"
	       "  126     the program is not executable\n"
	       "  127     the program was not found\n");
}
