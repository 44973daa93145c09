# The large-count datatype, packing and reduction calls
# (tests/progs/dt_large.c) at 1, 2, 3 and 8 ranks under weak and strong
# progress: the same types as the int forms, decoding, types past 2^31
# bytes with a sparse footprint, packing, user ops of MPI_Op_create_c.
. "$SHMPI_TOP/tests/lib.sh"

bad=
for n in 1 2 3 8; do
	for p in weak strong; do
		run_case "dt_large -n $n $p" "ok same
ok decode
ok huge
ok pack
ok ops" -- -n $n --progress=$p --timeout 120 "$PROGS/dt_large"
	done
done
[ -z "$bad" ] || fail "failed:$bad"
exit 0
