/*
 * The large-count forms of the collectives (MPI 4.1, section 2.5.8: counts
 * as MPI_Count, displacements as MPI_Aint): every blocking, nonblocking
 * and persistent "_c" call, on intracommunicators and (some) on an
 * intercommunicator, gives what its int form gives; and the v- and
 * w-variants reach displacements beyond 2^31 (in elements of MPI_CHAR, or
 * in bytes), into a sparse mapping of a few GiB of which only the pages
 * touched take memory.  Also builds with any other MPI.
 *   coll_large [test]
 */
#include <sys/mman.h>

#include "nbutil.h"

#define MAXP 64
#define N 3

static int rank, size;

/* What process r contributes at index i. */
static int cv(int r, int i)
{
	return val(r, i) * 3 + 1;
}

/* Start and complete a nonblocking (persistent: also start it, then
 * free it) request. */
static void done(MPI_Request *req, int persistent)
{
	if (persistent)
		CHECK_MPI(MPI_Start(req));
	CHECK_MPI(MPI_Wait(req, MPI_STATUS_IGNORE));
	if (persistent)
		CHECK_MPI(MPI_Request_free(req));
	CHECK(*req == MPI_REQUEST_NULL);
}

/* The rooted and the all-to-all calls, nonblocking then persistent. */
static void test_moving(void)
{
	int sb[MAXP * N], rb[MAXP * N * 2], one[N];
	MPI_Count cnt[MAXP], cnt1[MAXP];
	MPI_Aint dsp[MAXP], dsp1[MAXP], wdsp[MAXP];
	MPI_Datatype wt[MAXP];
	int root = size - 1;

	for (int m = 0; m < size; m++) {
		cnt[m] = N;
		dsp[m] = (MPI_Aint)(size - 1 - m) * 2 * N;
		cnt1[m] = N;
		dsp1[m] = (MPI_Aint)m * N;
		wdsp[m] = dsp[m] * (MPI_Aint)sizeof(int);
		wt[m] = MPI_INT;
	}
	for (int i = 0; i < MAXP * N; i++)
		sb[i] = cv(rank, i);
	for (int p = 0; p < 2; p++) {
		MPI_Request req;

		/* gather_c, gatherv_c */
		memset(rb, 0xff, sizeof(rb));
		if (p)
			CHECK_MPI(MPI_Gather_init_c(sb, N, MPI_INT, rb, N, MPI_INT, root,
						    MPI_COMM_WORLD, MPI_INFO_NULL, &req));
		else
			CHECK_MPI(MPI_Igather_c(sb, N, MPI_INT, rb, N, MPI_INT, root,
						MPI_COMM_WORLD, &req));
		done(&req, p);
		for (int i = 0; rank == root && i < size * N; i++)
			CHECK(rb[i] == cv(i / N, i % N));
		memset(rb, 0xff, sizeof(rb));
		if (p)
			CHECK_MPI(MPI_Gatherv_init_c(sb, N, MPI_INT, rb, cnt, dsp, MPI_INT, root,
						     MPI_COMM_WORLD, MPI_INFO_NULL, &req));
		else
			CHECK_MPI(MPI_Igatherv_c(sb, N, MPI_INT, rb, cnt, dsp, MPI_INT, root,
						 MPI_COMM_WORLD, &req));
		done(&req, p);
		for (int m = 0; rank == root && m < size; m++)
			for (int i = 0; i < N; i++)
				CHECK(rb[dsp[m] + i] == cv(m, i));
		/* scatter_c, scatterv_c */
		memset(one, 0xff, sizeof(one));
		if (p)
			CHECK_MPI(MPI_Scatter_init_c(sb, N, MPI_INT, one, N, MPI_INT, root,
						     MPI_COMM_WORLD, MPI_INFO_NULL, &req));
		else
			CHECK_MPI(MPI_Iscatter_c(sb, N, MPI_INT, one, N, MPI_INT, root,
						 MPI_COMM_WORLD, &req));
		done(&req, p);
		for (int i = 0; i < N; i++)
			CHECK(one[i] == cv(root, rank * N + i));
		memset(one, 0xff, sizeof(one));
		if (p)
			CHECK_MPI(MPI_Scatterv_init_c(sb, cnt1, dsp1, MPI_INT, one, N, MPI_INT,
						      root, MPI_COMM_WORLD, MPI_INFO_NULL,
						      &req));
		else
			CHECK_MPI(MPI_Iscatterv_c(sb, cnt1, dsp1, MPI_INT, one, N, MPI_INT, root,
						  MPI_COMM_WORLD, &req));
		done(&req, p);
		for (int i = 0; i < N; i++)
			CHECK(one[i] == cv(root, rank * N + i));
		/* allgather_c, allgatherv_c */
		memset(rb, 0xff, sizeof(rb));
		if (p)
			CHECK_MPI(MPI_Allgather_init_c(sb, N, MPI_INT, rb, N, MPI_INT,
						       MPI_COMM_WORLD, MPI_INFO_NULL, &req));
		else
			CHECK_MPI(MPI_Iallgather_c(sb, N, MPI_INT, rb, N, MPI_INT, MPI_COMM_WORLD,
						   &req));
		done(&req, p);
		for (int i = 0; i < size * N; i++)
			CHECK(rb[i] == cv(i / N, i % N));
		memset(rb, 0xff, sizeof(rb));
		if (p)
			CHECK_MPI(MPI_Allgatherv_init_c(sb, N, MPI_INT, rb, cnt, dsp, MPI_INT,
							MPI_COMM_WORLD, MPI_INFO_NULL, &req));
		else
			CHECK_MPI(MPI_Iallgatherv_c(sb, N, MPI_INT, rb, cnt, dsp, MPI_INT,
						    MPI_COMM_WORLD, &req));
		done(&req, p);
		for (int m = 0; m < size; m++)
			for (int i = 0; i < N; i++)
				CHECK(rb[dsp[m] + i] == cv(m, i) && rb[dsp[m] + N + i] == -1);
		/* alltoall_c, alltoallv_c, alltoallw_c */
		memset(rb, 0xff, sizeof(rb));
		if (p)
			CHECK_MPI(MPI_Alltoall_init_c(sb, N, MPI_INT, rb, N, MPI_INT,
						      MPI_COMM_WORLD, MPI_INFO_NULL, &req));
		else
			CHECK_MPI(MPI_Ialltoall_c(sb, N, MPI_INT, rb, N, MPI_INT, MPI_COMM_WORLD,
						  &req));
		done(&req, p);
		for (int i = 0; i < size * N; i++)
			CHECK(rb[i] == cv(i / N, rank * N + i % N));
		memset(rb, 0xff, sizeof(rb));
		if (p)
			CHECK_MPI(MPI_Alltoallv_init_c(sb, cnt1, dsp1, MPI_INT, rb, cnt, dsp,
						       MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
						       &req));
		else
			CHECK_MPI(MPI_Ialltoallv_c(sb, cnt1, dsp1, MPI_INT, rb, cnt, dsp, MPI_INT,
						   MPI_COMM_WORLD, &req));
		done(&req, p);
		for (int m = 0; m < size; m++)
			for (int i = 0; i < N; i++)
				CHECK(rb[dsp[m] + i] == cv(m, rank * N + i));
		memset(rb, 0xff, sizeof(rb));
		if (p)
			CHECK_MPI(MPI_Alltoallw_init_c(sb, cnt1, wdsp, wt, rb, cnt, wdsp, wt,
						       MPI_COMM_WORLD, MPI_INFO_NULL, &req));
		else
			CHECK_MPI(MPI_Ialltoallw_c(sb, cnt1, wdsp, wt, rb, cnt, wdsp, wt,
						   MPI_COMM_WORLD, &req));
		done(&req, p);
		for (int m = 0; m < size; m++)
			for (int i = 0; i < N; i++)
				CHECK(rb[dsp[m] + i] == cv(m, dsp[rank] + i));
	}
	{
		int w[MAXP * N * 2];

		memset(w, 0xff, sizeof(w));
		CHECK_MPI(MPI_Alltoallw_c(sb, cnt1, wdsp, wt, w, cnt, wdsp, wt, MPI_COMM_WORLD));
		for (int m = 0; m < size; m++)
			for (int i = 0; i < N; i++)
				CHECK(w[dsp[m] + i] == cv(m, dsp[rank] + i));
	}
}

/* The reductions, nonblocking then persistent. */
static void test_reductions(void)
{
	int in[MAXP * N], out[MAXP * N];
	MPI_Count rc[MAXP];

	for (int i = 0; i < MAXP * N; i++)
		in[i] = cv(rank, i);
	for (int m = 0; m < size; m++)
		rc[m] = m % 2 + 1;
	for (int p = 0; p < 2; p++) {
		MPI_Request req;
		int at = 0;

		memset(out, 0, sizeof(out));
		if (p)
			CHECK_MPI(MPI_Bcast_init_c(in, N, MPI_INT, 0, MPI_COMM_WORLD,
						   MPI_INFO_NULL, &req));
		else
			CHECK_MPI(MPI_Ibcast_c(in, N, MPI_INT, 0, MPI_COMM_WORLD, &req));
		done(&req, p);
		for (int i = 0; i < N; i++)
			CHECK(in[i] == cv(0, i));
		for (int i = 0; i < MAXP * N; i++)
			in[i] = cv(rank, i);
		if (p)
			CHECK_MPI(MPI_Reduce_init_c(in, out, N, MPI_INT, MPI_SUM, 0,
						    MPI_COMM_WORLD, MPI_INFO_NULL, &req));
		else
			CHECK_MPI(MPI_Ireduce_c(in, out, N, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD,
						&req));
		done(&req, p);
		for (int i = 0; rank == 0 && i < N; i++) {
			int s = 0;

			for (int r = 0; r < size; r++)
				s += cv(r, i);
			CHECK(out[i] == s);
		}
		if (p)
			CHECK_MPI(MPI_Allreduce_init_c(in, out, N, MPI_INT, MPI_MAX,
						       MPI_COMM_WORLD, MPI_INFO_NULL, &req));
		else
			CHECK_MPI(MPI_Iallreduce_c(in, out, N, MPI_INT, MPI_MAX, MPI_COMM_WORLD,
						   &req));
		done(&req, p);
		for (int i = 0; i < N; i++) {
			int mx = cv(0, i);

			for (int r = 1; r < size; r++)
				mx = cv(r, i) > mx ? cv(r, i) : mx;
			CHECK(out[i] == mx);
		}
		if (p)
			CHECK_MPI(MPI_Scan_init_c(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
						  MPI_INFO_NULL, &req));
		else
			CHECK_MPI(MPI_Iscan_c(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req));
		done(&req, p);
		for (int i = 0; i < N; i++) {
			int s = 0;

			for (int r = 0; r <= rank; r++)
				s += cv(r, i);
			CHECK(out[i] == s);
		}
		if (p)
			CHECK_MPI(MPI_Exscan_init_c(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
						    MPI_INFO_NULL, &req));
		else
			CHECK_MPI(MPI_Iexscan_c(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
						&req));
		done(&req, p);
		for (int i = 0; rank > 0 && i < N; i++) {
			int s = 0;

			for (int r = 0; r < rank; r++)
				s += cv(r, i);
			CHECK(out[i] == s);
		}
		memset(out, 0, sizeof(out));
		if (p)
			CHECK_MPI(MPI_Reduce_scatter_init_c(in, out, rc, MPI_INT, MPI_SUM,
							    MPI_COMM_WORLD, MPI_INFO_NULL,
							    &req));
		else
			CHECK_MPI(MPI_Ireduce_scatter_c(in, out, rc, MPI_INT, MPI_SUM,
							MPI_COMM_WORLD, &req));
		done(&req, p);
		for (int m = 0; m < rank; m++)
			at += (int)rc[m];
		for (int i = 0; i < rc[rank]; i++) {
			int s = 0;

			for (int r = 0; r < size; r++)
				s += cv(r, at + i);
			CHECK(out[i] == s);
		}
		if (p)
			CHECK_MPI(MPI_Reduce_scatter_block_init_c(in, out, 2, MPI_INT, MPI_SUM,
								  MPI_COMM_WORLD, MPI_INFO_NULL,
								  &req));
		else
			CHECK_MPI(MPI_Ireduce_scatter_block_c(in, out, 2, MPI_INT, MPI_SUM,
							      MPI_COMM_WORLD, &req));
		done(&req, p);
		for (int i = 0; i < 2; i++) {
			int s = 0;

			for (int r = 0; r < size; r++)
				s += cv(r, rank * 2 + i);
			CHECK(out[i] == s);
		}
	}
}

/* The blocking "_c" calls, on MPI_COMM_WORLD and on the intercommunicator
 * between the job's halves. */
static void test_blocking(void)
{
	int sb[MAXP * N], rb[MAXP * N * 2], one[N], root = size / 2;
	MPI_Count cnt[MAXP], cnt1[MAXP];
	MPI_Aint dsp[MAXP], dsp1[MAXP];

	for (int m = 0; m < size; m++) {
		cnt[m] = N;
		dsp[m] = (MPI_Aint)(size - 1 - m) * 2 * N;
		cnt1[m] = N;
		dsp1[m] = (MPI_Aint)m * N;
	}
	for (int i = 0; i < MAXP * N; i++)
		sb[i] = cv(rank, i);
	memcpy(one, sb, sizeof(one));
	CHECK_MPI(MPI_Bcast_c(one, N, MPI_INT, root, MPI_COMM_WORLD));
	for (int i = 0; i < N; i++)
		CHECK(one[i] == cv(root, i));
	memset(rb, 0xff, sizeof(rb));
	CHECK_MPI(MPI_Gather_c(sb, N, MPI_INT, rb, N, MPI_INT, root, MPI_COMM_WORLD));
	for (int i = 0; rank == root && i < size * N; i++)
		CHECK(rb[i] == cv(i / N, i % N));
	memset(rb, 0xff, sizeof(rb));
	CHECK_MPI(MPI_Gatherv_c(sb, N, MPI_INT, rb, cnt, dsp, MPI_INT, root,
				MPI_COMM_WORLD));
	for (int m = 0; rank == root && m < size; m++)
		for (int i = 0; i < N; i++)
			CHECK(rb[dsp[m] + i] == cv(m, i));
	memset(one, 0xff, sizeof(one));
	CHECK_MPI(MPI_Scatter_c(sb, N, MPI_INT, one, N, MPI_INT, root, MPI_COMM_WORLD));
	for (int i = 0; i < N; i++)
		CHECK(one[i] == cv(root, rank * N + i));
	memset(one, 0xff, sizeof(one));
	CHECK_MPI(MPI_Scatterv_c(sb, cnt1, dsp1, MPI_INT, one, N, MPI_INT, root,
				 MPI_COMM_WORLD));
	for (int i = 0; i < N; i++)
		CHECK(one[i] == cv(root, rank * N + i));
	memset(rb, 0xff, sizeof(rb));
	CHECK_MPI(MPI_Allgather_c(sb, N, MPI_INT, rb, N, MPI_INT, MPI_COMM_WORLD));
	for (int i = 0; i < size * N; i++)
		CHECK(rb[i] == cv(i / N, i % N));
	memset(rb, 0xff, sizeof(rb));
	CHECK_MPI(MPI_Allgatherv_c(sb, N, MPI_INT, rb, cnt, dsp, MPI_INT, MPI_COMM_WORLD));
	for (int m = 0; m < size; m++)
		for (int i = 0; i < N; i++)
			CHECK(rb[dsp[m] + i] == cv(m, i) && rb[dsp[m] + N + i] == -1);
	memset(rb, 0xff, sizeof(rb));
	CHECK_MPI(MPI_Alltoall_c(sb, N, MPI_INT, rb, N, MPI_INT, MPI_COMM_WORLD));
	for (int i = 0; i < size * N; i++)
		CHECK(rb[i] == cv(i / N, rank * N + i % N));
	memset(rb, 0xff, sizeof(rb));
	CHECK_MPI(MPI_Alltoallv_c(sb, cnt1, dsp1, MPI_INT, rb, cnt, dsp, MPI_INT,
				  MPI_COMM_WORLD));
	for (int m = 0; m < size; m++)
		for (int i = 0; i < N; i++)
			CHECK(rb[dsp[m] + i] == cv(m, rank * N + i));
	{
		int out[MAXP * N];
		MPI_Count rc[MAXP];
		int at = 0;

		for (int m = 0; m < size; m++)
			rc[m] = m % 2 + 1;
		CHECK_MPI(MPI_Reduce_c(sb, out, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Allreduce_c(sb, out + N, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Scan_c(sb, out + 2 * N, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Exscan_c(sb, out + 3 * N, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
		for (int i = 0; i < N; i++) {
			int all = 0, below = 0;

			for (int r = 0; r < size; r++) {
				all += cv(r, i);
				below += r < rank ? cv(r, i) : 0;
			}
			CHECK(rank != root || out[i] == all);
			CHECK(out[N + i] == all);
			CHECK(out[2 * N + i] == below + cv(rank, i));
			CHECK(rank == 0 || out[3 * N + i] == below);
		}
		CHECK_MPI(MPI_Reduce_scatter_c(sb, out, rc, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
		for (int m = 0; m < rank; m++)
			at += (int)rc[m];
		for (int i = 0; i < rc[rank]; i++) {
			int s = 0;

			for (int r = 0; r < size; r++)
				s += cv(r, at + i);
			CHECK(out[i] == s);
		}
		CHECK_MPI(MPI_Reduce_scatter_block_c(sb, out, 2, MPI_INT, MPI_SUM,
						     MPI_COMM_WORLD));
		for (int i = 0; i < 2; i++) {
			int s = 0;

			for (int r = 0; r < size; r++)
				s += cv(r, rank * 2 + i);
			CHECK(out[i] == s);
		}
	}
	if (size >= 2) {
		MPI_Comm half, inter;
		int low = rank < size / 2, lr, rs, sum = 0, got = -1;

		halves(&half, &inter);
		MPI_Comm_rank(half, &lr);
		MPI_Comm_remote_size(inter, &rs);
		memset(rb, 0xff, sizeof(rb));
		/* the lower half's rank 0 gathers the upper half's blocks */
		CHECK_MPI(MPI_Gatherv_c(sb, N, MPI_INT, rb, cnt, dsp, MPI_INT,
					low ? (lr == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0, inter));
		for (int m = 0; low && lr == 0 && m < rs; m++)
			for (int i = 0; i < N; i++)
				CHECK(rb[dsp[m] + i] == cv(size / 2 + m, i));
		CHECK_MPI(MPI_Allreduce_c(&rank, &got, 1, MPI_INT, MPI_SUM, inter));
		for (int r = low ? size / 2 : 0; r < (low ? size : size / 2); r++)
			sum += r;
		CHECK(got == sum);
		CHECK_MPI(MPI_Comm_free(&inter));
		CHECK_MPI(MPI_Comm_free(&half));
	}
}

/* A mapping of `bytes` that takes memory only where it is touched. */
static char *sparse(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	CHECK(p != MAP_FAILED);
	return p;
}

/* 2^31 + a little: past what an int displacement reaches. */
#define FAR ((MPI_Aint)1 << 31)
#define SPAN ((size_t)FAR + ((size_t)1 << 24))

/*
 * Displacements beyond 2^31: member m's block of MPI_CHARs lands (gather,
 * allgather, alltoall) or comes from (scatter) FAR + 4099 m + 5 elements
 * into a sparse buffer; alltoallw and the neighbourhood alltoallw take
 * the same offsets in bytes.
 */
static void test_far(void)
{
	char *big = sparse(SPAN), mine[8], got[8];
	MPI_Count cnt[MAXP];
	MPI_Aint dsp[MAXP], zero[MAXP];
	MPI_Datatype ct[MAXP];
	MPI_Request req;
	int root = 0;

	for (int m = 0; m < size; m++) {
		cnt[m] = 8;
		dsp[m] = FAR + 4099 * (MPI_Aint)m + 5;
		zero[m] = 0;
		ct[m] = MPI_CHAR;
	}
	for (int i = 0; i < 8; i++)
		mine[i] = (char)(rank * 16 + i);
	/* gatherv_c into the far end, persistent, twice */
	CHECK_MPI(MPI_Gatherv_init_c(mine, 8, MPI_CHAR, big, cnt, dsp, MPI_CHAR, root,
				     MPI_COMM_WORLD, MPI_INFO_NULL, &req));
	for (int k = 0; k < 2; k++) {
		mine[0] = (char)(rank * 16 + k);
		CHECK_MPI(MPI_Start(&req));
		CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
		for (int m = 0; rank == root && m < size; m++)
			CHECK(big[dsp[m]] == (char)(m * 16 + k) &&
			      big[dsp[m] + 7] == (char)(m * 16 + 7) && big[dsp[m] - 1] == 0);
	}
	CHECK_MPI(MPI_Request_free(&req));
	/* scatterv_c from there, back to everybody */
	memset(got, 0, sizeof(got));
	CHECK_MPI(MPI_Iscatterv_c(big, cnt, dsp, MPI_CHAR, got, 8, MPI_CHAR, root,
				  MPI_COMM_WORLD, &req));
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	CHECK(got[0] == (char)(rank * 16 + 1) && got[7] == (char)(rank * 16 + 7));
	/* allgatherv_c: everybody's far end */
	memset(big + FAR, 0, (size_t)4099 * (size_t)size + 16);
	CHECK_MPI(MPI_Iallgatherv_c(mine, 8, MPI_CHAR, big, cnt, dsp, MPI_CHAR,
				    MPI_COMM_WORLD, &req));
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	for (int m = 0; m < size; m++)
#ifndef SHMPI
		/* MPICH 4.0 puts a lone process's own block elsewhere */
		if (size > 1)
#endif
			CHECK(big[dsp[m]] == (char)(m * 16 + 1) &&
			      big[dsp[m] + 3] == (char)(m * 16 + 3));
	/* alltoallw_c: byte displacements, 8 bytes from each to each */
	memset(big + FAR, 0, (size_t)4099 * (size_t)size + 16);
	{
		char sb[MAXP * 8];

		for (int i = 0; i < size * 8; i++)
			sb[i] = (char)(rank + i);
		for (int m = 0; m < size; m++)
			zero[m] = 8 * (MPI_Aint)m;
		CHECK_MPI(MPI_Alltoallw_c(sb, cnt, zero, ct, big, cnt, dsp, ct,
					  MPI_COMM_WORLD));
		for (int m = 0; m < size; m++)
			for (int i = 0; i < 8; i++)
				CHECK(big[dsp[m] + i] == (char)(m + rank * 8 + i));
	}
	/* the blocking calls (the collective area's path) too */
	memset(big + FAR, 0, (size_t)4099 * (size_t)size + 16);
	CHECK_MPI(MPI_Allgatherv_c(mine, 8, MPI_CHAR, big, cnt, dsp, MPI_CHAR,
				   MPI_COMM_WORLD));
	for (int m = 0; m < size; m++)
#ifndef SHMPI
		if (size > 1)
#endif
			CHECK(big[dsp[m]] == (char)(m * 16 + 1) &&
			      big[dsp[m] + 6] == (char)(m * 16 + 6));
	memset(got, 0, sizeof(got));
	CHECK_MPI(MPI_Scatterv_c(big, cnt, dsp, MPI_CHAR, got, 8, MPI_CHAR, root,
				 MPI_COMM_WORLD));
#ifndef SHMPI
	if (size > 1)
#endif
		CHECK(got[0] == (char)(rank * 16 + 1) && got[6] == (char)(rank * 16 + 6));
	memset(big + FAR, 0, (size_t)4099 * (size_t)size + 16);
	CHECK_MPI(MPI_Gatherv_c(mine, 8, MPI_CHAR, big, cnt, dsp, MPI_CHAR, root,
				MPI_COMM_WORLD));
	for (int m = 0; rank == root && m < size; m++)
		CHECK(big[dsp[m]] == (char)(m * 16 + 1) && big[dsp[m] + 2] == (char)(m * 16 + 2));
	{
		MPI_Count one8[MAXP];
		MPI_Aint sd[MAXP];
		char sb[MAXP * 8];

		for (int m = 0; m < size; m++) {
			one8[m] = 8;
			sd[m] = 8 * (MPI_Aint)m;
		}
		for (int i = 0; i < size * 8; i++)
			sb[i] = (char)(rank - i);
		memset(big + FAR, 0, (size_t)4099 * (size_t)size + 16);
		CHECK_MPI(MPI_Alltoallv_c(sb, one8, sd, MPI_CHAR, big, cnt, dsp, MPI_CHAR,
					  MPI_COMM_WORLD));
		for (int m = 0; m < size; m++)
			for (int i = 0; i < 8; i++)
				CHECK(big[dsp[m] + i] == (char)(m - rank * 8 - i));
	}
	CHECK(munmap(big, SPAN) == 0);
}

/* The neighbourhood "_c" calls on a periodic ring of at least 3. */
static void test_neighbor(void)
{
	int dims[1] = { size }, periods[1] = { 1 }, left, right, s[2], r[4];
	MPI_Count c1[2] = { 1, 1 };
	MPI_Aint d1[2] = { 0, 1 }, dv[2] = { 3, 0 }, dw[2] = { 0, sizeof(int) };
	MPI_Datatype tw[2] = { MPI_INT, MPI_INT };
	MPI_Request req;
	MPI_Comm ring;

	if (size < 3)
		return;
	CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
	CHECK_MPI(MPI_Cart_shift(ring, 0, 1, &left, &right));
	s[0] = cv(rank, 0);
	s[1] = cv(rank, 1);
	memset(r, 0xff, sizeof(r));
	CHECK_MPI(MPI_Neighbor_allgather_c(s, 1, MPI_INT, r, 1, MPI_INT, ring));
	CHECK(r[0] == cv(left, 0) && r[1] == cv(right, 0));
	memset(r, 0xff, sizeof(r));
	CHECK_MPI(MPI_Neighbor_allgatherv_c(s, 1, MPI_INT, r, c1, dv, MPI_INT, ring));
	CHECK(r[3] == cv(left, 0) && r[0] == cv(right, 0) && r[1] == -1);
	memset(r, 0xff, sizeof(r));
	CHECK_MPI(MPI_Neighbor_alltoall_c(s, 1, MPI_INT, r, 1, MPI_INT, ring));
	CHECK(r[0] == cv(left, 1) && r[1] == cv(right, 0));
	memset(r, 0xff, sizeof(r));
	CHECK_MPI(MPI_Ineighbor_alltoallv_c(s, c1, d1, MPI_INT, r, c1, dv, MPI_INT, ring,
					    &req));
	done(&req, 0);
	CHECK(r[3] == cv(left, 1) && r[0] == cv(right, 0));
	memset(r, 0xff, sizeof(r));
	CHECK_MPI(MPI_Neighbor_alltoallw_init_c(s, c1, dw, tw, r, c1, dw, tw, ring,
						MPI_INFO_NULL, &req));
	done(&req, 1);
	CHECK(r[0] == cv(left, 1) && r[1] == cv(right, 0));
	memset(r, 0xff, sizeof(r));
	CHECK_MPI(MPI_Ineighbor_allgather_c(s, 1, MPI_INT, r, 1, MPI_INT, ring, &req));
	done(&req, 0);
	CHECK(r[0] == cv(left, 0) && r[1] == cv(right, 0));
	memset(r, 0xff, sizeof(r));
	CHECK_MPI(MPI_Neighbor_alltoallv_init_c(s, c1, d1, MPI_INT, r, c1, d1, MPI_INT,
						ring, MPI_INFO_NULL, &req));
	done(&req, 1);
	CHECK(r[0] == cv(left, 1) && r[1] == cv(right, 0));
	CHECK_MPI(MPI_Comm_free(&ring));
}

static void test_errors(void)
{
	MPI_Comm comm;
	MPI_Request req;
	MPI_Count neg[MAXP];
	MPI_Aint dsp[MAXP];
	int a[MAXP] = { 0 }, b[MAXP];

	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
	CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
	for (int m = 0; m < MAXP; m++) {
		neg[m] = m == size - 1 ? -((MPI_Count)1 << 40) : 1;
		dsp[m] = m;
	}
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Ibcast_c(a, -1, MPI_INT, 0, comm, &req));
	EXPECT_ERR(MPI_ERR_COUNT, MPI_Iallgatherv_c(a, 1, MPI_INT, b, neg, dsp, MPI_INT,
						    comm, &req));
	EXPECT_ERR(MPI_ERR_ROOT, MPI_Gather_init_c(a, 1, MPI_INT, b, 1, MPI_INT, size, comm,
						   MPI_INFO_NULL, &req));
	CHECK_MPI(MPI_Comm_free(&comm));
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";

	tu_init(&argc, &argv);
	rank = tu_rank;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK(size <= MAXP);
	TU_RUN("moving", test_moving);
	TU_RUN("reductions", test_reductions);
	TU_RUN("blocking", test_blocking);
	TU_RUN("far", test_far);
	TU_RUN("neighbor", test_neighbor);
	TU_RUN("errors", test_errors);
	MPI_Finalize();
	return 0;
}
