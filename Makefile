# wavemesh: RTL co-simulation of a message-passing fabric.
#   make          build everything under build/
#   make run      the main job (installs what is missing first)
#   make test     every test (installs what is missing first)
#   make help     every target, one line each
# This file is the table of contents: the tools and flags, the parts of the
# build (mk/, one file a concern, read in this order), and the top-level
# targets, `make test`'s list of steps among them.

# ---------------------------------------------------------------- tools
# Each can be set on the command line: make CC=clang OPT=-O0 ...
CC        ?= gcc
CXX       ?= g++
VERILATOR ?= verilator
IVERILOG  ?= iverilog
YOSYS     ?= yosys
NEXTPNR   ?= nextpnr-ice40
# the RV32IM cross compiler of the firmware
RV_PREFIX ?= riscv64-unknown-elf-
# libFuzzer needs clang
FUZZ_CC   ?= clang
FUZZ_CXX  ?= clang++
BUILD     ?= build
# Where the Verilated models and Verilator's runtime are built: $(BUILD),
# except for make sanitize-undefined, which links the plain ones.
VBUILD    ?= $(BUILD)
# The builds make test starts (the plain one, UBSan's, the fuzzers') use
# every core: `make test` itself runs its steps one after another.
BUILD_JOBS ?= -j$(shell nproc 2>/dev/null || echo 1)

# ---------------------------------------------------------------- flags
# C: strict C11 for everything we write; GNU extensions only for ucontext.
CSTD      := -std=c11 -D_GNU_SOURCE
WARN      := -Wall -Wextra -Wshadow -Werror
OPT       ?= -O2 -g
CPPFLAGS  := -Icsim -Isw -MMD -MP -DBUILD_DIR='"$(BUILD)"'
CFLAGS    := $(CSTD) $(WARN) $(OPT)
# The Verilated C++ is never built at -O0 (10x slower, measured).
VOPT      ?= -O2
CXXFLAGS  := -std=c++17 $(VOPT) -g -MMD -MP
LDLIBS    := -lz -lpthread -lm

VROOT     := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)
VINC      := $(VROOT)/include
# GTKWave's FST library, shipped with Verilator: the sw backend's dump writer.
CPPFLAGS  += -isystem $(VINC)/gtkwave

# ---------------------------------------------------------------- the parts
.DEFAULT_GOAL := all
include mk/deps.mk       # check-tools, deps: the Debian packages
include mk/rtl.mk        # the RTL's sources, modules and parameter sets
include mk/models.mk     # the Verilated models and Verilator's runtime
include mk/params.mk     # test-params, test-rules: other depths with the cores running, same-cycle rules
include mk/firmware.mk   # firmware: every kernel's image for the PE cores
include mk/build.mk      # the host build: libwavemesh, wavemesh, the cmocka tests
include mk/lint.mk       # lint: verilator -Wall and iverilog over every module and top
include mk/checks.mk     # check-layers, check-firmware, check-NAME: the tree's rules
include mk/tests.mk      # run-tests, regress-long: the suites and the random lockstep
include mk/calibrate.mk  # calibrate, check-calibration: the native cost model
include mk/run.mk        # run: the main job
include mk/waves.mk      # waves, view, waves-png, waves-core: GTKWave dumps
include mk/bench.mk      # bench, pictures: the figures of docs/
include mk/synth.mk      # synth, synth-check, test-depths: yosys and nextpnr
include mk/formal.mk     # formal, formal-quick: the proofs
include mk/coverage.mk   # coverage: Verilator's coverage over every test
include mk/mutate.mk     # mutate, mutate-check: the mutation score
include mk/sanitize.mk   # sanitize, sanitize-undefined: ASan and UBSan builds
include mk/fuzz.mk       # fuzz: the libFuzzer harnesses
include mk/install.mk    # install, check-install: bin/ and share/wavemesh under PREFIX
include mk/debug.mk      # check-gdb, debug: GDB on the PE cores
include mk/help.mk       # help, check-help: this list of targets

# ---------------------------------------------------------------- top-level targets
.PHONY: all test clean
all: $(WAVEMESH) $(TEST_BIN) firmware ## build everything under build/ (the default)

# What `make test` runs, in this order, each step a make of its own after the
# one before has passed (or beside it: TEST_BESIDE): adding a check to
# `make test` is adding its name here.
# sanitize-undefined runs the cmocka binaries and regress --quick (built
# with UBSan), so the last step runs the rest of run-tests.
TEST_STEPS := synth-check formal-quick mutate-check test-depths sanitize-undefined fuzz-quick \
              all test-rules test-params-quick mutate-check-classes \
              lint check-layers check-no-exit check-cycles check-docs check-firmware check-help check-calibration check-install check-gdb check-jitter run-tests-scenarios
# A step of TEST_BESIDE runs at the same time as the step before it: each
# of the two is one tool on files of its own (tests/make_test.sh).
TEST_BESIDE := formal-quick test-depths check-layers check-docs
test: check-tools ## every test: the steps of TEST_STEPS (installs what is missing first)
	@sh tests/make_test.sh "$(MAKE)" "$(TEST_STEPS)" "$(TEST_BESIDE)" "$(KEEP_GOING)" "$(BUILD_JOBS)"
# make -k test runs every step, and fails if one did.
KEEP_GOING = $(findstring k,$(firstword -$(MAKEFLAGS)))

clean: ## remove build/
	rm -rf $(BUILD)
