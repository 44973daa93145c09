/*
 * Info objects and the MPI_Info calls.  Keys keep the order in which they
 * were first set (MPI_Info_get_nthkey counts in that order).  MPI_INFO_ENV
 * describes how the job was started.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api.h"
#include "errhandler.h"
#include "info.h"
#include "runtime.h"

static struct info info_env;

struct info *info_alloc(int with_handle)
{
	struct info *i = calloc(1, sizeof(*i));

	if (!i)
		return NULL;
	i->refs = 1;
	i->handle = MPI_INFO_NULL;
	if (with_handle && handle_alloc(HANDLE_INFO, i, &i->handle) < 0) {
		free(i);
		return NULL;
	}
	return i;
}

static void info_clear(struct info *i)
{
	struct info_entry *e = i->head;

	while (e) {
		struct info_entry *next = e->next;

		free(e->key);
		free(e->value);
		free(e);
		e = next;
	}
	i->head = NULL;
	i->nkeys = 0;
}

void info_unref(struct info *i)
{
	if (!i || --i->refs > 0)
		return;
	info_clear(i);
	if (i->handle != MPI_INFO_NULL && !handle_is_builtin(i->handle))
		handle_release(i->handle);
	if (i != &info_env)
		free(i);
}

const char *info_lookup(const struct info *i, const char *key)
{
	for (const struct info_entry *e = i ? i->head : NULL; e; e = e->next)
		if (!strcmp(e->key, key))
			return e->value;
	return NULL;
}

int info_put(struct info *i, const char *key, const char *value)
{
	struct info_entry **link = &i->head, *e;
	char *v = strdup(value);

	if (!v)
		return -ENOMEM;
	for (; *link; link = &(*link)->next)
		if (!strcmp((*link)->key, key)) {
			free((*link)->value);
			(*link)->value = v;
			return 0;
		}
	e = calloc(1, sizeof(*e));
	if (!e || !(e->key = strdup(key))) {
		free(e);
		free(v);
		return -ENOMEM;
	}
	e->value = v;
	*link = e;
	i->nkeys++;
	return 0;
}

/* Copy every entry of src into dst; 0 or -ENOMEM. */
static int info_copy(struct info *dst, const struct info *src)
{
	for (const struct info_entry *e = src->head; e; e = e->next)
		if (info_put(dst, e->key, e->value) < 0)
			return -ENOMEM;
	return 0;
}

struct info *info_dup_internal(const struct info *src)
{
	struct info *i = info_alloc(0);

	if (i && info_copy(i, src) < 0) {
		info_unref(i);
		return NULL;
	}
	return i;
}

/* What MPI_INFO_ENV holds (MPI 4.1, chapter 11), for a program started
 * with argc and argv; 0 or -ENOMEM. */
static int info_env_fill(struct info *i, int argc, char **argv)
{
	char buf[4096], host[256];
	size_t at = 0;
	int rc = 0;

	if (argc > 0 && argv && argv[0])
		rc |= info_put(i, "command", argv[0]);
	buf[0] = '\0';
	for (int a = 1; a < argc && argv && argv[a]; a++)
		at += (size_t)snprintf(buf + at, at < sizeof(buf) ? sizeof(buf) - at : 0,
				       "%s%s", a > 1 ? " " : "", argv[a]);
	if (argc > 1)
		rc |= info_put(i, "argv", buf);
	/* before MPI_Init, the size shmrun gives the job */
	snprintf(buf, sizeof(buf), "%d", rt.phase == RUNTIME_ACTIVE ? rt.size :
		 getenv("SHMPI_SIZE") ? atoi(getenv("SHMPI_SIZE")) : 1);
	rc |= info_put(i, "maxprocs", buf);
	rc |= info_put(i, "soft", buf);
	if (gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = '\0';
		rc |= info_put(i, "host", host);
	}
#if defined(__x86_64__)
	rc |= info_put(i, "arch", "x86_64");
#elif defined(__aarch64__)
	rc |= info_put(i, "arch", "aarch64");
#endif
	if (getcwd(buf, sizeof(buf)))
		rc |= info_put(i, "wdir", buf);
	rc |= info_put(i, "thread_level",
		       rt.thread_level == MPI_THREAD_SERIALIZED ? "MPI_THREAD_SERIALIZED" :
		       rt.thread_level == MPI_THREAD_FUNNELED ? "MPI_THREAD_FUNNELED" :
		       "MPI_THREAD_SINGLE");
	return rc < 0 ? -ENOMEM : 0;
}

void info_init_builtins(int argc, char **argv)
{
	memset(&info_env, 0, sizeof(info_env));
	info_env.handle = MPI_INFO_ENV;
	info_env.refs = 1;
	handle_set_builtin(HANDLE_INFO, (unsigned)MPI_INFO_ENV & 0xff, &info_env);
	(void)info_env_fill(&info_env, argc, argv);
}

void info_fini_builtins(void)
{
	info_clear(&info_env);
}

/* ---- the calls ---------------------------------------------------------- */

/*
 * The MPI_Info calls work at any time, before MPI_Init and after
 * MPI_Finalize too (MPI 4.1, section 11.4.1): their errors go through
 * MPI_COMM_WORLD's handler while the library is up, and are returned
 * as they are while it is not.
 */
static int info_err(const char *call, int errclass, const char *arg, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int info_err(const char *call, int errclass, const char *arg, const char *fmt, ...)
{
	char detail[256];
	va_list ap;

	if (rt.phase != RUNTIME_ACTIVE)
		return errclass;
	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	return err_comm(MPI_COMM_WORLD, call, errclass, arg, "%s", detail);
}

static struct info *info_arg(const char *call, MPI_Info h, int *rc)
{
	struct info *i = info_get(h);

	*rc = i ? MPI_SUCCESS :
	      info_err(call, MPI_ERR_INFO, "info", h == MPI_INFO_NULL ?
		       "is MPI_INFO_NULL" : "0x%x is not a valid info object",
		       (unsigned)h);
	return i;
}

static int info_check_key(const char *call, const char *key)
{
	size_t n;

	if (!key)
		return info_err(call, MPI_ERR_INFO_KEY, "key", "is NULL");
	n = strlen(key);
	if (n == 0 || n > MPI_MAX_INFO_KEY)
		return info_err(call, MPI_ERR_INFO_KEY, "key",
				"has %zu characters (1 to %d allowed)", n,
				MPI_MAX_INFO_KEY);
	return MPI_SUCCESS;
}

API(int, Info_create, (MPI_Info *info))
{
	struct info *i;

	runtime_hold();
	if (!info)
		return info_err("MPI_Info_create", MPI_ERR_ARG, "info", "is NULL");
	i = info_alloc(1);
	if (!i)
		return info_err("MPI_Info_create", MPI_ERR_NO_MEM, NULL, "out of memory");
	*info = i->handle;
	return MPI_SUCCESS;
}

API(int, Info_set, (MPI_Info info, const char *key, const char *value))
{
	struct info *i;
	int rc;

	runtime_hold();
	if (!(i = info_arg("MPI_Info_set", info, &rc)))
		return rc;
	if (i == &info_env)
		return info_err("MPI_Info_set", MPI_ERR_INFO, "info",
				"MPI_INFO_ENV cannot be changed");
	if ((rc = info_check_key("MPI_Info_set", key)) != MPI_SUCCESS)
		return rc;
	if (!value || strlen(value) > MPI_MAX_INFO_VAL)
		return info_err("MPI_Info_set", MPI_ERR_INFO_VALUE, "value",
				!value ? "is NULL" : "is longer than MPI_MAX_INFO_VAL");
	if (info_put(i, key, value) < 0)
		return info_err("MPI_Info_set", MPI_ERR_NO_MEM, NULL, "out of memory");
	return MPI_SUCCESS;
}

API(int, Info_get, (MPI_Info info, const char *key, int valuelen, char *value,
		    int *flag))
{
	struct info *i;
	const char *v;
	int rc;

	runtime_hold();
	if (!(i = info_arg("MPI_Info_get", info, &rc)))
		return rc;
	if ((rc = info_check_key("MPI_Info_get", key)) != MPI_SUCCESS)
		return rc;
	if (valuelen < 0 || !value || !flag)
		return info_err("MPI_Info_get", MPI_ERR_ARG, valuelen < 0 ? "valuelen" :
				!value ? "value" : "flag", "is %s",
				valuelen < 0 ? "negative" : "NULL");
	v = info_lookup(i, key);
	*flag = v != NULL;
	if (v) {
		/* at most valuelen characters, then the terminating NUL */
		size_t n = strlen(v) < (size_t)valuelen ? strlen(v) : (size_t)valuelen;

		memcpy(value, v, n);
		value[n] = '\0';
	}
	return MPI_SUCCESS;
}

API(int, Info_get_valuelen, (MPI_Info info, const char *key, int *valuelen, int *flag))
{
	struct info *i;
	const char *v;
	int rc;

	runtime_hold();
	if (!(i = info_arg("MPI_Info_get_valuelen", info, &rc)))
		return rc;
	if ((rc = info_check_key("MPI_Info_get_valuelen", key)) != MPI_SUCCESS)
		return rc;
	if (!valuelen || !flag)
		return info_err("MPI_Info_get_valuelen", MPI_ERR_ARG,
				!valuelen ? "valuelen" : "flag", "is NULL");
	v = info_lookup(i, key);
	*flag = v != NULL;
	if (v)
		*valuelen = (int)strlen(v);
	return MPI_SUCCESS;
}

/*
 * MPI 4.1, chapter 10: *buflen is the size of value on entry (0: value is
 * not written) and the value's length with its NUL on return; value gets
 * what fits, NUL-terminated.  A key that is not there leaves both alone.
 */
API(int, Info_get_string, (MPI_Info info, const char *key, int *buflen, char *value,
			   int *flag))
{
	struct info *i;
	const char *v;
	int rc;

	runtime_hold();
	if (!(i = info_arg("MPI_Info_get_string", info, &rc)))
		return rc;
	if ((rc = info_check_key("MPI_Info_get_string", key)) != MPI_SUCCESS)
		return rc;
	if (!buflen || !flag)
		return info_err("MPI_Info_get_string", MPI_ERR_ARG,
				!buflen ? "buflen" : "flag", "is NULL");
	if (*buflen < 0 || (*buflen > 0 && !value))
		return info_err("MPI_Info_get_string", MPI_ERR_ARG,
				*buflen < 0 ? "buflen" : "value",
				*buflen < 0 ? "is negative" : "is NULL");
	v = info_lookup(i, key);
	*flag = v != NULL;
	if (!v)
		return MPI_SUCCESS;
	if (*buflen > 0) {
		size_t n = strlen(v) < (size_t)*buflen - 1 ? strlen(v) : (size_t)*buflen - 1;

		memcpy(value, v, n);
		value[n] = '\0';
	}
	*buflen = (int)strlen(v) + 1;
	return MPI_SUCCESS;
}

/* MPI 4.1, chapter 11: a new info object with what MPI_INFO_ENV would
 * hold for a program started with argc and argv. */
API(int, Info_create_env, (int argc, char *argv[], MPI_Info *info))
{
	struct info *i;

	runtime_hold();
	if (!info)
		return info_err("MPI_Info_create_env", MPI_ERR_ARG, "info", "is NULL");
	if (argc < 0)
		return info_err("MPI_Info_create_env", MPI_ERR_ARG, "argc",
				"%d is negative", argc);
	i = info_alloc(1);
	if (!i || info_env_fill(i, argc, argv) < 0) {
		info_unref(i);
		return info_err("MPI_Info_create_env", MPI_ERR_NO_MEM, NULL, "out of memory");
	}
	*info = i->handle;
	return MPI_SUCCESS;
}

API(int, Info_get_nkeys, (MPI_Info info, int *nkeys))
{
	struct info *i;
	int rc;

	runtime_hold();
	if (!(i = info_arg("MPI_Info_get_nkeys", info, &rc)))
		return rc;
	if (!nkeys)
		return info_err("MPI_Info_get_nkeys", MPI_ERR_ARG, "nkeys", "is NULL");
	*nkeys = i->nkeys;
	return MPI_SUCCESS;
}

API(int, Info_get_nthkey, (MPI_Info info, int n, char *key))
{
	struct info *i;
	struct info_entry *e;
	int rc;

	runtime_hold();
	if (!(i = info_arg("MPI_Info_get_nthkey", info, &rc)))
		return rc;
	if (!key)
		return info_err("MPI_Info_get_nthkey", MPI_ERR_ARG, "key", "is NULL");
	if (n < 0 || n >= i->nkeys)
		return info_err("MPI_Info_get_nthkey", MPI_ERR_ARG, "n",
				"%d is not in [0, %d)", n, i->nkeys);
	for (e = i->head; n > 0; n--)
		e = e->next;
	snprintf(key, MPI_MAX_INFO_KEY + 1, "%s", e->key);
	return MPI_SUCCESS;
}

API(int, Info_delete, (MPI_Info info, const char *key))
{
	struct info_entry **link, *e;
	struct info *i;
	int rc;

	runtime_hold();
	if (!(i = info_arg("MPI_Info_delete", info, &rc)))
		return rc;
	if (i == &info_env)
		return info_err("MPI_Info_delete", MPI_ERR_INFO, "info",
				"MPI_INFO_ENV cannot be changed");
	if ((rc = info_check_key("MPI_Info_delete", key)) != MPI_SUCCESS)
		return rc;
	for (link = &i->head; *link; link = &(*link)->next)
		if (!strcmp((*link)->key, key))
			break;
	if (!*link)
		return info_err("MPI_Info_delete", MPI_ERR_INFO_NOKEY, "key",
				"\"%s\" is not set", key);
	e = *link;
	*link = e->next;
	free(e->key);
	free(e->value);
	free(e);
	i->nkeys--;
	return MPI_SUCCESS;
}

API(int, Info_dup, (MPI_Info info, MPI_Info *newinfo))
{
	struct info *i, *n;
	int rc;

	runtime_hold();
	if (!(i = info_arg("MPI_Info_dup", info, &rc)))
		return rc;
	if (!newinfo)
		return info_err("MPI_Info_dup", MPI_ERR_ARG, "newinfo", "is NULL");
	n = info_alloc(1);
	if (!n || info_copy(n, i) < 0) {
		info_unref(n);
		return info_err("MPI_Info_dup", MPI_ERR_NO_MEM, NULL, "out of memory");
	}
	*newinfo = n->handle;
	return MPI_SUCCESS;
}

API(int, Info_free, (MPI_Info *info))
{
	struct info *i;
	int rc;

	runtime_hold();
	if (!info)
		return info_err("MPI_Info_free", MPI_ERR_ARG, "info", "is NULL");
	if (!(i = info_arg("MPI_Info_free", *info, &rc)))
		return rc;
	if (i == &info_env)
		return info_err("MPI_Info_free", MPI_ERR_INFO, "info",
				"MPI_INFO_ENV cannot be freed");
	handle_release(i->handle);
	i->handle = MPI_INFO_NULL;
	info_unref(i);
	*info = MPI_INFO_NULL;
	return MPI_SUCCESS;
}
