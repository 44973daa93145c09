# Partitioned point-to-point communication (MPI 4.1, chapter 4;
# tests/progs/part.c), checked by result: a ring of 1, 2, 3 and 8 ranks
# (one rank sends to itself) under weak and strong progress, 1, 8 and 64
# partitions, different counts on the two sides, MPI_Pready, _range and
# _list, three rounds of the same requests; an intercommunicator; 1 to 4
# threads marking partitions under MPI_THREAD_MULTIPLE; derived datatypes;
# MPI_PROC_NULL; empty messages; matching in initialization order;
# MPI_Parrived seeing an early partition before the last one is marked; the
# staging area (SHMPI_SINGLE_COPY=pipeline, or process_vm_writev refused);
# the erroneous calls, returned and fatal.
. "$SHMPI_TOP/tests/lib.sh"

bad=
for mode in weak strong; do
	for n in 1 2 3 8; do
		for parts in "1 1" "8 8" "64 64" "8 64 range" "64 3 list" "3 8" "1 64" "64 1 list"; do
			run_case "part ring $parts -n $n $mode" "ok ring" -- -n $n \
				--progress=$mode --timeout 60 "$PROGS/part" ring $parts
		done
		for t in dtype procnull order empty errors; do
			run_case "part $t -n $n $mode" "ok $t" -- -n $n --progress=$mode \
				--timeout 60 "$PROGS/part" $t
		done
	done
	for n in 1 2 3; do
		for t in 1 2 3 4; do
			run_case "part threads $t -n $n $mode" "ok threads" -- -n $n \
				--progress=$mode --timeout 60 "$PROGS/part" threads $t
		done
	done
	for n in 2 8; do
		run_case "part inter -n $n $mode" "ok inter" -- -n $n --progress=$mode \
			--timeout 60 "$PROGS/part" inter
		for p in 1 8 64; do
			run_case "part early $p -n $n $mode" "ok early" -- -n $n \
				--progress=$mode --timeout 60 "$PROGS/part" early $p
		done
	done
	# through the staging area: the receiver unpacks
	for t in "ring 8 64" "ring 64 3 list" dtype "threads 4" "early 8"; do
		run_case "part $t staged $mode" "ok ${t%% *}" -- -n 3 --progress=$mode \
			-x SHMPI_SINGLE_COPY=pipeline --timeout 60 "$PROGS/part" $t
	done
done

# where process_vm_writev is refused (a seccomp filter, tests/progs/
# seccomp_deny) the matching probe finds it and the partitions are staged
if [ -z "${SHMPI_EMULATED:-}" ]; then
	shmrun=$SHMRUN
	SHMRUN=$PROGS/seccomp_deny
	for t in "ring 8 64" "threads 4" "early 8"; do
		run_case "part $t without process_vm_writev" "ok ${t%% *}" -- \
			process_vm_writev=EPERM "$shmrun" -n 3 --timeout 60 "$PROGS/part" $t
	done
	SHMRUN=$shmrun
fi

# the default handler ends the job naming the call and the argument
for what in "twice:MPI_Pready: argument partition: partition 1 is ready already" \
	"range:MPI_Pready_range: argument partition_low: partition 4 is not in"; do
	run_job "$TMP/out" "$TMP/err" -- -n 2 --timeout 60 "$PROGS/part" fatal "${what%%:*}"
	[ "$rc" -ne 0 ] || fail "part fatal ${what%%:*}: exit 0"
	grep -q "${what#*:}" "$TMP/err" ||
		fail "part fatal ${what%%:*}: $(cat "$TMP/err")"
done
[ -z "$bad" ] || fail "failed:$bad"
exit 0
