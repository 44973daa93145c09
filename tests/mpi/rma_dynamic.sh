# Dynamic windows at 2 and 4 ranks, weak and strong progress
# (tests/progs/rma_dynamic.c, tests/progs/rma_dyn_list.c): 100000 regions
# attached per rank and accessed, ranges across two regions (a static
# array in halves, one MPI_Alloc_mem block in halves, two blocks end to
# end, shared and private memory end to end), attach and detach while the
# other ranks access other regions of the same rank, memory freed and
# allocated again between rounds of accesses, the error classes and the
# message of a range that leaves attached memory, a window left to
# MPI_Finalize, and a linked list of one region per element built with
# compare-and-swap under each kind of passive-target epoch; then some of
# it under the adversarial mode.
. "$SHMPI_TOP/tests/lib.sh"

P=$PROGS/rma_dynamic
L=$PROGS/rma_dyn_list
bad=
for mode in weak strong; do
	for n in 2 4; do
		run() {
			name=$1 want=$2
			shift 2
			run_case "$name/$n/$mode" "$want" -- -n $n --progress=$mode \
				--timeout 100 "$@"
		}
		run many-alloc "ok many" "$P" many alloc
		run many-malloc "ok many" "$P" many malloc
		run halves "ok halves" "$P" halves
		run concurrent-alloc "ok concurrent" "$P" concurrent alloc
		run concurrent-malloc "ok concurrent" "$P" concurrent malloc
		run reuse "ok reuse" "$P" reuse
		run errors "ok errors" "$P" errors
		for lock in all shared exclusive; do
			for mem in pool alloc malloc; do
				run "list-$lock-$mem" "ok list $lock $mem" "$L" $lock $mem
			done
		done
	done
done

# a range leaving attached memory ends the job (MPI_ERRORS_ARE_FATAL) with
# a message naming the first byte not attached and the nearest region,
# which rank 0 printed before the call
for near in below above; do
	run_job "$TMP/out" "$TMP/err" -- -n 2 --timeout 60 "$P" fatal $near
	want=$(head -n 1 "$TMP/out")
	if [ "$rc" -eq 0 ] || [ -z "$want" ] ||
	   ! grep -q "MPI_Put: argument target_disp: 16 x MPI_LONG at address 0x" "$TMP/err" ||
	   ! grep -qF "leaves the memory rank 1 has attached: $want [MPI_ERR_RMA_RANGE" \
		"$TMP/err"; then
		echo "fatal $near: exit $rc, want: $want"
		sed 's/^/    /' "$TMP/err"
		bad="$bad fatal-$near"
	fi
done

# a window never freed: MPI_Finalize removes its table, without shmrun too
[ "$("$P" unfreed 2>"$TMP/err")" = "ok unfreed" ] || {
	echo "unfreed, without shmrun:"
	sed 's/^/    /' "$TMP/err"
	bad="$bad unfreed"
}
expect_no_shm_left "a dynamic window left to MPI_Finalize"

# the adversarial mode: every region goes through the target's engine
for t in "many alloc" "halves" "concurrent alloc" "errors"; do
	set -- $t
	run_case "adversarial-$(echo $t | tr ' ' -)" "ok $1" -- -n 4 --adversarial 41 \
		--timeout 100 "$P" $t
done
for lock in all shared exclusive; do
	run_case "adversarial-list-$lock" "ok list $lock pool" -- -n 4 --adversarial 43 \
		--timeout 100 "$L" $lock pool 500
done
[ -z "$bad" ] || fail "rma_dynamic:$bad"
exit 0
