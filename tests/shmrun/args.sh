# The program and its arguments reach the ranks untouched; the spellings of
# the options; PATH lookup and scripts without "#!".
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/shmrun/common"

run_job "$TMP/out" "$TMP/err" -- -n 1 printf '%s|' -n 'a b' --tag-output -x '' -- '*' '  '
expect_eq "arguments" "$(cat "$TMP/out")" "-n|a b|--tag-output|-x||--|*|  |"

run_job "$TMP/out" "$TMP/err" -- -n 1 sh -c 'echo "$0:$#:$*"' zero --timeout 1 -n 5
expect_eq "options after the program" "$(cat "$TMP/out")" "zero:4:--timeout 1 -n 5"

for spelling in "-n 2" "-np 2" "--np=2" "-n2" "--n 2" "-n=2"; do
	# shellcheck disable=SC2086
	run_job "$TMP/out" "$TMP/err" -- $spelling echo x
	expect_eq "'$spelling': status" "$rc" 0
	expect_eq "'$spelling': ranks" "$(wc -l <"$TMP/out")" 2
done
run_job "$TMP/out" "$TMP/err" -- -n 1 -- echo after-dashes
expect_eq "--" "$(cat "$TMP/out")" "after-dashes"

mkdir "$TMP/bin"
printf '#!/bin/sh\necho "mine $*"\n' >"$TMP/bin/runtest-prog"
printf 'echo "no shebang $*"\n' >"$TMP/bin/runtest-plain"
chmod +x "$TMP/bin/runtest-prog" "$TMP/bin/runtest-plain"
path=$PATH
PATH="$TMP/bin:$PATH"
run_job "$TMP/out" "$TMP/err" -- -n 1 runtest-prog a
expect_eq "PATH lookup" "$(cat "$TMP/out")" "mine a"
run_job "$TMP/out" "$TMP/err" -- -n 1 runtest-plain b
PATH=$path
expect_eq "no #!" "$(cat "$TMP/out")" "no shebang b"
run_job "$TMP/out" "$TMP/err" -- -n 1 "$TMP/bin/runtest-prog" c
expect_eq "a path" "$(cat "$TMP/out")" "mine c"
exit 0
