# Put and get on windows of private memory in one copy (README, "What is
# implemented"; tests/progs/rma_single_copy.c): every way the knob
# SHMPI_SINGLE_COPY forces (auto and cma: process_vm_writev/readv above
# SHMPI_SINGLE_COPY_RMA_MIN; mapped and pipeline: packets through the target's
# engine), the threshold moved, 2 and 4 ranks, both progress modes, the
# adversarial mode, and the fallback when the kernel refuses the calls (a
# seccomp filter, tests/progs/seccomp_deny.c), which shmrun --verbose
# reports.  Each run checks the data byte for byte, the order of one
# origin's operations to a target, and how many operations went in one
# copy (the window's info key shmpi_single_copies).
. "$SHMPI_TOP/tests/lib.sh"

all="$(printf 'ok %s\n' sizes derived requests lockwait order dynamic)"
# qemu-user (make check ARCH=aarch64) does not emulate process_vm_*: there
# every operation takes the packets, as under the seccomp filter below
cma=cma
[ -z "${SHMPI_EMULATED:-}" ] || cma=none
bad=
# every way, at 2 ranks; the single copy at 4 ranks and under strong
# progress too, and the packets under strong progress
for cfg in "auto $cma 2 weak" "auto $cma 4 weak" "auto $cma 4 strong" "cma $cma 2 weak" \
	   "mapped none 2 weak" "pipeline none 2 weak" "pipeline none 4 strong"; do
	set -- $cfg
	run_case "$1 -n $3 $4" "$all" \
		-- -n $3 --progress=$4 --timeout 120 -x SHMPI_SINGLE_COPY=$1 \
		"$PROGS/rma_single_copy" all $2
done

# the threshold: everything in one copy, and only what passes 64 KiB
for min in 0 65536; do
	run_case "min $min" "$all" \
		-- -n 2 --timeout 120 -x SHMPI_SINGLE_COPY_RMA_MIN=$min \
		"$PROGS/rma_single_copy" all $cma
done

# the adversarial mode queues every operation to its synchronization (and
# shuffles puts and gets, so the order case does not apply)
for n in 2 4; do
	run_case "adversarial -n $n" "$(printf 'ok %s\n' sizes derived requests lockwait dynamic)" \
		-- -n $n --timeout 120 --adversarial $((n * 7)) "$PROGS/rma_single_copy" unordered none
done

# refused: the rank stops trying at the first refusal and its operations
# go as packets; shmrun says so (qemu-user has no seccomp(2))
[ "$cma" = cma ] || { [ -z "$bad" ] || fail "single copy RMA:$bad"; exit 0; }
for cfg in "process_vm_readv=EPERM,process_vm_writev=EPERM weak none" \
	   "process_vm_writev=ENOSYS strong -" "process_vm_readv=EPERM weak -"; do
	set -- $cfg
	[ "$3" != - ] || set -- "$1" "$2" ""
	run_case "refused $1 $2" "$all" \
		-- -n 2 --progress=$2 --timeout 120 --verbose \
		"$PROGS/seccomp_deny" $1 "$PROGS/rma_single_copy" all $3
	grep -q '^shmrun: single copy of RMA on private memory: .*refused: those ranks used packets' "$TMP/err" ||
		{ echo "refused $1: not reported: $(cat "$TMP/err")"; bad="$bad verbose/$1"; }
done

# --verbose when it works
run_job "$TMP/out" "$TMP/err" -- -n 2 --timeout 120 --verbose \
	"$PROGS/rma_single_copy" requests $cma
grep -q '^shmrun: single copy of RMA on private memory: copied with process_vm_writev and process_vm_readv$' "$TMP/err" ||
	{ echo "verbose: $(cat "$TMP/err")"; bad="$bad verbose"; }
[ -z "$bad" ] || fail "single copy RMA:$bad"
exit 0
