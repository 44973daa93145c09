# The large-count one-sided calls (tests/progs/rma_large.c) at 1, 2, 3 and
# 8 ranks under weak and strong progress, on windows of the direct and of
# the private path, and a shared-memory window's queries.
. "$SHMPI_TOP/tests/lib.sh"

bad=
for n in 1 2 3 8; do
	for p in weak strong; do
		run_case "rma_large -n $n $p" "ok allocate
ok create
ok shared" -- -n $n --progress=$p --timeout 120 "$PROGS/rma_large"
	done
done
[ -z "$bad" ] || fail "failed:$bad"
exit 0
