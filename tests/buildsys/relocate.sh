# make install as a user who owns nothing but the prefix, then the prefix
# moves: shmcc, shmcxx, the mpi-bin wrappers, shmrun and its hwloc module,
# the library's module (a rank's binding report) and pkg-config
# --define-prefix work from the new place, and nothing in the tree names the
# old one but shmpi.pc's prefix= line, which --define-prefix replaces.
# As root, the user is nobody (setpriv), with a HOME of its own.
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/buildsys/common"
need_tools c++ pkg-config readelf

chmod 755 "$TMP"
work=$TMP/user
mkdir "$work" "$work/home"
if [ "$(id -u)" -eq 0 ]; then
	need_tools setpriv
	uid=$(id -u nobody) && gid=$(id -g nobody) || skip "no user nobody"
	chown -R "$uid:$gid" "$work"
	set -- setpriv --reuid="$uid" --regid="$gid" --clear-groups env HOME="$work/home"
	"$@" test -r "$SHMPI_TOP/Makefile" -a -x "$SHMPI_BUILD/bin/shmrun" ||
		skip "nobody cannot read $SHMPI_TOP"
else
	uid=$(id -u)
	set -- env
fi
# $runner CMD...: CMD as that user (no spaces in the words: $TMP has none)
runner="$*"

# shellcheck disable=SC2086
install_shmpi "$work/inst" $runner
$runner mv "$work/inst" "$work/moved" || fail "mv the prefix"
PREFIX=$work/moved
expect_eq "the installing user" "$(stat -c %u "$PREFIX/bin/shmrun")" "$uid"
left=$(grep -rl "$work/inst" "$PREFIX")
expect_eq "files naming the old prefix" "$left" "$PREFIX/lib/pkgconfig/shmpi.pc"

src=$SHMPI_TOP/tests/buildsys/proj
build() {
	out=$1
	shift
	$runner "$@" >"$TMP/log" 2>&1 || fail "$*: $(cat "$TMP/log")"
	dyn=$(readelf -d "$out") || fail "readelf $out"
	expect_match "$out finds libshmpi in the new prefix" "$dyn" \
		"(RPATH|RUNPATH).*\[$PREFIX/lib\]"
}
mkdir "$TMP/b" "$TMP/b/pc" && chmod 777 "$TMP/b" "$TMP/b/pc"
build "$TMP/b/sum" "$PREFIX/bin/shmcc" -o "$TMP/b/sum" "$src/sum.c"
build "$TMP/b/sum_cxx" "$PREFIX/bin/shmcxx" -std=c++11 -o "$TMP/b/sum_cxx" "$src/sum.cpp"
build "$TMP/b/sum_mpicc" "$PREFIX/lib/shmpi/mpi-bin/mpicc" -o "$TMP/b/sum_mpicc" "$src/sum.c"
build "$TMP/b/sum_mpicxx" "$PREFIX/lib/shmpi/mpi-bin/mpicxx" -std=c++11 \
	-o "$TMP/b/sum_mpicxx" "$src/sum.cpp"
pcflags=$(PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" pkg-config --define-prefix --cflags --libs shmpi) ||
	fail "pkg-config --define-prefix shmpi"
expect_match "pkg-config --define-prefix" "$pcflags" "^(-f[^ ]+ )*-I$PREFIX/include .*-L$PREFIX/lib "
# shellcheck disable=SC2086
build "$TMP/b/pc/sum" cc -o "$TMP/b/pc/sum" "$src/sum.c" $pcflags

for prog in sum sum_mpicc pc/sum sum_cxx sum_mpicxx; do
	$runner "$PREFIX/lib/shmpi/mpi-bin/mpiexec" -n 4 "$TMP/b/$prog" \
		>"$TMP/out" 2>"$TMP/err"
	rc=$?
	expect_eq "mpiexec -n 4 $prog: status ($(cat "$TMP/err"))" "$rc" 0
	case $prog in
	*cxx) want="C++: 4 ranks, fetch_and_op 10, allgather 10, ring ok" ;;
	*) want="C: 4 ranks, accumulate 10, allreduce 10" ;;
	esac
	expect_eq "$prog" "$(cat "$TMP/out")" "$want"
done
# shmrun's hwloc module binds, the library's reports, both from the new place
$runner "$PREFIX/bin/shmrun" -n 1 --bind-to core --report-bindings "$TMP/b/sum" \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
expect_eq "--bind-to core --report-bindings: status ($(cat "$TMP/err"))" "$rc" 0
expect_match "binding report" "$(cat "$TMP/err")" "^shmpi: rank 0 runs on cpus .*Core L#0"
left=$(ls /dev/shm 2>/dev/null | grep "^shmpi-$uid-")
expect_eq "left in /dev/shm by the user's jobs" "$left" ""
exit 0
