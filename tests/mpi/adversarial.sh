# The adversarial mode (shmrun --adversarial SEED, src/adversary.h): correct
# programs still give correct results -- the RMA suites, the stress test
# and the examples, under several seeds and both progress modes -- while a
# program that races shows it: adv_race reads window memory before the
# epoch that carries a put has ended, and sees the old value only under the
# adversary.  Left out: the checks of which path serves a window (the
# adversary changes it) and rma_locks' wakeup test, which relies on locks
# being granted in arrival order (MPI promises no order).
. "$SHMPI_TOP/tests/lib.sh"
EX="$SHMPI_BUILD/examples"

bad=
# check_ok WHAT shmrun-args...: exit 0 and only "ok ..." lines
check_ok() {
	what=$1
	shift
	run_job "$TMP/out" "$TMP/err" -- --timeout 120 "$@"
	if [ "$rc" -ne 0 ]; then
		echo "$what: exit $rc"
		sed 's/^/    /' "$TMP/out" "$TMP/err"
		bad="$bad $what"
	fi
}

for seed in 1 2; do
	mode=$([ $seed = 1 ] && echo weak || echo strong)
	adv="--adversarial $seed --progress=$mode"
	check_ok "rma_atomic/$seed" -n 4 $adv "$PROGS/rma_atomic" all
	check_ok "rma_order/$seed" -n 4 $adv "$PROGS/rma_order" all
	check_ok "rma_win early/$seed" -n 4 $adv "$PROGS/rma_win" early
	for t in modes atomicity exclusive shared derived errors; do
		check_ok "rma_basic $t/$seed" -n 4 $adv "$PROGS/rma_basic" $t
	done
	for t in exclusive mixed shared writer reader lock_all nocheck; do
		check_ok "rma_locks $t/$seed" -n 4 $adv "$PROGS/rma_locks" $t
	done
	for t in single no_locks dynamic large; do
		check_ok "rma_private $t/$seed" -n 3 $adv "$PROGS/rma_private" $t
	done
	check_ok "stress/$seed" -n 8 $adv "$PROGS/stress" $((seed + 40)) 3
	check_ok "bulletin_board/$seed" -n 8 $adv "$EX/bulletin_board"
	check_ok "pscw_exchange/$seed" -n 2 $adv "$EX/pscw_exchange" post-start 65536
	check_ok "pscw_send_recv/$seed" -n 2 $adv "$EX/pscw_send_recv" ok 65536
	check_ok "win_test_progress/$seed" -n 2 $adv "$EX/win_test_progress"

	# the race: seen only under the adversary
	check_ok "adv_race/$seed" -n 2 $adv "$PROGS/adv_race"
	expect_eq "adv_race under the adversary" "$(cat "$TMP/out")" "racy read: old"
	# and start returns before the post
	check_ok "adv_race start/$seed" -n 2 $adv "$PROGS/adv_race" start
	expect_eq "start under the adversary" "$(cat "$TMP/out")" \
		"start returned before the post"
done
check_ok "adv_race, no adversary" -n 2 "$PROGS/adv_race"
expect_eq "adv_race without the adversary" "$(cat "$TMP/out")" "racy read: new"
[ -z "$bad" ] || fail "under the adversary:$bad"
exit 0
