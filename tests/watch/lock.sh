# A lock deadlock: each rank holds an exclusive lock on its own portion of a
# window and waits in MPI_Win_lock for the next rank's.  The report shows
# the cycle of locks; without the cycle the same program completes.
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/watch/common"

watch_job "lock cycle of 2" 123 -n 2 "$PROGS/watch_lock" deadlock
has_line "rank 0" '^shmrun: rank 0: in MPI_Win_lock for [0-9.]+ s, waiting for an exclusive lock on rank 1 \(window of context [0-9]+\)$'
has_line "rank 1" '^shmrun: rank 1: in MPI_Win_lock for [0-9.]+ s, waiting for an exclusive lock on rank 0 \(window of context [0-9]+\)$'
has_line "cycle" '^shmrun: wait-for cycle: rank 0 waits in MPI_Win_lock for an exclusive lock on rank 1; rank 1 waits in MPI_Win_lock for an exclusive lock on rank 0 \(a cycle\)$'
has_line "verdict" '^shmrun: deadlock: every rank still running is blocked in MPI'

watch_job "lock cycle of 3" 123 -n 3 --progress=strong "$PROGS/watch_lock" deadlock
has_line "cycle" '^shmrun: wait-for cycle: rank 0 waits in MPI_Win_lock for an exclusive lock on rank 1; rank 1 waits in MPI_Win_lock for an exclusive lock on rank 2; rank 2 waits in MPI_Win_lock for an exclusive lock on rank 0 \(a cycle\)$'
has_line "verdict" '^shmrun: deadlock: '

for n in 2 3; do
	watch_job "locks in turn, $n ranks" 0 -n $n "$PROGS/watch_lock" ok
	expect_eq "locks in turn: stderr" "$err" ""
	expect_match "locks in turn" "$(cat "$TMP/out")" "^done$"
done
# the culprit is not the rank named in the call: the lock's holder, the
# member of the group that did not post or complete
watch_job "lock held by a third rank" 123 -n 3 "$PROGS/watch_lock" holder
has_line "rank 1" '^shmrun: rank 1: in MPI_Win_lock for [0-9.]+ s, waiting for an exclusive lock on rank 2, held by rank 0 \(window of context [0-9]+\)$'
has_line "cycle" '^shmrun: wait-for cycle: rank 0 waits in MPI_Recv for a message from rank 1; rank 1 waits in MPI_Win_lock for an exclusive lock on rank 2, held by rank 0 \(a cycle\)$'
# a lock wait names what the lock's records say keeps it waiting: the
# shared holders (the first and how many), the earlier request it queues
# behind, the holder that a lock_all waits for at one target
watch_job "shared holders" 123 -n 3 "$PROGS/watch_lock" shared
has_line "rank 0" '^shmrun: rank 0: in MPI_Win_lock for [0-9.]+ s, waiting for an exclusive lock on rank 0, held shared by rank [12] and 1 more \(window of context [0-9]+\)$'
has_line "cycle" '^shmrun: wait-for cycle: rank 0 waits in MPI_Win_lock for an exclusive lock on rank 0, held shared by rank ([12]) and 1 more; rank \1 waits in MPI_Recv for a message from rank 0 \(a cycle\)$'
has_line "verdict" '^shmrun: deadlock: '
watch_job "queued behind a writer" 123 -n 3 "$PROGS/watch_lock" queued
has_line "rank 0" '^shmrun: rank 0: in MPI_Win_lock for [0-9.]+ s, waiting for a shared lock on rank 0, queued behind rank 2 \(window of context [0-9]+\)$'
has_line "cycle" '^shmrun: wait-for cycle: rank 0 waits in MPI_Win_lock for a shared lock on rank 0, queued behind rank 2; rank 2 waits in MPI_Win_lock for an exclusive lock on rank 0, held shared by rank 1; rank 1 waits in MPI_Recv for a message from rank 0 \(a cycle\)$'
watch_job "lock_all at a held target" 123 -n 3 "$PROGS/watch_lock" lock_all
has_line "rank 2" '^shmrun: rank 2: in MPI_Win_lock_all for [0-9.]+ s, waiting for the shared lock of MPI_Win_lock_all on rank 1, held by rank 0 \(window of context [0-9]+\)$'
has_line "cycle" '^shmrun: wait-for cycle: .*rank 2 waits in MPI_Win_lock_all for the shared lock of MPI_Win_lock_all on rank 1, held by rank 0[;( ]'
# more locks than a rank's record names: the wait says how many requests
# are ahead, and the verdict is still the program's, never a fault of shmpi
watch_job "many shared locks" 123 -n 12 "$PROGS/watch_lock" many
has_line "rank 1" '^shmrun: rank 1: in MPI_Win_lock for [0-9.]+ s, waiting for an exclusive lock on rank 11, (held shared by rank 0|behind 1 earlier request \(ranks not named\)) \(window of context [0-9]+\)$'
has_line "verdict" '^shmrun: deadlock: '
[ "$(count_lines 'fault of shmpi')" -eq 0 ] || fail "many shared locks: blamed on shmpi: $err"
watch_job "wait for the second member" 123 -n 3 "$PROGS/watch_lock" wait
has_line "rank 0" '^shmrun: rank 0: in MPI_Win_wait for [0-9.]+ s, waiting for the MPI_Win_complete of rank 2 \(window of context [0-9]+\)$'
has_line "cycle" '^shmrun: wait-for cycle: rank 0 waits in MPI_Win_wait for the MPI_Win_complete of rank 2; rank 2 waits in MPI_Recv for a message from rank 0 \(a cycle\)$'
watch_job "start for the second member" 123 -n 3 "$PROGS/watch_lock" start
has_line "rank 0" '^shmrun: rank 0: in MPI_Win_start for [0-9.]+ s, waiting for the MPI_Win_post of rank 2 \(window of context [0-9]+\)$'
has_line "cycle" 'rank 0 waits in MPI_Win_start for the MPI_Win_post of rank 2; rank 2 waits in MPI_Recv for a message from rank 0 \(a cycle\)$'
exit 0
