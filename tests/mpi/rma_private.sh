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
[ -z "$bad" ] || fail "on private memory:$bad"
exit 0
