# The remaining nonblocking collectives (scan, exscan, reduce-scatter,
# gatherv, scatterv, alltoallw), the blocking MPI_Alltoallw and
# MPI_Comm_idup at 1, 2, 3 and 8 ranks under weak and strong progress:
# every call byte-exact (roots, sizes, derived types, in place, a
# non-commutative op), several outstanding with idups among them and
# completed in different orders, progress while the other ranks are
# outside MPI (strong) or not (weak), and the error classes.
. "$SHMPI_TOP/tests/lib.sh"

bad=
for mode in weak strong; do
	for n in 1 2 3 8; do
		outside=outside
		[ $n -eq 1 ] && outside=
		want=$(printf 'ok %s\n' scan reduce_scatter gatherv_scatterv alltoallw \
			alltoallw_inter idup overlap $outside errors)
		run_case "coll_nbv -n $n $mode" "$want" -- -n $n --progress=$mode \
			--timeout 120 "$PROGS/coll_nbv" all $mode
	done
done
[ -z "$bad" ] || fail "failed:$bad"
exit 0
