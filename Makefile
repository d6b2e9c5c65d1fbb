# wavemesh: RTL co-simulation of a message-passing fabric.
#   make          build everything under build/
#   make run      the main job (installs what is missing first)
#   make test     every test (installs what is missing first)
#   make lint     verilator -Wall on every module, iverilog -g2005 on mesh.v
#   make bench    the benchmarks behind docs/benchmarks.md
#   make firmware every kernel's image for the PE cores, build/firmware/KERNEL.bin
#   make pictures the heatmaps and latency curves of docs/pictures.md
#   make deps     install the Debian packages the build needs

CC        ?= gcc
CXX       ?= g++
VERILATOR ?= verilator
IVERILOG  ?= iverilog
BUILD     ?= build
# Where the Verilated models and Verilator's runtime are built: $(BUILD),
# except for make sanitize-undefined, which links the plain ones.
VBUILD    ?= $(BUILD)

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

RTL_DIRS  := -Irtl -Irtl/prim -Irtl/core
RTL_SRC   := $(wildcard rtl/*.v rtl/prim/*.v) rtl/lint.vlt
RTL_MODS  := $(wildcard rtl/prim/wm_*.v rtl/wm_*.v rtl/core/wm_*.v)

# Verilator flags, one per line, each for a reason.
VFLAGS    := --cc
VFLAGS    += -Wall                      # lint-clean is the rule
VFLAGS    += --assert                   # run the RTL's assertions in every test
VFLAGS    += +define+WM_ASSERTIONS      # ... which live under this define
VFLAGS    += -O3                        # Verilator's own optimisations
VFLAGS    += --x-assign fast
VFLAGS    += $(RTL_DIRS)

DEPS_PKGS := verilator iverilog libcmocka-dev gtkwave zlib1g-dev xvfb x11-utils imagemagick bc \
             gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf \
             yosys nextpnr-ice40 fpga-icestorm gnuplot-nox z3 clang

# ---------------------------------------------------------------- sources
CSIM_C    := $(filter-out csim/cli/main.c,$(shell find csim -name '*.c'))
# sw/rv32 is the core's runtime: firmware only, never linked into the host.
SW_C      := $(shell find sw -path sw/rv32 -prune -o -name '*.c' -print 2>/dev/null)
LIB_C     := $(CSIM_C) $(SW_C)
LIB_O     := $(LIB_C:%.c=$(BUILD)/obj/%.o)
SHIM_CPP  := $(wildcard csim/fabric/*.cpp)
SHIM_O    := $(SHIM_CPP:%.cpp=$(BUILD)/obj/%.o)
TEST_C    := $(wildcard tests/test_*.c)
TEST_BIN  := $(TEST_C:tests/%.c=$(BUILD)/tests/%)

VTILE_DIR := $(VBUILD)/vtile
VTILE_LIB := $(VTILE_DIR)/Vwm_tile__ALL.a
# Traced tile variants, picked at run time: a model built with tracing is
# slower even when it dumps nothing, and FST and VCD need two models.
VTILE_TRACED := $(VBUILD)/vtile_fst/Vwm_tile_fst__ALL.a $(VBUILD)/vtile_vcd/Vwm_tile_vcd__ALL.a
VMESH_DIR := $(VBUILD)/vmesh
VMESH_LIB := $(VMESH_DIR)/Vwm_mesh__ALL.a
# The Verilated mesh is for the cross-check only: one small, non-square size.
VMESH_W   := 4
VMESH_H   := 3
VRT_SRC   := verilated.cpp verilated_threads.cpp verilated_fst_c.cpp verilated_vcd_c.cpp
VRT_O     := $(VRT_SRC:%.cpp=$(VBUILD)/vrt/%.o)

WAVEMESH  := $(BUILD)/wavemesh
LIBWM     := $(BUILD)/libwavemesh.a

.PHONY: all run test lint bench deps clean check-tools
all: $(WAVEMESH) $(TEST_BIN) firmware

# ---------------------------------------------------------------- deps
# Install the Debian packages when a tool is missing (root on CI and here).
check-tools:
	@missing=""; \
	command -v $(VERILATOR) >/dev/null || missing="$$missing verilator"; \
	command -v $(IVERILOG) >/dev/null || missing="$$missing iverilog"; \
	[ -f /usr/include/cmocka.h ] || missing="$$missing libcmocka-dev"; \
	command -v gtkwave >/dev/null || missing="$$missing gtkwave"; \
	[ -f /usr/include/zlib.h ] || missing="$$missing zlib1g-dev"; \
	command -v xvfb-run >/dev/null || missing="$$missing xvfb"; \
	command -v xwininfo >/dev/null || missing="$$missing x11-utils"; \
	command -v bc >/dev/null || missing="$$missing bc"; \
	command -v $(RV_CC) >/dev/null || missing="$$missing gcc-riscv64-unknown-elf"; \
	command -v $(RV_OBJCOPY) >/dev/null || missing="$$missing binutils-riscv64-unknown-elf"; \
	command -v yosys >/dev/null || missing="$$missing yosys"; \
	command -v nextpnr-ice40 >/dev/null || missing="$$missing nextpnr-ice40"; \
	command -v icepack >/dev/null || missing="$$missing fpga-icestorm"; \
	command -v gnuplot >/dev/null || missing="$$missing gnuplot-nox"; \
	command -v z3 >/dev/null || missing="$$missing z3"; \
	command -v clang >/dev/null || missing="$$missing clang"; \
	if [ -n "$$missing" ]; then echo "wavemesh: installing:$$missing"; $(MAKE) --no-print-directory deps; fi

deps:
	@if [ "$$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi; \
	$$SUDO apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $(DEPS_PKGS)

# ---------------------------------------------------------------- RTL models
$(VTILE_LIB): $(RTL_SRC)
	@mkdir -p $(VTILE_DIR)
	$(VERILATOR) $(VFLAGS) --Mdir $(VTILE_DIR) --prefix Vwm_tile --top-module wm_tile \
	    rtl/lint.vlt rtl/wm_tile.v
	$(MAKE) --no-print-directory -C $(VTILE_DIR) -f Vwm_tile.mk OPT_FAST="$(VOPT)" OPT_SLOW="$(VOPT)" \
	    CXX="$(CXX)" Vwm_tile__ALL.a >/dev/null

$(VBUILD)/vtile_fst/Vwm_tile_fst__ALL.a: TRACE_FLAG := --trace-fst
$(VBUILD)/vtile_vcd/Vwm_tile_vcd__ALL.a: TRACE_FLAG := --trace
$(VTILE_TRACED): $(RTL_SRC)
	@mkdir -p $(@D)
	$(VERILATOR) $(VFLAGS) $(TRACE_FLAG) --Mdir $(@D) --prefix $(subst vtile,Vwm_tile,$(notdir $(@D))) \
	    --top-module wm_tile rtl/lint.vlt rtl/wm_tile.v
	$(MAKE) --no-print-directory -C $(@D) -f $(subst vtile,Vwm_tile,$(notdir $(@D))).mk OPT_FAST="$(VOPT)" \
	    OPT_SLOW="$(VOPT)" CXX="$(CXX)" $(notdir $@) >/dev/null

$(VMESH_LIB): $(RTL_SRC)
	@mkdir -p $(VMESH_DIR)
	$(VERILATOR) $(VFLAGS) --Mdir $(VMESH_DIR) --prefix Vwm_mesh --top-module wm_mesh \
	    -GW=$(VMESH_W) -GH=$(VMESH_H) rtl/lint.vlt rtl/mesh.v
	$(MAKE) --no-print-directory -C $(VMESH_DIR) -f Vwm_mesh.mk OPT_FAST="$(VOPT)" OPT_SLOW="$(VOPT)" \
	    CXX="$(CXX)" Vwm_mesh__ALL.a >/dev/null

$(VBUILD)/vrt/%.o: $(VINC)/%.cpp
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -I$(VINC) -I$(VINC)/vltstd -c $< -o $@

# ---------------------------------------------------------------- C and shim
$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/csim/fabric/%.o: csim/fabric/%.cpp $(VTILE_LIB) $(VTILE_TRACED) $(VMESH_LIB)
	@mkdir -p $(@D)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) -Wall -Wextra -Werror -isystem $(VINC) -isystem $(VINC)/vltstd \
	    -isystem $(VTILE_DIR) -isystem $(VBUILD)/vtile_fst -isystem $(VBUILD)/vtile_vcd \
	    -isystem $(VMESH_DIR) $(VTILECORE_INC) -DWM_VMESH_W=$(VMESH_W) -DWM_VMESH_H=$(VMESH_H) -c $< -o $@

$(LIBWM): $(LIB_O) $(SHIM_O)
	@rm -f $@
	ar rcs $@ $^

MODEL_LIBS  = $(LIBWM) $(CORE_LIBS) $(VTILECORE_LIBS) $(VTILE_LIB) $(VTILE_TRACED) $(VMESH_LIB) $(VRT_O)

$(WAVEMESH): $(BUILD)/obj/csim/cli/main.o $(MODEL_LIBS)
	$(CXX) -o $@ $< $(MODEL_LIBS) $(LDLIBS)

$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(MODEL_LIBS)
	@mkdir -p $(@D)
	$(CXX) -o $@ $< $(MODEL_LIBS) -lcmocka $(LDLIBS)

# ---------------------------------------------------------------- jobs
lint: check-tools
	@for m in $(RTL_MODS); do \
	    echo "verilator --lint-only -Wall $$m"; \
	    $(VERILATOR) --lint-only -Wall +define+WM_ASSERTIONS $(RTL_DIRS) rtl/lint.vlt $$m || exit 1; \
	done
	$(VERILATOR) --lint-only -Wall +define+WM_ASSERTIONS $(RTL_DIRS) rtl/lint.vlt --top-module wm_mesh rtl/mesh.v
	$(IVERILOG) -g2005 -DWM_ASSERTIONS -Irtl -o $(BUILD)/mesh.vvp rtl/mesh.v $(RTL_MODS)
	@echo "lint: clean"

# Each cmocka binary exits with its number of failed tests; its report
# goes to stderr, so it is captured with 2>&1.
test: check-tools
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory lint
	@$(MAKE) --no-print-directory check-layers
	@$(MAKE) --no-print-directory check-firmware
	@$(MAKE) --no-print-directory check-calibration
	@$(MAKE) --no-print-directory run-tests

# The cmocka binaries and regress --quick, as built (make sanitize runs
# them built with the sanitizers).
.PHONY: run-tests
run-tests:
	@pass=0; fail=0; \
	for t in $(TEST_BIN); do \
	    echo "== $$t"; \
	    if $$t 2>&1; then pass=$$((pass+1)); else fail=$$((fail+1)); echo "FAILED: $$t"; fi; \
	done; \
	echo "== $(WAVEMESH) regress --quick"; \
	if $(WAVEMESH) regress --quick; then pass=$$((pass+1)); else fail=$$((fail+1)); echo "FAILED: regress --quick"; fi; \
	echo "== $(WAVEMESH) $(RANDOM_TEST_ARGS) (each line in $(BUILD)/regress-random.log)"; \
	if $(WAVEMESH) $(RANDOM_TEST_ARGS) --log $(BUILD)/regress-random.log; then pass=$$((pass+1)); \
	else fail=$$((fail+1)); echo "FAILED: regress --random"; fi; \
	echo "== sh tests/check_coverage_report.sh"; \
	if sh tests/check_coverage_report.sh; then pass=$$((pass+1)); \
	else fail=$$((fail+1)); echo "FAILED: check_coverage_report.sh"; fi; \
	echo "== sh tests/check_random_shrink.sh"; \
	if sh tests/check_random_shrink.sh $(WAVEMESH); then pass=$$((pass+1)); \
	else fail=$$((fail+1)); echo "FAILED: check_random_shrink.sh"; fi; \
	echo "test binaries: $$pass passed, $$fail failed"; \
	[ $$fail -eq 0 ]

# Constrained-random lockstep (docs/verification.md): `make test` runs a
# few hundred small scenarios; `make regress-long` ten thousand over every
# shape up to 32x32, one process per scenario, JOBS at a time, each line in
# $(BUILD)/regress-long.log, failures and the summary on the terminal.
RANDOM_TEST_ARGS := regress --random 400 --seed 1 --max-side 16 --max-core-side 4 --jobs 2
RANDOM_LONG_N    ?= 10000
RANDOM_SEED      ?= 1
JOBS             ?= 2
.PHONY: regress-long
regress-long: check-tools
	@$(MAKE) --no-print-directory $(WAVEMESH) firmware
	$(WAVEMESH) regress --random $(RANDOM_LONG_N) --seed $(RANDOM_SEED) --jobs $(JOBS) --progress \
	    --log $(BUILD)/regress-long.log

# The layer rule of csim/README.md, and proof that the check fires: a copy
# of csim/ with one upward include must be refused.
.PHONY: check-layers
check-layers:
	@sh tests/check_layers.sh .
	@rm -rf $(BUILD)/layers-fault && mkdir -p $(BUILD)/layers-fault && cp -r csim $(BUILD)/layers-fault/
	@echo '#include "cli/commands.h"' >> $(BUILD)/layers-fault/csim/fabric/fabric_backend.c
	@if sh tests/check_layers.sh $(BUILD)/layers-fault >/dev/null; then \
	    echo "check-layers: an upward include went unnoticed"; exit 1; fi

# Firmware is freestanding C that sees only sw/mp.h and its PE's memory
# (docs/pe-memory.md); and the check fires: a kernel that calls malloc is
# refused.
.PHONY: check-firmware
check-firmware:
	@CC=$(CC) sh tests/check_firmware.sh . $(BUILD)/freestanding
	@rm -rf $(BUILD)/firmware-fault && mkdir -p $(BUILD)/firmware-fault && cp -r sw $(BUILD)/firmware-fault/
	@printf 'void *malloc(unsigned long n);\nvoid *wm_leaf_scratch(void) { return malloc(64); }\n' \
	    >> $(BUILD)/firmware-fault/sw/collectives/leaf.c
	@if CC=$(CC) sh tests/check_firmware.sh $(BUILD)/firmware-fault $(BUILD)/firmware-fault/obj >/dev/null; then \
	    echo "check-firmware: a kernel calling malloc went unnoticed"; exit 1; fi

# The main job: the seed's tutorial and tworow rows (and the exercises) on
# both backends, each PASS line followed by its per-leaf cycles table; then
# the two seed rows dumped for GTKWave from each backend and compared.
SEED_TUTORIAL := --set SHAPE=0 --set V0=10 --set V1=20 --set V2=30 --set V3=40
SEED_TWOROW   := --set SHAPE=1 --set V0=7 --set V1=300 --set V2=0 --set V3=5
run: check-tools
	@$(MAKE) --no-print-directory $(WAVEMESH) firmware
	@echo "== the seed's rows, kernels native (host coroutines, the cost model of sw/mp.h)"
	@$(WAVEMESH) rows sw/collectives/test.rows --backend rtl --backend sw --cycles
	@echo "== the same rows, each kernel's firmware on its tile's RV32IM core (--pe core)"
	@$(WAVEMESH) rows sw/collectives/test.rows --backend rtl --backend sw --pe core --cycles
	@echo "== the seed's cycles.py (its cores: 31 cycles a message at the sender)"
	@printf 'leaf        l0    l1    l2    l3\ntutorial   222   231   231   236\ntworow     210   224   228   236\n'
	@echo "== exercise 1 (IGNORE_TAG=1: arrival order taken as tree order) fails as the seed says:"
	@echo "   tutorial l1 gets 20 (not 10), tworow l3 gets 312 (not 307)"
	@for pe in native core; do for b in rtl sw; do \
	    printf '%-6s %-3s tutorial: ' $$pe $$b; \
	    $(WAVEMESH) run sw/collectives/bench.layout --backend $$b --pe $$pe $(SEED_TUTORIAL) --set IGNORE_TAG=1 \
	        | grep '^l1.excl' | tr '\n' ' '; \
	    printf ' tworow: '; \
	    $(WAVEMESH) run sw/collectives/bench.layout --backend $$b --pe $$pe $(SEED_TWOROW) --set IGNORE_TAG=1 \
	        | grep '^l3.excl'; \
	done; done
	@mkdir -p $(BUILD)/waves
	@for row in tutorial tworow; do \
	    if [ $$row = tutorial ]; then set -- $(SEED_TUTORIAL); else set -- $(SEED_TWOROW); fi; \
	    for b in rtl sw; do \
	        $(WAVEMESH) run sw/collectives/bench.layout --backend $$b "$$@" \
	            --trace $(BUILD)/waves/$$row-$$b.fst | grep '^waves:' || exit 1; \
	    done; \
	    printf '%s, rtl against sw: ' $$row; \
	    $(WAVEMESH) wavediff $(BUILD)/waves/$$row-rtl.fst $(BUILD)/waves/$$row-sw.fst || exit 1; \
	done
	@for row in tutorial tworow; do \
	    if [ $$row = tutorial ]; then set -- $(SEED_TUTORIAL); else set -- $(SEED_TWOROW); fi; \
	    for b in rtl sw; do \
	        $(WAVEMESH) run sw/collectives/bench.layout --backend $$b --pe core "$$@" \
	            --trace $(BUILD)/waves/$$row-core-$$b.fst | grep '^waves:' || exit 1; \
	    done; \
	    printf '%s --pe core, rtl against sw: ' $$row; \
	    $(WAVEMESH) wavediff $(BUILD)/waves/$$row-core-rtl.fst $(BUILD)/waves/$$row-core-sw.fst || exit 1; \
	done

# Waves of one seed row (TEST=tutorial or tworow) from both backends, with
# their save files; `view` opens the rtl one in GTKWave; `waves-png` makes
# the screenshots of docs/waves.md headless (xvfb-run).
TEST      ?= tutorial
WAVES_DIR := $(BUILD)/waves
# The rows of sw/collectives/test.rows on bench.layout, with their settings;
# any other TEST is refused rather than dumped under its name.
WAVES_TESTS := tutorial tworow compact
WAVES_SET := $(if $(filter tworow,$(TEST)),--set SHAPE=1 --set V0=7 --set V1=300 --set V2=0 --set V3=5,\
             $(if $(filter compact,$(TEST)),--set SHAPE=2,--set SHAPE=0))
.PHONY: waves view waves-png waves-test-check
waves-test-check:
	@case " $(WAVES_TESTS) " in *" $(TEST) "*) ;; \
	    *) echo "make: TEST=$(TEST) is not a row of sw/collectives/bench.layout (TEST=tutorial, tworow or compact)" >&2; \
	       exit 2;; esac
waves waves-core: waves-test-check
waves: check-tools
	@$(MAKE) --no-print-directory $(WAVEMESH)
	@mkdir -p $(WAVES_DIR)
	@for b in rtl sw; do \
	    $(WAVEMESH) run sw/collectives/bench.layout --backend $$b $(WAVES_SET) \
	        --trace $(WAVES_DIR)/$(TEST)-$$b.fst | grep '^waves:' || exit 1; \
	done
	@$(WAVEMESH) wavediff $(WAVES_DIR)/$(TEST)-rtl.fst $(WAVES_DIR)/$(TEST)-sw.fst

# GTKWave runs on in the background; one that cannot start (no display,
# not installed) is reported, with a non-zero exit: a GTKWave that started
# does not end on its own within two seconds.
view: waves
	@if [ -z "$$DISPLAY" ]; then echo "make view: no DISPLAY, GTKWave needs one (make waves-png makes screenshots without)" >&2; \
	    exit 1; fi
	@gtkwave -a $(WAVES_DIR)/$(TEST)-rtl.gtkw $(WAVES_DIR)/$(TEST)-rtl.fst & pid=$$!; sleep 2; \
	if ! kill -0 $$pid 2>/dev/null; then wait $$pid; \
	    echo "make view: GTKWave could not start (exit $$?; DISPLAY=$$DISPLAY)" >&2; exit 1; fi

waves-png:
	@$(MAKE) --no-print-directory waves TEST=tutorial
	@$(MAKE) --no-print-directory waves TEST=tworow
	@mkdir -p docs/img
	sh waves/screenshot.sh waves/tutorial-compact.gtkw $(WAVES_DIR)/tutorial-rtl.fst 0 400 docs/img/tutorial-upsweep.png 1920x1080
	sh waves/screenshot.sh waves/tutorial-compact.gtkw $(WAVES_DIR)/tutorial-rtl.fst 500 860 docs/img/tutorial-downsweep.png 1920x1080
	sh waves/screenshot.sh waves/tworow-compact.gtkw $(WAVES_DIR)/tworow-rtl.fst 0 860 docs/img/tworow-compact.png 1920x1080

# The pictures of docs/pictures.md: link use per phase of the seed's
# placements and of the all-reduce (wavemesh heatmap), per crystal-router
# stage of the 32x32 gslib plan (gs --heatmap), and the latency against
# throughput curves of traffic sweeps (docs/bench/latency.sh).
.PHONY: pictures
pictures: check-tools
	@$(MAKE) --no-print-directory $(WAVEMESH)
	@mkdir -p docs/img
	@for s in 0:tutorial 1:tworow 2:compact; do \
	    $(WAVEMESH) heatmap sw/collectives/bench.layout --set SHAPE=$${s%%:*} -o docs/img/heatmap-$${s#*:} || exit 1; \
	done
	@$(WAVEMESH) heatmap sw/collectives/allreduce.layout --split c -o docs/img/heatmap-allreduce
	@$(WAVEMESH) gs --ranks 32x32 --schedule grid --dofs 4 --method plan --pairing gslib --order snake \
	    --heatmap docs/img/heatmap-gs32-plan | grep '^stage\|^heatmap\|^reference'
	@WAVEMESH=$(WAVEMESH) sh docs/bench/latency.sh > $(BUILD)/latency.md && echo "latency table: $(BUILD)/latency.md"

bench: check-tools
	@$(MAKE) --no-print-directory $(WAVEMESH)
	@for b in docs/bench/*.sh; do echo "== $$b"; WAVEMESH=$(WAVEMESH) sh $$b || exit 1; done

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# ---------------------------------------------------------------- the PE core
# rtl/core/ Verilated alone (the reference of the ISS) and its C++ shim.
VCORE_DIR := $(VBUILD)/vcore
VCORE_LIB := $(VCORE_DIR)/Vwm_core_top__ALL.a
CORE_RTL  := $(wildcard rtl/core/*.v) rtl/lint.vlt
CORE_O    := $(BUILD)/obj/csim/core/core_rtl.o
CORE_LIBS := $(BUILD)/libwmcore.a $(VCORE_LIB)

$(VCORE_LIB): $(CORE_RTL)
	@mkdir -p $(VCORE_DIR)
	$(VERILATOR) $(VFLAGS) -Irtl/core --Mdir $(VCORE_DIR) --prefix Vwm_core_top --top-module wm_core_top \
	    rtl/lint.vlt rtl/core/wm_core_top.v
	$(MAKE) --no-print-directory -C $(VCORE_DIR) -f Vwm_core_top.mk OPT_FAST="$(VOPT)" OPT_SLOW="$(VOPT)" \
	    CXX="$(CXX)" Vwm_core_top__ALL.a >/dev/null

# Its own rule: the shim needs the core model only, not the tile models.
$(CORE_O): csim/core/core_rtl.cpp $(VCORE_LIB)
	@mkdir -p $(@D)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) -Wall -Wextra -Werror -isystem $(VINC) -isystem $(VINC)/vltstd \
	    -isystem $(VCORE_DIR) -c $< -o $@

$(BUILD)/libwmcore.a: $(CORE_O)
	@rm -f $@
	ar rcs $@ $^

# MODEL_LIBS is expanded in the link rules' prerequisites before this
# section is read: name the core's archives there explicitly.
$(WAVEMESH) $(TEST_BIN): $(CORE_LIBS)
# ---------------------------------------------------------------- end of the PE core

# ---------------------------------------------------------------- firmware for the PE cores
# Every kernel of sw/kernels.c compiled for the core (docs/core.md, "The PE
# image"): one image a kernel, crt0 + sw/rv32's runtime + the kernel and
# what it calls (--gc-sections drops the rest), linked by sw/rv32/link.ld
# at address 0. KERNEL.elf for objdump and the waves' disassembler,
# KERNEL.bin the bytes the loader writes into the tile's RAM.
RV_PREFIX  ?= riscv64-unknown-elf-
RV_CC      := $(RV_PREFIX)gcc
RV_OBJCOPY := $(RV_PREFIX)objcopy
RV_CFLAGS  := -std=c11 -march=rv32im -mabi=ilp32 -O2 -ffreestanding -fno-builtin -nostdlib -nostartfiles \
              -fno-tree-loop-distribute-patterns -msmall-data-limit=8 -ffunction-sections -fdata-sections \
              $(WARN) -Isw -MMD -MP
RV_LDFLAGS := -march=rv32im -mabi=ilp32 -nostdlib -nostartfiles -Wl,-T,sw/rv32/link.ld -Wl,--gc-sections
FW_DIR     := $(BUILD)/firmware
FW_KERNELS := leaf node chain allreduce gs stream msgcost calib gscalib gsglue
# The kernels' sources and the runtime; kernels.c (the host's registry)
# and start.c (compiled once per kernel) are not shared objects.
FW_SRC     := $(filter-out sw/kernels.c sw/rv32/start.c,$(shell find sw -name '*.c'))
FW_OBJ     := $(FW_SRC:%.c=$(FW_DIR)/obj/%.o)
FW_BIN     := $(FW_KERNELS:%=$(FW_DIR)/%.bin)

.PHONY: firmware
firmware: $(FW_BIN)

# The loader finds the images by an absolute path, so the tools work from
# any folder.
$(BUILD)/obj/csim/run/core_image.o: CPPFLAGS += -DWM_FIRMWARE_DIR='"$(abspath $(FW_DIR))"'
# The regression's corpus names layouts of sw/: opened from the source tree
# by its absolute path, so that regress runs from any folder.
$(BUILD)/obj/csim/regress/collectives_regress.o: CPPFLAGS += -DWM_SOURCE_DIR='"$(abspath .)"'


$(FW_DIR)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(RV_CC) $(RV_CFLAGS) -c $< -o $@

# The gscalib and gsglue kernels link the gs library besides their own
# timing code; that code only reads the timestamp around library calls
# (compiled -O2 like every kernel), so it is compiled for size to fit.
$(FW_DIR)/obj/sw/gs/calib.o $(FW_DIR)/obj/sw/gs/calib_glue.o: RV_CFLAGS += -Os

$(FW_DIR)/obj/crt0.o: sw/rv32/crt0.S
	@mkdir -p $(@D)
	$(RV_CC) -march=rv32im -mabi=ilp32 -c $< -o $@

$(FW_DIR)/obj/start_%.o: sw/rv32/start.c
	@mkdir -p $(@D)
	$(RV_CC) $(RV_CFLAGS) -DWM_FW_KERNEL=wm_kernel_$* -c $< -o $@

$(FW_DIR)/%.elf: $(FW_DIR)/obj/crt0.o $(FW_DIR)/obj/start_%.o $(FW_OBJ) sw/rv32/link.ld
	$(RV_CC) $(RV_LDFLAGS) -o $@ $(FW_DIR)/obj/crt0.o $(FW_DIR)/obj/start_$*.o $(FW_OBJ) -lgcc

$(FW_DIR)/%.bin: $(FW_DIR)/%.elf
	$(RV_OBJCOPY) -O binary $< $@

# The objects stay for incremental builds; the .elf for objdump.
.SECONDARY: $(FW_OBJ) $(FW_KERNELS:%=$(FW_DIR)/obj/start_%.o) $(FW_DIR)/obj/crt0.o $(FW_KERNELS:%=$(FW_DIR)/%.elf)
-include $(wildcard $(FW_DIR)/obj/*.d $(FW_DIR)/obj/*/*.d $(FW_DIR)/obj/*/*/*.d)

# The native mode's charges, measured on the cores: `calibrate` rewrites
# sw/cost_model.h; `make test` checks that it is up to date.
.PHONY: calibrate check-calibration
# The methods' own charges are what the cores take beyond the native
# mode's other charges, measured with the table built in: a new table is
# built and measured again until it measures itself (two or three rounds).
calibrate: $(WAVEMESH) firmware
	@for round in 1 2 3 4; do \
	    $(WAVEMESH) calibrate --write sw/cost_model.h >/dev/null || exit 1; \
	    $(MAKE) --no-print-directory $(WAVEMESH) >/dev/null || exit 1; \
	    if $(WAVEMESH) calibrate --check >/dev/null 2>&1; then \
	        echo "calibrate: sw/cost_model.h measures itself after $$round round(s)"; exit 0; fi; \
	done; echo "calibrate: sw/cost_model.h did not settle in 4 rounds" >&2; exit 1
check-calibration: $(WAVEMESH) firmware
	@$(WAVEMESH) calibrate --check >/dev/null
# ---------------------------------------------------------------- end of firmware

# ---------------------------------------------------------------- tile with the PE core
# rtl/wm_tile_core.v: wm_tile with wm_core and its RAM, the tile of a fabric
# made by create_cores. Verilated three times like the bare tile (no trace,
# FST, VCD), each a model of its own, so a fabric of bare tiles links them
# but never runs them.
VTILECORE_DIR    := $(VBUILD)/vtilecore
VTILECORE_LIB    := $(VTILECORE_DIR)/Vwm_tile_core__ALL.a
VTILECORE_TRACED := $(VBUILD)/vtilecore_fst/Vwm_tile_core_fst__ALL.a $(VBUILD)/vtilecore_vcd/Vwm_tile_core_vcd__ALL.a
VTILECORE_LIBS   := $(VTILECORE_LIB) $(VTILECORE_TRACED)
VTILECORE_INC    := -isystem $(VTILECORE_DIR) -isystem $(VBUILD)/vtilecore_fst -isystem $(VBUILD)/vtilecore_vcd
VTILECORE_SRC    := $(RTL_SRC) $(CORE_RTL)

$(VTILECORE_LIB): $(VTILECORE_SRC)
	@mkdir -p $(VTILECORE_DIR)
	$(VERILATOR) $(VFLAGS) --Mdir $(VTILECORE_DIR) --prefix Vwm_tile_core --top-module wm_tile_core \
	    rtl/lint.vlt rtl/wm_tile_core.v
	$(MAKE) --no-print-directory -C $(VTILECORE_DIR) -f Vwm_tile_core.mk OPT_FAST="$(VOPT)" OPT_SLOW="$(VOPT)" \
	    CXX="$(CXX)" Vwm_tile_core__ALL.a >/dev/null

$(VBUILD)/vtilecore_fst/Vwm_tile_core_fst__ALL.a: TRACE_FLAG := --trace-fst
$(VBUILD)/vtilecore_vcd/Vwm_tile_core_vcd__ALL.a: TRACE_FLAG := --trace
$(VTILECORE_TRACED): $(VTILECORE_SRC)
	@mkdir -p $(@D)
	$(VERILATOR) $(VFLAGS) $(TRACE_FLAG) --Mdir $(@D) --prefix $(subst vtilecore,Vwm_tile_core,$(notdir $(@D))) \
	    --top-module wm_tile_core rtl/lint.vlt rtl/wm_tile_core.v
	$(MAKE) --no-print-directory -C $(@D) -f $(subst vtilecore,Vwm_tile_core,$(notdir $(@D))).mk OPT_FAST="$(VOPT)" \
	    OPT_SLOW="$(VOPT)" CXX="$(CXX)" $(notdir $@) >/dev/null

# The shim's pattern rule and the link rules name their prerequisites before
# this section is read: add these models to them here. VTILECORE_INC and
# MODEL_LIBS are expanded only when their recipes run.
$(BUILD)/obj/csim/fabric/fabric_rtl.o: $(VTILECORE_LIBS)
$(WAVEMESH) $(TEST_BIN): $(VTILECORE_LIBS)
# ---------------------------------------------------------------- end of the tile with the PE core

# ---------------------------------------------------------------- rtl/mesh.v with PE cores
# The cross-check of the tiles with cores (tests/test_icarus.c): rtl/mesh.v
# with CORES=1 Verilated as the rtl-mesh backend's create_cores
# (csim/fabric/fabric_vmesh.cpp), at its own fixed size, the 4x2 of the
# seed's tworow placement; Icarus runs the same mesh from $readmemh images.
# `lint` checks it both ways, with and without INIT_PREFIX's file names.
VMESHCORE_DIR := $(VBUILD)/vmeshcore
VMESHCORE_LIB := $(VMESHCORE_DIR)/Vwm_mesh_core__ALL.a
VMESH_CORE_W  := 4
VMESH_CORE_H  := 2

$(VMESHCORE_LIB): $(RTL_SRC) $(CORE_RTL)
	@mkdir -p $(VMESHCORE_DIR)
	$(VERILATOR) $(VFLAGS) --Mdir $(VMESHCORE_DIR) --prefix Vwm_mesh_core --top-module wm_mesh \
	    -GW=$(VMESH_CORE_W) -GH=$(VMESH_CORE_H) -GCORES=1 rtl/lint.vlt rtl/mesh.v
	$(MAKE) --no-print-directory -C $(VMESHCORE_DIR) -f Vwm_mesh_core.mk OPT_FAST="$(VOPT)" OPT_SLOW="$(VOPT)" \
	    CXX="$(CXX)" Vwm_mesh_core__ALL.a >/dev/null

# The shim's pattern rule and the link rules name their prerequisites before
# this section is read: add the model to them here (MODEL_LIBS is expanded
# only when the link recipes run).
$(BUILD)/obj/csim/fabric/fabric_vmesh.o: $(VMESHCORE_LIB)
$(BUILD)/obj/csim/fabric/fabric_vmesh.o: CPPFLAGS += -isystem $(VMESHCORE_DIR) \
    -DWM_VMESH_CORE_W=$(VMESH_CORE_W) -DWM_VMESH_CORE_H=$(VMESH_CORE_H)
$(WAVEMESH) $(TEST_BIN): $(VMESHCORE_LIB)
MODEL_LIBS += $(VMESHCORE_LIB)

.PHONY: lint-mesh-cores
lint: lint-mesh-cores
lint-mesh-cores: check-tools
	$(VERILATOR) --lint-only -Wall +define+WM_ASSERTIONS $(RTL_DIRS) rtl/lint.vlt --top-module wm_mesh \
	    -GW=$(VMESH_CORE_W) -GH=$(VMESH_CORE_H) -GCORES=1 rtl/mesh.v
	$(VERILATOR) --lint-only -Wall +define+WM_ASSERTIONS $(RTL_DIRS) rtl/lint.vlt --top-module wm_mesh \
	    -GW=$(VMESH_CORE_W) -GH=$(VMESH_CORE_H) -GCORES=1 '-GINIT_PREFIX="mesh"' rtl/mesh.v
	@mkdir -p $(BUILD)
	$(IVERILOG) -g2005 -DWM_ASSERTIONS -Irtl -Pwm_mesh.W=$(VMESH_CORE_W) -Pwm_mesh.H=$(VMESH_CORE_H) \
	    -Pwm_mesh.CORES=1 -o $(BUILD)/mesh_core.vvp rtl/mesh.v $(RTL_MODS)
# ---------------------------------------------------------------- end of rtl/mesh.v with PE cores

# ---------------------------------------------------------------- waves of the cores
# A dump of a run with --pe core gets, next to its save file, filters that
# disassemble its cores' instructions and name their PCs
# (csim/waves/waves_fw.c), from build/firmware/KERNEL.elf: the folder the
# loader reads, by an absolute path, so that the tools work from any folder.
# `waves-core` is `waves` for the cores: build/waves/TEST-core-{rtl,sw}.fst,
# their save files and their wavediff; waves/TEST-core.gtkw is made from it
# (docs/waves.md).
$(BUILD)/obj/csim/waves/waves_fw.o: CPPFLAGS += -DWM_FIRMWARE_DIR='"$(abspath $(FW_DIR))"'

.PHONY: waves-core
waves-core: check-tools
	@$(MAKE) --no-print-directory $(WAVEMESH) firmware
	@mkdir -p $(WAVES_DIR)
	@for b in rtl sw; do \
	    $(WAVEMESH) run sw/collectives/bench.layout --backend $$b --pe core $(WAVES_SET) \
	        --trace $(WAVES_DIR)/$(TEST)-core-$$b.fst | grep '^waves:' || exit 1; \
	done
	@$(WAVEMESH) wavediff $(WAVES_DIR)/$(TEST)-core-rtl.fst $(WAVES_DIR)/$(TEST)-core-sw.fst
# ---------------------------------------------------------------- end of waves of the cores

# ---------------------------------------------------------------- FPGA: synthesis, place and route
# docs/fpga.md. yosys, nextpnr-ice40 and fpga-icestorm come from Debian
# (DEPS_PKGS, check-tools). Every yosys run fails on any warning (-e), on an
# inferred latch and on a net with two drivers (rtl/synth/checks.ys).
#   synth-check  (make test, about 30 s) yosys's generic synthesis at the
#                default depths and at DEPTHS2: the tile down to gates, the
#                tile with core and a 2x2 mesh to word-level cells (the
#                checks are done by then; the core's multiplier alone takes
#                half a minute to map to gates)
#   lint-depths  (make lint) verilator and iverilog at DEPTHS2
#   test-depths  (make test) tests/depths.sh: the depths work, or are refused
#   synth        (make bench) synth_ice40 and nextpnr-ice40 of each design
#                on its part (rtl/synth/pnr.sh): cells, block RAMs, the
#                critical path and one "Fmax: N MHz (part, design)" line
#                each; fails when a design misses its target; then the 3x2
#                mesh as synthesised, simulated (rtl/synth/gatesim.sh)
YOSYS     ?= yosys
NEXTPNR   ?= nextpnr-ice40
SYNTH_DIR := $(BUILD)/synth
SYNTH_SRC := $(shell sed -e 's/\#.*//' rtl/synth/files)
# The second set of depths: none a power of two, none the default.
DEPTHS2   := IN_DEPTH=3 TX_DEPTH=5 RX_DEPTH=2
DEPTHS2_G := $(DEPTHS2:%=-G%)
DEPTHS2_Y := $(foreach d,$(DEPTHS2),-set $(subst =, ,$(d)))

.PHONY: synth synth-check lint-depths test-depths
test: synth-check test-depths
lint: lint-depths

# One generic synthesis: $(1) name, $(2) top, $(3) chparam arguments, $(4)
# the synth pass and its options.
define synth_generic
	@mkdir -p $(SYNTH_DIR)
	@printf 'read_verilog -defer %s\nchparam %s %s\nhierarchy -check -top %s\nscript rtl/synth/checks.ys\n%s -flatten -top %s\ncheck -assert\ntee -q -o %s stat\n' \
	    "$(SYNTH_SRC)" "$(3)" "$(2)" "$(2)" "$(4)" "$(2)" "$(SYNTH_DIR)/check-$(1).stat" > $(SYNTH_DIR)/check-$(1).ys
	@if $(YOSYS) -q -e '.*' -l $(SYNTH_DIR)/check-$(1).log -s $(SYNTH_DIR)/check-$(1).ys >/dev/null 2>&1; then \
	    echo "synth-check: $(1): $$(awk '/Number of cells:/ { n = $$4 } END { print n }' $(SYNTH_DIR)/check-$(1).stat) cells, no latch, no multiple driver, no warning"; \
	else echo "synth-check: $(1) failed, see $(SYNTH_DIR)/check-$(1).log:"; \
	    grep -i -m 5 'error\|warning' $(SYNTH_DIR)/check-$(1).log; exit 1; fi
endef

synth-check: check-tools
	$(call synth_generic,tile,wm_tile,,synth)
	$(call synth_generic,tile-depths2,wm_tile,$(DEPTHS2_Y),synth)
	$(call synth_generic,tile_core,wm_tile_core,-set MEM_BYTES 8192,synth -run :fine)
	$(call synth_generic,tile_core-depths2,wm_tile_core,-set MEM_BYTES 8192 $(DEPTHS2_Y),synth -run :fine)
	$(call synth_generic,mesh2x2,wm_mesh,-set W 2 -set H 2,synth -run :fine)
	$(call synth_generic,mesh2x2-depths2,wm_mesh,-set W 2 -set H 2 $(DEPTHS2_Y),synth -run :fine)
	@# and the checks fire: a latch, a net with two drivers, a warning
	@printf 'module f(input wire a, input wire b, output reg y);\nalways @* if (a) y = b;\nendmodule\n' \
	    > $(SYNTH_DIR)/fault-latch.v
	@printf 'module f(input wire a, input wire b, output wire y);\nassign y = a;\nassign y = b;\nendmodule\n' \
	    > $(SYNTH_DIR)/fault-drivers.v
	@printf 'module f(input wire a, output wire y);\nassign y = a & undeclared;\nendmodule\n' \
	    > $(SYNTH_DIR)/fault-warning.v
	@for f in latch drivers warning; do \
	    if $(YOSYS) -q -e '.*' -p "read_verilog $(SYNTH_DIR)/fault-$$f.v; hierarchy -top f; script rtl/synth/checks.ys; synth -top f" \
	        >$(SYNTH_DIR)/fault-$$f.log 2>&1; then echo "synth-check: a planted $$f went unnoticed"; exit 1; fi; \
	done
	@echo "synth-check: a planted latch, double driver and warning are each refused"

lint-depths: check-tools
	@for m in wm_tile wm_tile_core; do \
	    echo "verilator --lint-only -Wall $(DEPTHS2_G) rtl/$$m.v"; \
	    $(VERILATOR) --lint-only -Wall +define+WM_ASSERTIONS $(RTL_DIRS) rtl/lint.vlt --top-module $$m \
	        $(DEPTHS2_G) rtl/$$m.v || exit 1; \
	done
	$(VERILATOR) --lint-only -Wall +define+WM_ASSERTIONS $(RTL_DIRS) rtl/lint.vlt --top-module wm_mesh \
	    $(DEPTHS2_G) rtl/mesh.v
	$(VERILATOR) --lint-only -Wall +define+WM_ASSERTIONS $(RTL_DIRS) rtl/lint.vlt --top-module wm_mesh \
	    -GCORES=1 -GW=2 -GH=2 $(DEPTHS2_G) rtl/mesh.v
	$(VERILATOR) --lint-only -Wall +define+WM_ASSERTIONS $(RTL_DIRS) rtl/lint.vlt --top-module wm_synth_top \
	    -GDESIGN=1 $(DEPTHS2_G) rtl/mesh.v rtl/synth/wm_synth_top.v
	@mkdir -p $(BUILD)
	$(IVERILOG) -g2005 -DWM_ASSERTIONS -Irtl $(DEPTHS2:%=-Pwm_mesh.%) -o $(BUILD)/mesh_depths2.vvp rtl/mesh.v $(RTL_MODS)
	@for d in 0 1 2; do \
	    echo "verilator --lint-only -Wall rtl/synth/wm_synth_top.v -GDESIGN=$$d"; \
	    $(VERILATOR) --lint-only -Wall +define+WM_ASSERTIONS $(RTL_DIRS) rtl/lint.vlt --top-module wm_synth_top -GDESIGN=$$d \
	        rtl/mesh.v rtl/synth/wm_synth_top.v || exit 1; \
	done
	@echo "lint-depths: clean at $(DEPTHS2)"

test-depths: check-tools
	@IVERILOG=$(IVERILOG) VERILATOR=$(VERILATOR) sh tests/depths.sh $(BUILD)

# Place and route: design, part, package, target MHz, wm_synth_top's
# DESIGN and parameters. The tile with core gets the largest RAM the HX8K's
# block RAMs hold beside the PE queues' and the register file's (4 KiB: the
# RAM's two read ports take 2 x 8 of its 32 RAMs, the queues 4, the
# register file 4; docs/fpga.md).
SYNTH_RUNS := "tile hx8k ct256 60 0" \
              "mesh2x2 hx8k ct256 60 2 MESH_W=2 MESH_H=2" \
              "tile up5k sg48 20 0" \
              "tile_core hx8k ct256 40 1 MEM_BYTES=4096"
synth: check-tools
	@mkdir -p $(SYNTH_DIR) && rm -f $(SYNTH_DIR)/summary.txt
	@for r in $(SYNTH_RUNS); do \
	    set -- $$r; \
	    echo "== synth $$1 on $$2"; \
	    YOSYS=$(YOSYS) NEXTPNR=$(NEXTPNR) sh rtl/synth/pnr.sh $(SYNTH_DIR) "$$@" > $(SYNTH_DIR)/run.txt; rc=$$?; \
	    cat $(SYNTH_DIR)/run.txt; cat $(SYNTH_DIR)/run.txt >> $(SYNTH_DIR)/summary.txt; \
	    [ $$rc -eq 0 ] || exit 1; \
	done
	@echo "== the synthesised mesh, simulated"
	@YOSYS=$(YOSYS) IVERILOG=$(IVERILOG) sh rtl/synth/gatesim.sh $(SYNTH_DIR) | tee -a $(SYNTH_DIR)/summary.txt
	@grep -q '^gatesim: .*PASS' $(SYNTH_DIR)/summary.txt
	@echo "== summary ($(SYNTH_DIR)/summary.txt)"; grep '^Fmax:\|^gatesim:' $(SYNTH_DIR)/summary.txt
# ---------------------------------------------------------------- end of FPGA

# ---------------------------------------------------------------- coverage
# make coverage (docs/verification.md): the tile, the tile with its core
# and the core Verilated with --coverage (lines, toggles, and the cover
# points of rtl/cover/, bound into the RTL there and nowhere else), the
# shims compiled with WM_COVERAGE (csim/core/vl_coverage.h), wavemesh and
# every test linked with them under $(COV); then every test, the whole
# corpus and the random scenarios of COV_RANDOM run, their counts merged, the
# annotated sources written to $(COV)/annotated and the report to
# $(COV)/report.txt (tests/coverage_report.sh, waivers in
# rtl/cover/waivers.txt), ending with a one-line total.
COV         := $(BUILD)/coverage
# the random share: small meshes, as toggle coverage makes a tile-cycle ~20x dearer
COV_RANDOM  ?= --random 150 --seed 1 --max-side 8 --max-core-side 4
COV_VFLAGS  := $(VFLAGS) --coverage
COV_ROUTER  := rtl/cover/wm_router_cover.sv rtl/cover/wm_router_bind.sv
COV_PE      := rtl/cover/wm_pe_cover.sv rtl/cover/wm_pe_bind.sv
COV_CORE    := rtl/cover/wm_core_cover.sv rtl/cover/wm_core_bind.sv
COV_VTILE   := $(COV)/vtile/Vwm_tile__ALL.a
COV_VTC     := $(COV)/vtilecore/Vwm_tile_core__ALL.a
COV_VCORE   := $(COV)/vcore/Vwm_core_top__ALL.a
COV_SHIM_O  := $(COV)/obj/fabric_rtl.o $(COV)/obj/core_rtl.o
COV_LIBWM   := $(COV)/libwavemesh.a
COV_LIBS     = $(COV_LIBWM) $(COV_VCORE) $(COV_VTC) $(VTILECORE_TRACED) $(COV_VTILE) $(VTILE_TRACED) \
               $(VMESH_LIB) $(VMESHCORE_LIB) $(VRT_O) $(COV)/vrt/verilated_cov.o
COV_TESTS   := $(TEST_C:tests/%.c=$(COV)/tests/%)
COV_SHIMDEF := -DWM_COVERAGE -DVM_COVERAGE=1

# one Verilated model under $(COV): name, top module, top file, cover files
define cov_model
$(COV)/$(1)/$(2)__ALL.a: $(RTL_SRC) $(CORE_RTL) $(4)
	@mkdir -p $(COV)/$(1)
	$(VERILATOR) $(COV_VFLAGS) --Mdir $(COV)/$(1) --prefix $(2) --top-module $(3) rtl/lint.vlt $(5) $(4)
	$$(MAKE) --no-print-directory -C $(COV)/$(1) -f $(2).mk OPT_FAST="$(VOPT)" OPT_SLOW="$(VOPT)" \
	    CXX="$(CXX)" $(2)__ALL.a >/dev/null
endef
$(eval $(call cov_model,vtile,Vwm_tile,wm_tile,$(COV_ROUTER) $(COV_PE),rtl/wm_tile.v))
$(eval $(call cov_model,vtilecore,Vwm_tile_core,wm_tile_core,$(COV_ROUTER) $(COV_PE) $(COV_CORE),rtl/wm_tile_core.v))
$(eval $(call cov_model,vcore,Vwm_core_top,wm_core_top,$(COV_CORE),-Irtl/core rtl/core/wm_core_top.v))

$(COV)/vrt/verilated_cov.o: $(VINC)/verilated_cov.cpp
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -DVM_COVERAGE=1 -I$(VINC) -I$(VINC)/vltstd -c $< -o $@

$(COV)/obj/fabric_rtl.o: csim/fabric/fabric_rtl.cpp $(COV_VTILE) $(COV_VTC) $(VTILE_TRACED) $(VTILECORE_TRACED)
	@mkdir -p $(@D)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) $(COV_SHIMDEF) -Wall -Wextra -Werror -isystem $(VINC) -isystem $(VINC)/vltstd \
	    -isystem $(COV)/vtile -isystem $(COV)/vtilecore -isystem $(VBUILD)/vtile_fst -isystem $(VBUILD)/vtile_vcd \
	    -isystem $(VBUILD)/vtilecore_fst -isystem $(VBUILD)/vtilecore_vcd -c $< -o $@

$(COV)/obj/core_rtl.o: csim/core/core_rtl.cpp $(COV_VCORE)
	@mkdir -p $(@D)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) $(COV_SHIMDEF) -Wall -Wextra -Werror -isystem $(VINC) -isystem $(VINC)/vltstd \
	    -isystem $(COV)/vcore -c $< -o $@

$(COV_LIBWM): $(LIB_O) $(COV_SHIM_O) $(BUILD)/obj/csim/fabric/fabric_vmesh.o
	@rm -f $@
	ar rcs $@ $^

$(COV)/wavemesh: $(BUILD)/obj/csim/cli/main.o $(COV_LIBS)
	$(CXX) -o $@ $< $(COV_LIBS) $(LDLIBS)

$(COV)/tests/%: $(BUILD)/obj/tests/%.o $(COV_LIBS)
	@mkdir -p $(@D)
	$(CXX) -o $@ $< $(COV_LIBS) -lcmocka $(LDLIBS)

.PHONY: coverage
coverage: check-tools
	@$(MAKE) --no-print-directory $(COV)/wavemesh $(COV_TESTS) firmware
	@rm -rf $(COV)/dat $(COV)/annotated && mkdir -p $(COV)/dat
	@export WM_COVERAGE_DIR=$(COV)/dat; fail=0; \
	for t in $(COV_TESTS); do \
	    printf '%s: ' $$t; if $$t >$(COV)/dat/$$(basename $$t).log 2>&1; then echo ok; \
	    else echo "FAILED (see $(COV)/dat/$$(basename $$t).log)"; fail=1; fi; \
	done; \
	echo "$(COV)/wavemesh regress"; \
	$(COV)/wavemesh regress > $(COV)/dat/regress.log || { echo "FAILED: regress"; fail=1; }; \
	tail -n 1 $(COV)/dat/regress.log; \
	echo "$(COV)/wavemesh regress $(COV_RANDOM)"; \
	$(COV)/wavemesh regress $(COV_RANDOM) --log $(COV)/dat/random.log || fail=1; \
	[ $$fail -eq 0 ]
	@verilator_coverage --write $(COV)/coverage.dat $(COV)/dat/*.dat
	@verilator_coverage --annotate $(COV)/annotated --annotate-min 1 $(COV)/coverage.dat >/dev/null
	@sh tests/coverage_report.sh $(COV)/coverage.dat rtl/cover/waivers.txt > $(COV)/report.txt; \
	status=$$?; cat $(COV)/report.txt; exit $$status
-include $(wildcard $(COV)/obj/*.d)
# ---------------------------------------------------------------- formal proofs
# docs/verification.md, "Formal". rtl/formal/run.sh proves each harness of
# rtl/formal/ with yosys-abc's pdr (or checks it to a stated depth) and
# reaches every cover with yosys-smtbmc and z3; the RTL's own invariants
# (under `ifdef FORMAL`) join every proof of the module that holds them.
#   formal        every job, the router's included (minutes)
#   formal-quick  (make test) the FIFO and the arbiter at several sizes
FORMAL_DIR := $(BUILD)/formal
.PHONY: formal formal-quick
test: formal-quick

formal: check-tools
	@sh rtl/formal/run.sh $(FORMAL_DIR)

# ... and the check fires: the FIFO that takes a push when full (the one
# bug the lockstep corpus let through) must fail fifo4's proof.
formal-quick: check-tools
	@sh rtl/formal/run.sh $(FORMAL_DIR) --quick
	@rm -rf $(FORMAL_DIR)-fault && mkdir -p $(FORMAL_DIR)-fault && cp -r rtl $(FORMAL_DIR)-fault/
	@sed -i 's/do_push = push_i && !full_q;/do_push = push_i;/' $(FORMAL_DIR)-fault/rtl/prim/wm_fifo.v
	@sh $(FORMAL_DIR)-fault/rtl/formal/run.sh $(FORMAL_DIR)-fault/out fifo4 > $(FORMAL_DIR)-fault/run.log; \
	if [ $$? -ne 1 ] || ! grep -q '^formal: fifo4: FAILED' $(FORMAL_DIR)-fault/run.log; then \
	    cat $(FORMAL_DIR)-fault/run.log; echo "formal-quick: a FIFO that takes a push when full went unnoticed"; exit 1; fi
	@echo "formal-quick: a planted FIFO push-when-full fails fifo4's proof, as it must"
# ---------------------------------------------------------------- end of formal proofs

# ---------------------------------------------------------------- mutation score
# docs/verification.md, "Mutation": every mutant of tests/mutation/mutants
# applied alone to a copy of the sources in a folder of its own
# (build/mutate/NAME, never rtl/ itself), and built and checked there:
# lint, the formal jobs that read its file, the Icarus benches, the cmocka
# tests on the Verilated models, regress --quick, stopping at the first
# that kills it; the table goes to build/mutate/table.md. An hour or more
# on this machine: not part of make test. MUTATE_ARGS passes options
# (--checks, --only, --jobs 2, --no-core), MUTATE_FORMAL_JOBS names the
# formal jobs. mutate-check (make test) runs two known mutants
# through the formal checks: one must be killed, the equivalent one must
# survive.
MUTATE_ARGS ?=
# the formal jobs of about a minute each (the -deep ones take minutes)
MUTATE_FORMAL_JOBS ?= fifo4 fifo1 fifo3 arb5 arb3 router-credits-2 router-msgs-2 router-msgs-5
.PHONY: mutate mutate-check
test: mutate-check
mutate: check-tools
	@$(MAKE) --no-print-directory all
	@MUTATE_FORMAL_JOBS="$(MUTATE_FORMAL_JOBS)" nice -n 10 sh tests/mutation/mutate.sh $(MUTATE_ARGS) $(BUILD)/mutate

mutate-check: check-tools
	@rm -rf $(BUILD)/mutate-check
	@MUTATE_FORMAL_JOBS="fifo4 router-credits-2" sh tests/mutation/mutate.sh --checks formal --jobs 2 \
	    --only fifo-push-when-full,route-y-first $(BUILD)/mutate-check > $(BUILD)/mutate-check.log 2>&1; \
	if [ $$? -ne 0 ] || ! grep -q '^| fifo-push-when-full | rtl/prim/wm_fifo.v:[0-9]* | .* | killed by formal | fifo4: ' \
	        $(BUILD)/mutate-check/table.md || \
	    ! grep -q '^| route-y-first | rtl/wm_router.v:[0-9]* | .* | equivalent (no check run killed it)' \
	        $(BUILD)/mutate-check/table.md; then \
	    cat $(BUILD)/mutate-check.log; echo "mutate-check: the mutation run misjudged a known mutant"; exit 1; fi
	@echo "mutate-check: fifo-push-when-full killed by formal, route-y-first survives as equivalent"
# ---------------------------------------------------------------- end of mutation score
# ---------------------------------------------------------------- sanitizers
# make sanitize: everything built again under build/san with AddressSanitizer
# and UndefinedBehaviorSanitizer (the Verilated models and Verilator's
# runtime too), then every test binary and regress --quick run on it; any
# report fails the run (UBSan halts on its first finding that
# tests/ubsan.supp does not waive, ASan on its first).
# The coroutine switches are announced to ASan (csim/run/scheduler.c). The
# FST writer's findings are waived in tests/ubsan.supp, with the reasons.
SAN_BUILD  := $(BUILD)/san
SAN_FLAGS  := -fsanitize=address,undefined -fno-omit-frame-pointer
SAN_MAKE   := $(MAKE) --no-print-directory BUILD=$(SAN_BUILD) CC="$(CC) $(SAN_FLAGS)" CXX="$(CXX) $(SAN_FLAGS)" \
              OPT="-O2 -g" VOPT="-O1"
SAN_ENV    := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=0 \
              UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:suppressions=$(abspath tests/ubsan.supp)
.PHONY: sanitize
sanitize: check-tools
	@$(SAN_MAKE) all
	@$(SAN_ENV) $(SAN_MAKE) run-tests

# make sanitize-undefined (make test, so CI): UndefinedBehaviorSanitizer
# alone, on what we compile (csim/, sw/, tests/ and the C++ shims) under
# build/ubsan, linked with the plain Verilated models and runtime of
# $(BUILD) (VBUILD): those take most of make sanitize's hour to rebuild.
# They are built first, plain, so that nothing of $(BUILD) is rebuilt with
# the sanitizer. Then the same suite as make sanitize, and the check that
# fires: tests/sanitize/ub_fault.c, built and run the same way, must stop
# with UBSan's report.
UBSAN_BUILD := $(BUILD)/ubsan
UBSAN_MAKE  := $(MAKE) --no-print-directory BUILD=$(UBSAN_BUILD) VBUILD=$(BUILD) \
               CC="$(CC) -fsanitize=undefined" CXX="$(CXX) -fsanitize=undefined" OPT="-O2 -g"
UBSAN_ENV   := UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:suppressions=$(abspath tests/ubsan.supp)
.PHONY: sanitize-undefined
test: sanitize-undefined
sanitize-undefined: check-tools
	@$(MAKE) --no-print-directory all
	@$(UBSAN_MAKE) all
	@$(UBSAN_ENV) $(UBSAN_MAKE) run-tests
	@$(CC) -fsanitize=undefined $(CSTD) $(WARN) -O0 -g tests/sanitize/ub_fault.c -o $(UBSAN_BUILD)/ub_fault
	@if $(UBSAN_ENV) $(UBSAN_BUILD)/ub_fault > $(UBSAN_BUILD)/ub_fault.log 2>&1 || \
	    ! grep -q 'runtime error: signed integer overflow' $(UBSAN_BUILD)/ub_fault.log; then \
	    cat $(UBSAN_BUILD)/ub_fault.log; echo "sanitize-undefined: a signed overflow went unreported"; exit 1; fi
	@echo "sanitize-undefined: the suite is clean, and a known signed overflow is reported and stops its program"

# ---------------------------------------------------------------- fuzzing
# libFuzzer harnesses (tests/fuzz/), built with Debian's clang, AddressSanitizer
# and UndefinedBehaviorSanitizer: the layout parser, the rows parser (through
# `rows` itself, on the sw backend) and the dump reader behind wavediff (with
# the FST reader it uses, instrumented too). Each starts from its committed
# seed corpus (tests/fuzz/corpus/NAME); what it finds new goes to
# build/fuzz/NAME-new. `make fuzz` runs each for FUZZ_SECONDS (make test:
# 30 s each); `make fuzz FUZZ_RUNS=1000000` runs each for that many inputs
# instead. A crash, a hang (FUZZ_TIMEOUT s on one input, 30 s: wall time, on a
# machine others share) or a leak fails the
# target and leaves the input under build/fuzz/ (docs/verification.md); an
# input that once failed is kept as tests/fuzz/crashes/NAME-* and run first.
FUZZ_CC      ?= clang
FUZZ_CXX     ?= clang++
FUZZ_DIR     := $(BUILD)/fuzz
# UBSan recovers, so that tests/ubsan.supp applies; halt_on_error stops on
# any other finding.
FUZZ_SAN     := -fsanitize=address,undefined
FUZZ_CFLAGS  := $(CSTD) -g -O1 $(FUZZ_SAN) -fsanitize=fuzzer-no-link -Icsim -Isw -DBUILD_DIR='"$(BUILD)"' \
                -isystem $(VINC)/gtkwave -DFST_CONFIG_INCLUDE='"fst_config.h"'
FUZZ_SECONDS ?= 30
FUZZ_RUNS    ?=
FUZZ_TIMEOUT ?= 30
FUZZ_NAMES   := layout rows dump
FUZZ_BIN     := $(FUZZ_NAMES:%=$(FUZZ_DIR)/fuzz_%)

$(FUZZ_DIR)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_DIR)/obj/fst/%.o: $(VINC)/gtkwave/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) -g -O1 $(FUZZ_SAN) -fsanitize=fuzzer-no-link -I$(VINC)/gtkwave -DFST_CONFIG_INCLUDE='"fst_config.h"' \
	    -c $< -o $@

# The parsers under test are instrumented; what they call comes from the
# build's own archives.
$(FUZZ_DIR)/fuzz_layout: $(FUZZ_DIR)/obj/tests/fuzz/fuzz_layout.o $(FUZZ_DIR)/obj/csim/run/layout.o $(MODEL_LIBS)
	$(FUZZ_CXX) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $(filter $(FUZZ_DIR)/%,$^) $(MODEL_LIBS) $(LDLIBS)
$(FUZZ_DIR)/fuzz_rows: $(FUZZ_DIR)/obj/tests/fuzz/fuzz_rows.o $(FUZZ_DIR)/obj/csim/cli/cmd_rows.o \
                       $(FUZZ_DIR)/obj/csim/run/layout.o $(MODEL_LIBS)
	$(FUZZ_CXX) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $(filter $(FUZZ_DIR)/%,$^) $(MODEL_LIBS) $(LDLIBS)
$(FUZZ_DIR)/fuzz_dump: $(FUZZ_DIR)/obj/tests/fuzz/fuzz_dump.o $(FUZZ_DIR)/obj/csim/waves/waves_read.o \
                       $(FUZZ_DIR)/obj/fst/fstapi.o $(FUZZ_DIR)/obj/fst/lz4.o $(FUZZ_DIR)/obj/fst/fastlz.o
	$(FUZZ_CXX) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ -lz -lpthread

.PHONY: fuzz fuzz-build
# CI: each harness for FUZZ_SECONDS (30) in make test.
test: fuzz
fuzz-build: $(FUZZ_BIN)
fuzz: check-tools
	@$(MAKE) --no-print-directory fuzz-build
	@for n in $(FUZZ_NAMES); do \
	    mkdir -p $(FUZZ_DIR)/$$n-new $(FUZZ_DIR)/$$n-out; \
	    for c in tests/fuzz/crashes/$$n-*; do [ -f "$$c" ] || continue; \
	        echo "== fuzz $$n: $$c, found by an earlier run"; \
	        $(FUZZ_DIR)/fuzz_$$n $$c > $(FUZZ_DIR)/$$n-crash.log 2>&1 || { tail -30 $(FUZZ_DIR)/$$n-crash.log; exit 1; }; \
	    done; \
	    echo "== fuzz $$n: $(if $(FUZZ_RUNS),$(FUZZ_RUNS) inputs,$(FUZZ_SECONDS) s)"; \
	    (cd $(FUZZ_DIR)/$$n-out && ASAN_OPTIONS=detect_leaks=1 \
	        UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:suppressions=$(abspath tests/ubsan.supp) \
	        $(abspath $(FUZZ_DIR))/fuzz_$$n \
	        $(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS),-max_total_time=$(FUZZ_SECONDS)) -timeout=$(FUZZ_TIMEOUT) \
	        -rss_limit_mb=2048 -max_len=8192 -close_fd_mask=3 -print_final_stats=1 \
	        $(abspath $(FUZZ_DIR))/$$n-new $(abspath tests/fuzz/corpus/$$n)) > $(FUZZ_DIR)/$$n.log 2>&1 \
	        || { tail -40 $(FUZZ_DIR)/$$n.log; echo "fuzz $$n: FAILED, the input is under $(FUZZ_DIR)/$$n-out"; exit 1; }; \
	    grep -E '^stat::number_of_executed_units|^stat::average_exec_per_sec|^stat::peak_rss_mb' $(FUZZ_DIR)/$$n.log \
	        | sed "s/^/fuzz $$n: /"; \
	done
