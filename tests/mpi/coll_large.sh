# The large-count ("_c") forms of the collectives (MPI 4.1, section
# 2.5.8) at 1, 2, 3 and 8 ranks under weak and strong progress: each
# gives what its int form gives, and the v- and w-variants reach
# displacements beyond 2^31 into a sparse mapping.
. "$SHMPI_TOP/tests/lib.sh"

bad=
want="ok moving
ok reductions
ok blocking
ok far
ok neighbor
ok errors"
for mode in weak strong; do
	for n in 1 2 3 8; do
		run_case "coll_large -n $n $mode" "$want" -- -n $n --progress=$mode \
			--timeout 120 "$PROGS/coll_large" all
	done
done
[ -z "$bad" ] || fail "failed:$bad"
exit 0
