# Deadlocks of the MPI standard's RMA progress section: every rank blocked
# in MPI, nothing moving.  Under weak and strong progress alike, the report
# names each rank's call and what it waits for, the cycle and the verdict,
# and the job ends with 123 soon after --deadlock-timeout.
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/watch/common"

verdict='^shmrun: deadlock: every rank still running is blocked in MPI and nothing has moved for 1\.0 s; ending the job \(exit status 123\)$'
for mode in weak strong; do
	# figure 32 with post and start swapped
	watch_job "start-post, $mode" 123 -n 2 --progress=$mode "$EX/pscw_exchange" start-post 8
	has_line "rank 0" '^shmrun: rank 0: in MPI_Win_start for [0-9.]+ s, waiting for the MPI_Win_post of rank 1 \(window of context [0-9]+\)$'
	has_line "rank 1" '^shmrun: rank 1: in MPI_Win_start for [0-9.]+ s, waiting for the MPI_Win_post of rank 0 \(window of context [0-9]+\)$'
	has_line "cycle" '^shmrun: wait-for cycle: rank 0 waits in MPI_Win_start for the MPI_Win_post of rank 1; rank 1 waits in MPI_Win_start for the MPI_Win_post of rank 0 \(a cycle\)$'
	has_line "verdict" "$verdict"
	has_line "hint" '^shmrun: hint: .*strong progress cannot help'

	# figure 32 with complete and wait swapped
	watch_job "wait-complete, $mode" 123 -n 2 --progress=$mode "$EX/pscw_exchange" wait-complete 8
	has_line "rank 0" '^shmrun: rank 0: in MPI_Win_wait for [0-9.]+ s, waiting for the MPI_Win_complete of rank 1 \(window of context [0-9]+\)$'
	has_line "rank 1" '^shmrun: rank 1: in MPI_Win_wait for [0-9.]+ s, waiting for the MPI_Win_complete of rank 0 \(window of context [0-9]+\)$'
	has_line "cycle" '^shmrun: wait-for cycle: rank 0 waits in MPI_Win_wait for the MPI_Win_complete of rank 1; rank 1 waits in MPI_Win_wait for the MPI_Win_complete of rank 0 \(a cycle\)$'
	has_line "verdict" "$verdict"

	# figure 33: process 0 receives before it completes, process 1 sends
	# only after its wait
	watch_job "figure 33, $mode" 123 -n 2 --progress=$mode "$EX/pscw_send_recv" deadlock 8
	has_line "rank 0" '^shmrun: rank 0: in MPI_Recv for [0-9.]+ s, waiting for a message from rank 1 \(tag 0, context [0-9]+\)$'
	has_line "rank 1" '^shmrun: rank 1: in MPI_Win_wait for [0-9.]+ s, waiting for the MPI_Win_complete of rank 0 \(window of context [0-9]+\)$'
	has_line "cycle" '^shmrun: wait-for cycle: rank 0 waits in MPI_Recv for a message from rank 1; rank 1 waits in MPI_Win_wait for the MPI_Win_complete of rank 0 \(a cycle\)$'
	has_line "verdict" "$verdict"
	expect_eq "no stall claimed" "$(count_lines 'weak-progress stall')" 0

	# the orders that work are left alone
	watch_job "figure 32, $mode" 0 -n 2 --progress=$mode "$EX/pscw_exchange" post-start 65536
	expect_eq "figure 32, $mode: stderr" "$err" ""
	watch_job "figure 34, $mode" 0 -n 2 --progress=$mode "$EX/pscw_send_recv" ok 65536
	expect_eq "figure 34, $mode: stderr" "$err" ""
done
exit 0
