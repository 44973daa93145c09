# shmpi: a shared-memory, single-node MPI for one-sided communication.
#
#   make            build the library, shmrun, shmcc, examples and tests
#   make demo       install what is missing, build, run the headline example
#   make check      install what is missing, build, run every test
#   make lint       cppcheck and clang-tidy over shm/ src/ tools/
#   make fuzz       libFuzzer and the fuzz driver, FUZZ_SECONDS each
#   make stress     the randomized RMA stress test, STRESS_SECONDS a run
#   make install    PREFIX=/usr/local (DESTDIR honoured)
#
# Knobs: CC, CFLAGS, LDFLAGS, PREFIX, V=1 (show commands),
#        SANITIZE=1 (address,undefined) or SANITIZE=<list> (built in build-san/),
#        SANITIZE=thread (ThreadSanitizer, built in build-tsan/),
#        VALGRIND=1 (make check runs the unit suites under memcheck),
#        ARCH=aarch64 (cross-built in build-aarch64/, tests under qemu-user).

PREFIX ?= /usr/local
CFLAGS ?= -O2 -g
SANITIZE ?=
ARCH ?=
V ?= 0

comma := ,
ifneq ($(ARCH),)
ifneq ($(ARCH),aarch64)
$(error ARCH=$(ARCH): only ARCH=aarch64 is known)
endif
ifneq ($(SANITIZE),)
$(error ARCH= and SANITIZE= do not mix: the sanitizers are for the native build)
endif
BUILD ?= build-aarch64
else ifeq ($(SANITIZE),)
BUILD ?= build
SANFLAGS :=
else ifeq ($(SANITIZE),thread)
BUILD ?= build-tsan
else
BUILD ?= build-san
endif
ifneq ($(SANITIZE),)
SANLIST := $(if $(filter 1,$(SANITIZE)),address$(comma)undefined,$(SANITIZE))
SANFLAGS := -fsanitize=$(SANLIST) -fno-omit-frame-pointer -fno-sanitize-recover=all
# ThreadSanitizer does not model fences (gcc says so with -Wtsan): the
# cross-process protocols that rely on them are not what it checks here
SANFLAGS += $(if $(filter thread,$(subst $(comma), ,$(SANLIST))),-Wno-tsan)
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

VERSION := 0.1.0
SOVERSION := 0

PKG_CONFIG ?= pkg-config

# ARCH=aarch64: Debian's cross compiler, and the arm64 libraries it links
# (liburing, hwloc, Check) unpacked from Debian's packages into a sysroot
# of the build tree by the deps step (tools/sysroot); the programs find
# them there through their rpath, and run under qemu-user (tools/deps
# aarch64 registers it with binfmt_misc, see README "Arm64").
ifeq ($(ARCH),aarch64)
CROSS := aarch64-linux-gnu-
CC := $(CROSS)gcc
AR := $(CROSS)ar
SYSROOT := $(abspath $(BUILD))/sysroot
SYSROOT_LIB := $(SYSROOT)/usr/lib/aarch64-linux-gnu
PKG_CONFIG := PKG_CONFIG_SYSROOT_DIR=$(SYSROOT) PKG_CONFIG_LIBDIR=$(SYSROOT_LIB)/pkgconfig \
	pkg-config
# the multiarch headers (hwloc's configuration) that the cross compiler
# looks for in /usr/include/aarch64-linux-gnu
override CFLAGS += -idirafter $(SYSROOT)/usr/include/aarch64-linux-gnu
# DT_RPATH, not RUNPATH: it also serves the libraries' own needs (hwloc's libudev)
override LDFLAGS += -Wl,--disable-new-dtags -Wl,-rpath,$(SYSROOT_LIB)
export QEMU_LD_PREFIX := /usr/aarch64-linux-gnu
# shmrun is built for this machine: its event loop is io_uring, which
# qemu-user does not emulate.  The ranks it starts are arm64 programs.
HOST_CC ?= cc
RUN_CC := $(HOST_CC)
RUN_PKG_CONFIG := pkg-config
RUN_LDFLAGS :=
else
RUN_CC = $(CC)
RUN_PKG_CONFIG = $(PKG_CONFIG)
RUN_LDFLAGS = $(LDFLAGS)
endif
pkg_cflags = $(shell $(PKG_CONFIG) --cflags $(1) 2>/dev/null)
pkg_libs = $(shell $(PKG_CONFIG) --libs $(1) 2>/dev/null)
run_pkg_cflags = $(shell $(RUN_PKG_CONFIG) --cflags $(1) 2>/dev/null)
run_pkg_libs = $(shell $(RUN_PKG_CONFIG) --libs $(1) 2>/dev/null)

override CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -MMD -MP \
	-fPIC -fvisibility=hidden -DSHMPI_VERSION='"$(VERSION)"' $(SANFLAGS)
override LDFLAGS += $(SANFLAGS)

LIBDIR := $(BUILD)/lib
BINDIR := $(BUILD)/bin
OBJDIR := $(BUILD)/obj

SHM_SRC := $(wildcard shm/*.c)
# src/hw_mod.c is the hwloc module (src/hw.h), not part of libshmpi.so
HW_MOD_SRC := src/hw_mod.c
LIB_SRC := $(filter-out $(HW_MOD_SRC),$(wildcard src/*.c))
# tools/shmrun/hw_mod.c is shmrun's hwloc module (tools/shmrun/hw.h)
RUN_HW_SRC := tools/shmrun/hw_mod.c
RUN_SRC := $(filter-out $(RUN_HW_SRC),$(wildcard tools/shmrun/*.c))
UNIT_SRC := $(wildcard tests/unit/*.c)
PROG_SRC := $(wildcard tests/progs/*.c)
EXAMPLE_SRC := $(wildcard examples/*.c)

SHM_OBJ := $(SHM_SRC:%.c=$(OBJDIR)/%.o)
LIB_OBJ := $(LIB_SRC:%.c=$(OBJDIR)/%.o)
HW_MOD_OBJ := $(HW_MOD_SRC:%.c=$(OBJDIR)/%.o)
# the static library holds the module and a loader that only hands it out
LIB_A_OBJ := $(filter-out $(OBJDIR)/src/hw.o,$(LIB_OBJ)) $(OBJDIR)/src/hw-static.o \
	$(HW_MOD_OBJ)
# shmrun's objects: in OBJDIR/host when it is built for another machine
RUN_OBJDIR := $(OBJDIR)$(if $(ARCH),/host)
RUN_OBJ := $(RUN_SRC:%.c=$(RUN_OBJDIR)/%.o)
RUN_HW_OBJ := $(RUN_HW_SRC:%.c=$(RUN_OBJDIR)/%.o)
RUN_SHM_OBJ := $(SHM_SRC:%.c=$(RUN_OBJDIR)/%.o)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/unit/%)
PROG_BIN := $(PROG_SRC:tests/progs/%.c=$(BUILD)/tests/progs/%)
EXAMPLE_BIN := $(EXAMPLE_SRC:examples/%.c=$(BUILD)/examples/%)

LIB_A := $(LIBDIR)/libshmpi.a
LIB_SO := $(LIBDIR)/libshmpi.so.$(SOVERSION)
HW_MOD := $(LIBDIR)/shmpi/hw.so
RUN_HW_MOD := $(LIBDIR)/shmpi/shmrun-hw.so
SHMRUN := $(BINDIR)/shmrun
SHMCC := $(BINDIR)/shmcc
SHMCXX := $(BINDIR)/shmcxx

# How MPI programs are linked, in the build tree: the same flags shmcc uses.
MPI_CFLAGS := -Iinclude
MPI_LIBS := -L$(LIBDIR) -Wl,-rpath,$(abspath $(LIBDIR)) -lshmpi

.PHONY: all lib tools tests examples deps demo check check-run install clean

all: lib tools tests examples

lib: $(LIB_A) $(LIB_SO) $(HW_MOD)
tools: $(SHMRUN) $(RUN_HW_MOD) $(SHMCC) $(SHMCXX)
tests: $(UNIT_BIN) $(PROG_BIN)
examples: $(EXAMPLE_BIN)

$(OBJDIR)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) $(CPPFLAGS) -Iinclude -c -o $@ $<

# libshmpi.so needs libc alone; hwloc (bindings report, hardware-guided
# splits) is for its module, loaded on first need (src/hw.h).  A program
# linked with the static library links hwloc too.
HW_LIBS := $(call pkg_libs,hwloc)
LIB_A_LIBS := $(HW_LIBS)
$(HW_MOD_OBJ) $(OBJDIR)/src/hw-static.o: override CFLAGS += $(call pkg_cflags,hwloc)

$(OBJDIR)/src/hw-static.o: src/hw.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(CFLAGS) $(CPPFLAGS) -DSHMPI_HW_STATIC -Iinclude -c -o $@ $<

ifneq ($(ARCH),)
$(RUN_OBJDIR)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $<")
	$(Q)$(RUN_CC) $(CFLAGS) $(CPPFLAGS) -Iinclude -c -o $@ $<
endif

$(RUN_OBJDIR)/tools/shmrun/%.o: override CFLAGS += $(call run_pkg_cflags,liburing hwloc) \
	-DSHMPI_BUILD_CC='"$(CC)"' -DSHMPI_BUILD_SANITIZE='"$(SANITIZE)"'

$(LIB_A): $(LIB_A_OBJ) $(SHM_OBJ)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(LIB_SO): $(LIB_OBJ) $(SHM_OBJ) src/libshmpi.map
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -shared -Wl,-soname,libshmpi.so.$(SOVERSION) -Wl,-z,defs \
		-Wl,--version-script=src/libshmpi.map $(LDFLAGS) -o $@ \
		$(LIB_OBJ) $(SHM_OBJ)
	$(Q)ln -sf libshmpi.so.$(SOVERSION) $(LIBDIR)/libshmpi.so

$(HW_MOD): $(HW_MOD_OBJ)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -shared -Wl,-z,defs $(LDFLAGS) -o $@ $(HW_MOD_OBJ) $(HW_LIBS)

$(SHMRUN): $(RUN_OBJ) $(RUN_SHM_OBJ)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(RUN_CC) $(RUN_LDFLAGS) -o $@ $^ $(call run_pkg_libs,liburing)

# shmrun's hwloc module, loaded when a job binds its ranks or for --info
$(RUN_HW_MOD): $(RUN_HW_OBJ)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(RUN_CC) -shared -Wl,-z,defs $(RUN_LDFLAGS) -o $@ $(RUN_HW_OBJ) \
		$(call run_pkg_libs,hwloc)

# shmcc and shmcxx (one script, for C and for C++) from the build tree point
# at the build tree; `make install` writes others that find PREFIX from
# where they are, so that the installed tree can move.
# make_wrapper: NAME, include dir, lib dir, output
define make_wrapper
	$(Q)sed -e 's|@INCDIR@|$(2)|g' -e 's|@LIBDIR@|$(3)|g' \
	    -e 's|@EXTRA@|$(strip $(SANFLAGS))|g' -e 's|@VERSION@|$(VERSION)|g' \
	    -e 's|@NAME@|$(1)|g' $(if $(filter shmcxx,$(1)),\
	    -e 's|@LANG@|C++|g' -e 's|@LIKE@|mpicxx|g' -e 's|@KNOB@|SHMPI_CXX|g' \
	    -e 's|@CC@|$(CXX)|g',\
	    -e 's|@LANG@|C|g' -e 's|@LIKE@|mpicc|g' -e 's|@KNOB@|SHMPI_CC|g' \
	    -e 's|@CC@|$(CC)|g') tools/shmcc.in > $(4)
	$(Q)chmod 755 $(4)
endef

$(SHMCC) $(SHMCXX): $(BINDIR)/%: tools/shmcc.in Makefile
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  GEN     $@")
	$(call make_wrapper,$*,$(abspath include),$(abspath $(LIBDIR)),$@)

$(BUILD)/tests/unit/%: tests/unit/%.c $(SHM_OBJ)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(CFLAGS) -Iinclude -Ishm $(call pkg_cflags,check) -o $@ $< \
		$(SHM_OBJ) $(LDFLAGS) $(call pkg_libs,check)

$(BUILD)/tests/progs/%: tests/progs/%.c $(LIB_SO) include/mpi.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(CFLAGS) $(MPI_CFLAGS) -o $@ $< $(LDFLAGS) $(MPI_LIBS)

# Examples are built with shmcc, exactly as a user builds a program.
$(BUILD)/examples/%: examples/%.c $(LIB_SO) $(SHMCC) include/mpi.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  SHMCC   $@")
	$(Q)$(SHMCC) -O2 -g -Wall -Wextra -Werror -o $@ $<

deps:
	$(Q)tools/deps $(ARCH)
	$(if $(ARCH),$(Q)tools/sysroot $(ARCH) $(SYSROOT))

demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)tools/demo $(BUILD)

check: deps
	$(Q)$(MAKE) --no-print-directory check-run

check-run: all
	$(Q)SHMPI_SANITIZE=$(SANITIZE) SHMPI_ARCH=$(ARCH) tests/run $(BUILD)

# The installed tree may move (README, "Your own program"): the wrappers find
# PREFIX from their own place, shmrun and the library their modules from
# theirs, and shmpi.pc is for `pkg-config --define-prefix`.  The names build
# systems look for (mpicc; mpicxx, mpic++ and mpiCC, every one, as Meson takes
# the newest version of any it finds on PATH; mpiexec, mpirun) are links in
# lib/shmpi/mpi-bin, outside PATH unless the user puts them there.
MPI_BIN_LINKS := mpicc:shmcc mpicxx:shmcxx mpic++:shmcxx mpiCC:shmcxx mpiexec:shmrun mpirun:shmrun
install: lib tools
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin
	install -m 644 include/mpi.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(LIB_A) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(LIB_SO) $(DESTDIR)$(PREFIX)/lib/
	install -d $(DESTDIR)$(PREFIX)/lib/shmpi $(DESTDIR)$(PREFIX)/lib/shmpi/mpi-bin
	install -m 755 $(HW_MOD) $(RUN_HW_MOD) $(DESTDIR)$(PREFIX)/lib/shmpi/
	ln -sf libshmpi.so.$(SOVERSION) $(DESTDIR)$(PREFIX)/lib/libshmpi.so
	install -m 755 $(SHMRUN) $(DESTDIR)$(PREFIX)/bin/
	$(call make_wrapper,shmcc,$$prefix/include,$$prefix/lib,$(DESTDIR)$(PREFIX)/bin/shmcc)
	$(call make_wrapper,shmcxx,$$prefix/include,$$prefix/lib,$(DESTDIR)$(PREFIX)/bin/shmcxx)
	$(foreach l,$(MPI_BIN_LINKS),ln -sf ../../../bin/$(lastword $(subst :, ,$(l))) \
		$(DESTDIR)$(PREFIX)/lib/shmpi/mpi-bin/$(firstword $(subst :, ,$(l))) &&) true
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' \
		-e 's|@EXTRA@|$(strip $(SANFLAGS))|g' tools/shmpi.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/shmpi.pc

clean:
	rm -rf build build-san build-tsan build-aarch64

# ---- Analysers, fuzzing and stress ---------------------------------------
# make lint     cppcheck + clang-tidy (.clang-tidy, tools/lint.supp) over the tree
.PHONY: lint

lint:
	$(Q)tools/deps lint
	$(Q)tools/lint -- -std=c11 -D_GNU_SOURCE -DSHMPI_VERSION=\"$(VERSION)\" -Iinclude \
		$(call pkg_cflags,liburing)

# make check VALGRIND=1   the unit suites under valgrind's memcheck (tests/memcheck)
VALGRIND ?=
ifeq ($(VALGRIND),1)
ifneq ($(SANITIZE),)
$(error VALGRIND=1 and SANITIZE= do not mix: valgrind cannot run sanitized programs)
endif
export SHMPI_VALGRIND := 1
.PHONY: deps-valgrind
check: deps-valgrind
deps-valgrind:
	$(Q)tools/deps valgrind
endif

# make fuzz     FUZZ_SECONDS (60) of libFuzzer (tests/fuzz/libfuzzer_mpi.c, one
#               rank, built with clang in $(BUILD)-fuzz), then as long of the seeded
#               driver (tests/progs/fuzz_mpi.c) at 8 ranks; FUZZ_SEED=n replays
FUZZ_SECONDS ?= 60
FUZZ_SEED ?=
ifeq ($(FUZZ_SEED),)
override FUZZ_SEED := $(shell od -An -N4 -tu4 /dev/urandom | tr -d ' ')
endif
FUZZ_BUILD := $(BUILD)-fuzz
FUZZER := $(FUZZ_BUILD)/fuzz/libfuzzer_mpi
.PHONY: fuzz

fuzz: deps
	$(Q)tools/deps fuzz
	$(Q)$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=clang CPPFLAGS=-Wno-error \
		SANITIZE=address,undefined,fuzzer-no-link $(FUZZ_BUILD)/lib/libshmpi.a
	@mkdir -p $(FUZZ_BUILD)/fuzz/corpus
	$(Q)clang -O1 -g -std=c11 -D_GNU_SOURCE -Iinclude -Itests/progs \
		-fsanitize=fuzzer,address,undefined -o $(FUZZER) tests/fuzz/libfuzzer_mpi.c \
		$(FUZZ_BUILD)/lib/libshmpi.a $(LIB_A_LIBS) -lpthread
	@echo "fuzz: libFuzzer for $(FUZZ_SECONDS) s, -seed=$(FUZZ_SEED)"
	$(Q)$(FUZZER) -seed=$(FUZZ_SEED) -max_total_time=$(FUZZ_SECONDS) -timeout=20 \
		-print_final_stats=1 -artifact_prefix=$(FUZZ_BUILD)/fuzz/ $(FUZZ_BUILD)/fuzz/corpus
	$(Q)$(MAKE) --no-print-directory all
	@echo "fuzz: fuzz_mpi at 8 ranks for $(FUZZ_SECONDS) s, seed $(FUZZ_SEED)"
	$(Q)$(SHMRUN) -n 8 --timeout $$(($(FUZZ_SECONDS) + 120)) \
		$(BUILD)/tests/progs/fuzz_mpi $(FUZZ_SEED) $(FUZZ_SECONDS)

# make stress   the stress test (tests/progs/stress.c), then the randomized
#               lock test (tests/progs/lock_random.c), each for STRESS_SECONDS
#               (120) at 8 ranks, 16 ranks and 8 ranks under strong progress,
#               then the full RMA conformance matrix (tests/progs/rma_matrix.c)
#               at 2, 3, 8 and 16 ranks, 4 under strong progress and 4 and 8
#               under the adversarial mode, then a job of 1024 ranks
#               (tests/progs/many_ranks.c) with the default channels and with
#               every sender on the shared rings, then transfers of more than
#               2^31 bytes with the large-count calls (tests/progs/large_xfer.c,
#               a skip where memory is short); STRESS_SEED=n replays a seed
STRESS_SECONDS ?= 120
STRESS_SEED ?=
ifeq ($(STRESS_SEED),)
override STRESS_SEED := $(shell od -An -N4 -tu4 /dev/urandom | tr -d ' ')
endif
.PHONY: stress

stress: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)for prog in stress lock_random; do \
	for run in "8 weak" "16 weak" "8 strong"; do set -- $$run; \
		echo "$$prog: -n $$1 --progress=$$2 for $(STRESS_SECONDS) s, seed $(STRESS_SEED)"; \
		$(SHMRUN) -n $$1 --progress=$$2 --timeout $$(($(STRESS_SECONDS) + 120)) \
			$(BUILD)/tests/progs/$$prog $(STRESS_SEED) $(STRESS_SECONDS) || exit 1; \
	done; done
	$(Q)adv=$$(( $(STRESS_SEED) % 100000 + 1 )); \
	for run in "2 weak 0" "3 weak 0" "8 weak 0" "16 weak 0" "4 strong 0" \
		   "4 weak $$adv" "8 strong $$adv"; do set -- $$run; \
		echo "matrix: -n $$1 --progress=$$2, adversarial $$3, seed $(STRESS_SEED)"; \
		$(SHMRUN) -n $$1 --progress=$$2 -x SHMPI_ADVERSARIAL=$$3 --timeout 900 \
			$(BUILD)/tests/progs/rma_matrix -S $(STRESS_SEED) || exit 1; \
	done
	$(Q)for rings in auto 0; do \
		echo "many_ranks: -n 1024, SHMPI_CHANNEL_RINGS=$$rings"; \
		SHMPI_CHANNEL_RINGS=$$rings $(SHMRUN) -n 1024 --timeout 900 \
			$(BUILD)/tests/progs/many_ranks || exit 1; \
	done
	$(Q)for p in weak strong; do \
		echo "large_xfer: -n 2 --progress=$$p"; \
		$(SHMRUN) -n 2 --progress=$$p --timeout 900 $(BUILD)/tests/progs/large_xfer; \
		rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 77 ] || exit 1; \
	done
# ---- end of the analysers, fuzzing and stress --------------------------------

-include $(shell find $(OBJDIR) $(BUILD)/tests $(BUILD)/examples -name '*.d' 2>/dev/null)
include tools/bench/bench.mk
