# shmrun --info prints the machine as hwloc sees it, the version, the build
# and every knob of the table in shm/knob.c (its value and default); --help
# and the README's environment section name every knob too.
. "$SHMPI_TOP/tests/lib.sh"

knobs=$(sed -n 's/^[[:space:]]*"\([A-Z_]*\)", SHM_KNOB_[A-Z]*, .*/\1/p' "$SHMPI_TOP/shm/knob.c")
[ "$(echo "$knobs" | wc -l)" -ge 8 ] || fail "found too few knobs in shm/knob.c: $knobs"

"$SHMRUN" --info >"$TMP/info" 2>"$TMP/err"
expect_eq "--info: status ($(cat "$TMP/err"))" "$?" 0
"$SHMRUN" --help >"$TMP/help"
expect_match "--info: version" "$(head -n 1 "$TMP/info")" "^shmrun \\(shmpi [0-9.]+\\)$"
expect_match "--info: build" "$(cat "$TMP/info")" "^build: cc .*, sanitizers .*, hwloc API"
expect_match "--info: summary" "$(cat "$TMP/info")" \
	"^machine: [1-9][0-9]* package\\(s\\), [1-9][0-9]* NUMA node\\(s\\), [1-9][0-9]* core\\(s\\)"
for type in Machine Package NUMANode Core PU; do
	expect_match "--info: $type" "$(cat "$TMP/info")" "^ *$type L#0"
done
for k in $knobs; do
	expect_match "--info: knob $k" "$(cat "$TMP/info")" "^  $k=[^ ]* \\(default "
	expect_match "--help: knob $k" "$(cat "$TMP/help")" "^  $k "
	grep -q "^| \`$k\` |" "$SHMPI_TOP/README.md" || fail "README.md does not list $k"
done

# the value shown is the environment's; a malformed one is marked
SHMPI_SPINS=123 "$SHMRUN" --info >"$TMP/info"
expect_match "--info: SHMPI_SPINS=123" "$(cat "$TMP/info")" "^  SHMPI_SPINS=123 \\(default 4000;"
SHMPI_NUMA=far "$SHMRUN" --info >"$TMP/info"
expect_match "--info: SHMPI_NUMA=far" "$(cat "$TMP/info")" "^  SHMPI_NUMA=far \\(MALFORMED\\)"

# every knob the ranks read is checked in MPI_Init: a malformed one ends the
# job, naming it
for bad in SHMPI_SPINS=lots SHMPI_SPINS_OVERSUBSCRIBED=-1 SHMPI_OVERSUBSCRIBED=maybe \
	   SHMPI_NUMA=far SHMPI_PROGRESS=fast; do
	run_job "$TMP/out" "$TMP/err" -- -n 2 -x "$bad" "$PROGS/run_mpi"
	expect_eq "$bad: status" "$rc" 1
	expect_match "$bad: message" "$(cat "$TMP/err")" "MPI_Init: $bad is malformed \\(it takes "
done
exit 0
