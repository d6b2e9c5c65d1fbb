# wavemesh: RTL co-simulation of a message-passing fabric.
#   make          build everything under build/
#   make run      the main job (installs what is missing first)
#   make test     every test (installs what is missing first)
#   make lint     verilator -Wall on every module, iverilog -g2005 on mesh.v
#   make bench    the benchmarks behind docs/benchmarks.md
#   make deps     install the Debian packages the build needs

CC        ?= gcc
CXX       ?= g++
VERILATOR ?= verilator
IVERILOG  ?= iverilog
BUILD     ?= build

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

DEPS_PKGS := verilator iverilog libcmocka-dev gtkwave zlib1g-dev xvfb x11-utils imagemagick bc

# ---------------------------------------------------------------- sources
CSIM_C    := $(filter-out csim/cli/main.c,$(shell find csim -name '*.c'))
SW_C      := $(shell find sw -name '*.c' 2>/dev/null)
LIB_C     := $(CSIM_C) $(SW_C)
LIB_O     := $(LIB_C:%.c=$(BUILD)/obj/%.o)
SHIM_CPP  := $(wildcard csim/fabric/*.cpp)
SHIM_O    := $(SHIM_CPP:%.cpp=$(BUILD)/obj/%.o)
TEST_C    := $(wildcard tests/test_*.c)
TEST_BIN  := $(TEST_C:tests/%.c=$(BUILD)/tests/%)

VTILE_DIR := $(BUILD)/vtile
VTILE_LIB := $(VTILE_DIR)/Vwm_tile__ALL.a
# Traced tile variants, picked at run time: a model built with tracing is
# slower even when it dumps nothing, and FST and VCD need two models.
VTILE_TRACED := $(BUILD)/vtile_fst/Vwm_tile_fst__ALL.a $(BUILD)/vtile_vcd/Vwm_tile_vcd__ALL.a
VMESH_DIR := $(BUILD)/vmesh
VMESH_LIB := $(VMESH_DIR)/Vwm_mesh__ALL.a
# The Verilated mesh is for the cross-check only: one small, non-square size.
VMESH_W   := 4
VMESH_H   := 3
VRT_SRC   := verilated.cpp verilated_threads.cpp verilated_fst_c.cpp verilated_vcd_c.cpp
VRT_O     := $(VRT_SRC:%.cpp=$(BUILD)/vrt/%.o)

WAVEMESH  := $(BUILD)/wavemesh
LIBWM     := $(BUILD)/libwavemesh.a

.PHONY: all run test lint bench deps clean check-tools
all: $(WAVEMESH) $(TEST_BIN)

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

$(BUILD)/vtile_fst/Vwm_tile_fst__ALL.a: TRACE_FLAG := --trace-fst
$(BUILD)/vtile_vcd/Vwm_tile_vcd__ALL.a: TRACE_FLAG := --trace
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

$(BUILD)/vrt/%.o: $(VINC)/%.cpp
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -I$(VINC) -I$(VINC)/vltstd -c $< -o $@

# ---------------------------------------------------------------- C and shim
$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/csim/fabric/%.o: csim/fabric/%.cpp $(VTILE_LIB) $(VTILE_TRACED) $(VMESH_LIB)
	@mkdir -p $(@D)
	$(CXX) $(CPPFLAGS) $(CXXFLAGS) -Wall -Wextra -Werror -isystem $(VINC) -isystem $(VINC)/vltstd \
	    -isystem $(VTILE_DIR) -isystem $(BUILD)/vtile_fst -isystem $(BUILD)/vtile_vcd \
	    -isystem $(VMESH_DIR) -DWM_VMESH_W=$(VMESH_W) -DWM_VMESH_H=$(VMESH_H) -c $< -o $@

$(LIBWM): $(LIB_O) $(SHIM_O)
	@rm -f $@
	ar rcs $@ $^

MODEL_LIBS  = $(LIBWM) $(CORE_LIBS) $(VTILE_LIB) $(VTILE_TRACED) $(VMESH_LIB) $(VRT_O)

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
	@pass=0; fail=0; \
	for t in $(TEST_BIN); do \
	    echo "== $$t"; \
	    if $$t 2>&1; then pass=$$((pass+1)); else fail=$$((fail+1)); echo "FAILED: $$t"; fi; \
	done; \
	echo "== $(WAVEMESH) regress --quick"; \
	if $(WAVEMESH) regress --quick; then pass=$$((pass+1)); else fail=$$((fail+1)); echo "FAILED: regress --quick"; fi; \
	echo "test binaries: $$pass passed, $$fail failed"; \
	[ $$fail -eq 0 ]

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
	@$(MAKE) --no-print-directory $(WAVEMESH)
	@$(WAVEMESH) rows sw/collectives/test.rows --backend rtl --backend sw --cycles
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

# Waves of one seed row (TEST=tutorial or tworow) from both backends, with
# their save files; `view` opens the rtl one in GTKWave; `waves-png` makes
# the screenshots of docs/waves.md headless (xvfb-run).
TEST      ?= tutorial
WAVES_DIR := $(BUILD)/waves
WAVES_SET := $(if $(filter tworow,$(TEST)),--set SHAPE=1 --set V0=7 --set V1=300 --set V2=0 --set V3=5,--set SHAPE=0)
.PHONY: waves view waves-png
waves: check-tools
	@$(MAKE) --no-print-directory $(WAVEMESH)
	@mkdir -p $(WAVES_DIR)
	@for b in rtl sw; do \
	    $(WAVEMESH) run sw/collectives/bench.layout --backend $$b $(WAVES_SET) \
	        --trace $(WAVES_DIR)/$(TEST)-$$b.fst | grep '^waves:' || exit 1; \
	done
	@$(WAVEMESH) wavediff $(WAVES_DIR)/$(TEST)-rtl.fst $(WAVES_DIR)/$(TEST)-sw.fst

view: waves
	gtkwave -a $(WAVES_DIR)/$(TEST)-rtl.gtkw $(WAVES_DIR)/$(TEST)-rtl.fst &

waves-png:
	@$(MAKE) --no-print-directory waves TEST=tutorial
	@mkdir -p docs/img
	sh waves/screenshot.sh waves/tutorial-overview.gtkw $(WAVES_DIR)/tutorial-rtl.fst 0 150 docs/img/tutorial-upsweep.png
	sh waves/screenshot.sh waves/tutorial-overview.gtkw $(WAVES_DIR)/tutorial-rtl.fst 130 280 docs/img/tutorial-downsweep.png

bench: check-tools
	@$(MAKE) --no-print-directory $(WAVEMESH)
	@for b in docs/bench/*.sh; do echo "== $$b"; WAVEMESH=$(WAVEMESH) sh $$b || exit 1; done

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# ---------------------------------------------------------------- the PE core
# rtl/core/ Verilated alone (the reference of the ISS) and its C++ shim.
VCORE_DIR := $(BUILD)/vcore
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
