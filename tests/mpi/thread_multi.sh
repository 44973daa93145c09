# MPI_THREAD_MULTIPLE: 4 and 8 threads per rank at 2 and 4 ranks call MPI
# at once (tests/progs/thread_multi.c: point-to-point with wildcard
# receives in several threads, the Wait/Test families across threads,
# accumulates and fetch-and-ops checked for atomicity, exclusive locks from
# several threads, collectives on per-thread communicators), under weak and
# strong progress, on windows of every kind, and under --adversarial; and
# no deadlock verdict on a rank one of whose threads computes.
. "$SHMPI_TOP/tests/lib.sh"

want=$(printf "ok %s\n" levels p2p waits rma locks coll)
bad=
for mode in weak strong; do
	for n in 2 4; do
		for t in 4 8; do
			run_case "thread_multi -n $n $mode $t threads" "$want" -- -n $n \
				--progress=$mode --timeout 120 "$PROGS/thread_multi" all $t
		done
	done
	for kind in shared malloc dynamic mixed; do
		run_case "thread_multi -n 4 $mode $kind" "$want" -- -n 4 --progress=$mode \
			--timeout 120 "$PROGS/thread_multi" all 4 $kind
	done
done
run_case "thread_multi --adversarial" "$want" -- -n 4 --adversarial 1 --timeout 120 \
	"$PROGS/thread_multi" all 4 malloc
# the watchdog gives no verdict on a rank of several threads, one of which
# may compute while another waits (a 1 s deadlock timeout, a 2.5 s wait)
run_case "thread_multi watch" "ok watch" -- -n 2 --deadlock-timeout 1 --timeout 60 \
	"$PROGS/thread_multi" watch 2
[ -z "$bad" ] || fail "failed:$bad"
exit 0
