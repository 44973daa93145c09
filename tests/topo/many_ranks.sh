# Jobs of 64 and 256 ranks on this 2-core machine (tests/progs/many_ranks.c:
# hello, barrier, allreduce, point-to-point and put+flush rings, alltoall),
# with the default channels and with every sender on the shared rings, and
# the memory /dev/shm gives such a job: the channels are O(n) (shm/job.h).
# 1024 ranks: make stress.
. "$SHMPI_TOP/tests/lib.sh"

for n in 64 256; do
	for rings in auto 0; do
		SHMPI_CHANNEL_RINGS=$rings run_job "$TMP/out" "$TMP/err" -- -n $n --timeout 240 \
			"$PROGS/many_ranks"
		expect_eq "-n $n rings=$rings: exit ($(head -c 600 "$TMP/err"))" "$rc" 0
		expect_eq "-n $n rings=$rings: output" "$(cat "$TMP/out")" "ok $n ranks"
	done
done
exit 0
