# Bad usage is exit 125 with one line saying what is wrong and a pointer to
# --help; a missing program 127, one that cannot run 126; --help, --version.
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/shmrun/common"

# usage_error WHAT ERROR-REGEX -- shmrun args...
usage_error() {
	what=$1 regex=$2
	shift 2
	run_job "$TMP/out" "$TMP/err" "$@"
	expect_eq "$what: status" "$rc" 125
	expect_eq "$what: stdout" "$(cat "$TMP/out")" ""
	expect_match "$what: error" "$(head -n 1 "$TMP/err")" "^shmrun: $regex"
	expect_eq "$what: help pointer" "$(tail -n 1 "$TMP/err")" "shmrun: try 'shmrun --help'"
	expect_eq "$what: lines" "$(wc -l <"$TMP/err")" 2
}

usage_error "no arguments" "usage: shmrun -n N" --
usage_error "-n 0" "-n: '0' is not a number of ranks" -- -n 0 true
usage_error "-n abc" "-n: 'abc' is not a number of ranks" -- -n abc true
usage_error "-n -2" "-n: '-2' is not" -- -n -2 true
usage_error "-n 4097" "-n: '4097' is not" -- -n 4097 true
usage_error "-n 2x" "-n: '2x' is not" -- -n 2x true
usage_error "no -n" "-n N is missing" -- true
usage_error "-n without value" "-n needs a value" -- -n
usage_error "unknown option" "unknown option '--frobnicate'" -- --frobnicate -n 2 true
usage_error "no program" "no program to run" -- -n 2
usage_error "bad --timeout" "--timeout: 'abc' is not a number of seconds" -- -n 2 --timeout abc true
usage_error "negative --timeout" "--timeout: '-1' is not" -- -n 2 --timeout -1 true
usage_error "--timeout inf" "--timeout: 'inf' is not" -- -n 2 --timeout inf true
usage_error "bad --kill-grace" "--kill-grace: '1s' is not" -- -n 2 --kill-grace 1s true
usage_error "empty -x" "-x: '' is not VAR or VAR=VALUE" -- -n 2 -x '' true
usage_error "-x of a rank variable" "-x SHMPI_RANK=3: shmrun sets" -- -n 2 -x SHMPI_RANK=3 true
usage_error "flag with a value" "--tag-output=yes takes no value" -- -n 2 --tag-output=yes true
usage_error "--cleanup with a program" "--cleanup takes no program" -- --cleanup -n 2 true

run_job "$TMP/out" "$TMP/err" -- -n 2 runtest-no-such-program
expect_eq "not found: status" "$rc" 127
expect_eq "not found: message" "$(cat "$TMP/err")" "shmrun: runtest-no-such-program: not found"
run_job "$TMP/out" "$TMP/err" -- -n 2 "$TMP/no/such/file"
expect_eq "no such path: status" "$rc" 127

printf '#!/bin/sh\necho ran\n' >"$TMP/not-executable"
chmod 644 "$TMP/not-executable"
run_job "$TMP/out" "$TMP/err" -- -n 2 "$TMP/not-executable"
expect_eq "not executable: status" "$rc" 126
expect_match "not executable: message" "$(cat "$TMP/err")" "^shmrun: .*not-executable: not an executable file$"
expect_eq "not executable: stdout" "$(cat "$TMP/out")" ""
run_job "$TMP/out" "$TMP/err" -- -n 2 "$TMP"
expect_eq "a directory: status" "$rc" 126

run_job "$TMP/out" "$TMP/err" -- --help
expect_eq "--help: status" "$rc" 0
for word in "-n, -np N" "-x VAR" --tag-output --timeout --kill-grace --verbose \
	--cleanup --help --version "default: 3" "default: 0" \
	SHMPI_RANK SHMPI_SIZE SHMPI_JOB PMI_RANK PMI_SIZE OMPI_COMM_WORLD_RANK \
	OMPI_COMM_WORLD_SIZE OMPI_COMM_WORLD_LOCAL_RANK OMPI_COMM_WORLD_LOCAL_SIZE \
	"  124 " "  125 " "  126 " "  127 " "  128+S " "  0 " "  N "; do
	grep -qF -- "$word" "$TMP/out" || fail "--help does not mention '$word'"
done
run_job "$TMP/out" "$TMP/err" -- --version
expect_eq "--version: status" "$rc" 0
expect_match "--version" "$(cat "$TMP/out")" '^shmrun \(shmpi [0-9]+\.[0-9]+\.[0-9]+\)$'
exit 0
