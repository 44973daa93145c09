# MPI_Type_create_darray: the type maps of several grids against
# dt_darray.maps, which the same program printed built with MPICH 4.0.2
# (Open MPI 4.1.4 prints the same); then a block-cyclic scatter and gather
# through darray types, the contents and the error cases at 1, 2, 3 and 8
# ranks under weak and strong progress.
. "$SHMPI_TOP/tests/lib.sh"

run_job "$TMP/out" "$TMP/err" -- -n 1 --timeout 60 "$PROGS/dt_darray" maps
expect_eq "dt_darray maps exit ($(cat "$TMP/err"))" "$rc" 0
diff "$SHMPI_TOP/tests/mpi/dt_darray.maps" "$TMP/out" >"$TMP/diff" ||
	fail "dt_darray maps differ from MPICH's (< MPICH, > shmpi): $(cat "$TMP/diff")"

bad=
for mode in weak strong; do
	for n in 1 2 3 8; do
		run_case "dt_darray -n $n $mode" "ok scatter
ok contents
ok errors" -- -n $n --progress=$mode --timeout 60 "$PROGS/dt_darray"
	done
done
[ -z "$bad" ] || fail "failed:$bad"
exit 0
