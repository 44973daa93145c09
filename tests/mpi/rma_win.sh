# Window flavours and queries at 2, 3 and 8 ranks, under weak and strong
# progress (tests/progs/rma_win.c):
# attributes, group, info keys, names, keyvals, shared_query, alignment,
# each target's disp_unit, windows over the same memory, dynamic windows,
# windows used while other ranks are still creating them.
. "$SHMPI_TOP/tests/lib.sh"

# Each test on its own job, so one failure does not hide the others.
tests="attributes group info names keyvals shared_query alignment disp_unit overlap dynamic early"
bad=
for mode in weak strong; do
	for n in 2 3 8; do
		for t in $tests; do
			run_case "$t/$n/$mode" "ok $t" -- -n $n --progress=$mode \
				--timeout 40 "$PROGS/rma_win" $t
		done
	done
done
[ -z "$bad" ] || fail "rma_win:$bad"
exit 0
