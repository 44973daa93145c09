# shmrun as mpiexec and mpirun (the links of PREFIX/lib/shmpi/mpi-bin): the
# spellings of MPICH's and Open MPI's launchers that mean something on one
# machine, what CMake's FindMPI runs (MPIEXEC_NUMPROC_FLAG -n), and a clear
# refusal of any other host.
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/shmrun/common"

mkdir "$TMP/bin"
ln -s "$SHMRUN" "$TMP/bin/mpiexec"
ln -s "$SHMRUN" "$TMP/bin/mpirun"
self=$(hostname)
show='echo "${RUNTEST_A-unset}|${RUNTEST_B-unset}|${RUNTEST_C-unset}"'

for launcher in mpiexec mpirun; do
	SHMRUN="$TMP/bin/$launcher" run_job "$TMP/out" "$TMP/err" -- -n 2 --oversubscribe \
		-oversubscribe --allow-run-as-root -genv RUNTEST_A 'x y' -env RUNTEST_B b \
		-x RUNTEST_C=c --host localhost:4 -host localhost -hosts "127.0.0.1,$self:2" \
		--host="${self%%.*}" sh -c "$show"
	expect_eq "$launcher: status ($(cat "$TMP/err"))" "$rc" 0
	expect_eq "$launcher: output" "$(cat "$TMP/out")" "x y|b|c
x y|b|c"
done

# -genv's value may be empty or hold '=' and spaces; the last setting wins
run_job "$TMP/out" "$TMP/err" -- -n 1 -x RUNTEST_A=1 -genv RUNTEST_A '' \
	--genv=RUNTEST_B 'p=q r' -genv RUNTEST_C 1 -x RUNTEST_C=2 sh -c "$show"
expect_eq "-genv values" "$(cat "$TMP/out")" "|p=q r|2"

# CMake's FindMPI: MPIEXEC_NUMPROC_FLAG is -n, then the count, the program
# and its arguments; the binding spellings of both launchers
for spelling in "-n 4" "-np 4" "--np 4" "-n 4 -bind-to none" "-n 4 --bind-to none" \
	"-n 4 --map-by core -bind-to none"; do
	# shellcheck disable=SC2086
	SHMRUN="$TMP/bin/mpiexec" run_job "$TMP/out" "$TMP/err" -- $spelling \
		"$SHMPI_BUILD/examples/hello"
	expect_eq "mpiexec $spelling: status ($(cat "$TMP/err"))" "$rc" 0
	expect_eq "mpiexec $spelling: ranks" "$(grep -c '^rank [0-3] of 4 ' "$TMP/out")" 4
done

# another host: refused, saying why and where such a job runs
for hosts in node2 "localhost,node2:2" "$self.invalid" "127.0.0.2"; do
	run_job "$TMP/out" "$TMP/err" -- -n 2 --host "$hosts" true
	expect_eq "--host $hosts: status" "$rc" 125
	expect_match "--host $hosts: message" "$(head -n 1 "$TMP/err")" \
		"^shmrun: --host $hosts: shmpi is single-node, every rank runs on this machine; across nodes, the same program runs with MPICH or Open MPI"
done
# malformed
for hosts in localhost:0 localhost: :2 "localhost," localhost:2x ""; do
	run_job "$TMP/out" "$TMP/err" -- -n 2 --host "$hosts" true
	expect_eq "--host '$hosts': status" "$rc" 125
	expect_match "--host '$hosts': message" "$(head -n 1 "$TMP/err")" \
		"^shmrun: --host: '$hosts' is not HOST\[:SLOTS\]"
done
run_job "$TMP/out" "$TMP/err" -- -n 2 -genv RUNTEST_A=1 2 true
expect_eq "-genv VAR=VALUE: status" "$rc" 125
expect_match "-genv VAR=VALUE" "$(head -n 1 "$TMP/err")" "^shmrun: -genv: 'RUNTEST_A=1' is not a variable's name"
run_job "$TMP/out" "$TMP/err" -- -n 2 -genv RUNTEST_A
expect_match "-genv VAR" "$(head -n 1 "$TMP/err")" "^shmrun: -genv needs a variable and a value"
run_job "$TMP/out" "$TMP/err" -- -n 2 -genv SHMPI_RANK 3 true
expect_match "-genv SHMPI_RANK" "$(head -n 1 "$TMP/err")" "^shmrun: -genv SHMPI_RANK=3: shmrun sets"
run_job "$TMP/out" "$TMP/err" -- -n 2 --oversubscribe=yes true
expect_match "--oversubscribe=yes" "$(head -n 1 "$TMP/err")" "^shmrun: --oversubscribe=yes takes no value"
exit 0
