# The other examples: the bulletin board matches its sequential replay, the
# one-sided tour draws every ticket once, the register demonstration's atomic
# load sees the store, and an idle progress thread costs no CPU.
. "$SHMPI_TOP/tests/lib.sh"
EX="$SHMPI_BUILD/examples"

for mode in weak strong; do
	run_job "$TMP/out" "$TMP/err" -- -n 8 --progress=$mode --timeout 60 "$EX/bulletin_board" 100
	expect_eq "bulletin_board $mode exit ($(cat "$TMP/err"))" "$rc" 0
	expect_match "bulletin_board $mode" "$(cat "$TMP/out")" "matches the sequential replay"
	run_job "$TMP/out" "$TMP/err" -- -n 8 --progress=$mode --timeout 60 "$EX/rma_demo" 200
	expect_eq "rma_demo $mode exit ($(cat "$TMP/err"))" "$rc" 0
	expect_match "rma_demo $mode" "$(cat "$TMP/out")" "each ticket exactly once"
done
run_job "$TMP/out" "$TMP/err" -- -n 2 --timeout 60 "$EX/register_coherence"
expect_eq "register_coherence exit" "$rc" 0
expect_match "register_coherence" "$(cat "$TMP/out")" "atomic load: +saw the store"

# ThreadSanitizer starts a thread of its own with a process's second one,
# and it takes CPU time too; qemu-user runs one of its own in every process
tsan=0
[ "${SHMPI_SANITIZE:-}" = thread ] && tsan=1
qemu=0
[ -n "${SHMPI_EMULATED:-}" ] && qemu=1
run_job "$TMP/out" "$TMP/err" -- -n 2 --progress=strong --timeout 30 "$PROGS/idle_thread"
expect_eq "idle_thread exit ($(cat "$TMP/err"))" "$rc" 0
expect_match "a progress thread runs" "$(cat "$TMP/out")" "^threads $((2 + tsan + qemu)),"
ms=$(sed -n 's/.*cpu \([0-9]*\) ms/\1/p' "$TMP/out")
[ "$tsan" = 1 ] || [ "$ms" -le 20 ] || fail "the idle progress thread used $ms ms of CPU in 1 s"
run_job "$TMP/out" "$TMP/err" -- -n 2 --progress=weak --timeout 30 "$PROGS/idle_thread"
expect_match "no thread under weak progress" "$(cat "$TMP/out")" "^threads $((1 + qemu)),"
exit 0
