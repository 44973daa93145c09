#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knob.h"

#define KNOB_SPINS_MAX 1000000000ul

const struct shm_knob shm_knobs[SHM_KNOB_COUNT] = {
	[SHM_KNOB_PROGRESS] = {
		"SHMPI_PROGRESS", SHM_KNOB_CHOICE, "weak", "weak|strong", 0,
		SHM_KNOB_RANKS | SHM_KNOB_SHMRUN, SHM_KNOB_BEFORE_INIT,
		"progress mode: weak moves data only inside MPI calls, strong "
		"adds a progress thread per rank (shmrun --progress sets it)" },
	[SHM_KNOB_SPINS] = {
		"SHMPI_SPINS", SHM_KNOB_UINT, "4000", NULL, KNOB_SPINS_MAX,
		SHM_KNOB_RANKS, SHM_KNOB_ANYTIME,
		"spin rounds before a blocked wait sleeps on a futex, when every "
		"rank has a CPU of its own" },
	[SHM_KNOB_SPINS_OVERSUB] = {
		"SHMPI_SPINS_OVERSUBSCRIBED", SHM_KNOB_UINT, "0", NULL,
		KNOB_SPINS_MAX, SHM_KNOB_RANKS, SHM_KNOB_ANYTIME,
		"spin rounds before a futex sleep when ranks outnumber the CPUs "
		"they may use (a spinning waiter only delays the rank it waits for)" },
	[SHM_KNOB_OVERSUB] = {
		"SHMPI_OVERSUBSCRIBED", SHM_KNOB_CHOICE, "auto", "auto|yes|no", 0,
		SHM_KNOB_RANKS, SHM_KNOB_ANYTIME,
		"whether ranks outnumber usable CPUs: auto decides once in "
		"MPI_Init from the affinity mask; yes or no force it" },
	[SHM_KNOB_NUMA] = {
		"SHMPI_NUMA", SHM_KNOB_CHOICE, "owner", "owner|interleave|local|none",
		0, SHM_KNOB_RANKS, SHM_KNOB_ANYTIME,
		"placement of window portions and MPI_Alloc_mem memory when the "
		"info key shmpi_numa does not say: owner (the owning rank's NUMA "
		"node), interleave (all nodes), local (the allocating rank's "
		"node), none (the kernel's first touch)" },
	[SHM_KNOB_CHANNEL] = {
		"SHMPI_CHANNEL_BYTES", SHM_KNOB_CHOICE, "auto",
		"auto|4k|8k|16k|32k|64k|128k|256k|512k|1m", 0,
		SHM_KNOB_SHMRUN | SHM_KNOB_RANKS, SHM_KNOB_FIXED,
		"data bytes of each channel ring (shm/inbox.h); auto: 64k, halved "
		"as ranks grow down to 16k so that a ring for every sender fits "
		"in a rank's share of the channels (1 MiB, 256 MiB in all from "
		"256 ranks up); set it for shmrun, not with -x" },
	[SHM_KNOB_CHANNEL_RINGS] = {
		"SHMPI_CHANNEL_RINGS", SHM_KNOB_CHOICE, "auto",
		"auto|0|1|2|4|8|16|32|64|128|256|512|1024|2048|4096", 0,
		SHM_KNOB_SHMRUN | SHM_KNOB_RANKS, SHM_KNOB_FIXED,
		"channel rings of one sender each per rank, claimed by the first "
		"senders to talk to it (the others share one ring under a lock); "
		"auto: one for every sender while the rank's share of the channels "
		"allows; set it for shmrun, not with -x" },
	[SHM_KNOB_BIND_TO] = {
		"SHMPI_BIND_TO", SHM_KNOB_CHOICE, "auto",
		"auto|none|core|hwthread|l3cache|numa|socket", 0,
		SHM_KNOB_SHMRUN | SHM_KNOB_RANKS, SHM_KNOB_FIXED,
		"what shmrun binds each rank to (--bind-to); auto: core when "
		"ranks <= cores, else none; the ranks see the policy applied" },
	[SHM_KNOB_MAP_BY] = {
		"SHMPI_MAP_BY", SHM_KNOB_CHOICE, "auto",
		"auto|core|hwthread|l3cache|numa|socket", 0, SHM_KNOB_SHMRUN, SHM_KNOB_FIXED,
		"the objects shmrun deals ranks to round-robin (--map-by); auto: "
		"the --bind-to object" },
	[SHM_KNOB_REPORT_BINDINGS] = {
		"SHMRUN_REPORT_BINDINGS", SHM_KNOB_BOOL, "0", NULL, 1,
		SHM_KNOB_SHMRUN | SHM_KNOB_RANKS, SHM_KNOB_BEFORE_INIT,
		"each rank prints its CPU affinity and the hwloc object it "
		"matches, from inside itself in MPI_Init (--report-bindings)" },
	[SHM_KNOB_CC] = {
		"SHMPI_CC", SHM_KNOB_TEXT, "cc", NULL, 0, SHM_KNOB_SHMCC, SHM_KNOB_FIXED,
		"the C compiler shmcc runs (default: the one shmpi was built with)" },
	[SHM_KNOB_CXX] = {
		"SHMPI_CXX", SHM_KNOB_TEXT, "c++", NULL, 0, SHM_KNOB_SHMCC, SHM_KNOB_FIXED,
		"the C++ compiler shmcxx runs (default: the one of shmpi's build)" },
	[SHM_KNOB_ADVERSARIAL] = {
		"SHMPI_ADVERSARIAL", SHM_KNOB_UINT, "0", NULL, 4294967295ul,
		SHM_KNOB_RANKS | SHM_KNOB_SHMRUN, SHM_KNOB_FIXED,
		"nonzero: the adversarial mode, with this seed: RMA operations wait "
		"for the last moment MPI allows, unordered ones are reordered, puts "
		"split, lock grants shuffled, MPI_Win_start returns before the posts" },
	[SHM_KNOB_MEMBARRIER] = {
		"SHMPI_MEMBARRIER", SHM_KNOB_BOOL, "0", NULL, 1,
		SHM_KNOB_RANKS, SHM_KNOB_BEFORE_INIT,
		"1: where the kernel has membarrier(2), ranks wake each other "
		"without a fence (a rank that goes to sleep pays with the system "
		"call, unless ranks outnumber CPUs or a progress thread runs), "
		"which interrupts every CPU that runs a process registered for it, "
		"other jobs' ranks included; 0: both sides fence" },
	[SHM_KNOB_YIELDS] = {
		"SHMPI_YIELDS", SHM_KNOB_UINT, "16", NULL, KNOB_SPINS_MAX,
		SHM_KNOB_RANKS, SHM_KNOB_ANYTIME,
		"sched_yield rounds after the spins, before a blocked wait sleeps on "
		"a futex (ranks that share a CPU pass it on faster than a sleep and "
		"a wake-up)" },
	[SHM_KNOB_EVENT_LOOP] = {
		"SHMRUN_EVENT_LOOP", SHM_KNOB_CHOICE, "auto", "auto|io_uring|epoll", 0,
		SHM_KNOB_SHMRUN, SHM_KNOB_FIXED,
		"what shmrun waits with: auto takes io_uring where the kernel "
		"offers it and epoll elsewhere; io_uring (an error where it is "
		"unavailable) or epoll force one" },
	[SHM_KNOB_SINGLE_COPY] = {
		"SHMPI_SINGLE_COPY", SHM_KNOB_CHOICE, "auto", "auto|cma|mapped|pipeline",
		0, SHM_KNOB_RANKS, SHM_KNOB_ANYTIME,
		"how the data of a large message moves: auto (one copy: from "
		"memory every rank maps when the sender's buffer is there, else "
		"with process_vm_readv, else through the channels), cma "
		"(process_vm_readv only), mapped (mapped memory only), pipeline "
		"(always through the channels, sender and receiver copying at once); "
		"puts and gets on private memory: one copy by the origin under auto "
		"and cma (process_vm_writev/readv), packets under the others" },
	[SHM_KNOB_SINGLE_COPY_MIN] = {
		"SHMPI_SINGLE_COPY_MIN", SHM_KNOB_UINT, "16384", NULL, 4294967295ul,
		SHM_KNOB_RANKS, SHM_KNOB_ANYTIME,
		"the smallest message (bytes) whose data moves in one copy; "
		"smaller rendezvous messages go through the channels (and smaller "
		"puts and gets on private memory as packets)" },
	[SHM_KNOB_SINGLE_COPY_SHARE] = {
		"SHMPI_SINGLE_COPY_SHARE", SHM_KNOB_UINT, "131072", NULL, 4294967295ul,
		SHM_KNOB_RANKS, SHM_KNOB_ANYTIME,
		"the smallest message (bytes) copied with process_vm_readv whose "
		"sender, when it is inside MPI, writes part of the data itself "
		"(process_vm_writev) while the receiver reads the rest; 0: never" },
	[SHM_KNOB_SINGLE_COPY_RMA_MIN] = {
		"SHMPI_SINGLE_COPY_RMA_MIN", SHM_KNOB_UINT, "1024", NULL, 4294967295ul,
		SHM_KNOB_RANKS, SHM_KNOB_ANYTIME,
		"the smallest put or get (bytes) on another rank's private memory "
		"that moves in one copy by its origin; smaller ones go as packets "
		"through the target's engine" },
	[SHM_KNOB_WIN_CREATE_SHARE] = {
		"SHMPI_WIN_CREATE_SHARE", SHM_KNOB_UINT, "1073741824", NULL, 4294967295ul,
		SHM_KNOB_RANKS, SHM_KNOB_ANYTIME,
		"the largest MPI_Win_create memory or MPI_Win_attach region (bytes) "
		"of whole pages of private memory that becomes shared memory while "
		"the window lives (the region is attached), so that the other ranks "
		"reach it directly; 0: never" },
};

/* The index of the choice of kn named by the len bytes at s, or -1. */
static int knob_choice_index(const struct shm_knob *kn, const char *s, size_t len)
{
	const char *c = kn->choices;

	for (int i = 0; *c; i++) {
		size_t n = strcspn(c, "|");

		if (n == len && strncmp(c, s, len) == 0)
			return i;
		c += n + (c[n] == '|');
	}
	return -1;
}

static int knob_parse_uint(const char *text, unsigned long max, long *out)
{
	unsigned long v;
	char *end;

	if (*text < '0' || *text > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(text, &end, 10);
	if (errno || *end != '\0' || v > max)
		return -EINVAL;
	*out = (long)v;
	return 0;
}

static int knob_parse_bool(const char *text, long *out)
{
	static const char *const words[][2] = {
		{ "0", "1" }, { "no", "yes" }, { "off", "on" }, { "false", "true" },
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		for (int v = 0; v < 2; v++) {
			if (strcmp(text, words[i][v]) == 0) {
				*out = v;
				return 0;
			}
		}
	}
	return -EINVAL;
}

int shm_knob_parse(enum shm_knob_id k, const char *text, long *out)
{
	const struct shm_knob *kn = &shm_knobs[k];
	int i;

	switch (kn->type) {
	case SHM_KNOB_UINT:
		return knob_parse_uint(text, kn->max, out);
	case SHM_KNOB_BOOL:
		return knob_parse_bool(text, out);
	case SHM_KNOB_CHOICE:
		i = knob_choice_index(kn, text, strlen(text));
		if (i < 0)
			return -EINVAL;
		*out = i;
		return 0;
	case SHM_KNOB_TEXT:
		*out = 0;
		return 0;
	}
	return -EINVAL;
}

const char *shm_knob_text(enum shm_knob_id k)
{
	const char *s = getenv(shm_knobs[k].name);

	return s && *s ? s : shm_knobs[k].def;
}

int shm_knob_get(enum shm_knob_id k, long *out)
{
	return shm_knob_parse(k, shm_knob_text(k), out);
}

int shm_knob_choice(enum shm_knob_id k, int i, char *buf, size_t len)
{
	const char *c = shm_knobs[k].choices;
	int n = 0;

	if (len)
		buf[0] = '\0';
	while (c && *c) {
		size_t w = strcspn(c, "|");

		if (n++ == i)
			snprintf(buf, len, "%.*s", (int)w, c);
		c += w + (c[w] == '|');
	}
	return n;
}

void shm_knob_format(enum shm_knob_id k, long v, char *buf, size_t len)
{
	switch (shm_knobs[k].type) {
	case SHM_KNOB_CHOICE:
		shm_knob_choice(k, (int)v, buf, len);
		break;
	case SHM_KNOB_TEXT:
		snprintf(buf, len, "%s", shm_knob_text(k));
		break;
	case SHM_KNOB_UINT:
	case SHM_KNOB_BOOL:
		snprintf(buf, len, "%ld", v);
		break;
	}
}

void shm_knob_describe(enum shm_knob_id k, char *buf, size_t len)
{
	const struct shm_knob *kn = &shm_knobs[k];

	switch (kn->type) {
	case SHM_KNOB_CHOICE:
		snprintf(buf, len, "%s", kn->choices);
		break;
	case SHM_KNOB_UINT:
		snprintf(buf, len, "0 to %lu", kn->max);
		break;
	case SHM_KNOB_BOOL:
		snprintf(buf, len, "0 or 1");
		break;
	case SHM_KNOB_TEXT:
		snprintf(buf, len, "text");
		break;
	}
}

int shm_knob_find(const char *name)
{
	for (int k = 0; k < SHM_KNOB_COUNT; k++) {
		if (strcmp(shm_knobs[k].name, name) == 0)
			return k;
	}
	return -1;
}
