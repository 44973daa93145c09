# Computation is never reported: a rank outside MPI for longer than the
# timeout while the others wait for it in MPI_Barrier (shared memory, no
# engine needed) or in MPI_Recv for a message it has yet to send.  The job
# is not killed and completes.
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/watch/common"

for mode in weak strong; do
	for n in 2 4; do
		for what in barrier recv; do
			start=$(now)
			watch_job "$what, $n ranks, $mode" 0 -n $n --progress=$mode \
				"$PROGS/watch_compute" $what 2500
			expect_eq "$what, $n ranks, $mode: stderr" "$err" ""
			expect_match "$what, $n ranks, $mode" "$(cat "$TMP/out")" "^done$"
			# it did wait for the computation
			awk -v a="$start" -v b="$(now)" 'BEGIN { exit !(b - a >= 2.5) }' ||
				fail "$what: the job did not wait for rank 0's computation"
		done
	done
done
exit 0
