# Waits that sleep, at 2 and 3 ranks (tests/progs/sync_sleep.c): PSCW, fence
# and barrier rings checked value by value while few spin rounds send every
# wait to sleep on its doorbell just as its peer rings it.  Both ways of
# ringing: without a fence, sleepers paying with membarrier(2)
# (SHMPI_MEMBARRIER=1, where the kernel has it), and fenced on both sides
# (SHMPI_MEMBARRIER=0, the default).
# A lost wake-up shows as a hang (bounded by --timeout).
. "$SHMPI_TOP/tests/lib.sh"

bad=
for mb in 1 0; do
	for spins in 0 7 40; do
		for n in 2 3; do
			for t in pscw fence barrier; do
				run_case "$t/$n/$mb/$spins" "ok $t" \
					-- -n $n --timeout 60 -x SHMPI_MEMBARRIER=$mb \
					-x SHMPI_SPINS=$spins -x SHMPI_YIELDS=0 \
					"$PROGS/sync_sleep" $t 2000
			done
		done
	done
done
[ -z "$bad" ] || fail "sync_sleep:$bad"
exit 0
