# shmrun --bind-to / --map-by / --report-bindings: each rank reports, from
# inside MPI_Init, the CPUs sched_getaffinity gives it and the hwloc objects
# with exactly that set; they must be what was asked, for every policy the
# machine has the objects for (the others are skipped with a reason).
. "$SHMPI_TOP/tests/lib.sh"

"$SHMRUN" --info >"$TMP/info" || fail "shmrun --info: status $?"
# count TYPE: how many objects of an hwloc type the machine has
count() {
	grep -c "^ *$1 L#" "$TMP/info"
}
ncores=$(count Core)
[ "$ncores" -ge 1 ] || fail "--info shows no core"
allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)

# report N ARGS...: run N ranks with ARGS and --report-bindings; the report
# lines, sorted by rank, into $TMP/rep
report() {
	n=$1
	shift
	run_job "$TMP/out" "$TMP/err" -- -n "$n" "$@" --report-bindings --timeout 60 \
		"$PROGS/run_mpi"
	expect_eq "$* -n $n: status ($(cat "$TMP/err"))" "$rc" 0
	grep '^shmpi: rank ' "$TMP/err" | sort -k3,3n >"$TMP/rep"
	expect_eq "$* -n $n: report lines" "$(wc -l <"$TMP/rep")" "$n"
}

# rank_has R REGEX: rank R's report line matches
rank_has() {
	line=$(grep "^shmpi: rank $1 " "$TMP/rep")
	expect_match "$what: rank $1" "$line" "$2"
}

checked=
for policy in none core hwthread l3cache numa socket; do
	case $policy in
	none) type=Machine ;;
	core) type=Core ;;
	hwthread) type=PU ;;
	l3cache) type=L3Cache ;;
	numa) type=NUMANode ;;
	socket) type=Package ;;
	esac
	nobj=$(count $type)
	if [ "$nobj" -eq 0 ]; then
		echo "skip --bind-to $policy: this machine has no $type"
		run_job "$TMP/out" "$TMP/err" -- -n 1 --bind-to $policy "$PROGS/run_mpi"
		expect_eq "--bind-to $policy without $type: status" "$rc" 125
		expect_match "--bind-to $policy without $type: message" "$(cat "$TMP/err")" \
			"no .* \\(see shmrun --info\\)"
		continue
	fi
	n=$((nobj < 2 ? 2 : nobj))
	what="--bind-to $policy"
	report $n --bind-to $policy
	r=0
	while [ $r -lt $n ]; do
		if [ $policy = none ]; then
			rank_has $r "runs on cpus $allowed = "
		else
			# rank r on the (r mod nobj)-th object, and on nothing more
			rank_has $r "= (.*, )?$type L#$((r % nobj))(,|\$)"
		fi
		r=$((r + 1))
	done
	checked="$checked $policy"
done
echo "checked:$checked"

# auto: core while ranks <= cores, none beyond
what="auto, $ncores ranks"
report "$ncores"
rank_has 0 "Core L#0(,|\$)"
what="auto, $((ncores + 2)) ranks"
report $((ncores + 2))
rank_has 0 "runs on cpus $allowed = "

# forced past the cores: round-robin over them again
what="--bind-to core, $((2 * ncores)) ranks"
report $((2 * ncores)) --bind-to core
rank_has "$ncores" "Core L#0(,|\$)"

# ranks dealt over sockets, then bound core by core within each
nsock=$(count Package)
what="--map-by socket --bind-to core"
report "$ncores" --map-by socket --bind-to core
rank_has "$nsock" "Core L#"
rank_has 0 "Core L#0(,|\$)"

# shmrun's own mask holds the ranks: under taskset -c 1 a rank bound to a
# core gets core 1, and two ranks on one CPU are not bound (oversubscribed)
if command -v taskset >/dev/null && [ "$ncores" -ge 2 ] && [ "$(count PU)" -eq "$ncores" ]; then
	taskset -c 1 "$SHMRUN" -n 1 --bind-to core --report-bindings "$PROGS/run_mpi" \
		>"$TMP/out" 2>"$TMP/rep"
	expect_eq "taskset -c 1, --bind-to core: status ($(cat "$TMP/rep"))" "$?" 0
	what="taskset -c 1, --bind-to core"
	rank_has 0 "runs on cpus 1 = .*Core L#1(,|\$)"
	taskset -c 1 "$SHMRUN" -n 2 --report-bindings "$PROGS/run_mpi" >"$TMP/out" 2>"$TMP/rep"
	expect_eq "taskset -c 1, 2 ranks: status ($(cat "$TMP/rep"))" "$?" 0
	what="taskset -c 1, 2 ranks, auto"
	rank_has 0 "runs on cpus 1 = "
	rank_has 1 "runs on cpus 1 = "
	expect_no_shm_left
else
	echo "skip the taskset checks: no taskset, one core, or hardware threads"
fi

# the environment equivalent, and the knob's malformed value
SHMRUN_REPORT_BINDINGS=1 run_job "$TMP/out" "$TMP/err" -- -n 2 "$PROGS/run_mpi"
expect_eq "SHMRUN_REPORT_BINDINGS=1: status" "$rc" 0
expect_eq "SHMRUN_REPORT_BINDINGS=1: lines" "$(grep -c '^shmpi: rank ' "$TMP/err")" 2
run_job "$TMP/out" "$TMP/err" -- -n 2 "$PROGS/run_mpi"
expect_eq "no report by default" "$(grep -c '^shmpi: rank ' "$TMP/err")" 0

run_job "$TMP/out" "$TMP/err" -- -n 2 --bind-to board "$PROGS/run_mpi"
expect_eq "--bind-to board: status" "$rc" 125
expect_match "--bind-to board: message" "$(cat "$TMP/err")" "--bind-to: 'board' is not"
SHMPI_BIND_TO=board run_job "$TMP/out" "$TMP/err" -- -n 2 "$PROGS/run_mpi"
expect_eq "SHMPI_BIND_TO=board: status" "$rc" 125
expect_match "SHMPI_BIND_TO=board: message" "$(cat "$TMP/err")" \
	"SHMPI_BIND_TO=board is malformed \\(it takes auto\\|none\\|core"
run_job "$TMP/out" "$TMP/err" -- -n 2 -x SHMRUN_REPORT_BINDINGS=maybe "$PROGS/run_mpi"
expect_eq "SHMRUN_REPORT_BINDINGS=maybe in a rank: status" "$rc" 1
expect_match "SHMRUN_REPORT_BINDINGS=maybe: message" "$(cat "$TMP/err")" \
	"SHMRUN_REPORT_BINDINGS=maybe is malformed"
exit 0
