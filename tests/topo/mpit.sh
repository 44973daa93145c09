# MPI_T control variables: one per knob of shm/knob.c, read before and after
# MPI_Init, the writable ones written and their effect seen (spin counts:
# whether a blocked barrier sleeps; see tests/progs/mpit_cvars.c), the rest
# refused; values follow the environment.
. "$SHMPI_TOP/tests/lib.sh"

knobs=$(sed -n 's/^[[:space:]]*"\([A-Z_]*\)", SHM_KNOB_[A-Z]*, .*/\1/p' "$SHMPI_TOP/shm/knob.c")

run_job "$TMP/out" "$TMP/err" -- -n 2 --timeout 120 "$PROGS/mpit_cvars"
expect_eq "mpit_cvars: status ($(cat "$TMP/err"))" "$rc" 0
for k in $knobs; do
	grep -q "^cvar $k " "$TMP/out" || fail "no control variable for $k"
done
expect_eq "one variable per knob" "$(grep -c '^cvar ' "$TMP/out")" "$(echo "$knobs" | wc -l)"
expect_eq "writable ones" "$(grep '^cvar [A-Z_]* [a-z]* rw ' "$TMP/out" | cut -d' ' -f2 | tr '\n' ' ')" \
	"SHMPI_PROGRESS SHMPI_SPINS SHMPI_SPINS_OVERSUBSCRIBED SHMPI_OVERSUBSCRIBED SHMPI_NUMA SHMRUN_REPORT_BINDINGS SHMPI_MEMBARRIER SHMPI_YIELDS SHMPI_SINGLE_COPY SHMPI_SINGLE_COPY_MIN SHMPI_SINGLE_COPY_SHARE SHMPI_SINGLE_COPY_RMA_MIN SHMPI_WIN_CREATE_SHARE "
expect_match "defaults" "$(tr '\n' ' ' <"$TMP/out")" \
	"cvar SHMPI_PROGRESS enum rw weak cvar SHMPI_SPINS int rw 4000 cvar SHMPI_SPINS_OVERSUBSCRIBED int rw 7 cvar SHMPI_OVERSUBSCRIBED enum rw auto cvar SHMPI_NUMA enum rw owner"

run_job "$TMP/out" "$TMP/err" -- -n 3 --timeout 120 -x SHMPI_SPINS=123 \
	-x SHMPI_PROGRESS=strong -x SHMPI_NUMA=interleave --bind-to none "$PROGS/mpit_cvars"
expect_eq "mpit_cvars -n 3: status ($(cat "$TMP/err"))" "$rc" 0
for v in "SHMPI_SPINS int rw 123" "SHMPI_PROGRESS enum rw strong" \
	 "SHMPI_NUMA enum rw interleave" "SHMPI_BIND_TO enum ro none"; do
	grep -q "^cvar $v\$" "$TMP/out" || fail "want 'cvar $v' in: $(cat "$TMP/out")"
done

# written before MPI_Init, the knobs MPI_Init acts on: strong progress and
# the binding report, on every rank
run_job "$TMP/out" "$TMP/err" -- -n 2 --timeout 60 "$PROGS/mpit_cvars" preinit
expect_eq "preinit: status ($(cat "$TMP/err"))" "$rc" 0
expect_eq "preinit: output" "$(cat "$TMP/out")" "ok preinit"
expect_eq "preinit: binding reports" "$(grep -c '^shmpi: rank [01] runs on cpus ' "$TMP/err")" 2
exit 0
