# Helpers for the test scripts in tests/*/*.sh (sourced, POSIX sh).
# tests/run exports SHMPI_BUILD, SHMPI_TOP, SHMRUN, SHMCC and PROGS.
set -u
: "${SHMPI_BUILD:?run through tests/run}"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

skip() {
	echo "$*"
	exit 77
}

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
}

# expect_match WHAT TEXT REGEX (grep -E)
expect_match() {
	printf '%s\n' "$2" | grep -Eq -- "$3" || fail "$1: '$2' does not match /$3/"
}

# The /dev/shm objects of this user's shmpi jobs.
shm_objects() {
	ls /dev/shm 2>/dev/null | grep "^shmpi-$(id -u)-" || true
}

# Fail if any shmpi object of this user is left in /dev/shm (tests run one
# at a time, so every object there belongs to a job a test started).
expect_no_shm_left() {
	left=$(shm_objects)
	[ -z "$left" ] || fail "left in /dev/shm after ${1:-the job}: $left"
}

# run_job OUT ERR -- shmrun args...: runs shmrun, sets $rc, and checks that
# the job left nothing in /dev/shm.
run_job() {
	out=$1 err=$2
	shift 3
	"$SHMRUN" "$@" >"$out" 2>"$err"
	rc=$?
	expect_no_shm_left "shmrun $*"
}

# run_case NAME WANT -- shmrun args...: one job of a test program that prints
# WANT when it passes; otherwise shows what the job said and adds NAME to
# $bad, so that a script runs every case and reports all failures at the end.
run_case() {
	case_name=$1 case_want=$2
	shift 2
	run_job "$TMP/out" "$TMP/err" "$@"
	if [ "$rc" -ne 0 ] || [ "$(cat "$TMP/out")" != "$case_want" ]; then
		echo "$case_name: exit $rc"
		sed 's/^/    /' "$TMP/out" "$TMP/err"
		bad="$bad $case_name"
	fi
}

# install_shmpi PREFIX [RUNNER...]: `make install` of the build under test
# into PREFIX (run through RUNNER, another user's setpriv for instance).
# BUILD as the tree names it (relative): an absolute one would rewrite the
# dependency files with targets later builds do not match.
install_shmpi() {
	inst_prefix=$1
	shift
	"$@" make -s -C "$SHMPI_TOP" install PREFIX="$inst_prefix" \
		BUILD="${SHMPI_BUILD#"$SHMPI_TOP"/}" SANITIZE="${SHMPI_SANITIZE:-}" \
		ARCH="${SHMPI_ARCH:-}" >"$TMP/install.log" 2>&1 ||
		fail "make install: $(cat "$TMP/install.log")"
}
