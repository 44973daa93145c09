/*
 * Randomized stress test: every RMA communication call (put, get,
 * accumulate, get_accumulate, fetch_and_op, compare_and_swap, rput, rget,
 * raccumulate, rget_accumulate) and point-to-point traffic, under every
 * synchronization mode (fence, post/start/complete/wait, lock shared,
 * lock exclusive, lock_all, with flush, flush_all, flush_local,
 * flush_local_all and sync), on four windows at once (allocate, create on
 * MPI_Alloc_mem memory, dynamic on malloc memory, allocate_shared).
 *
 *   stress SEED SECONDS [PHASES [SELFTEST]]
 *
 * Every rank draws the same program from SEED: phase by phase a
 * synchronization mode and each rank's operations, and runs its own part.
 * The generator only emits programs whose result the standard defines: in
 * one phase a location is either read only (gets, by anyone), or accumulated
 * with one op (by anyone, any order: the ops used commute), or owned by one
 * origin whose operations on it are ordered by a flush between them (passive
 * modes; at most one operation in active modes).  So a sequential model of
 * the same program gives every fetched value and every final window byte,
 * checked after each phase.  A failure prints the seed and the phase, and
 * `stress SEED 0 PHASE+1` on as many ranks replays it.  Prints how many
 * operations ran.  SELFTEST 1: rank 0 writes outside the program in phase 1,
 * to show that the check catches it.
 */
#include <stdint.h>

#include "testutil.h"

enum { NWIN = 4, NELEM = 16, MAXOPS = 12, MAXCOUNT = 4, MAXRANKS = 64 };
enum mode { M_FENCE, M_PSCW, M_SHARED, M_EXCL, M_LOCKALL, M_NMODES };
static const char *const mode_name[] = { "fence", "pscw", "lock shared",
					 "lock exclusive", "lock_all" };
enum kind { K_PUT, K_GET, K_ACC, K_GACC, K_FOP, K_CAS, K_RPUT, K_RGET, K_RACC,
	    K_RGACC, K_FLUSH, K_FLUSH_ALL, K_FLUSH_LOCAL, K_FLUSH_LOCAL_ALL, K_SYNC,
	    K_NKINDS };
static const char *const kind_name[] = {
	"put", "get", "accumulate", "get_accumulate", "fetch_and_op",
	"compare_and_swap", "rput", "rget", "raccumulate", "rget_accumulate",
	"flush", "flush_all", "flush_local", "flush_local_all", "win_sync",
};
/* the ops of a location: they commute, so any order gives the same */
static const MPI_Op acc_ops[] = { MPI_SUM, MPI_BOR, MPI_BXOR, MPI_BAND, MPI_MAX,
				  MPI_MIN };
enum { NACC_OPS = 6 };

typedef long long elem_t;

struct op {
	enum kind kind;
	int w, target, idx, count, acc;	/* acc: index in acc_ops, -1 MPI_REPLACE/NO_OP */
	int no_op;			/* get_accumulate / fetch_and_op with MPI_NO_OP */
	int check;			/* the fetched values are defined */
	elem_t val[MAXCOUNT], cmp;	/* origin data, compare value */
	elem_t want[MAXCOUNT];		/* fetched values the model expects */
};

enum loc_kind { L_NONE, L_READ, L_ACC, L_OWN };
struct loc {
	enum loc_kind kind;
	int owner, acc, dirty;
};

static int nranks, me;
static uint64_t rng;
static unsigned long long seed;
static long phase;
static int selftest;
static elem_t model[NWIN][MAXRANKS][NELEM];
static struct loc state[NWIN][MAXRANKS][NELEM];
static MPI_Win win[NWIN];
static elem_t *mem[NWIN];
static MPI_Aint dyn_base[MAXRANKS];
static long counts[K_NKINDS + 2];	/* + p2p messages, + phases */

#define FAIL(...)                                                              \
	do {                                                                   \
		fprintf(stderr, "stress: rank %d seed %llu phase %ld: ", me,  \
			seed, phase);                                          \
		fprintf(stderr, __VA_ARGS__);                                  \
		fprintf(stderr, " (replay: stress %llu 0 %ld on %d ranks)\n", \
			seed, phase + 1, nranks);                              \
		fflush(stderr);                                                \
		MPI_Abort(MPI_COMM_WORLD, 97);                                 \
	} while (0)

static uint32_t pick(uint32_t bound)
{
	return (uint32_t)(tu_splitmix(&rng) % bound);
}

static elem_t apply(int acc, elem_t old, elem_t v)
{
	switch (acc) {
	case 0: return old + v;
	case 1: return old | v;
	case 2: return old ^ v;
	case 3: return old & v;
	case 4: return old > v ? old : v;
	default: return old < v ? old : v;
	}
}

static int passive(enum mode m)
{
	return m == M_SHARED || m == M_EXCL || m == M_LOCKALL;
}

/* --- the program generator and the model -------------------------------- */

/* Origin o flushed target t of window w (all targets when t < 0). */
static void clear_dirty(int o, int w, int t)
{
	for (int r = 0; r < nranks; r++)
		if (t < 0 || r == t)
			for (int i = 0; i < NELEM; i++)
				if (state[w][r][i].kind == L_OWN && state[w][r][i].owner == o)
					state[w][r][i].dirty = 0;
}

/*
 * May origin o apply p (its kind and accumulate op) to its locations?
 * Returns 1 (yes), 0 (no), 2 (yes after a flush of that target).
 */
static int allowed(int o, const struct op *p)
{
	int need_flush = 0;
	int writes = p->kind != K_GET && p->kind != K_RGET && !p->no_op;
	int shared_acc = p->acc >= 0 && p->kind != K_CAS;

	for (int i = p->idx; i < p->idx + p->count; i++) {
		const struct loc *l = &state[p->w][p->target][i];

		switch (l->kind) {
		case L_NONE:
			break;
		case L_READ:
			if (writes)
				return 0;
			break;
		case L_ACC:
			if (!shared_acc || l->acc != p->acc)
				return 0;
			break;
		default:
			if (l->owner != o)
				return 0;
			need_flush |= l->dirty;
			break;
		}
	}
	return need_flush ? 2 : 1;
}

/* Take the locations and run op p on the model, filling in what it fetches. */
static void model_apply(int o, struct op *p)
{
	int fetch = p->kind == K_GET || p->kind == K_RGET || p->kind == K_GACC ||
		    p->kind == K_RGACC || p->kind == K_FOP || p->kind == K_CAS;
	int read_only = p->kind == K_GET || p->kind == K_RGET || p->no_op;
	int shared_acc = p->acc >= 0 && p->kind != K_CAS;

	p->check = fetch;
	for (int k = 0; k < p->count; k++) {
		struct loc *l = &state[p->w][p->target][p->idx + k];
		elem_t *m = &model[p->w][p->target][p->idx + k];

		/* the first user decides what the location is in this phase */
		if (l->kind == L_NONE) {
			l->kind = read_only ? L_READ : shared_acc ? L_ACC : L_OWN;
			l->owner = o;
			l->acc = p->acc;
		}
		if (l->kind == L_OWN)
			l->dirty = 1;
		/* concurrent accumulates: the value fetched depends on the order */
		if (l->kind == L_ACC && fetch)
			p->check = 0;
		p->want[k] = *m;
		if (read_only)
			continue;
		if (p->kind == K_CAS)
			*m = *m == p->cmp ? p->val[0] : *m;
		else if (p->acc >= 0)
			*m = apply(p->acc, *m, p->val[k]);
		else
			*m = p->val[k];
	}
}

/* Draw one operation of origin o in this phase (0, 1 or, with the flush
 * that must come first, 2 entries written to out; returns how many). */
static int gen_op(enum mode m, int o, const int *targets, int ntargets, struct op *out)
{
	struct op p;

	memset(&p, 0, sizeof(p));
	if (passive(m) && pick(8) == 0) {
		/* a flush that orders nothing here: local ones, or sync */
		memset(out, 0, sizeof(*out));
		out->kind = (enum kind)(K_FLUSH_LOCAL + (int)pick(3));
		out->w = (int)pick(NWIN);
		out->target = targets[pick((uint32_t)ntargets)];
		return 1;
	}
	for (int tries = 0; tries < 8; tries++) {
		int r = passive(m) ? (int)pick(10) : (int)pick(6);
		int ok;

		p.kind = (enum kind)r;
		p.w = (int)pick(NWIN);
		p.target = targets[pick((uint32_t)ntargets)];
		p.count = p.kind == K_FOP || p.kind == K_CAS ? 1 : 1 + (int)pick(MAXCOUNT);
		p.idx = (int)pick((uint32_t)(NELEM - p.count + 1));
		p.acc = -1;
		p.no_op = 0;
		if (p.kind == K_ACC || p.kind == K_RACC || p.kind == K_GACC ||
		    p.kind == K_RGACC || p.kind == K_FOP) {
			int a = (int)pick(NACC_OPS + 2);

			if (a == NACC_OPS && p.kind != K_ACC && p.kind != K_RACC)
				p.no_op = 1;	/* a read */
			else if (a < NACC_OPS)
				p.acc = a;
			/* else MPI_REPLACE: an owner's write */
		}
		for (int k = 0; k < p.count; k++)
			p.val[k] = (elem_t)pick(1000) + (p.acc == 3 ? 0x7fffff000LL : 0);
		if (p.kind == K_CAS) {
			p.val[0] = (elem_t)pick(1000);
			p.cmp = pick(2) ? model[p.w][p.target][p.idx] : -1;
		}
		ok = allowed(o, &p);
		if (ok == 2 && !passive(m))
			continue;	/* no flush in active target epochs */
		if (!ok)
			continue;
		if (ok == 2) {
			/* order the owner's operations: flush, or flush_all */
			struct op *f = out;

			memset(f, 0, sizeof(*f));
			/* exclusive epochs run one target at a time: flush that one */
			f->kind = pick(2) || m == M_EXCL ? K_FLUSH : K_FLUSH_ALL;
			f->w = p.w;
			f->target = p.target;
			clear_dirty(o, p.w, f->kind == K_FLUSH ? p.target : -1);
			model_apply(o, &p);
			out[1] = p;
			return 2;
		}
		model_apply(o, &p);
		out[0] = p;
		return 1;
	}
	return 0;
}

/* --- running one rank's part --------------------------------------------- */

static MPI_Aint disp_of(int w, int target, int idx)
{
	if (w == 2)	/* dynamic: absolute addresses */
		return MPI_Aint_add(dyn_base[target], (MPI_Aint)idx * (MPI_Aint)sizeof(elem_t));
	return idx;	/* disp_unit is the element */
}

static void issue(struct op *p, elem_t *result, MPI_Request *req)
{
	MPI_Win wi = win[p->w];
	MPI_Aint d = disp_of(p->w, p->target, p->idx);
	MPI_Op op = p->no_op ? MPI_NO_OP : p->acc >= 0 ? acc_ops[p->acc] : MPI_REPLACE;
	MPI_Datatype T = MPI_LONG_LONG;
	int n = p->count, t = p->target;

	counts[p->kind]++;
	switch (p->kind) {
	case K_PUT: CHECK_MPI(MPI_Put(p->val, n, T, t, d, n, T, wi)); break;
	case K_GET: CHECK_MPI(MPI_Get(result, n, T, t, d, n, T, wi)); break;
	case K_ACC: CHECK_MPI(MPI_Accumulate(p->val, n, T, t, d, n, T, op, wi)); break;
	case K_GACC:
		CHECK_MPI(MPI_Get_accumulate(p->val, n, T, result, n, T, t, d, n, T, op, wi));
		break;
	case K_FOP: CHECK_MPI(MPI_Fetch_and_op(p->val, result, T, t, d, op, wi)); break;
	case K_CAS: CHECK_MPI(MPI_Compare_and_swap(p->val, &p->cmp, result, T, t, d, wi)); break;
	case K_RPUT: CHECK_MPI(MPI_Rput(p->val, n, T, t, d, n, T, wi, req)); break;
	case K_RGET: CHECK_MPI(MPI_Rget(result, n, T, t, d, n, T, wi, req)); break;
	case K_RACC: CHECK_MPI(MPI_Raccumulate(p->val, n, T, t, d, n, T, op, wi, req)); break;
	case K_RGACC:
		CHECK_MPI(MPI_Rget_accumulate(p->val, n, T, result, n, T, t, d, n, T, op,
					      wi, req));
		break;
	case K_FLUSH: CHECK_MPI(MPI_Win_flush(t, wi)); break;
	case K_FLUSH_ALL: CHECK_MPI(MPI_Win_flush_all(wi)); break;
	case K_FLUSH_LOCAL: CHECK_MPI(MPI_Win_flush_local(t, wi)); break;
	case K_FLUSH_LOCAL_ALL: CHECK_MPI(MPI_Win_flush_local_all(wi)); break;
	default: CHECK_MPI(MPI_Win_sync(wi)); break;
	}
}

static void check_fetched(const struct op *p, const elem_t *got)
{
	if (!p->check)
		return;
	for (int k = 0; k < p->count; k++)
		if (got[k] != p->want[k])
			FAIL("%s of element %d of rank %d's window %d fetched %lld, the model "
			     "says %lld", kind_name[p->kind], p->idx + k, p->target, p->w,
			     got[k], p->want[k]);
}

/* Run ops [from, to) of mine; the requests are completed before returning. */
static void run_ops(struct op *ops, int from, int to, elem_t (*res)[MAXCOUNT])
{
	MPI_Request reqs[MAXOPS * 2];
	int nreq = 0;

	for (int i = from; i < to; i++) {
		reqs[nreq] = MPI_REQUEST_NULL;
		issue(&ops[i], res[i], &reqs[nreq]);
		if (reqs[nreq] != MPI_REQUEST_NULL)
			nreq++;
	}
	CHECK_MPI(MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE));
}

static int cmp_target_win(const void *a, const void *b)
{
	const struct op *x = a, *y = b;

	if (x->target != y->target)
		return x->target - y->target;
	return x->w - y->w;
}

static void run_phase(enum mode m, struct op *ops, int nops, const int *targets,
		      int ntargets, const int *origins, int norigins)
{
	static elem_t res[MAXOPS * 2][MAXCOUNT];
	MPI_Group world, access = MPI_GROUP_NULL, exposure = MPI_GROUP_NULL;

	switch (m) {
	case M_FENCE:
		for (int w = 0; w < NWIN; w++)
			CHECK_MPI(MPI_Win_fence(0, win[w]));
		run_ops(ops, 0, nops, res);
		for (int w = 0; w < NWIN; w++)
			CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win[w]));
		break;
	case M_PSCW:
		MPI_Comm_group(MPI_COMM_WORLD, &world);
		if (norigins)
			CHECK_MPI(MPI_Group_incl(world, norigins, origins, &exposure));
		if (ntargets)
			CHECK_MPI(MPI_Group_incl(world, ntargets, targets, &access));
		for (int w = 0; w < NWIN && norigins; w++)
			CHECK_MPI(MPI_Win_post(exposure, 0, win[w]));
		for (int w = 0; w < NWIN && ntargets; w++)
			CHECK_MPI(MPI_Win_start(access, 0, win[w]));
		run_ops(ops, 0, nops, res);
		for (int w = 0; w < NWIN && ntargets; w++)
			CHECK_MPI(MPI_Win_complete(win[w]));
		for (int w = 0; w < NWIN && norigins; w++)
			CHECK_MPI(MPI_Win_wait(win[w]));
		if (norigins)
			MPI_Group_free(&exposure);
		if (ntargets)
			MPI_Group_free(&access);
		MPI_Group_free(&world);
		break;
	case M_SHARED:
		for (int i = 0; i < ntargets; i++)
			for (int w = 0; w < NWIN; w++)
				CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, targets[i], 0, win[w]));
		run_ops(ops, 0, nops, res);
		for (int i = 0; i < ntargets; i++)
			for (int w = 0; w < NWIN; w++)
				CHECK_MPI(MPI_Win_unlock(targets[i], win[w]));
		break;
	case M_EXCL:
		/* one (target, window) at a time: exclusive locks never wait in a cycle */
		for (int i = 0; i < nops;) {
			int j = i;

			while (j < nops && ops[j].target == ops[i].target && ops[j].w == ops[i].w)
				j++;
			CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, ops[i].target, 0,
					       win[ops[i].w]));
			run_ops(ops, i, j, res);
			CHECK_MPI(MPI_Win_unlock(ops[i].target, win[ops[i].w]));
			i = j;
		}
		break;
	default:
		for (int w = 0; w < NWIN; w++)
			CHECK_MPI(MPI_Win_lock_all(0, win[w]));
		run_ops(ops, 0, nops, res);
		for (int w = 0; w < NWIN; w++)
			CHECK_MPI(MPI_Win_unlock_all(win[w]));
		break;
	}
	for (int i = 0; i < nops; i++)
		check_fetched(&ops[i], res[i]);
}

/* Point-to-point in the same phase: a shifted ring, data checked. */
static void p2p_phase(void)
{
	int shift = 1 + (int)pick((uint32_t)(nranks > 1 ? nranks - 1 : 1));
	int len = (int)pick(3) == 0 ? 20000 + (int)pick(50000) : 1 + (int)pick(200);
	int how = (int)pick(3), to = (me + shift) % nranks, from = (me - shift + nranks) % nranks;
	unsigned char *s = malloc((size_t)len), *r = malloc((size_t)len);
	MPI_Request q[2];

	CHECK(s && r);
	tu_fill(s, (size_t)len, me, (int)phase);
	memset(r, 0, (size_t)len);
	if (how == 0) {
		CHECK_MPI(MPI_Sendrecv(s, len, MPI_BYTE, to, 5, r, len, MPI_BYTE, from, 5,
				       MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	} else {
		CHECK_MPI(MPI_Irecv(r, len, MPI_BYTE, from, 6, MPI_COMM_WORLD, &q[0]));
		if (how == 1)
			CHECK_MPI(MPI_Isend(s, len, MPI_BYTE, to, 6, MPI_COMM_WORLD, &q[1]));
		else
			CHECK_MPI(MPI_Issend(s, len, MPI_BYTE, to, 6, MPI_COMM_WORLD, &q[1]));
		CHECK_MPI(MPI_Waitall(2, q, MPI_STATUSES_IGNORE));
	}
	if (!tu_verify(r, (size_t)len, from, (int)phase))
		FAIL("a %d-byte message from rank %d arrived different", len, from);
	counts[K_NKINDS]++;
	free(s);
	free(r);
}

static void one_phase(void)
{
	static struct op all[MAXRANKS][MAXOPS * 2];
	int nops[MAXRANKS], targets[MAXRANKS][MAXRANKS], ntargets[MAXRANKS];
	int origins[MAXRANKS], norigins = 0;
	enum mode m = (enum mode)pick(M_NMODES);

	memset(state, 0, sizeof(state));
	/* which targets each origin reaches in this phase */
	for (int o = 0; o < nranks; o++) {
		ntargets[o] = 0;
		for (int t = 0; t < nranks; t++)
			if (pick(3) != 0 || t == (o + 1) % nranks)
				targets[o][ntargets[o]++] = t;
	}
	for (int o = 0; o < nranks; o++) {
		int want = (int)pick(MAXOPS + 1);

		nops[o] = 0;
		for (int k = 0; k < want && nops[o] < MAXOPS * 2 - 1; k++)
			nops[o] += gen_op(m, o, targets[o], ntargets[o], &all[o][nops[o]]);
		if (m == M_EXCL)	/* stable: keeps each owner's order per location */
			for (int i = 1; i < nops[o]; i++)
				for (int j = i; j > 0 && cmp_target_win(&all[o][j - 1],
									&all[o][j]) > 0; j--) {
					struct op x = all[o][j];

					all[o][j] = all[o][j - 1];
					all[o][j - 1] = x;
				}
	}
	for (int o = 0; o < nranks; o++)
		for (int i = 0; i < ntargets[o]; i++)
			if (targets[o][i] == me)
				origins[norigins++] = o;
	run_phase(m, all[me], nops[me], targets[me], ntargets[me], origins, norigins);
	p2p_phase();
	if (selftest && phase == 1 && me == 0) {
		elem_t bad = 0xdead;

		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, nranks - 1, 0, win[0]));
		CHECK_MPI(MPI_Put(&bad, 1, MPI_LONG_LONG, nranks - 1, 3, 1, MPI_LONG_LONG,
				  win[0]));
		CHECK_MPI(MPI_Win_unlock(nranks - 1, win[0]));
	}
	MPI_Barrier(MPI_COMM_WORLD);
	for (int w = 0; w < NWIN; w++)
		for (int i = 0; i < NELEM; i++)
			if (mem[w][i] != model[w][me][i])
				FAIL("after a %s phase, window %d element %d is %lld, the "
				     "model says %lld", mode_name[m], w, i, mem[w][i],
				     model[w][me][i]);
	MPI_Barrier(MPI_COMM_WORLD);
	counts[K_NKINDS + 1]++;
}

static void setup(void)
{
	MPI_Aint base;

	CHECK_MPI(MPI_Win_allocate(NELEM * sizeof(elem_t), sizeof(elem_t), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &mem[0], &win[0]));
	CHECK_MPI(MPI_Alloc_mem(NELEM * sizeof(elem_t), MPI_INFO_NULL, &mem[1]));
	CHECK_MPI(MPI_Win_create(mem[1], NELEM * sizeof(elem_t), sizeof(elem_t),
				 MPI_INFO_NULL, MPI_COMM_WORLD, &win[1]));
	mem[2] = malloc(NELEM * sizeof(elem_t));
	CHECK(mem[2]);
	CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win[2]));
	CHECK_MPI(MPI_Win_attach(win[2], mem[2], NELEM * sizeof(elem_t)));
	CHECK_MPI(MPI_Get_address(mem[2], &base));
	CHECK_MPI(MPI_Allgather(&base, 1, MPI_AINT, dyn_base, 1, MPI_AINT, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_allocate_shared(NELEM * sizeof(elem_t), sizeof(elem_t),
					  MPI_INFO_NULL, MPI_COMM_WORLD, &mem[3], &win[3]));
	for (int w = 0; w < NWIN; w++) {
		for (int r = 0; r < nranks; r++)
			for (int i = 0; i < NELEM; i++)
				model[w][r][i] = (elem_t)(w * 100000 + r * 1000 + i);
		for (int i = 0; i < NELEM; i++)
			mem[w][i] = model[w][me][i];
	}
	MPI_Barrier(MPI_COMM_WORLD);
}

static void teardown(void)
{
	CHECK_MPI(MPI_Win_free(&win[0]));
	CHECK_MPI(MPI_Win_free(&win[1]));
	MPI_Free_mem(mem[1]);
	CHECK_MPI(MPI_Win_detach(win[2], mem[2]));
	CHECK_MPI(MPI_Win_free(&win[2]));
	free(mem[2]);
	CHECK_MPI(MPI_Win_free(&win[3]));
}

int main(int argc, char **argv)
{
	double seconds, t0;
	long phases, total[K_NKINDS + 2], ops = 0;
	int stop = 0;

	tu_init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	me = tu_rank;
	CHECK(nranks <= MAXRANKS);
	seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
	seconds = argc > 2 ? atof(argv[2]) : 2;
	phases = argc > 3 ? atol(argv[3]) : 0;
	selftest = argc > 4 ? atoi(argv[4]) : 0;
	rng = seed;
	setup();
	t0 = MPI_Wtime();
	for (phase = 0; !stop; phase++) {
		one_phase();
		if (me == 0)
			stop = phases ? phase + 1 >= phases : MPI_Wtime() - t0 >= seconds;
		MPI_Bcast(&stop, 1, MPI_INT, 0, MPI_COMM_WORLD);
	}
	MPI_Reduce(counts, total, K_NKINDS + 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
	teardown();
	if (me == 0) {
		for (int k = 0; k < K_NKINDS; k++)
			ops += total[k];
		printf("stress: seed %llu, %d ranks, %ld phases, %ld operations, %ld "
		       "messages, every fetched value and window matches the model\n",
		       seed, nranks, phase, ops, total[K_NKINDS]);
		for (int k = 0; k < K_NKINDS; k++)
			printf("  %-16s %ld\n", kind_name[k], total[k]);
	}
	MPI_Finalize();
	return 0;
}
