/*
 * The reducing collectives: MPI_Reduce, MPI_Allreduce, MPI_Reduce_scatter,
 * MPI_Reduce_scatter_block, MPI_Scan, MPI_Exscan.
 *
 * Predefined ops work on basic elements: every member copies a chunk of its
 * input, as a C array of the basic type, into its slot; the reducing
 * members fold the slots in rank order (x0 op (x1 op (... op xn-1)), so
 * the result is the same whatever the op's commutativity) straight out of
 * shared memory.  Allreduce of more than a little data splits the work:
 * each member reduces one segment of the chunk and publishes it, and every
 * member collects the segments.  User ops get the user's datatype and
 * layout, as the standard says: every member's input is gathered to the
 * members that need it and reduced there, element by element.  Counts are
 * MPI_Count for the int forms and the large-count forms (MPI 4.1, section
 * 2.5.8: MPI_Reduce_c...) alike.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "coll.h"
#include "comm.h"
#include "datatype.h"
#include "errhandler.h"
#include "coll_inter.h"
#include "coll_nb.h"
#include "op.h"
#include "runtime.h"

/* Allreduce reads every slot itself up to this many bytes per chunk. */
#define ALLREDUCE_SMALL 2048

enum red_kind { RED_REDUCE, RED_ALLREDUCE, RED_SCATTER, RED_SCAN, RED_EXSCAN };

/* One reduction: the user's buffers and what each member gets. */
struct red {
	struct comm *c;
	enum call_id call;
	enum red_kind kind;
	const void *in;		/* input (recvbuf when MPI_IN_PLACE) */
	void *out;		/* output */
	MPI_Count count;	/* elements of dt in the input */
	const struct datatype *dt;
	const struct datatype *bt;	/* dt's basic type */
	const struct op *op;
	int root;
	const MPI_Count *rcounts;	/* reduce-scatter: elements each member gets */
};

/* Basic-element range [lo, hi) of the result that member m gets. */
static void scatter_range(const struct red *rd, int m, size_t *lo, size_t *hi)
{
	MPI_Aint per = dt_basic_per_elem(rd->dt);
	size_t at = 0;

	for (int j = 0; j < m; j++)
		at += (size_t)rd->rcounts[j] * (size_t)per;
	*lo = at;
	*hi = at + (size_t)rd->rcounts[m] * (size_t)per;
}

/*
 * Fold members [from, to] (rank order) of basic elements [lo, hi) of the
 * current chunk (which starts at basic element `first`) into acc.  Other
 * members' parts come from their slots, ours from our input.
 */
static void fold(const struct red *rd, uint64_t step, size_t first, size_t lo,
		 size_t hi, int from, int to, char *acc, char *mine)
{
	size_t ext = (size_t)rd->bt->extent, n = hi - lo;

	for (int m = to; m >= from; m--) {
		const char *in = m == rd->c->rank ? mine + (lo - first) * ext :
				 (const char *)coll_slot_read(rd->c, m, step, rd->call) +
				 (lo - first) * ext;

		if (m == to)
			memcpy(acc, in, n * ext);
		else
			op_reduce(rd->op, in, acc, (MPI_Count)n, rd->bt);
	}
}

/* Whether this member reads member m's slot in every chunk of rd. */
static int reads_slot(const struct red *rd, int m)
{
	const struct comm *c = rd->c;

	if (m == c->rank)
		return 0;
	switch (rd->kind) {
	case RED_REDUCE:
		return c->rank == rd->root;
	case RED_SCAN:
	case RED_EXSCAN:
		return m < c->rank;
	default:
		return 1;
	}
}

/* How many members read this member's slot in every chunk. */
static int slot_readers(const struct red *rd)
{
	const struct comm *c = rd->c;

	switch (rd->kind) {
	case RED_REDUCE:
		return c->rank == rd->root ? 0 : 1;
	case RED_SCAN:
	case RED_EXSCAN:
		return c->size - 1 - c->rank;
	default:
		return c->size - 1;
	}
}

/* Predefined ops: chunk by chunk through the slots. */
static void reduce_basic(const struct red *rd)
{
	struct comm *c = rd->c;
	size_t ext = (size_t)rd->bt->extent;
	size_t total = (size_t)rd->count * (size_t)dt_basic_per_elem(rd->dt);
	size_t per_chunk = coll_slot_bytes(c) / ext;
	size_t my_lo = 0, my_hi = total;
	int readers = slot_readers(rd);
	int from = 0, to = c->size - 1, folds = 1;
	char *mine = malloc(per_chunk * ext), *acc = malloc(per_chunk * ext);
	uint64_t step = coll_begin(c);

	switch (rd->kind) {
	case RED_REDUCE:
		folds = c->rank == rd->root;
		break;
	case RED_SCAN:
		to = c->rank;
		break;
	case RED_EXSCAN:
		to = c->rank - 1;
		folds = c->rank > 0;
		break;
	case RED_SCATTER:
		scatter_range(rd, c->rank, &my_lo, &my_hi);
		break;
	case RED_ALLREDUCE:
		break;
	}
	for (size_t first = 0; first < total; first += per_chunk) {
		size_t n = total - first < per_chunk ? total - first : per_chunk;
		size_t lo = first > my_lo ? first : my_lo;
		size_t hi = first + n < my_hi ? first + n : my_hi;
		int split = rd->kind == RED_ALLREDUCE && n * ext > ALLREDUCE_SMALL &&
			    n >= (size_t)c->size;

		if (split) {
			lo = first + n * (size_t)c->rank / (size_t)c->size;
			hi = first + n * (size_t)(c->rank + 1) / (size_t)c->size;
		}
		dt_basic_copy(rd->dt, rd->bt, rd->in, NULL, first, n, mine, 1);
		step++;
		if (readers) {
			memcpy(coll_slot_acquire(c, rd->call), mine, n * ext);
			coll_slot_publish(c, step, readers);
		}
		if (folds && hi > lo) {
			fold(rd, step, first, lo, hi, from, to, acc, mine);
			if (!split)
				dt_basic_copy(rd->dt, rd->bt, NULL, rd->out, lo - my_lo,
					   hi - lo, acc, 0);
		}
		/* release every slot we read in this chunk (waiting for the ones
		 * we had no use for: a release must follow the publication) */
		for (int m = 0; m < c->size; m++) {
			if (!reads_slot(rd, m))
				continue;
			coll_slot_read(c, m, step, rd->call);
			coll_slot_release(c, m);
		}
		if (!split)
			continue;
		/* second step: publish our reduced segment, collect the others' */
		step++;
		memcpy(coll_slot_acquire(c, rd->call), acc, (hi - lo) * ext);
		coll_slot_publish(c, step, c->size - 1);
		dt_basic_copy(rd->dt, rd->bt, NULL, rd->out, lo, hi - lo, acc, 0);
		for (int m = 0; m < c->size; m++) {
			size_t mlo = first + n * (size_t)m / (size_t)c->size;
			size_t mhi = first + n * (size_t)(m + 1) / (size_t)c->size;

			if (m == c->rank)
				continue;
			dt_basic_copy(rd->dt, rd->bt, NULL, rd->out, mlo, mhi - mlo,
				   (char *)coll_slot_read(c, m, step, rd->call), 0);
			coll_slot_release(c, m);
		}
	}
	free(mine);
	free(acc);
}

/* The element range [lo, hi) of the result member m gets, in dt elements. */
static void elem_range(const struct red *rd, int m, MPI_Count *lo, MPI_Count *hi)
{
	MPI_Count at = 0;

	switch (rd->kind) {
	case RED_SCATTER:
		for (int j = 0; j < m; j++)
			at += rd->rcounts[j];
		*lo = at;
		*hi = at + rd->rcounts[m];
		return;
	default:
		*lo = 0;
		*hi = rd->count;
	}
}

/*
 * User ops: gather every member's input (packed) to every member, then
 * reduce whole elements in the user's layout, in rank order.
 */
static int reduce_user(const struct red *rd)
{
	struct comm *c = rd->c;
	const struct datatype *dt = rd->dt;
	size_t bytes = (size_t)rd->count * (size_t)dt->size;
	MPI_Aint span = rd->count ? (MPI_Aint)(rd->count - 1) * dt->extent +
			dt->true_lb + dt->true_extent : 0;
	MPI_Aint shift = dt->true_lb < 0 ? -dt->true_lb : 0;
	int from = 0, to = c->size - 1;
	MPI_Count lo, hi;
	char *all, *in = NULL, *acc = NULL;
	int rc = MPI_SUCCESS;

	all = coll_allgather_packed(c, rd->call, rd->in, rd->count, dt, bytes);
	if (rd->kind == RED_REDUCE && c->rank != rd->root)
		goto out;
	if (rd->kind == RED_SCAN)
		to = c->rank;
	if (rd->kind == RED_EXSCAN)
		to = c->rank - 1;
	in = malloc((size_t)(span + shift) + 1);
	acc = malloc((size_t)(span + shift) + 1);
	if (!all || !in || !acc) {
		rc = MPI_ERR_NO_MEM;
		goto out;
	}
	if (to < from)
		goto out;
	/* the buffers hold whole elements in dt's layout, from true_lb on */
	dt_unpack(dt, acc + shift, 0, all + bytes * (size_t)to, bytes);
	for (int m = to - 1; m >= from; m--) {
		dt_unpack(dt, in + shift, 0, all + bytes * (size_t)m, bytes);
		op_reduce(rd->op, in + shift, acc + shift, rd->count, dt);
	}
	elem_range(rd, c->rank, &lo, &hi);
	{
		char *tmp = malloc(bytes + 1);
		size_t off = (size_t)lo * (size_t)dt->size;

		if (!tmp) {
			rc = MPI_ERR_NO_MEM;
			goto out;
		}
		dt_pack(dt, acc + shift, off, tmp, (size_t)(hi - lo) * (size_t)dt->size);
		dt_unpack(dt, rd->out, 0, tmp, (size_t)(hi - lo) * (size_t)dt->size);
		free(tmp);
	}
out:
	free(all);
	free(in);
	free(acc);
	return rc;
}

int coll_check_reduce(const char *call, MPI_Comm comm, MPI_Count count,
		      MPI_Datatype datatype, MPI_Op op, struct datatype **dt,
		      const struct op **o)
{
	int rc;

	if (count < 0)
		return err_comm(comm, call, MPI_ERR_COUNT, "count", "%lld is negative",
				(long long)count);
	rc = dt_check_use(comm, call, datatype, dt);
	if (rc != MPI_SUCCESS)
		return rc;
	*o = op_get(op);
	if (!*o)
		return err_comm(comm, call, MPI_ERR_OP, "op",
				op == MPI_OP_NULL ? "is MPI_OP_NULL" :
				"0x%x is not a valid op", (unsigned)op);
	if (op_kind(*o) == OP_REPLACE || op_kind(*o) == OP_NO_OP)
		return err_comm(comm, call, MPI_ERR_OP, "op",
				"MPI_REPLACE and MPI_NO_OP are for RMA only");
	if (op_check(*o, *dt) != MPI_SUCCESS)
		return err_comm(comm, call, MPI_ERR_OP, "op",
				"is not defined on %s", (*dt)->name);
	return MPI_SUCCESS;
}

/* Validate and run one reduction; `sendbuf` may be MPI_IN_PLACE. */
static int reduce_do(const char *call, struct red *rd, MPI_Comm comm,
		     const void *sendbuf, void *recvbuf, MPI_Count count,
		     MPI_Datatype datatype, MPI_Op op)
{
	struct comm *c = comm_get(comm);
	struct datatype *dt;
	int rc;

	if (!c)
		return comm_err_invalid(comm, call);
	/* intercommunicators (coll_inter.c) */
	if (c->remote && rd->kind == RED_REDUCE)
		return inter_reduce(call, comm, c, sendbuf, recvbuf, count, datatype, op,
				    rd->root);
	if (c->remote && rd->kind == RED_ALLREDUCE)
		return inter_allreduce(call, comm, c, sendbuf, recvbuf, count, datatype, op);
	if (c->remote && rd->kind == RED_SCATTER)
		return inter_reduce_scatter(call, rd->call, comm, c, sendbuf, recvbuf,
					    rd->rcounts, count, datatype, op);
	if (c->remote)
		return comm_err_inter(comm, call, "comm");
	rc = coll_check_reduce(call, comm, count, datatype, op, &dt, &rd->op);
	if (rc != MPI_SUCCESS)
		return rc;
	if (rd->kind == RED_REDUCE && (rd->root < 0 || rd->root >= c->size))
		return err_comm(comm, call, MPI_ERR_ROOT, "root",
				"%d is not a rank of %s (size %d)", rd->root, c->name,
				c->size);
	if (sendbuf == MPI_IN_PLACE && rd->kind == RED_REDUCE && c->rank != rd->root)
		return err_comm(comm, call, MPI_ERR_BUFFER, "sendbuf",
				"MPI_IN_PLACE is for the root only");
	if (count > 0 && dt->size > 0 && handle_is_builtin(datatype) &&
	    ((!sendbuf && sendbuf != MPI_IN_PLACE) ||
	     (!recvbuf && (rd->kind != RED_REDUCE || c->rank == rd->root))))
		return err_comm(comm, call, MPI_ERR_BUFFER, !sendbuf ? "sendbuf" :
				"recvbuf", "is NULL");
	rd->c = c;
	rd->dt = dt;
	rd->count = count;
	rd->in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
	rd->out = recvbuf;
	if (count == 0 || dt->size == 0)
		return MPI_SUCCESS;
	if (dt->basic != MPI_DATATYPE_NULL && op_is_builtin(rd->op)) {
		rd->bt = dt_get(dt->basic);
		reduce_basic(rd);
		return MPI_SUCCESS;
	}
	rc = reduce_user(rd);
	return rc == MPI_SUCCESS ? rc :
	       err_comm(comm, call, rc, NULL, "out of memory for the reduction");
}

/* The reductions (MPI 3.1, 5.9 and 5.11), whose int forms and
 * large-count forms (MPI 4.1, 2.5.8) both come here. */
static int reduction(const char *call, enum call_id id, enum red_kind kind,
		     const void *sendbuf, void *recvbuf, MPI_Count count,
		     MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
	struct red rd = { .call = id, .kind = kind, .root = root };

	runtime_check(call);
	/* exscan: rank 0 takes part (the others need its input) but gets no
	 * result */
	return reduce_do(call, &rd, comm, sendbuf, recvbuf, count, datatype, op);
}

/* Reduce-scatter with counts[m] elements for member m. */
static int reduce_scatter_do(const char *call, enum call_id id, const void *sendbuf,
			     void *recvbuf, const MPI_Count *counts, MPI_Datatype datatype,
			     MPI_Op op, MPI_Comm comm)
{
	struct red rd = { .call = id, .kind = RED_SCATTER, .rcounts = counts };
	struct comm *c = comm_get(comm);
	MPI_Count total = 0;

	if (!c)
		return comm_err_invalid(comm, call);
	for (int m = 0; m < c->size; m++) {
		if (counts[m] < 0)
			return err_comm(comm, call, MPI_ERR_COUNT, "recvcounts",
					"element %d is negative (%lld)", m,
					(long long)counts[m]);
		total += counts[m];
	}
	/* in place, the input is recvbuf and each member's result lands at its
	 * start: a chunk is copied out before any result overwrites it */
	return reduce_do(call, &rd, comm, sendbuf, recvbuf, total, datatype, op);
}

static int reduce_scatter(const char *call, const void *sendbuf, void *recvbuf,
			  struct nb_vec recvcounts, MPI_Datatype datatype, MPI_Op op,
			  MPI_Comm comm)
{
	struct comm *c = comm_get(comm);
	const MPI_Count *counts;
	const MPI_Aint *none;
	void *wide = NULL;
	int rc;

	runtime_check(call);
	if (!c)
		return comm_err_invalid(comm, call);
	if (!recvcounts.counts && !recvcounts.icounts)
		return err_comm(comm, call, MPI_ERR_ARG, "recvcounts", "is NULL");
	if (nb_vec_widen(&recvcounts, c->size, &counts, &none, &wide) < 0)
		return err_comm(comm, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	rc = reduce_scatter_do(call, CALL_REDUCE_SCATTER, sendbuf, recvbuf, counts,
			       datatype, op, comm);
	free(wide);
	return rc;
}

static int reduce_scatter_block(const char *call, const void *sendbuf, void *recvbuf,
				MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op,
				MPI_Comm comm)
{
	struct comm *c;
	MPI_Count *counts;
	int rc;

	runtime_check(call);
	c = comm_get(comm);
	if (!c)
		return comm_err_invalid(comm, call);
	counts = malloc(sizeof(*counts) * (size_t)c->size);
	if (!counts)
		return err_comm(comm, call, MPI_ERR_NO_MEM, NULL, "out of memory");
	for (int m = 0; m < c->size; m++)
		counts[m] = recvcount;
	rc = reduce_scatter_do(call, CALL_REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, counts,
			       datatype, op, comm);
	free(counts);
	return rc;
}

API(int, Reduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
		  MPI_Op op, int root, MPI_Comm comm))
{
	return reduction("MPI_Reduce", CALL_REDUCE, RED_REDUCE, sendbuf, recvbuf, count,
			 datatype, op, root, comm);
}

API(int, Reduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
		    MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm))
{
	return reduction("MPI_Reduce_c", CALL_REDUCE, RED_REDUCE, sendbuf, recvbuf, count,
			 datatype, op, root, comm);
}

API(int, Allreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
		     MPI_Op op, MPI_Comm comm))
{
	return reduction("MPI_Allreduce", CALL_ALLREDUCE, RED_ALLREDUCE, sendbuf, recvbuf,
			 count, datatype, op, 0, comm);
}

API(int, Allreduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
		       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
{
	return reduction("MPI_Allreduce_c", CALL_ALLREDUCE, RED_ALLREDUCE, sendbuf,
			 recvbuf, count, datatype, op, 0, comm);
}

API(int, Scan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
		MPI_Op op, MPI_Comm comm))
{
	return reduction("MPI_Scan", CALL_SCAN, RED_SCAN, sendbuf, recvbuf, count,
			 datatype, op, 0, comm);
}

API(int, Scan_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
		  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
{
	return reduction("MPI_Scan_c", CALL_SCAN, RED_SCAN, sendbuf, recvbuf, count,
			 datatype, op, 0, comm);
}

API(int, Exscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
		  MPI_Op op, MPI_Comm comm))
{
	return reduction("MPI_Exscan", CALL_EXSCAN, RED_EXSCAN, sendbuf, recvbuf, count,
			 datatype, op, 0, comm);
}

API(int, Exscan_c, (const void *sendbuf, void *recvbuf, MPI_Count count,
		    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
{
	return reduction("MPI_Exscan_c", CALL_EXSCAN, RED_EXSCAN, sendbuf, recvbuf, count,
			 datatype, op, 0, comm);
}

API(int, Reduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[],
			  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
{
	return reduce_scatter("MPI_Reduce_scatter", sendbuf, recvbuf, NB_VEC(recvcounts,
			      NULL), datatype, op, comm);
}

API(int, Reduce_scatter_c, (const void *sendbuf, void *recvbuf,
			    const MPI_Count recvcounts[], MPI_Datatype datatype,
			    MPI_Op op, MPI_Comm comm))
{
	return reduce_scatter("MPI_Reduce_scatter_c", sendbuf, recvbuf,
			      NB_VEC_C(recvcounts, NULL), datatype, op, comm);
}

API(int, Reduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount,
				MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
{
	return reduce_scatter_block("MPI_Reduce_scatter_block", sendbuf, recvbuf,
				    recvcount, datatype, op, comm);
}

API(int, Reduce_scatter_block_c, (const void *sendbuf, void *recvbuf, MPI_Count recvcount,
				  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
{
	return reduce_scatter_block("MPI_Reduce_scatter_block_c", sendbuf, recvbuf,
				    recvcount, datatype, op, comm);
}
