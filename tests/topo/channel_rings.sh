# SHMPI_CHANNEL_RINGS: how many senders get a channel ring of their own in
# each rank's inbox (shm/inbox.h).  With 0 every record travels through the
# receivers' shared rings (under their lock, tagged with the sender); with 1
# the first sender to each rank gets a ring and the others share; with the
# default every sender has one at these sizes.  Point-to-point (every size,
# any source, truncation, cancel), collectives and RMA on private memory
# (whose operations travel as records too) give the same results in every
# case, at 3 and 8 ranks, under both progress modes, with small rings that
# fill up so that producers wait for room.  MPI_T shows the value, and -x
# cannot give the ranks another one than the job was laid out with.
. "$SHMPI_TOP/tests/lib.sh"

want_p2p="ok sizes ok any ok ordering ok tags ok truncation ok ssend ok rsend ok probe ok persistent ok cancel ok completion ok sent ok proc_null ok replace ok pairs ok errors"
bad=
check() {	# what rings mode n: the job just run
	if [ "$rc" -ne 0 ] || [ ! -s "$TMP/out" ] || grep -v '^ok' "$TMP/out" | grep -q .; then
		echo "$1 with rings=$2 --progress=$3 -n $4: exit $rc"
		sed 's/^/    /' "$TMP/out" "$TMP/err" | head -20
		bad="$bad $1/$2/$3/$4"
	fi
}
for rings in 0 1; do
	for mode in weak strong; do
		for n in 3 8; do
			export SHMPI_CHANNEL_RINGS=$rings SHMPI_CHANNEL_BYTES=16k
			run_job "$TMP/out" "$TMP/err" -- -n $n --progress=$mode --timeout 120 \
				"$PROGS/p2p_calls"
			check p2p_calls $rings $mode $n
			[ "$(tr '\n' ' ' <"$TMP/out" | sed 's/ $//')" = "$want_p2p" ] ||
				bad="$bad p2p_calls-output/$rings/$mode/$n"
			run_job "$TMP/out" "$TMP/err" -- -n $n --progress=$mode --timeout 120 \
				"$PROGS/coll_all"
			check coll_all $rings $mode $n
			TU_PRIVATE=1 run_job "$TMP/out" "$TMP/err" -- -n $n --progress=$mode \
				--timeout 120 "$PROGS/rma_atomic" all
			check rma_atomic-private $rings $mode $n
			unset SHMPI_CHANNEL_RINGS SHMPI_CHANNEL_BYTES
		done
	done
done
[ -z "$bad" ] || fail "failed:$bad"

# a 64 MiB message around a ring of 3, everything through shared rings
SHMPI_CHANNEL_RINGS=0 run_job "$TMP/out" "$TMP/err" -- -n 3 --timeout 120 \
	"$PROGS/p2p_calls" huge
expect_eq "rings=0: 64 MiB messages ($(cat "$TMP/err"))" "$rc" 0
expect_eq "rings=0: output" "$(cat "$TMP/out")" "ok huge"

SHMPI_CHANNEL_RINGS=2 run_job "$TMP/out" "$TMP/err" -- -n 2 --timeout 60 "$PROGS/mpit_cvars"
expect_eq "rings=2: mpit_cvars ($(cat "$TMP/err"))" "$rc" 0
grep -q "^cvar SHMPI_CHANNEL_RINGS enum ro 2\$" "$TMP/out" ||
	fail "MPI_T does not show SHMPI_CHANNEL_RINGS=2: $(cat "$TMP/out")"
run_job "$TMP/out" "$TMP/err" -- -n 2 -x SHMPI_CHANNEL_RINGS=0 "$PROGS/run_mpi"
expect_eq "-x SHMPI_CHANNEL_RINGS: status" "$rc" 125
expect_match "-x SHMPI_CHANNEL_RINGS: message" "$(head -n 1 "$TMP/err")" \
	"^shmrun: -x SHMPI_CHANNEL_RINGS=0: shmrun sets this variable"
exit 0
