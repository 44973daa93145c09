/*
 * The Sessions Model (MPI 4.1, section 11.3) and MPI_Comm_create_from_group
 * (section 7.4.2).
 *   sessions [alone|world|world_last|two|threads|errors|fatal|after|reinit]
 * alone (the default): a program that only uses sessions: the process
 * sets mpi://WORLD and mpi://SELF, their sizes (mpi_size), the session's
 * thread level, communicators made from their groups and from subgroups
 * (string tags tell them apart), collectives, point-to-point and a window
 * on them, derived communicators, the error handler a communicator gets
 * from MPI_Comm_create_from_group and one raised on a session; MPI_Initialized
 * and MPI_Finalized say false throughout.
 * threads: under MPI_THREAD_MULTIPLE, two threads of every process make
 * communicators of the same group with their own string tags at once, in
 * whatever order: each communicator joins the same thread everywhere.
 * world: MPI_Init first, then a session, MPI_Finalize while the session's
 * communicator still works; world_last: the session first, MPI_Init
 * inside it, MPI_Finalize last.  two: two sessions at once, one
 * finalized while the other works on.
 * Those are correct MPI programs and behave alike under any MPI 4 library.
 * errors: erroneous calls under MPI_ERRORS_RETURN (bad process set names,
 * out of range indices, a stale session handle) return error classes;
 * fatal: a bad process set name under the session's default handler ends
 * the job; after: a call on a session's communicator after the last
 * session is finalized ends the process; reinit: sessions one after the
 * other (MPI 4.1, section 11.3 lets MPI be initialized again in the
 * Sessions Model), then MPI_Init and MPI_Finalize, after which a session
 * is refused: the library is down (README, "What is implemented").
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank = -1;

/* Without the World model there is no MPI_COMM_WORLD to abort: leave, and
 * the launcher ends the job. */
#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "rank %d: %s:%d: check failed: %s\n",  \
				rank, __FILE__, __LINE__, #cond);              \
			fflush(stderr);                                        \
			_exit(99);                                             \
		}                                                              \
	} while (0)

#define CHECK_MPI(call) CHECK((call) == MPI_SUCCESS)

static int error_class(int rc)
{
	int cls = -1;

	MPI_Error_class(rc, &cls);
	return cls;
}

static void check_model(int want_init, int want_fini)
{
	int flag = -1;

	CHECK_MPI(MPI_Initialized(&flag));
	CHECK(flag == want_init);
	CHECK_MPI(MPI_Finalized(&flag));
	CHECK(flag == want_fini);
}

/* The process set named `want` is one of the session's, by index. */
static int pset_listed(MPI_Session s, const char *want)
{
	int n = -1, found = 0;

	CHECK_MPI(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
	CHECK(n >= 2);
	for (int i = 0; i < n; i++) {
		char name[MPI_MAX_PSET_NAME_LEN];
		int len = 0;

		CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL));
		CHECK(len >= 1 && len <= MPI_MAX_PSET_NAME_LEN);
		CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name));
		CHECK((int)strlen(name) == len - 1);
		found += !strcmp(name, want);
	}
	return found == 1;
}

/* The mpi_size of a process set, which its group's size must equal. */
static int pset_size(MPI_Session s, const char *pset)
{
	char val[MPI_MAX_INFO_VAL + 1];
	MPI_Info info;
	MPI_Group g;
	int flag = 0, gsize = -1;

	CHECK_MPI(MPI_Session_get_pset_info(s, pset, &info));
	CHECK_MPI(MPI_Info_get(info, "mpi_size", MPI_MAX_INFO_VAL, val, &flag));
	CHECK(flag);
	CHECK_MPI(MPI_Info_free(&info));
	CHECK_MPI(MPI_Group_from_session_pset(s, pset, &g));
	CHECK_MPI(MPI_Group_size(g, &gsize));
	CHECK_MPI(MPI_Group_free(&g));
	CHECK(atoi(val) == gsize);
	return gsize;
}

/* A communicator of a process set's group, with MPI_ERRORS_RETURN. */
static MPI_Comm pset_comm(MPI_Session s, const char *pset, const char *tag)
{
	MPI_Group g;
	MPI_Comm c;

	CHECK_MPI(MPI_Group_from_session_pset(s, pset, &g));
	CHECK_MPI(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
	CHECK(c != MPI_COMM_NULL);
	CHECK_MPI(MPI_Group_free(&g));
	return c;
}

/*
 * Collectives, a ring of messages and a window with puts under fence and
 * gets under a shared lock on c, whose ranks are `size` processes; `salt`
 * tells one communicator's data from another's.
 */
static void exercise(MPI_Comm c, int salt)
{
	int me, n, sum = 0, got = -1, *base;
	MPI_Win win;

	CHECK_MPI(MPI_Comm_rank(c, &me));
	CHECK_MPI(MPI_Comm_size(c, &n));
	CHECK_MPI(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, c));
	CHECK(sum == n * (n - 1) / 2);
	CHECK_MPI(MPI_Barrier(c));
	{
		int out = salt * 1000 + me, in = -1;
		int right = (me + 1) % n, left = (me + n - 1) % n;

		CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, right, 7, &in, 1, MPI_INT, left, 7, c,
				       MPI_STATUS_IGNORE));
		CHECK(in == salt * 1000 + left);
	}
	CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, c, &base, &win));
	*base = -1;
	CHECK_MPI(MPI_Win_fence(0, win));
	{
		int v = salt * 1000 + me;

		CHECK_MPI(MPI_Put(&v, 1, MPI_INT, (me + 1) % n, 0, 1, MPI_INT, win));
	}
	CHECK_MPI(MPI_Win_fence(0, win));
	CHECK(*base == salt * 1000 + (me + n - 1) % n);
	CHECK_MPI(MPI_Win_fence(0, win));
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
	CHECK_MPI(MPI_Get(&got, 1, MPI_INT, 0, 0, 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_unlock(0, win));
	CHECK(got == salt * 1000 + n - 1);
	CHECK_MPI(MPI_Win_free(&win));
}

static int handler_calls, handler_code;
static MPI_Session handler_session;

static void count_errors(MPI_Session *s, int *code, ...)
{
	handler_calls++;
	handler_session = *s;
	handler_code = *code;
}

/* Everything a session offers, on session s. */
static void use_session(MPI_Session s, const char *tagbase)
{
	char tag[64], val[MPI_MAX_INFO_VAL + 1];
	MPI_Comm world, self, half, other, dup;
	MPI_Errhandler eh;
	MPI_Group wg, hg;
	MPI_Info info;
	int size, flag = 0, wrank = -1, hrank = -1, hsize = -1;

	CHECK(pset_listed(s, "mpi://WORLD"));
	CHECK(pset_listed(s, "mpi://SELF"));
	size = pset_size(s, "mpi://WORLD");
	CHECK(pset_size(s, "mpi://SELF") == 1);

	CHECK_MPI(MPI_Session_get_info(s, &info));
	CHECK_MPI(MPI_Info_get(info, "thread_level", MPI_MAX_INFO_VAL, val, &flag));
	CHECK(flag && !strncmp(val, "MPI_THREAD_", 11));
	CHECK_MPI(MPI_Info_free(&info));

	snprintf(tag, sizeof(tag), "%s.world", tagbase);
	world = pset_comm(s, "mpi://WORLD", tag);
	CHECK_MPI(MPI_Comm_rank(world, &wrank));
	CHECK(wrank == rank);
	exercise(world, 1);
	/* another tag, same group: another communicator, whose messages do
	 * not meet the first one's */
	snprintf(tag, sizeof(tag), "%s.other", tagbase);
	other = pset_comm(s, "mpi://WORLD", tag);
	{
		int a = 100 + rank, b = 200 + rank, ra = -1, rb = -1;
		int right = (rank + 1) % size, left = (rank + size - 1) % size;
		MPI_Request rq[4];

		CHECK_MPI(MPI_Isend(&a, 1, MPI_INT, right, 0, world, &rq[0]));
		CHECK_MPI(MPI_Isend(&b, 1, MPI_INT, right, 0, other, &rq[1]));
		CHECK_MPI(MPI_Irecv(&rb, 1, MPI_INT, left, 0, other, &rq[2]));
		CHECK_MPI(MPI_Irecv(&ra, 1, MPI_INT, left, 0, world, &rq[3]));
		CHECK_MPI(MPI_Waitall(4, rq, MPI_STATUSES_IGNORE));
		CHECK(ra == 100 + left && rb == 200 + left);
	}
	exercise(other, 2);

	snprintf(tag, sizeof(tag), "%s.self", tagbase);
	self = pset_comm(s, "mpi://SELF", tag);
	exercise(self, 3);

	/* the even ranks and the odd ones, in reverse order, each their own tag */
	CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &wg));
	{
		int members[64], n = 0;

		for (int r = size - 1; r >= 0; r--)
			if (r % 2 == rank % 2)
				members[n++] = r;
		CHECK_MPI(MPI_Group_incl(wg, n, members, &hg));
		snprintf(tag, sizeof(tag), "%s.half%d", tagbase, rank % 2);
		CHECK_MPI(MPI_Comm_create_from_group(hg, tag, MPI_INFO_NULL,
						     MPI_ERRORS_ARE_FATAL, &half));
		CHECK_MPI(MPI_Comm_rank(half, &hrank));
		CHECK_MPI(MPI_Comm_size(half, &hsize));
		CHECK(hsize == n);
		CHECK(hrank == (size - 1 - rank) / 2);
		exercise(half, 4);
	}
	/* MPI_GROUP_EMPTY: MPI_COMM_NULL, without the others */
	{
		MPI_Comm none;

		CHECK_MPI(MPI_Comm_create_from_group(MPI_GROUP_EMPTY, "none", MPI_INFO_NULL,
						     MPI_ERRORS_RETURN, &none));
		CHECK(none == MPI_COMM_NULL);
	}

	/* the error handler given is the communicator's, and its
	 * duplicate's: a bad rank returns */
	CHECK_MPI(MPI_Comm_get_errhandler(world, &eh));
	CHECK(eh == MPI_ERRORS_RETURN);
	CHECK_MPI(MPI_Errhandler_free(&eh));
	CHECK_MPI(MPI_Comm_dup(world, &dup));
	{
		int v = 0;

		CHECK(error_class(MPI_Send(&v, 1, MPI_INT, size, 0, dup)) == MPI_ERR_RANK);
		CHECK(error_class(MPI_Send(&v, 1, MPI_INT, size, 0, world)) == MPI_ERR_RANK);
	}
	exercise(dup, 5);
	CHECK_MPI(MPI_Comm_get_errhandler(half, &eh));
	CHECK(eh == MPI_ERRORS_ARE_FATAL);
	CHECK_MPI(MPI_Errhandler_free(&eh));

	CHECK_MPI(MPI_Comm_free(&dup));
	CHECK_MPI(MPI_Comm_free(&half));
	CHECK_MPI(MPI_Group_free(&hg));
	CHECK_MPI(MPI_Group_free(&wg));
	CHECK_MPI(MPI_Comm_free(&self));
	CHECK_MPI(MPI_Comm_free(&other));
	CHECK_MPI(MPI_Comm_free(&world));
}

/* A session whose errors go to count_errors; raise one on it. */
static void session_handler(MPI_Session *s)
{
	MPI_Errhandler eh, got;

	CHECK_MPI(MPI_Session_create_errhandler(count_errors, &eh));
	CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, eh, s));
#ifndef SHMPI
	/* MPICH 4.0 does not attach the handler given to MPI_Session_init */
	CHECK_MPI(MPI_Session_set_errhandler(*s, eh));
#endif
	CHECK_MPI(MPI_Session_call_errhandler(*s, MPI_ERR_OTHER));
	CHECK(handler_calls == 1 && handler_session == *s && handler_code == MPI_ERR_OTHER);
	/* the handler it gives back is the same one: set again, it counts */
	CHECK_MPI(MPI_Session_get_errhandler(*s, &got));
	CHECK_MPI(MPI_Session_set_errhandler(*s, got));
	CHECK_MPI(MPI_Errhandler_free(&got));
	CHECK_MPI(MPI_Session_call_errhandler(*s, MPI_ERR_ARG));
	CHECK(handler_calls == 2 && handler_code == MPI_ERR_ARG);
	/* the session keeps its handler when the program lets go of it */
	CHECK_MPI(MPI_Errhandler_free(&eh));
}

static void test_alone(void)
{
	MPI_Session first, s;
	MPI_Comm c;
	int n;

	check_model(0, 0);
	CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &first));
	session_handler(&s);
	CHECK_MPI(MPI_Session_finalize(&first));
	check_model(0, 0);
	c = pset_comm(s, "mpi://WORLD", "org.shmpi.test.rank");
	CHECK_MPI(MPI_Comm_rank(c, &rank));
	CHECK_MPI(MPI_Comm_size(c, &n));
	CHECK_MPI(MPI_Comm_free(&c));
	use_session(s, "org.shmpi.test.alone");
	CHECK_MPI(MPI_Session_finalize(&s));
	CHECK(s == MPI_SESSION_NULL);
	check_model(0, 0);
}

static void test_world(void)
{
	MPI_Session s;
	MPI_Comm c;
	int flag = 0;

	CHECK_MPI(MPI_Init(NULL, NULL));
	CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
	check_model(1, 0);
	CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
	use_session(s, "org.shmpi.test.world");
	c = pset_comm(s, "mpi://WORLD", "org.shmpi.test.world.late");
	exercise(c, 6);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Finalize());
	check_model(1, 1);
	/* the session outlives the World model */
	exercise(c, 7);
	CHECK_MPI(MPI_Comm_free(&c));
	CHECK_MPI(MPI_Session_finalize(&s));
	CHECK_MPI(MPI_Finalized(&flag));
	CHECK(flag);
}

static void test_world_last(void)
{
	MPI_Session s;
	MPI_Comm c;
	int provided = -1, wr = -1;

	CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
	c = pset_comm(s, "mpi://WORLD", "org.shmpi.test.first");
	CHECK_MPI(MPI_Comm_rank(c, &rank));
	check_model(0, 0);
	CHECK_MPI(MPI_Init_thread(NULL, NULL, MPI_THREAD_SINGLE, &provided));
	CHECK(provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE);
	check_model(1, 0);
	CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &wr));
	CHECK(wr == rank);
	exercise(c, 8);
	CHECK_MPI(MPI_Comm_free(&c));
	CHECK_MPI(MPI_Session_finalize(&s));
	/* the World model goes on after the last session */
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	check_model(1, 0);
	CHECK_MPI(MPI_Finalize());
	check_model(1, 1);
}

static void test_two(void)
{
	MPI_Session s1, s2;
	MPI_Comm c1, c2;
	MPI_Info info;
	char val[MPI_MAX_INFO_VAL + 1];
	int flag = 0;

	CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s1));
	c1 = pset_comm(s1, "mpi://WORLD", "org.shmpi.test.two");
	CHECK_MPI(MPI_Comm_rank(c1, &rank));
	CHECK_MPI(MPI_Info_create(&info));
	CHECK_MPI(MPI_Info_set(info, "thread_level", "MPI_THREAD_SINGLE"));
	CHECK_MPI(MPI_Session_init(info, MPI_ERRORS_RETURN, &s2));
	CHECK_MPI(MPI_Info_free(&info));
	CHECK(s1 != s2);
	CHECK_MPI(MPI_Session_get_info(s2, &info));
	CHECK_MPI(MPI_Info_get(info, "thread_level", MPI_MAX_INFO_VAL, val, &flag));
	CHECK(flag);
	CHECK_MPI(MPI_Info_free(&info));
	/* the same group and tag in another session: one more communicator */
	c2 = pset_comm(s2, "mpi://WORLD", "org.shmpi.test.two");
	exercise(c1, 9);
	exercise(c2, 10);
	CHECK_MPI(MPI_Comm_free(&c1));
	CHECK_MPI(MPI_Session_finalize(&s1));
	check_model(0, 0);
	exercise(c2, 11);
	use_session(s2, "org.shmpi.test.two.s2");
	CHECK_MPI(MPI_Comm_free(&c2));
	CHECK_MPI(MPI_Session_finalize(&s2));
	check_model(0, 0);
}

struct tagged {
	MPI_Group group;
	int index;
};

static void *tagged_comm(void *arg)
{
	struct tagged *t = arg;
	char tag[32];
	MPI_Comm c;
	int n, sum = -1;

	snprintf(tag, sizeof(tag), "org.shmpi.test.thread%d", t->index);
	CHECK_MPI(MPI_Comm_create_from_group(t->group, tag, MPI_INFO_NULL,
					     MPI_ERRORS_RETURN, &c));
	CHECK_MPI(MPI_Comm_size(c, &n));
	CHECK_MPI(MPI_Allreduce(&t->index, &sum, 1, MPI_INT, MPI_SUM, c));
	CHECK(sum == t->index * n);
	CHECK_MPI(MPI_Comm_free(&c));
	return NULL;
}

static void test_threads(void)
{
	struct tagged t[2];
	pthread_t th[2];
	MPI_Session s;
	MPI_Group g;
	int provided = -1;

	CHECK_MPI(MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided));
	CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
	if (provided < MPI_THREAD_MULTIPLE) {
		/* nothing to test without it */
		CHECK_MPI(MPI_Finalize());
		return;
	}
	CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
	CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
	for (int round = 0; round < 20; round++) {
		for (int i = 0; i < 2; i++) {
			/* the odd ranks start the other thread first */
			int k = rank % 2 ? 1 - i : i;

			t[k].group = g;
			t[k].index = k;
			CHECK(pthread_create(&th[k], NULL, tagged_comm, &t[k]) == 0);
		}
		for (int i = 0; i < 2; i++)
			CHECK(pthread_join(th[i], NULL) == 0);
	}
	CHECK_MPI(MPI_Group_free(&g));
	CHECK_MPI(MPI_Session_finalize(&s));
	CHECK_MPI(MPI_Finalize());
}

/* Erroneous calls under MPI_ERRORS_RETURN: the World model is there so
 * that a stale session handle has a handler to return through. */
static void test_errors(void)
{
	MPI_Session s, stale;
	MPI_Group g = MPI_GROUP_NULL;
	MPI_Info info = MPI_INFO_NULL;
	char name[8];
	int n = 0, len;

	CHECK_MPI(MPI_Init(NULL, NULL));
	CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
	CHECK(MPI_Group_from_session_pset(s, "mpi://NOWHERE", &g) != MPI_SUCCESS);
	CHECK(g == MPI_GROUP_NULL);
	CHECK(MPI_Session_get_pset_info(s, "mpi://world/", &info) != MPI_SUCCESS);
	CHECK(info == MPI_INFO_NULL);
	/* a name longer than the buffer is cut, and terminated */
	len = 4;
	memset(name, 'x', sizeof(name));
	CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &len, name));
	CHECK(name[3] == '\0' && !strncmp(name, "mpi", 3));
#ifdef SHMPI
	/* the classes are this library's choice (MPICH 4.0 does not check
	 * an index out of range) */
	CHECK_MPI(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
	len = 0;
	CHECK(error_class(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, n, &len, name)) ==
	      MPI_ERR_ARG);
	CHECK(error_class(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, -1, &len, name)) ==
	      MPI_ERR_ARG);
	CHECK(error_class(MPI_Group_from_session_pset(s, "mpi://NOWHERE", &g)) ==
	      MPI_ERR_ARG);
	CHECK(error_class(MPI_Group_from_session_pset(s, NULL, &g)) == MPI_ERR_ARG);
	CHECK(error_class(MPI_Session_set_errhandler(s, MPI_ERRHANDLER_NULL)) ==
	      MPI_ERR_ARG);
	{
		char tag[MPI_MAX_STRINGTAG_LEN + 1];
		MPI_Comm c = MPI_COMM_NULL;

		CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://SELF", &g));
		memset(tag, 't', sizeof(tag) - 1);
		tag[sizeof(tag) - 1] = '\0';
		CHECK(error_class(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL,
							     MPI_ERRORS_RETURN, &c)) ==
		      MPI_ERR_ARG);
		CHECK(c == MPI_COMM_NULL);
		CHECK(error_class(MPI_Comm_create_from_group(MPI_GROUP_NULL, "t",
							     MPI_INFO_NULL,
							     MPI_ERRORS_RETURN, &c)) ==
		      MPI_ERR_GROUP);
		CHECK_MPI(MPI_Group_free(&g));
	}
#endif
	/* use after finalize: the old handle names no session */
	stale = s;
	CHECK_MPI(MPI_Session_finalize(&s));
	CHECK(s == MPI_SESSION_NULL);
#ifdef SHMPI
	CHECK(error_class(MPI_Session_get_num_psets(stale, MPI_INFO_NULL, &n)) ==
	      MPI_ERR_SESSION);
	CHECK(error_class(MPI_Group_from_session_pset(stale, "mpi://WORLD", &g)) ==
	      MPI_ERR_SESSION);
	CHECK(error_class(MPI_Session_finalize(&stale)) == MPI_ERR_SESSION);
	CHECK(error_class(MPI_Session_get_num_psets(MPI_SESSION_NULL, MPI_INFO_NULL,
						    &n)) == MPI_ERR_SESSION);
#else
	(void)stale;
#endif
	CHECK_MPI(MPI_Finalize());
}

/* A bad process set name under the session's default handler. */
static void test_fatal(void)
{
	MPI_Session s;
	MPI_Group g;

	CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &s));
	MPI_Group_from_session_pset(s, "mpi://NOWHERE", &g);
	CHECK(0);
}

/* A communicator of the session used once the library is down. */
static void test_after(void)
{
	MPI_Session s;
	MPI_Comm c;

	CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
	c = pset_comm(s, "mpi://SELF", "org.shmpi.test.after");
	CHECK_MPI(MPI_Session_finalize(&s));
	MPI_Comm_rank(c, &rank);
	CHECK(0);
}

static void test_reinit(void)
{
	MPI_Session s;
	MPI_Comm c;
	int size, sum, flag;

	/* sessions one after the other, each with a communicator that works */
	for (int round = 0; round < 3; round++) {
		CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
		c = pset_comm(s, "mpi://WORLD", "org.shmpi.test.reinit");
		CHECK_MPI(MPI_Comm_rank(c, &rank));
		CHECK_MPI(MPI_Comm_size(c, &size));
		CHECK_MPI(MPI_Allreduce(&round, &sum, 1, MPI_INT, MPI_SUM, c));
		CHECK(sum == round * size);
		CHECK_MPI(MPI_Comm_free(&c));
		CHECK_MPI(MPI_Session_finalize(&s));
		CHECK_MPI(MPI_Initialized(&flag));
		CHECK(!flag);
	}
	/* then the World model, once */
	CHECK_MPI(MPI_Init(NULL, NULL));
	CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
	CHECK(sum == size * (size - 1) / 2);
	CHECK_MPI(MPI_Finalize());
	/* after MPI_Finalize, with no session left, the library is down for good */
	CHECK(error_class(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s)) ==
	      MPI_ERR_OTHER);
}

int main(int argc, char **argv)
{
	const char *test = argc > 1 ? argv[1] : "alone";

	if (!strcmp(test, "alone"))
		test_alone();
	else if (!strcmp(test, "world"))
		test_world();
	else if (!strcmp(test, "world_last"))
		test_world_last();
	else if (!strcmp(test, "two"))
		test_two();
	else if (!strcmp(test, "threads"))
		test_threads();
	else if (!strcmp(test, "errors"))
		test_errors();
	else if (!strcmp(test, "fatal"))
		test_fatal();
	else if (!strcmp(test, "after"))
		test_after();
	else if (!strcmp(test, "reinit"))
		test_reinit();
	else
		CHECK(0);
	if (rank == 0)
		printf("ok %s\n", test);
	return 0;
}
