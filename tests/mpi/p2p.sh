# Every point-to-point call at 1, 2, 3 and 8 ranks (8 on this 2-core
# machine: oversubscribed), and one 64 MiB message around a ring.
. "$SHMPI_TOP/tests/lib.sh"

want="ok sizes ok any ok ordering ok tags ok truncation ok ssend ok rsend ok probe ok persistent ok cancel ok completion ok sent ok proc_null ok replace ok pairs ok errors"
for n in 1 2 3 8; do
	run_job "$TMP/out" "$TMP/err" -- -n $n --timeout 120 "$PROGS/p2p_calls"
	expect_eq "p2p_calls -n $n exit ($(cat "$TMP/err"))" "$rc" 0
	expect_eq "p2p_calls -n $n" "$(tr '\n' ' ' <"$TMP/out" | sed 's/ $//')" "$want"
done
run_job "$TMP/out" "$TMP/err" -- -n 3 --timeout 120 "$PROGS/p2p_calls" huge
expect_eq "64 MiB messages ($(cat "$TMP/err"))" "$rc" 0
expect_eq "64 MiB messages" "$(cat "$TMP/out")" "ok huge"
# the program that counts the instructions of a send and a receive (README,
# "Threads"): 8-byte messages checked, below and under MPI_THREAD_MULTIPLE
for level in single multiple; do
	run_job "$TMP/out" "$TMP/err" -- -n 2 --timeout 120 "$PROGS/p2p_pingpong" 2000 $level
	expect_eq "p2p_pingpong $level ($(cat "$TMP/err"))" "$rc" 0
	expect_eq "p2p_pingpong $level" "$(cat "$TMP/out")" "ok"
done
exit 0
