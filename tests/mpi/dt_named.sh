# The Fortran and C++ datatypes usable from C (sizes, names, reductions on
# derived types of them with MPI_IN_PLACE, RMA accumulates, fetch-and-op
# and compare-and-swap, the ops they refuse), the Fortran 90 parameterized
# types, MPI_Type_match_size and the MPI_Count element calls, at 1, 2, 3
# and 8 ranks under weak and strong progress; the RMA part also on windows
# of malloc memory (served by the target's engine).
. "$SHMPI_TOP/tests/lib.sh"

bad=
for mode in weak strong; do
	for n in 1 2 3 8; do
		run_case "dt_named -n $n $mode" "ok predefined
ok coll
ok rma
ok f90
ok match_size
ok elements" -- -n $n --progress=$mode --timeout 60 "$PROGS/dt_named"
		run_case "dt_named rma -n $n $mode private" "ok rma" -- -n $n \
			--progress=$mode --timeout 60 -x TU_PRIVATE=1 "$PROGS/dt_named" rma
	done
done
[ -z "$bad" ] || fail "failed:$bad"
exit 0
