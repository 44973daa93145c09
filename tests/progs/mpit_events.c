/*
 * The MPI_T events (MPI 4.1, section 15.3.8): every event type of shmpi
 * arrives with the right data when the program causes it, on the handles
 * bound to its object alone, at the safety level the callback allows.
 * Rank 0 prints one line per part:
 *   ok enumerate  the event types and their info (elements, datatypes,
 *                 displacements, enumerations, bind), names to indices, the
 *                 source and its clock, the categories' events
 *   ok unexpected a message that arrives before its receive: source, tag,
 *                 bytes (read element by element and copied whole), the
 *                 timestamp and source; one handle of each safety level,
 *                 each called at a level it allows; a handle bound to
 *                 another communicator sees nothing of this one's messages
 *   ok rndv       large messages whose data moves through the channels
 *                 (SHMPI_SINGLE_COPY=pipeline), from mapped memory
 *                 (MPI_Alloc_mem, SHMPI_SINGLE_COPY=mapped) and by
 *                 process_vm_readv where allowed: the way each one took
 *   ok locks      (2 ranks or more) rank 1 waits about 100 ms for the
 *                 exclusive lock rank 0 holds: the wait's begin and end,
 *                 target, mode and the time waited; a handle on another
 *                 window sees nothing
 *   ok locks private  the same on a window of malloc'd memory
 *   ok dropped    (2 ranks or more) 100 unexpected messages in one call of
 *                 rank 0, with a callback that runs only at the call's end:
 *                 the oldest reach it in order, the dropped handler counts
 *                 the rest
 *   ok free       MPI_T_event_handle_free calls the free callback, and the
 *                 handle sees no more events
 *   ok errors     the error classes of bad indices, handles and arguments
 * Under an MPI that does not have these event types (they are shmpi's) the
 * parts that need them print "skip"; the rest checks the calls alone.
 * `mpit_events multiple` initializes with MPI_THREAD_MULTIPLE.
 */
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "testutil.h"

static int rank, nranks, have;	/* have: shmpi's event types are there */
static int strong;		/* SHMPI_PROGRESS=strong */
static pthread_t main_thread;

static void done(const char *part)
{
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0) {
		printf("%s %s\n", have ? "ok" : "skip", part);
		fflush(stdout);
	}
}

/* What a callback saw. */
struct seen {
	int calls;
	int max_level;		/* the registered level: every call at or below */
	int last_level;
	int data[8];		/* MPI_T_event_read of the ints */
	MPI_Count count_elem;	/* of the MPI_COUNT element */
	unsigned char copy[64];	/* MPI_T_event_copy */
	MPI_Count stamp;
	int source;
	MPI_T_event_registration reg;
	int kind;		/* enum kind below */
	int tags[128];		/* the unexpected part's tags, in order */
};

static MPI_Aint disp_of[4][8];	/* by kind of event below, the displacements */

enum kind { K_UNEXP, K_RNDV, K_BEGIN, K_END, K_COUNT };
static const char *const names[K_COUNT] = {
	"p2p_unexpected", "p2p_rndv", "rma_lock_wait_begin", "rma_lock_wait_end"
};
static const int nelems[K_COUNT] = { 3, 4, 2, 3 };
static int idx[K_COUNT];

/* The callback of every handle, user its struct seen: the ints are
 * elements 0, 1 (and 3), the MPI_COUNT one is element 2. */
static void on_event(MPI_T_event_instance e, MPI_T_event_registration reg,
		     MPI_T_cb_safety level, void *user)
{
	struct seen *s = user;
	enum kind k = s->kind;
	int n = nelems[k];

	CHECK((int)level <= s->max_level);
	/* another thread (the progress thread) runs thread-safe callbacks alone */
	CHECK(pthread_equal(pthread_self(), main_thread) ||
	      level >= MPI_T_CB_REQUIRE_THREAD_SAFE);
	CHECK(reg == s->reg);
	if (s->calls < 128 && k == K_UNEXP)
		CHECK_MPI(MPI_T_event_read(e, 1, &s->tags[s->calls]));
	s->calls++;
	s->last_level = (int)level;
	for (int i = 0; i < n; i++) {
		if (i == 2)
			CHECK_MPI(MPI_T_event_read(e, i, &s->count_elem));
		else
			CHECK_MPI(MPI_T_event_read(e, i, &s->data[i]));
	}
	CHECK(MPI_T_event_read(e, n, s->data) == MPI_T_ERR_INVALID_INDEX);
	CHECK_MPI(MPI_T_event_copy(e, s->copy));
	CHECK_MPI(MPI_T_event_get_timestamp(e, &s->stamp));
	CHECK_MPI(MPI_T_event_get_source(e, &s->source));
	/* the copy lays the elements out at their displacements */
	for (int i = 0; i < n; i++) {
		if (i == 2) {
			MPI_Count c;

			memcpy(&c, s->copy + disp_of[k][i], sizeof(c));
			CHECK(c == s->count_elem);
		} else {
			int v;

			memcpy(&v, s->copy + disp_of[k][i], sizeof(v));
			CHECK(v == s->data[i]);
		}
	}
	/* in a place of the library's, only the instance calls */
	if (level != MPI_T_CB_REQUIRE_NONE) {
		int num;

		CHECK(MPI_T_event_get_num(&num) == MPI_T_ERR_NOT_SUPPORTED);
	}
}

/* A handle for kind k bound to obj, its callback at `level` reporting
 * into s. */
static MPI_T_event_registration handle(enum kind k, void *obj, int level, struct seen *s)
{
	MPI_T_event_registration reg;

	memset(s, 0, sizeof(*s));
	s->max_level = level;
	s->kind = k;
	CHECK_MPI(MPI_T_event_handle_alloc(idx[k], obj, MPI_INFO_NULL, &reg));
	s->reg = reg;
	CHECK_MPI(MPI_T_event_register_callback(reg, (MPI_T_cb_safety)level, MPI_INFO_NULL,
						s, on_event));
	return reg;
}

static void part_enumerate(void)
{
	int num, nsrc, ncat, total = 0;
	MPI_Count tps, maxt, t0, t1;
	MPI_T_source_order order;
	char name[256];
	int len = sizeof(name);
	MPI_Info info;

	CHECK_MPI(MPI_T_event_get_num(&num));
	for (int i = 0; i < num; i++) {
		MPI_Datatype dts[8];
		MPI_Aint disps[8];
		int n = 0, back, bind, verb;
		char desc[512];
		int dlen = sizeof(desc);
		MPI_T_enum en;

		len = sizeof(name);
		/* with no arrays, only the number of elements */
		CHECK_MPI(MPI_T_event_get_info(i, name, &len, NULL, NULL, NULL, &n, NULL, NULL,
					       NULL, NULL, NULL));
		CHECK(n >= 0 && n <= 8);
		len = sizeof(name);
		CHECK_MPI(MPI_T_event_get_info(i, name, &len, &verb, dts, disps, &n, &en, &info,
					       desc, &dlen, &bind));
		CHECK(len == (int)strlen(name) + 1);
		if (info != MPI_INFO_NULL)
			CHECK_MPI(MPI_Info_free(&info));
		CHECK_MPI(MPI_T_event_get_index(name, &back));
		CHECK(back == i);
		for (int k = 0; k < K_COUNT; k++) {
			if (strcmp(name, names[k]) != 0)
				continue;
			CHECK(n == nelems[k]);
			CHECK(bind == (k < K_BEGIN ? MPI_T_BIND_MPI_COMM : MPI_T_BIND_MPI_WIN));
			for (int j = 0; j < n; j++) {
				CHECK(dts[j] == (j == 2 ? MPI_COUNT : MPI_INT));
				disp_of[k][j] = disps[j];
			}
			CHECK(disps[0] == 0 && disps[1] == 4 && disps[2] == 8);
			CHECK(n < 4 || disps[3] == 16);
			/* the rndv's way and the locks' mode are enumerations */
			CHECK((en == MPI_T_ENUM_NULL) == (k == K_UNEXP));
			if (k != K_UNEXP) {
				int items, v;
				char item[64];
				int ilen = sizeof(item);

				CHECK_MPI(MPI_T_enum_get_info(en, &items, NULL, NULL));
				CHECK(items == 3);
				CHECK_MPI(MPI_T_enum_get_item(en, 2, &v, item, &ilen));
				CHECK(v == 2 && strcmp(item, k == K_RNDV ? "pipeline" :
						       "lock_all") == 0);
				CHECK(MPI_T_enum_get_item(en, 3, &v, item, &ilen) ==
				      MPI_T_ERR_INVALID_ITEM);
			}
			idx[k] = i;
			have |= 1 << k;
		}
	}
	have = have == (1 << K_COUNT) - 1;

	/* one source at least; the first one's clock moves forward */
	CHECK_MPI(MPI_T_source_get_num(&nsrc));
	if (nsrc > 0) {
		len = sizeof(name);
		CHECK_MPI(MPI_T_source_get_info(0, name, &len, NULL, NULL, &order, &tps, &maxt,
						&info));
		if (info != MPI_INFO_NULL)
			CHECK_MPI(MPI_Info_free(&info));
		CHECK(tps > 0 && maxt > 0);
		if (MPI_T_source_get_timestamp(0, &t0) == MPI_SUCCESS) {
			tu_sleep_ms(2);
			CHECK_MPI(MPI_T_source_get_timestamp(0, &t1));
			CHECK(t1 > t0);
		}
	}
	if (have) {
		CHECK(nsrc == 1 && order == MPI_T_SOURCE_ORDERED && tps == 1000000000);
		CHECK(strcmp(name, "clock") == 0);
		/* MPI_Wtime's clock */
		CHECK_MPI(MPI_T_source_get_timestamp(0, &t0));
		CHECK(llabs((long long)(MPI_Wtime() * 1e9) - t0) < 100000000);
	}

	/* every event type is in a category, and shmpi's in the named ones */
	CHECK_MPI(MPI_T_category_get_num(&ncat));
	for (int c = 0; c < ncat; c++) {
		int ne, ev[16], cl = sizeof(name);

		CHECK_MPI(MPI_T_category_get_num_events(c, &ne));
		CHECK(ne >= 0 && ne <= 16);
		CHECK_MPI(MPI_T_category_get_events(c, ne, ev));
		CHECK_MPI(MPI_T_category_get_info(c, name, &cl, NULL, NULL, NULL, NULL, NULL));
		for (int j = 0; j < ne; j++) {
			CHECK(ev[j] >= 0 && ev[j] < num);
			if (!have)
				continue;
			if (ev[j] == idx[K_UNEXP] || ev[j] == idx[K_RNDV])
				CHECK(strcmp(name, "p2p") == 0);
			else if (ev[j] == idx[K_BEGIN] || ev[j] == idx[K_END])
				CHECK(strcmp(name, "rma") == 0);
		}
		if (have && strcmp(name, "shmpi") != 0)
			total += ne;
	}
	CHECK(!have || total == num);
	done("enumerate");
}

/* Each rank sends one message to the next on comm, the next probes it (so
 * it lands on the unexpected queue) and receives it. */
static void ring_message(MPI_Comm comm, int tag, int bytes)
{
	char buf[256] = { 0 };
	int to = (rank + 1) % nranks, from = (rank + nranks - 1) % nranks;
	MPI_Request req;

	CHECK_MPI(MPI_Isend(buf, bytes, MPI_BYTE, to, tag, comm, &req));
	CHECK_MPI(MPI_Probe(from, tag, comm, MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Recv(buf, bytes, MPI_BYTE, from, tag, comm, MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
}

static void part_unexpected(void)
{
	struct seen s[4], other;
	MPI_T_event_registration reg[4], oreg;
	MPI_Comm dup;
	int from = (rank + nranks - 1) % nranks;
	MPI_Count before;

	if (!have) {
		done("unexpected");
		return;
	}
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
	MPI_Comm world = MPI_COMM_WORLD;

	for (int l = 0; l < 4; l++)
		reg[l] = handle(K_UNEXP, &world, l, &s[l]);
	oreg = handle(K_UNEXP, &dup, MPI_T_CB_REQUIRE_NONE, &other);
	CHECK_MPI(MPI_T_source_get_timestamp(0, &before));
	MPI_Barrier(MPI_COMM_WORLD);
	ring_message(MPI_COMM_WORLD, 7, 24);
	for (int l = 0; l < 4; l++) {
		/* delivered by the end of the call that saw it: MPI_Probe */
		CHECK(s[l].calls == 1);
		CHECK(s[l].data[0] == from && s[l].data[1] == 7 && s[l].count_elem == 24);
		CHECK(s[l].source == 0 && s[l].stamp >= before);
	}
	/* the library's place (the engine) requires MPI_RESTRICTED at
	 * least: the NONE callback waits for the end of the call; under
	 * weak progress the others run at once, in the engine */
	CHECK(s[0].last_level == MPI_T_CB_REQUIRE_NONE);
	if (!strong)
		for (int l = 1; l < 4; l++)
			CHECK(s[l].last_level == MPI_T_CB_REQUIRE_MPI_RESTRICTED);
	CHECK(other.calls == 0);
	/* (nobody sends again before everyone has looked) */
	MPI_Barrier(MPI_COMM_WORLD);
	/* a message on the other communicator reaches the other handle alone */
	ring_message(dup, 8, 100);
	CHECK(other.calls == 1 && other.data[0] == from && other.data[1] == 8 &&
	      other.count_elem == 100);
	for (int l = 0; l < 4; l++)
		CHECK(s[l].calls == 1);
	for (int l = 0; l < 4; l++)
		CHECK_MPI(MPI_T_event_handle_free(reg[l], NULL, NULL));
	CHECK_MPI(MPI_T_event_handle_free(oreg, NULL, NULL));
	CHECK_MPI(MPI_Comm_free(&dup));
	done("unexpected");
}

/* SHMPI_SINGLE_COPY's value named `what` (an enumeration). */
static void single_copy(const char *what)
{
	MPI_T_cvar_handle h;
	MPI_T_enum en;
	int i, count, n, v = -1;

	CHECK_MPI(MPI_T_cvar_get_index("SHMPI_SINGLE_COPY", &i));
	CHECK_MPI(MPI_T_cvar_get_info(i, NULL, NULL, NULL, NULL, &en, NULL, NULL, NULL, NULL));
	CHECK_MPI(MPI_T_enum_get_info(en, &n, NULL, NULL));
	for (int j = 0; j < n; j++) {
		char item[64];
		int len = sizeof(item), val;

		CHECK_MPI(MPI_T_enum_get_item(en, j, &val, item, &len));
		if (strcmp(item, what) == 0)
			v = val;
	}
	CHECK(v >= 0);
	CHECK_MPI(MPI_T_cvar_handle_alloc(i, NULL, &h, &count));
	CHECK_MPI(MPI_T_cvar_write(h, &v));
	CHECK_MPI(MPI_T_cvar_handle_free(&h));
}

/* One large message around the ring from buf; the way it took. */
static int ring_large(char *buf, int bytes, struct seen *s)
{
	int to = (rank + 1) % nranks, from = (rank + nranks - 1) % nranks;
	char *in = malloc((size_t)bytes);
	int calls = s->calls;

	CHECK(in);
	CHECK_MPI(MPI_Sendrecv(buf, bytes, MPI_BYTE, to, 3, in, bytes, MPI_BYTE, from, 3,
			       MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	free(in);
	CHECK(s->calls == calls + 1);
	CHECK(s->data[0] == from && s->data[1] == 3 && s->count_elem == bytes);
	return s->data[3];
}

/* Counting the messages this rank receives by process_vm_readv (the
 * performance variable p2p_rndv_cma) from now on: how many when *ses
 * is NULL, else start the count into *ses. */
static unsigned long long rndv_cma(MPI_T_pvar_session *ses)
{
	static MPI_T_pvar_handle h;
	unsigned long long v = 0;
	int i, count;

	if (*ses == MPI_T_PVAR_SESSION_NULL) {
		CHECK_MPI(MPI_T_pvar_get_index("p2p_rndv_cma", MPI_T_PVAR_CLASS_COUNTER, &i));
		CHECK_MPI(MPI_T_pvar_session_create(ses));
		CHECK_MPI(MPI_T_pvar_handle_alloc(*ses, i, NULL, &h, &count));
		CHECK_MPI(MPI_T_pvar_start(*ses, h));
	} else {
		CHECK_MPI(MPI_T_pvar_read(*ses, h, &v));
		CHECK_MPI(MPI_T_pvar_handle_free(*ses, &h));
		CHECK_MPI(MPI_T_pvar_session_free(ses));
	}
	return v;
}

static void part_rndv(void)
{
	enum { BYTES = 1 << 20, MAPPED = 0, CMA = 1, PIPELINE = 2 };
	MPI_Comm world = MPI_COMM_WORLD;
	MPI_T_event_registration reg;
	struct seen s;
	char *mem, *heap;
	MPI_T_pvar_session ses = MPI_T_PVAR_SESSION_NULL;
	int how;

	if (!have) {
		done("rndv");
		return;
	}
	reg = handle(K_RNDV, &world, MPI_T_CB_REQUIRE_MPI_RESTRICTED, &s);
	heap = calloc(1, BYTES);
	CHECK(heap);
	CHECK_MPI(MPI_Alloc_mem(BYTES, MPI_INFO_NULL, &mem));
	single_copy("pipeline");
	CHECK(ring_large(heap, BYTES, &s) == PIPELINE);
	single_copy("mapped");
	CHECK(ring_large(mem, BYTES, &s) == MAPPED);
	/* process_vm_readv, where the system allows it (else the channels) */
	single_copy("cma");
	rndv_cma(&ses);
	how = ring_large(heap, BYTES, &s);
	CHECK(how == (rndv_cma(&ses) ? CMA : PIPELINE));
	single_copy("auto");
	CHECK_MPI(MPI_Free_mem(mem));
	free(heap);
	CHECK_MPI(MPI_T_event_handle_free(reg, NULL, NULL));
	done("rndv");
}

/* Rank 1 waits about 100 ms for the exclusive lock that rank 0 holds on
 * target t of a window of MPI_Win_allocate (t = 0), or of MPI_Win_create
 * on malloc'd memory (priv: the private path; t = 1, rank 1 itself, whose
 * lock its MPI_Win_lock takes at once, and which rank 0 takes with a
 * flush). */
static void part_locks(int priv)
{
	struct seen b, e, ob;
	MPI_T_event_registration rb = NULL, re = NULL, rob = NULL;
	double *base, *base2, one = 1;
	MPI_Win win, win2;
	MPI_Count t0;
	int t = priv ? 1 : 0;

	if (priv) {
		base = calloc(1, sizeof(double));
		CHECK(base);
		CHECK_MPI(MPI_Win_create(base, sizeof(double), sizeof(double), MPI_INFO_NULL,
					 MPI_COMM_WORLD, &win));
	} else {
		CHECK_MPI(MPI_Win_allocate(sizeof(double), sizeof(double), MPI_INFO_NULL,
					   MPI_COMM_WORLD, &base, &win));
	}
	CHECK_MPI(MPI_Win_allocate(sizeof(double), sizeof(double), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &base2, &win2));
	if (have) {
		rb = handle(K_BEGIN, &win, MPI_T_CB_REQUIRE_NONE, &b);
		re = handle(K_END, &win, MPI_T_CB_REQUIRE_THREAD_SAFE, &e);
		rob = handle(K_BEGIN, &win2, MPI_T_CB_REQUIRE_MPI_RESTRICTED, &ob);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0) {
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
		if (priv) {
			CHECK_MPI(MPI_Put(&one, 1, MPI_DOUBLE, t, 0, 1, MPI_DOUBLE, win));
			CHECK_MPI(MPI_Win_flush(t, win));
		}
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0) {
		tu_sleep_ms(100 * tu_time_scale());
		CHECK_MPI(MPI_Win_unlock(t, win));
	} else if (rank == 1) {
		if (have)
			CHECK_MPI(MPI_T_source_get_timestamp(0, &t0));
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
		CHECK_MPI(MPI_Win_unlock(t, win));
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (have) {
		CHECK(b.calls == (rank == 1) && e.calls == (rank == 1) && ob.calls == 0);
		if (rank == 1) {
			/* target t, exclusive (item 1 of rma_lock_mode) */
			CHECK(b.data[0] == t && b.data[1] == 1);
			CHECK(e.data[0] == t && e.data[1] == 1);
			CHECK(e.count_elem >= 50000000 && e.count_elem < 60000000000LL);
			CHECK(t0 <= b.stamp && b.stamp <= e.stamp);
			CHECK(e.stamp - b.stamp <= e.count_elem + 10000000);
			CHECK(b.last_level == MPI_T_CB_REQUIRE_NONE);
			CHECK(e.last_level == MPI_T_CB_REQUIRE_MPI_RESTRICTED);
		}
		CHECK_MPI(MPI_T_event_handle_free(rb, NULL, NULL));
		CHECK_MPI(MPI_T_event_handle_free(re, NULL, NULL));
		CHECK_MPI(MPI_T_event_handle_free(rob, NULL, NULL));
	}
	CHECK_MPI(MPI_Win_free(&win2));
	CHECK_MPI(MPI_Win_free(&win));
	if (priv)
		free(base);
	done(priv ? "locks private" : "locks");
}

static MPI_Count dropped_count;
static int dropped_calls;

static void on_dropped(MPI_Count count, MPI_T_event_registration reg, int source,
		       MPI_T_cb_safety level, void *user)
{
	struct seen *s = user;

	CHECK(reg == s->reg && source == 0 && level == MPI_T_CB_REQUIRE_NONE);
	dropped_count += count;
	dropped_calls++;
}

static void part_dropped(void)
{
	enum { N = 100, RING = 64 };
	MPI_Comm world = MPI_COMM_WORLD;
	MPI_T_event_registration reg;
	struct seen s;
	MPI_Request req;
	int go = 1, x;

	if (!have) {
		done("dropped");
		return;
	}
	if (rank == 0) {
		reg = handle(K_UNEXP, &world, MPI_T_CB_REQUIRE_NONE, &s);
		CHECK_MPI(MPI_T_event_set_dropped_handler(reg, on_dropped));
		/* rank 1 sends once this waits: the N messages and the last
		 * arrive in this one MPI_Wait */
		CHECK_MPI(MPI_Irecv(&x, 1, MPI_INT, 1, 999, MPI_COMM_WORLD, &req));
		CHECK_MPI(MPI_Send(&go, 1, MPI_INT, 1, 998, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		/* the oldest ones reached the callback, in order; the others
		 * were counted */
		CHECK(s.calls + dropped_count == N);
		CHECK(s.calls >= RING && dropped_calls >= 1);
		CHECK(strong || (s.calls == RING && dropped_calls == 1));
		for (int i = 0; i < s.calls; i++)
			CHECK(s.tags[i] == i);
		for (int i = 0; i < N; i++)
			CHECK_MPI(MPI_Recv(&x, 1, MPI_INT, 1, i, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
		CHECK(s.calls + dropped_count == N);
		CHECK_MPI(MPI_T_event_handle_free(reg, NULL, NULL));
	} else if (rank == 1) {
		CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 0, 998, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		for (int i = 0; i < N; i++)
			CHECK_MPI(MPI_Send(&i, 1, MPI_INT, 0, i, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Send(&go, 1, MPI_INT, 0, 999, MPI_COMM_WORLD));
	}
	done("dropped");
}

static int freed;

static void on_free(MPI_T_event_registration reg, MPI_T_cb_safety level, void *user)
{
	CHECK(reg != NULL && level == MPI_T_CB_REQUIRE_NONE && user == &freed);
	freed++;
}

static void part_free(void)
{
	MPI_Comm world = MPI_COMM_WORLD;
	MPI_T_event_registration reg;
	struct seen s;
	int num;

	if (!have) {
		done("free");
		return;
	}
	reg = handle(K_UNEXP, &world, MPI_T_CB_REQUIRE_MPI_RESTRICTED, &s);
	/* (every handle is there before the messages) */
	MPI_Barrier(MPI_COMM_WORLD);
	ring_message(MPI_COMM_WORLD, 9, 8);
	CHECK(s.calls == 1);
	/* (nobody sends again before everyone has looked) */
	MPI_Barrier(MPI_COMM_WORLD);
	CHECK_MPI(MPI_T_event_handle_free(reg, &freed, on_free));
	CHECK(freed == 1);
	MPI_Barrier(MPI_COMM_WORLD);
	ring_message(MPI_COMM_WORLD, 9, 8);
	CHECK(s.calls == 1);
	CHECK(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, &s,
					    on_event) == MPI_T_ERR_INVALID_HANDLE);
	CHECK(MPI_T_event_handle_free(reg, NULL, NULL) == MPI_T_ERR_INVALID_HANDLE);
	/* a NULL callback takes a level's away */
	reg = handle(K_UNEXP, &world, MPI_T_CB_REQUIRE_NONE, &s);
	CHECK_MPI(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL,
						NULL, NULL));
	MPI_Barrier(MPI_COMM_WORLD);
	ring_message(MPI_COMM_WORLD, 9, 8);
	CHECK(s.calls == 0);
	CHECK_MPI(MPI_T_event_handle_free(reg, NULL, NULL));
	CHECK_MPI(MPI_T_event_get_num(&num));
	done("free");
}

/* The class of a bad index in a *_get_info call: MPI_T_ERR_INVALID_INDEX
 * (MPICH 4.0 says MPI_T_ERR_INVALID for the events and sources). */
static int bad_index(int rc)
{
	return rc == MPI_T_ERR_INVALID_INDEX || (!have && rc == MPI_T_ERR_INVALID);
}

static void part_errors(void)
{
	MPI_T_event_registration reg;
	MPI_Comm world = MPI_COMM_WORLD;
	MPI_Count ts;
	MPI_Info info;
	int num, i, n = 0, ncat;
	char name[64];
	int len = sizeof(name);

	CHECK_MPI(MPI_T_event_get_num(&num));
	CHECK(bad_index(MPI_T_event_get_info(-1, name, &len, NULL, NULL, NULL, &n, NULL, NULL,
					     NULL, NULL, NULL)));
	CHECK(bad_index(MPI_T_event_get_info(num, name, &len, NULL, NULL, NULL, &n, NULL, NULL,
					     NULL, NULL, NULL)));
	CHECK(MPI_T_event_get_index("no such event", &i) == MPI_T_ERR_INVALID_NAME);
	CHECK(MPI_T_event_handle_alloc(num, &world, MPI_INFO_NULL, &reg) ==
	      MPI_T_ERR_INVALID_INDEX);
	CHECK(MPI_T_event_handle_alloc(-1, &world, MPI_INFO_NULL, &reg) ==
	      MPI_T_ERR_INVALID_INDEX);
	CHECK_MPI(MPI_T_source_get_num(&n));
	CHECK(bad_index(MPI_T_source_get_info(n, name, &len, NULL, NULL, NULL, NULL, NULL,
					      &info)));
	CHECK(MPI_T_source_get_timestamp(-1, &ts) == MPI_T_ERR_INVALID_INDEX);
	CHECK_MPI(MPI_T_category_get_num(&ncat));
	CHECK(MPI_T_category_get_num_events(ncat, &n) == MPI_T_ERR_INVALID_INDEX);
	CHECK(MPI_T_category_get_events(-1, 0, NULL) == MPI_T_ERR_INVALID_INDEX);
	if (have) {
		MPI_Win win = MPI_WIN_NULL;
		struct seen s;

		/* the object an event type is bound to */
		CHECK(MPI_T_event_handle_alloc(idx[K_UNEXP], NULL, MPI_INFO_NULL, &reg) ==
		      MPI_T_ERR_INVALID_HANDLE);
		CHECK(MPI_T_event_handle_alloc(idx[K_BEGIN], &win, MPI_INFO_NULL, &reg) ==
		      MPI_T_ERR_INVALID_HANDLE);
		CHECK(MPI_T_event_handle_alloc(idx[K_UNEXP], &world, MPI_INFO_NULL, NULL) ==
		      MPI_T_ERR_INVALID);
		reg = handle(K_UNEXP, &world, MPI_T_CB_REQUIRE_NONE, &s);
		CHECK(MPI_T_event_register_callback(reg, (MPI_T_cb_safety)17, MPI_INFO_NULL, &s,
						    on_event) == MPI_T_ERR_INVALID);
		CHECK(MPI_T_event_callback_get_info(reg, (MPI_T_cb_safety)-1, &info) ==
		      MPI_T_ERR_INVALID);
		CHECK_MPI(MPI_T_event_callback_get_info(reg, MPI_T_CB_REQUIRE_NONE, &info));
		CHECK_MPI(MPI_Info_free(&info));
		CHECK_MPI(MPI_T_event_handle_get_info(reg, &info));
		CHECK_MPI(MPI_Info_free(&info));
		CHECK_MPI(MPI_T_event_handle_set_info(reg, MPI_INFO_NULL));
		CHECK_MPI(MPI_T_event_callback_set_info(reg, MPI_T_CB_REQUIRE_NONE,
							MPI_INFO_NULL));
		CHECK(MPI_T_event_read(NULL, 0, &n) == MPI_T_ERR_INVALID_HANDLE);
		CHECK(MPI_T_event_get_timestamp(NULL, &ts) == MPI_T_ERR_INVALID_HANDLE);
		CHECK_MPI(MPI_T_event_handle_free(reg, NULL, NULL));
		CHECK(MPI_T_event_handle_get_info(reg, &info) == MPI_T_ERR_INVALID_HANDLE);
		CHECK(MPI_T_event_set_dropped_handler(reg, on_dropped) ==
		      MPI_T_ERR_INVALID_HANDLE);
	}
	done("errors");
}

int main(int argc, char **argv)
{
	int provided, num;
	const char *p = getenv("SHMPI_PROGRESS");

	/* not before MPI_T_init_thread */
	if (MPI_T_event_get_num(&num) != MPI_T_ERR_NOT_INITIALIZED)
		return 2;
	if (argc > 1 && strcmp(argv[1], "multiple") == 0) {
		CHECK_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
		CHECK(provided == MPI_THREAD_MULTIPLE);
	} else {
		tu_init(&argc, &argv);
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	tu_rank = rank;
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	strong = p && strcmp(p, "strong") == 0;
	main_thread = pthread_self();
	CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
	part_enumerate();
	part_unexpected();
	part_rndv();
	if (nranks >= 2) {
		part_locks(0);
		part_locks(1);
		part_dropped();
	}
	part_free();
	part_errors();
	CHECK_MPI(MPI_T_finalize());
	MPI_Finalize();
	return 0;
}
