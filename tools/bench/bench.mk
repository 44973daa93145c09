# tools/bench/bench.mk: shmpi's microbenchmarks and the comparison with
# Open MPI and MPICH (README, "Performance").  Included at the end of the
# top Makefile:
#
#     include tools/bench/bench.mk
#
# or used on its own, which reads the top Makefile first:
#
#     make -f tools/bench/bench.mk bench
#
#   make bench            build the suite with shmcc, run it with shmpi, print the table
#   make bench QUICK=1    a smoke run: fewer points, 10 ms each
#   make bench-compare    also Open MPI and MPICH (installed from Debian's packages
#                         when missing: as root; otherwise the command is printed),
#                         A B A B over REPS repetitions, one table with the ratios
#   make bench-build      only build the suite with shmcc
#   make bench-noise      what SHMPI_MEMBARRIER=1 costs a computation beside a job
#                         whose ranks sleep and wake often (tools/bench/noise.py)
#
# Knobs: QUICK=1; PLAN=quick|default|compare|full (default: default for bench,
# compare for bench-compare); REPS=N (default 1 for bench, 3 for bench-compare);
# BENCH_ARGS (more options for tools/bench/bench.py, e.g. --only=bench_rma_lat);
# BENCH_CFLAGS.  With SANITIZE the suite builds (shmcc carries the sanitizer
# flags) but its figures mean little: measure from a normal build.

ifeq ($(origin SHMCC),undefined)

# On its own: run make again on the top Makefile followed by this file.
BENCH_SELF := $(lastword $(MAKEFILE_LIST))
.PHONY: bench bench-build bench-compare bench-peers bench-build-peers bench-noise
bench bench-build bench-compare bench-peers bench-build-peers bench-noise:
	@$(MAKE) --no-print-directory -f Makefile -f $(BENCH_SELF) $@

else

BENCH_DIR := tools/bench
BENCH_OUT := $(BUILD)/bench
BENCH_PROGS := bench_rma_lat bench_rma_bw bench_atomic bench_barrier bench_msgrate bench_p2p bench_part \
	bench_passive bench_scale init_finalize
BENCH_SHMPI := $(BENCH_PROGS:%=$(BENCH_OUT)/shmpi/%)
BENCH_OPENMPI := $(BENCH_PROGS:%=$(BENCH_OUT)/openmpi/%)
BENCH_MPICH := $(BENCH_PROGS:%=$(BENCH_OUT)/mpich/%)
BENCH_CFLAGS ?= -O2 -g
BENCH_WARN := -std=c11 -Wall -Wextra
BENCH_PY := python3 $(BENCH_DIR)/bench.py --build $(BUILD)
BENCH_PLAN = $(if $(PLAN),--plan $(PLAN),$(if $(filter 1,$(QUICK)),--plan quick))
BENCH_REPS = $(if $(REPS),--reps $(REPS),$(if $(filter 1,$(QUICK)),--reps 1))

.PHONY: bench bench-build bench-compare bench-peers bench-build-peers bench-noise

bench-build: $(BENCH_SHMPI)

# What SHMPI_MEMBARRIER costs the computations beside a job (tools/bench/noise.py).
bench-noise: $(BENCH_OUT)/shmpi/noise
	$(Q)python3 $(BENCH_DIR)/noise.py --build $(BUILD) $(BENCH_REPS)

bench: bench-build
	$(Q)$(BENCH_PY) run $(BENCH_PLAN) $(BENCH_REPS) $(BENCH_ARGS)

bench-peers:
	$(Q)$(BENCH_PY) peers

bench-build-peers: $(BENCH_OPENMPI) $(BENCH_MPICH)

bench-compare: $(BENCH_SHMPI) $(BENCH_OPENMPI) $(BENCH_MPICH)
	$(Q)$(BENCH_PY) compare $(BENCH_PLAN) $(BENCH_REPS) $(BENCH_ARGS)

# Our own build is held to -Werror like the examples; the peers' headers are
# not ours, so their builds only warn.
$(BENCH_SHMPI) $(BENCH_OUT)/shmpi/noise: $(BENCH_OUT)/shmpi/%: $(BENCH_DIR)/%.c $(BENCH_DIR)/bench.h $(SHMCC) $(LIB_SO)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  SHMCC   $@")
	$(Q)$(SHMCC) $(BENCH_CFLAGS) $(BENCH_WARN) -Werror -o $@ $<

# The peers' compilers come from bench-peers, which runs (once) before any of these.
$(BENCH_OPENMPI): $(BENCH_OUT)/openmpi/%: $(BENCH_DIR)/%.c $(BENCH_DIR)/bench.h | bench-peers
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  MPICC   $@ (Open MPI)")
	$(Q)mpicc.openmpi $(BENCH_CFLAGS) $(BENCH_WARN) -o $@ $<

$(BENCH_MPICH): $(BENCH_OUT)/mpich/%: $(BENCH_DIR)/%.c $(BENCH_DIR)/bench.h | bench-peers
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  MPICC   $@ (MPICH)")
	$(Q)mpicc.mpich $(BENCH_CFLAGS) $(BENCH_WARN) -o $@ $<

endif
