/*
 * The large-count datatype, packing and reduction calls (MPI 4.1, section
 * 2.5.8), checked by their results at any number of ranks:
 *  - same: every "_c" constructor with ordinary counts makes the type its
 *    int form makes (size, extent, true extent, packed bytes), and a
 *    message of one goes around the ring into the other;
 *  - decode: MPI_Type_get_envelope_c and _contents_c give the arguments of
 *    either form (MPI 4.1, section 5.1.13), the int forms refuse a type
 *    with large counts (MPI_ERR_TYPE);
 *  - huge: types whose size or extent exceeds 2^31 bytes, with a sparse
 *    footprint: their queries, MPI_Type_size's MPI_UNDEFINED, and one sent
 *    around the ring out of a mostly untouched mapping;
 *  - pack: the packing calls' large forms give what the int forms give;
 *  - ops: MPI_Op_create_c's function gets the whole count as a MPI_Count,
 *    MPI_Reduce_local_c gives what MPI_Reduce_local gives.
 * Prints one "ok" line per part on rank 0.  A plain MPI program.
 */
#include <sys/mman.h>

#include "testutil.h"

static int size, right, left;

/* The queries of a and b agree, and so do their packed bytes of buf. */
static void expect_same(MPI_Datatype a, MPI_Datatype b, const void *buf)
{
	MPI_Count sa, sb, lba, lbb, ea, eb, tla, tlb, tea, teb, pa = 0, pb = 0;
	static char packa[4096], packb[4096];

	CHECK_MPI(MPI_Type_size_c(a, &sa));
	CHECK_MPI(MPI_Type_size_x(b, &sb));
	CHECK_MPI(MPI_Type_get_extent_c(a, &lba, &ea));
	CHECK_MPI(MPI_Type_get_extent_x(b, &lbb, &eb));
	CHECK_MPI(MPI_Type_get_true_extent_c(a, &tla, &tea));
	CHECK_MPI(MPI_Type_get_true_extent_x(b, &tlb, &teb));
	CHECK(sa == sb && lba == lbb && ea == eb && tla == tlb && tea == teb);
	CHECK(sa > 0 && sa <= (MPI_Count)sizeof(packa));
	CHECK_MPI(MPI_Pack_c(buf, 1, a, packa, sizeof(packa), &pa, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Pack_c(buf, 1, b, packb, sizeof(packb), &pb, MPI_COMM_WORLD));
	CHECK(pa == sa && pb == sb && memcmp(packa, packb, (size_t)pa) == 0);
}

/* A message of one element of a from this rank's buf into one of b. */
static void expect_ring(MPI_Datatype a, MPI_Datatype b, int *buf, int *got, int n)
{
	MPI_Count sa;
	MPI_Status st;
	static char want[4096], have[4096];
	MPI_Count pw = 0, ph = 0;

	for (int i = 0; i < n; i++) {
		buf[i] = tu_rank * 100000 + i;
		got[i] = -1;
	}
	CHECK_MPI(MPI_Sendrecv_c(buf, 1, a, right, 9, got, 1, b, left, 9, MPI_COMM_WORLD,
				 &st));
	/* what came is what the left rank packs with a: its values, rebuilt */
	for (int i = 0; i < n; i++)
		buf[i] = left * 100000 + i;
	CHECK_MPI(MPI_Pack_c(buf, 1, a, want, sizeof(want), &pw, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Pack_c(got, 1, b, have, sizeof(have), &ph, MPI_COMM_WORLD));
	CHECK(pw == ph && memcmp(want, have, (size_t)pw) == 0);
	CHECK_MPI(MPI_Type_size_c(a, &sa));
	CHECK_MPI(MPI_Get_count_c(&st, b, &sa));
	CHECK(sa == 1);
}

#define NT 11

/* The pairs (large form, int form) of every constructor, with ordinary
 * counts; the arguments of the large ones, for decoding. */
static void make_pairs(MPI_Datatype big[NT], MPI_Datatype small[NT])
{
	static const MPI_Count cbl[3] = { 2, 1, 3 }, cdisp[3] = { 0, 5, 9 };
	static const int ibl[3] = { 2, 1, 3 }, idisp[3] = { 0, 5, 9 };
	static const MPI_Count chd[3] = { 0, 20, 36 };
	static const MPI_Aint ahd[3] = { 0, 20, 36 };
	MPI_Datatype types[3] = { MPI_INT, MPI_DOUBLE, MPI_SHORT };
	MPI_Count csz[2] = { 6, 5 }, csub[2] = { 2, 3 }, cst[2] = { 1, 2 };
	int isz[2] = { 6, 5 }, isub[2] = { 2, 3 }, ist[2] = { 1, 2 };
	MPI_Count cg[2] = { 4, 6 };
	int ig[2] = { 4, 6 }, dist[2] = { MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC };
	int darg[2] = { MPI_DISTRIBUTE_DFLT_DARG, 2 }, ps[2] = { 1, 1 };

	CHECK_MPI(MPI_Type_contiguous_c(5, MPI_INT, &big[0]));
	CHECK_MPI(MPI_Type_contiguous(5, MPI_INT, &small[0]));
	CHECK_MPI(MPI_Type_vector_c(3, 2, 4, MPI_INT, &big[1]));
	CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &small[1]));
	CHECK_MPI(MPI_Type_create_hvector_c(3, 2, 20, MPI_INT, &big[2]));
	CHECK_MPI(MPI_Type_create_hvector(3, 2, 20, MPI_INT, &small[2]));
	CHECK_MPI(MPI_Type_indexed_c(3, cbl, cdisp, MPI_INT, &big[3]));
	CHECK_MPI(MPI_Type_indexed(3, ibl, idisp, MPI_INT, &small[3]));
	CHECK_MPI(MPI_Type_create_hindexed_c(3, cbl, chd, MPI_INT, &big[4]));
	CHECK_MPI(MPI_Type_create_hindexed(3, ibl, ahd, MPI_INT, &small[4]));
	CHECK_MPI(MPI_Type_create_indexed_block_c(3, 2, cdisp, MPI_INT, &big[5]));
	CHECK_MPI(MPI_Type_create_indexed_block(3, 2, idisp, MPI_INT, &small[5]));
	CHECK_MPI(MPI_Type_create_hindexed_block_c(3, 2, chd, MPI_INT, &big[6]));
	CHECK_MPI(MPI_Type_create_hindexed_block(3, 2, ahd, MPI_INT, &small[6]));
	CHECK_MPI(MPI_Type_create_struct_c(3, cbl, chd, types, &big[7]));
	CHECK_MPI(MPI_Type_create_struct(3, ibl, ahd, types, &small[7]));
	CHECK_MPI(MPI_Type_create_subarray_c(2, csz, csub, cst, MPI_ORDER_C, MPI_INT,
					     &big[8]));
	CHECK_MPI(MPI_Type_create_subarray(2, isz, isub, ist, MPI_ORDER_C, MPI_INT,
					   &small[8]));
	CHECK_MPI(MPI_Type_create_darray_c(1, 0, 2, cg, dist, darg, ps, MPI_ORDER_FORTRAN,
					   MPI_INT, &big[9]));
	CHECK_MPI(MPI_Type_create_darray(1, 0, 2, ig, dist, darg, ps, MPI_ORDER_FORTRAN,
					 MPI_INT, &small[9]));
	CHECK_MPI(MPI_Type_create_resized_c(big[1], -8, 64, &big[10]));
	CHECK_MPI(MPI_Type_create_resized(small[1], -8, 64, &small[10]));
	for (int i = 0; i < NT; i++) {
		CHECK_MPI(MPI_Type_commit(&big[i]));
		CHECK_MPI(MPI_Type_commit(&small[i]));
	}
}

static void check_same(MPI_Datatype big[NT], MPI_Datatype small[NT])
{
	static int buf[1024], got[1024];

	for (int i = 0; i < 1024; i++)
		buf[i] = i * 7 + 1;
	for (int t = 0; t < NT; t++) {
		/* resized: lb -8, so the data starts 8 bytes into buf */
		expect_same(big[t], small[t], t == 10 ? (void *)(buf + 2) : buf);
		if (t != 10) {
			expect_ring(big[t], small[t], buf, got, 1024);
			expect_ring(small[t], big[t], buf, got, 1024);
		}
	}
}

/* Envelope and contents of both forms (MPI 4.1, section 5.1.13). */
static void check_decode(MPI_Datatype big[NT], MPI_Datatype small[NT])
{
	/* per constructor: integers, addresses, large counts, datatypes */
	static const MPI_Count want_big[NT][4] = {
		{ 0, 0, 1, 1 }, { 0, 0, 3, 1 }, { 0, 0, 3, 1 }, { 0, 0, 7, 1 },
		{ 0, 0, 7, 1 }, { 0, 0, 5, 1 }, { 0, 0, 5, 1 }, { 0, 0, 7, 3 },
		{ 2, 0, 6, 1 }, { 10, 0, 2, 1 }, { 0, 0, 2, 1 } };
	static const MPI_Count want_small[NT][4] = {
		{ 1, 0, 0, 1 }, { 3, 0, 0, 1 }, { 2, 1, 0, 1 }, { 7, 0, 0, 1 },
		{ 4, 3, 0, 1 }, { 5, 0, 0, 1 }, { 2, 3, 0, 1 }, { 4, 3, 0, 3 },
		{ 8, 0, 0, 1 }, { 12, 0, 0, 1 }, { 0, 2, 0, 1 } };
	static const int combiners[NT] = {
		MPI_COMBINER_CONTIGUOUS, MPI_COMBINER_VECTOR, MPI_COMBINER_HVECTOR,
		MPI_COMBINER_INDEXED, MPI_COMBINER_HINDEXED, MPI_COMBINER_INDEXED_BLOCK,
		MPI_COMBINER_HINDEXED_BLOCK, MPI_COMBINER_STRUCT, MPI_COMBINER_SUBARRAY,
		MPI_COMBINER_DARRAY, MPI_COMBINER_RESIZED };
	MPI_Count ni, na, nc, nd, counts[16];
	int ints[16], comb, ini, ina, ind;
	MPI_Aint addrs[16];
	MPI_Datatype dts[4];

	for (int t = 0; t < NT; t++) {
		CHECK_MPI(MPI_Type_get_envelope_c(big[t], &ni, &na, &nc, &nd, &comb));
		CHECK(ni == want_big[t][0] && na == want_big[t][1] &&
		      nc == want_big[t][2] && nd == want_big[t][3] && comb == combiners[t]);
		CHECK_MPI(MPI_Type_get_contents_c(big[t], 16, 16, 16, 4, ints, addrs,
						  counts, dts));
		for (int d = 0; d < nd; d++)
			if (dts[d] != MPI_INT && dts[d] != MPI_DOUBLE && dts[d] != MPI_SHORT)
				CHECK_MPI(MPI_Type_free(&dts[d]));
		CHECK_MPI(MPI_Type_get_envelope_c(small[t], &ni, &na, &nc, &nd, &comb));
		CHECK(ni == want_small[t][0] && na == want_small[t][1] && nc == 0 &&
		      nd == want_small[t][3] && comb == combiners[t]);
		CHECK_MPI(MPI_Type_get_envelope(small[t], &ini, &ina, &ind, &comb));
		CHECK(ini == ni && ina == na && ind == nd);
	}
	/* the arguments themselves, in order */
	CHECK_MPI(MPI_Type_get_contents_c(big[4], 16, 16, 16, 4, ints, addrs, counts, dts));
	CHECK(counts[0] == 3 && counts[1] == 2 && counts[3] == 3 && counts[4] == 0 &&
	      counts[5] == 20 && counts[6] == 36 && dts[0] == MPI_INT);
	CHECK_MPI(MPI_Type_get_contents_c(big[8], 16, 16, 16, 4, ints, addrs, counts, dts));
	CHECK(ints[0] == 2 && ints[1] == MPI_ORDER_C && counts[0] == 6 && counts[2] == 2 &&
	      counts[5] == 2);
	CHECK_MPI(MPI_Type_get_contents_c(big[9], 16, 16, 16, 4, ints, addrs, counts, dts));
	CHECK(ints[0] == 1 && ints[2] == 2 && ints[3] == MPI_DISTRIBUTE_BLOCK &&
	      ints[6] == 2 && ints[9] == MPI_ORDER_FORTRAN && counts[0] == 4 &&
	      counts[1] == 6);
	CHECK_MPI(MPI_Type_get_contents_c(big[10], 16, 16, 16, 4, ints, addrs, counts, dts));
	CHECK(counts[0] == -8 && counts[1] == 64);
	CHECK_MPI(MPI_Type_free(&dts[0]));
	/* the int forms cannot give large counts: an error (shmpi's class is
	 * MPI_ERR_TYPE, MPICH 4.0's MPI_ERR_OTHER) */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	CHECK(MPI_Type_get_envelope(big[1], &ini, &ina, &ind, &comb) != MPI_SUCCESS);
	CHECK(MPI_Type_get_contents(big[1], 16, 16, 4, ints, addrs, dts) != MPI_SUCCESS);
	CHECK(MPI_Type_get_contents_c(big[4], 16, 16, 2, 4, ints, addrs, counts, dts) !=
	      MPI_SUCCESS);
	CHECK(tu_check_class(MPI_Type_contiguous_c(-1, MPI_INT, &dts[0]), MPI_ERR_COUNT));
	/* (a negative block length: MPI_ERR_ARG here, MPI_ERR_COUNT in MPICH) */
	CHECK(MPI_Type_vector_c(2, -3, 4, MPI_INT, &dts[0]) != MPI_SUCCESS);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

#define GAP ((MPI_Count)1 << 31)

/* Types past 2^31 bytes that need no such buffer. */
static void check_huge(void)
{
	MPI_Datatype contig, sparse, wide;
	MPI_Count sz, lb, ext, tlb, text, pos = 0;
	MPI_Aint alb, aext;
	MPI_Status st;
	char packed[2], got[2];
	char *map;
	int isz;

	/* 3e9 bytes of data: the int size query cannot say it */
	CHECK_MPI(MPI_Type_contiguous_c(3000000000LL, MPI_BYTE, &contig));
	CHECK_MPI(MPI_Type_commit(&contig));
	CHECK_MPI(MPI_Type_size_c(contig, &sz));
	CHECK(sz == 3000000000LL);
	CHECK_MPI(MPI_Type_size(contig, &isz));
	CHECK(isz == MPI_UNDEFINED);
	CHECK_MPI(MPI_Type_get_extent_c(contig, &lb, &ext));
	CHECK(lb == 0 && ext == 3000000000LL);
	CHECK_MPI(MPI_Pack_size_c(2, contig, MPI_COMM_WORLD, &sz));
	CHECK(sz == 6000000000LL);

	/* two bytes 2^31 + 8 apart: size 2, extent past 2^31 */
	CHECK_MPI(MPI_Type_vector_c(2, 1, GAP + 8, MPI_CHAR, &sparse));
	CHECK_MPI(MPI_Type_commit(&sparse));
	CHECK_MPI(MPI_Type_size(sparse, &isz));
	CHECK(isz == 2);
	CHECK_MPI(MPI_Type_get_extent_c(sparse, &lb, &ext));
	CHECK(lb == 0 && ext == GAP + 9);
	CHECK_MPI(MPI_Type_get_extent(sparse, &alb, &aext));
	CHECK(aext == (MPI_Aint)(GAP + 9));
	CHECK_MPI(MPI_Type_get_true_extent_c(sparse, &tlb, &text));
	CHECK(tlb == 0 && text == GAP + 9);

	/* its 2 bytes, from a mapping of which 2 pages are ever touched */
	map = mmap(NULL, (size_t)(GAP + 4096), PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	CHECK(map != MAP_FAILED);
	map[0] = (char)(10 + tu_rank);
	map[GAP + 8] = (char)(20 + tu_rank);
	CHECK_MPI(MPI_Pack_c(map, 1, sparse, packed, 2, &pos, MPI_COMM_WORLD));
	CHECK(pos == 2 && packed[0] == 10 + tu_rank && packed[1] == 20 + tu_rank);
	CHECK_MPI(MPI_Sendrecv_c(map, 1, sparse, right, 5, got, 2, MPI_CHAR, left, 5,
				 MPI_COMM_WORLD, &st));
	CHECK(got[0] == 10 + left && got[1] == 20 + left);
	/* and back into the sparse layout */
	CHECK_MPI(MPI_Sendrecv_c(got, 2, MPI_CHAR, left, 6, map, 1, sparse, right, 6,
				 MPI_COMM_WORLD, &st));
	CHECK(map[0] == 10 + tu_rank && map[GAP + 8] == 20 + tu_rank);
	CHECK_MPI(MPI_Get_elements_c(&st, sparse, &sz));
	CHECK(sz == 2);
	munmap(map, (size_t)(GAP + 4096));

	/* an extent of 2^33 bytes set outright */
	CHECK_MPI(MPI_Type_create_resized_c(MPI_INT, 0, (MPI_Count)1 << 33, &wide));
	CHECK_MPI(MPI_Type_get_extent_c(wide, &lb, &ext));
	CHECK(lb == 0 && ext == (MPI_Count)1 << 33);
	CHECK_MPI(MPI_Type_size_c(wide, &sz));
	CHECK(sz == 4);
	CHECK_MPI(MPI_Type_free(&wide));
	CHECK_MPI(MPI_Type_free(&sparse));
	CHECK_MPI(MPI_Type_free(&contig));
}

/* The packing calls, int and large forms alike. */
static void check_pack(MPI_Datatype t)
{
	static int buf[64], back[64];
	char p1[1024], p2[1024], x1[1024], x2[1024];
	int ipos = 0, isize;
	MPI_Count cpos = 0, csize, cxpos = 0, cxsize;
	MPI_Aint xpos = 0, xsize;

	for (int i = 0; i < 64; i++)
		buf[i] = i * 3 - 50;
	CHECK_MPI(MPI_Pack_size(2, t, MPI_COMM_WORLD, &isize));
	CHECK_MPI(MPI_Pack_size_c(2, t, MPI_COMM_WORLD, &csize));
	CHECK(csize == isize);
	CHECK_MPI(MPI_Pack(buf, 2, t, p1, sizeof(p1), &ipos, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Pack_c(buf, 2, t, p2, sizeof(p2), &cpos, MPI_COMM_WORLD));
	CHECK(cpos == ipos && memcmp(p1, p2, (size_t)ipos) == 0);
	memset(back, 0, sizeof(back));
	cpos = 0;
	CHECK_MPI(MPI_Unpack_c(p2, sizeof(p2), &cpos, back, 2, t, MPI_COMM_WORLD));
	CHECK(cpos == ipos);
	cpos = 0;
	CHECK_MPI(MPI_Pack_c(back, 2, t, p2, sizeof(p2), &cpos, MPI_COMM_WORLD));
	CHECK(memcmp(p1, p2, (size_t)ipos) == 0);

	CHECK_MPI(MPI_Pack_external_size("external32", 2, t, &xsize));
	CHECK_MPI(MPI_Pack_external_size_c("external32", 2, t, &cxsize));
	CHECK(cxsize == xsize);
	CHECK_MPI(MPI_Pack_external("external32", buf, 2, t, x1, sizeof(x1), &xpos));
	CHECK_MPI(MPI_Pack_external_c("external32", buf, 2, t, x2, sizeof(x2), &cxpos));
	CHECK(cxpos == xpos && memcmp(x1, x2, (size_t)xpos) == 0);
	memset(back, 0, sizeof(back));
	cxpos = 0;
	CHECK_MPI(MPI_Unpack_external_c("external32", x2, sizeof(x2), &cxpos, back, 2, t));
	CHECK(cxpos == xpos);
	cpos = 0;
	CHECK_MPI(MPI_Pack_c(back, 2, t, p2, sizeof(p2), &cpos, MPI_COMM_WORLD));
	CHECK(memcmp(p1, p2, (size_t)ipos) == 0);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	cpos = 0;
	CHECK(tu_check_class(MPI_Pack_c(buf, -2, t, p2, sizeof(p2), &cpos, MPI_COMM_WORLD),
			     MPI_ERR_COUNT));
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static MPI_Count last_len;

static void sum_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)
{
	const long *a = in;
	long *b = inout;

	CHECK(*dt == MPI_LONG);
	last_len = *len;
	for (MPI_Count i = 0; i < *len; i++)
		b[i] = a[i] + b[i];
}

static void sum_int(void *in, void *inout, int *len, MPI_Datatype *dt)
{
	const long *a = in;
	long *b = inout;

	CHECK(*dt == MPI_LONG);
	for (int i = 0; i < *len; i++)
		b[i] = a[i] + b[i];
}

static void check_ops(void)
{
	enum { M = 1000 };
	static long in[M], x[M], y[M];
	MPI_Op op_c, op_i;
	int commute;

	CHECK_MPI(MPI_Op_create_c(sum_c, 0, &op_c));
	CHECK_MPI(MPI_Op_create(sum_int, 1, &op_i));
	CHECK_MPI(MPI_Op_commutative(op_c, &commute));
	CHECK(!commute);
	for (int i = 0; i < M; i++) {
		in[i] = i * 5 + tu_rank;
		x[i] = y[i] = 3 - i;
	}
	CHECK_MPI(MPI_Reduce_local_c(in, x, M, MPI_LONG, op_c));
	CHECK(last_len == M && x[7] == in[7] + (3 - 7));
	CHECK_MPI(MPI_Reduce_local(in, y, M, MPI_LONG, op_i));
	CHECK(memcmp(x, y, sizeof(x)) == 0);
	/* a predefined op in both forms */
	CHECK_MPI(MPI_Reduce_local_c(in, x, M, MPI_LONG, MPI_SUM));
	CHECK_MPI(MPI_Reduce_local(in, y, M, MPI_LONG, MPI_SUM));
	CHECK(memcmp(x, y, sizeof(x)) == 0 && x[7] == 2 * in[7] + (3 - 7));
	/* the large-count op in a collective, through the int interface */
	for (int i = 0; i < M; i++)
		x[i] = tu_rank + i;
	CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, x, M, MPI_LONG, op_i, MPI_COMM_WORLD));
	for (int i = 0; i < M; i++)
		y[i] = tu_rank + i;
	CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, y, M, MPI_LONG, op_c, MPI_COMM_WORLD));
	CHECK(memcmp(x, y, sizeof(x)) == 0);
	CHECK_MPI(MPI_Op_free(&op_c));
	CHECK_MPI(MPI_Op_free(&op_i));
}

int main(int argc, char **argv)
{
	MPI_Datatype big[NT], small[NT];

	tu_init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	right = (tu_rank + 1) % size;
	left = (tu_rank + size - 1) % size;
	make_pairs(big, small);
	check_same(big, small);
	if (tu_rank == 0)
		printf("ok same\n");
	check_decode(big, small);
	if (tu_rank == 0)
		printf("ok decode\n");
	check_huge();
	if (tu_rank == 0)
		printf("ok huge\n");
	check_pack(big[3]);
	check_pack(big[7]);
	if (tu_rank == 0)
		printf("ok pack\n");
	check_ops();
	if (tu_rank == 0)
		printf("ok ops\n");
	for (int i = 0; i < NT; i++) {
		CHECK_MPI(MPI_Type_free(&big[i]));
		CHECK_MPI(MPI_Type_free(&small[i]));
	}
	MPI_Finalize();
	return 0;
}
