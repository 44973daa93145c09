# The RMA suites again, on windows of private memory (tests/progs/testutil.h:
# TU_PRIVATE=1 turns their MPI_Win_allocate into MPI_Win_create on malloc
# memory): every communication call and synchronization mechanism through
# the target's engine (src/rma_pkt_*.c), with the same checks as on shared
# memory: byte-exact data, accumulate totals under 8-rank contention, lock
# exclusion, ordering.  rma_passive (the target computes outside MPI) needs
# the target's engine to run, so it runs under strong progress only.
. "$SHMPI_TOP/tests/lib.sh"

export TU_PRIVATE=1
bad=
for cfg in "weak 2" "weak 8" "strong 3"; do
	set -- $cfg
	for p in rma_basic rma_atomic rma_locks rma_order; do
		run_job "$TMP/out" "$TMP/err" -- -n "$2" --progress="$1" --timeout 120 \
			"$PROGS/$p" all
		if [ "$rc" -ne 0 ] || grep -qv '^ok ' "$TMP/out" || [ ! -s "$TMP/out" ]; then
			echo "$p -n $2 --progress=$1: exit $rc"
			sed 's/^/    /' "$TMP/out" "$TMP/err"
			bad="$bad $p/$2/$1"
		fi
	done
done
for n in 2 8; do
	run_job "$TMP/out" "$TMP/err" -- -n $n --progress=strong --timeout 120 \
		"$PROGS/rma_passive" all
	if [ "$rc" -ne 0 ] || [ "$(grep -c '^ok ' "$TMP/out")" -lt 2 ]; then
		echo "rma_passive -n $n --progress=strong: exit $rc"
		sed 's/^/    /' "$TMP/out" "$TMP/err"
		bad="$bad rma_passive/$n"
	fi
done
unset TU_PRIVATE

# what only private memory has (tests/progs/rma_private.c): the path taken,
# the lock table, grant order, the single-operation optimization, no_locks,
# large derived transfers, and the standard's two readings of progress (MPI 3.1, section 11.7.3)
for cfg in "weak 2 all" "weak 8 all" "strong 3 all" "weak 3 table" "strong 3 table" \
	   "weak 5 order" "weak 2 weak" "strong 2 strong"; do
	set -- $cfg
	run_job "$TMP/out" "$TMP/err" -- -n "$2" --progress="$1" --timeout 120 \
		"$PROGS/rma_private" "$3"
	if [ "$rc" -ne 0 ] || grep -qv '^ok ' "$TMP/out" || [ ! -s "$TMP/out" ]; then
		echo "rma_private $3 -n $2 --progress=$1: exit $rc"
		sed 's/^/    /' "$TMP/out" "$TMP/err"
		bad="$bad rma_private/$3/$2/$1"
	fi
done
[ -z "$bad" ] || fail "on private memory:$bad"
exit 0
