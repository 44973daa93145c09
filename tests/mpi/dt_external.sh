# MPI_Pack_external, MPI_Unpack_external and MPI_Pack_external_size with
# external32: the big-endian bytes and sizes of MPI 3.1's table 13.2,
# round trips of derived types with gaps, packed data around a ring of 1,
# 2, 3 and 8 ranks under weak and strong progress, and the error cases.
. "$SHMPI_TOP/tests/lib.sh"

bad=
for mode in weak strong; do
	for n in 1 2 3 8; do
		run_case "dt_external -n $n $mode" "ok bytes
ok sizes
ok roundtrip
ok ring
ok errors" -- -n $n --progress=$mode --timeout 60 "$PROGS/dt_external"
	done
done
[ -z "$bad" ] || fail "failed:$bad"
exit 0
