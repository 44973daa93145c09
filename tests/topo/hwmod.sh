# hwloc is loaded only when it is needed.  A rank (src/hw.h) that asks for
# no binding report and no hardware split maps neither libhwloc nor libudev
# (nor libnuma, which shmpi no longer uses); a split or --report-bindings
# loads the module found next to libshmpi.so.  shmrun (tools/shmrun/hw.h)
# loads its own module only to bind ranks or for --info.  A missing module is
# a clear error in just what needs it.
. "$SHMPI_TOP/tests/lib.sh"

# every rank's "R WHAT: ..." line of $TMP/out matches REGEX
all_ranks() {
	lines=$(grep -cE "^[0-9]+ $2\$" "$TMP/out")
	expect_eq "$1 ($(tr '\n' ';' <"$TMP/out"))" "$lines" "$3"
}

run_job "$TMP/out" "$TMP/err" -- -n 4 "$PROGS/hw_maps"
expect_eq "plain job: status ($(cat "$TMP/err"))" "$rc" 0
all_ranks "plain job: nothing of hwloc or libnuma" "init: hwloc 0 udev 0 numa 0" 4

run_job "$TMP/out" "$TMP/err" -- -n 2 "$PROGS/hw_maps" split
expect_eq "split: status ($(cat "$TMP/err"))" "$rc" 0
all_ranks "split: not before" "init: hwloc 0 udev 0 numa 0" 2
all_ranks "split: loaded for it" "split: hwloc 1 size [0-9]+" 2

run_job "$TMP/out" "$TMP/err" -- -n 2 --report-bindings "$PROGS/hw_maps"
expect_eq "report: status ($(cat "$TMP/err"))" "$rc" 0
all_ranks "report: loaded for it" "init: hwloc 1 udev [01] numa 0" 2
expect_eq "report: lines" "$(grep -c '^shmpi: rank [01] runs on cpus ' "$TMP/err")" 2

# libshmpi.so in a directory without shmpi/hw.so
mkdir "$TMP/lib"
cp "$SHMPI_BUILD/lib/libshmpi.so.0" "$TMP/lib/"
ln -s libshmpi.so.0 "$TMP/lib/libshmpi.so"
"$SHMCC" -I"$SHMPI_TOP/tests/progs" -o "$TMP/hw_maps" "$SHMPI_TOP/tests/progs/hw_maps.c" \
	-L"$TMP/lib" -Wl,-rpath,"$TMP/lib" || fail "building hw_maps against $TMP/lib"
# emulated (qemu-user), the program's own loader lists what it loads:
# ldd runs this machine's
if [ -n "${SHMPI_EMULATED:-}" ]; then
	"${QEMU_LD_PREFIX:?}"/lib/ld-linux-*.so.1 --list "$TMP/hw_maps"
else
	ldd "$TMP/hw_maps"
fi | grep -q "libshmpi.so.0 => $TMP/lib/" || fail "hw_maps does not use $TMP/lib"

run_job "$TMP/out" "$TMP/err" -- -n 2 "$TMP/hw_maps"
expect_eq "no module, not needed: status ($(cat "$TMP/err"))" "$rc" 0
all_ranks "no module, not needed" "init: hwloc 0 udev 0 numa 0" 2

run_job "$TMP/out" "$TMP/err" -- -n 2 "$TMP/hw_maps" split
[ "$rc" -ne 0 ] || fail "no module, split: status 0"
expect_match "no module, split: message" "$(cat "$TMP/err")" \
	"MPI_Comm_split_type.*the hardware resource types need hwloc: cannot load $TMP/lib/shmpi/hw.so: "

run_job "$TMP/out" "$TMP/err" -- -n 2 --report-bindings "$TMP/hw_maps"
[ "$rc" -ne 0 ] || fail "no module, --report-bindings: status 0"
expect_match "no module, --report-bindings: message" "$(cat "$TMP/err")" \
	"cannot report this rank's binding: cannot load $TMP/lib/shmpi/hw.so: "

# where make install puts it: PREFIX/lib/shmpi/hw.so next to PREFIX/lib
mkdir "$TMP/lib/shmpi"
cp "$SHMPI_BUILD/lib/shmpi/hw.so" "$TMP/lib/shmpi/"
run_job "$TMP/out" "$TMP/err" -- -n 2 "$TMP/hw_maps" split
expect_eq "module next to the library: status ($(cat "$TMP/err"))" "$rc" 0
all_ranks "module next to the library" "split: hwloc 1 size [0-9]+" 2

# shmrun itself, seen from its rank ($PPID)
cat >"$TMP/parent_maps" <<'EOF2'
#!/bin/sh
grep -q /libhwloc. /proc/$PPID/maps
case $? in 0) echo "hwloc 1" ;; 1) echo "hwloc 0" ;; *) echo "maps unreadable" ;; esac
EOF2
chmod 755 "$TMP/parent_maps"
run_job "$TMP/out" "$TMP/err" -- -n 1 --bind-to none "$TMP/parent_maps"
expect_eq "shmrun, not binding: status ($(cat "$TMP/err"))" "$rc" 0
expect_eq "shmrun, not binding: hwloc not mapped" "$(cat "$TMP/out")" "hwloc 0"
run_job "$TMP/out" "$TMP/err" -- -n 1 --bind-to core "$TMP/parent_maps"
expect_eq "shmrun, binding: status ($(cat "$TMP/err"))" "$rc" 0
expect_eq "shmrun, binding: hwloc mapped" "$(cat "$TMP/out")" "hwloc 1"

# a shmrun without ../lib/shmpi/shmrun-hw.so beside it
mkdir "$TMP/bin"
cp "$SHMRUN" "$TMP/bin/shmrun"
"$TMP/bin/shmrun" -n 2 --bind-to none true >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_eq "no shmrun module, not binding: status ($(cat "$TMP/err"))" "$rc" 0
"$TMP/bin/shmrun" -n 1 --bind-to core true >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_eq "no shmrun module, --bind-to core: status" "$rc" 125
expect_match "no shmrun module, --bind-to core: message" "$(cat "$TMP/err")" \
	"^shmrun: cannot load hwloc's module: $TMP/bin/../lib/shmpi/shmrun-hw.so: "
"$TMP/bin/shmrun" --info >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_eq "no shmrun module, --info: status" "$rc" 125
expect_match "no shmrun module, --info: message" "$(cat "$TMP/err")" \
	"^shmrun: cannot load hwloc's module: "
# the rest of --info comes all the same
expect_match "no shmrun module, --info: version" "$(cat "$TMP/out")" "^shmrun \(shmpi "
expect_match "no shmrun module, --info: hwloc" "$(cat "$TMP/out")" "hwloc unavailable"
expect_match "no shmrun module, --info: knobs" "$(cat "$TMP/out")" "^  SHMPI_SPINS="
expect_no_shm_left "the jobs of a shmrun without its module"
exit 0
