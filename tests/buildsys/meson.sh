# Meson's dependency('mpi') finds shmpi from mpicc and mpic++ on PATH (the
# prefix's lib/shmpi/mpi-bin), asked as Open MPI's wrappers are
# (--showme:version, --showme:compile, --showme:link).  Meson asks
# pkg-config for Open MPI's ompi-c first, so where Open MPI's development
# files are installed the project says method: 'config-tool'; the default
# method is tried with no pkg-config files to find (README, "Build systems").
. "$SHMPI_TOP/tests/lib.sh"
. "$SHMPI_TOP/tests/buildsys/common"
need_tools meson ninja c++
skip_sanitized "dependency('mpi')"

setup_project
mkdir "$TMP/nopc"
for method in config-tool auto; do
	if [ $method = auto ]; then
		libdir=$TMP/nopc
	else
		libdir=${PKG_CONFIG_LIBDIR-}
	fi
	PKG_CONFIG_LIBDIR=$libdir meson setup "b-$method" -Dmpi_method=$method \
		>"$TMP/log" 2>&1 || fail "meson setup ($method): $(cat "$TMP/log")"
	expect_match "meson ($method) found mpicc" "$(cat "$TMP/log")" \
		"mpicc found: YES \($PREFIX/lib/shmpi/mpi-bin/mpicc\)"
	expect_match "meson ($method) found mpic++" "$(cat "$TMP/log")" \
		"mpic\+\+ found: YES \($PREFIX/lib/shmpi/mpi-bin/mpic\+\+\)"
	ninja -C "b-$method" >"$TMP/log" 2>&1 || fail "ninja ($method): $(cat "$TMP/log")"
	expect_programs "b-$method"
done
exit 0
