# Lock ordering (tests/progs/rma_lockorder.c): a lock waits only for its
# own target, and lock_all takes shared locks in ascending rank order, one
# target at a time (MPI 3.1, section 11.5.3, and what shmpi adds to it),
# so programs that nest their locks in ascending target order never
# deadlock.  Every case on every kind of window at 3 and 8 ranks under weak
# and strong progress, once more at 4 to 7 ranks, and under the
# adversarial mode.  A deadlock ends a job through a rank's own deadline,
# shmrun's watchdog or --timeout; a case and window kind that failed once
# is not run again, so that a broken lock costs seconds, not minutes.
. "$SHMPI_TOP/tests/lib.sh"

cases="one one_shared all two recv recv_shared behind"
kinds="allocate shared allocmem malloc dynamic mixed"
bad=
failed=

# lockorder CASE KIND N shmrun-options...
lockorder() {
	c=$1 k=$2 n=$3
	shift 3
	case " $failed " in *" $c/$k "*) return ;; esac
	before=$bad
	run_case "$c/$k/$n $*" "ok $c" -- -n "$n" --timeout 30 "$@" \
		"$PROGS/rma_lockorder" "$c" "$k"
	[ "$bad" = "$before" ] || failed="$failed $c/$k"
}

i=0
for c in $cases; do
	j=0
	for k in $kinds; do
		for mode in weak strong; do
			for n in 3 8; do
				lockorder "$c" "$k" "$n" --progress=$mode
			done
		done
		# one size in between, each pair on another one
		mode=$([ $(((i + j) % 2)) = 0 ] && echo weak || echo strong)
		lockorder "$c" "$k" $((4 + (i + j) % 4)) --progress=$mode
		j=$((j + 1))
	done
	# the adversarial mode: every window on the queueing path, locks taken
	# only when an operation needs them, released locks granted at random
	for seed in 1 2; do
		mode=$([ $seed = 1 ] && echo weak || echo strong)
		for k in allocate dynamic; do
			lockorder "$c" "$k" $((3 + (i + seed) % 6)) --adversarial $seed \
				--progress=$mode
		done
	done
	i=$((i + 1))
done
[ -z "$bad" ] || fail "rma_lockorder:$bad"
exit 0
