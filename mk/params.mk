# ---------------------------------------------------------------- parameter sets, the cores running
# docs/verification.md, "Parameters": the whole host built again at another
# set of the tile's depths, in a build folder of its own
# ($(BUILD)/params/NAME): every Verilated model Verilated at that set
# (-G), and the sw model, the ISS and everything above them compiled at the
# same set (-DWM_PARAM_..., csim/core/core_port.h), so that the lockstep
# regression compares the two with firmware on the cores. WM_PARAMS is the
# set of such a build: empty for the default one.
WM_PARAMS ?=
ifneq ($(strip $(WM_PARAMS)),)
CPPFLAGS  += $(WM_PARAMS:%=-DWM_PARAM_%)
VFLAGS    += $(WM_PARAMS:%=-G%)
# the core alone has TX_DEPTH only
$(VCORE_LIB): VFLAGS := $(filter-out -GIN_DEPTH=% -GRX_DEPTH=%,$(VFLAGS))
endif
# Such a build Verilates the untraced tile with core alone (about a minute
# here, where all eight models take ten): the rtl backend then refuses
# bare tiles, dumps and the rtl-mesh backend (csim/fabric/fabric_rtl.cpp),
# and the core alone and Verilator's runtime, which the depths do not
# change, are the default build's.
WM_RTL_CORES_ONLY ?=
ifneq ($(WM_RTL_CORES_ONLY),)
CPPFLAGS  += -DWM_RTL_CORES_ONLY
endif

# The sets, NAME:IN_DEPTH,TX_DEPTH,RX_DEPTH; the C side reads a link
# buffer's count in $clog2(IN_DEPTH) + 1 bits, so IN_DEPTH is 3..8, and
# the core's QUEUES register holds counts up to 15. make test runs the
# first (DEPTHS2 of mk/rtl.mk); make test-params all of them.
PARAM_SETS       := d573:5,7,3 d352:3,5,2 d8f3:8,15,3 d411:4,1,1 d5c9:5,12,9
PARAM_QUICK      := d573
# What runs at each set: the seed's rows on the cores (make test: the
# tutorial row alone), both backends, and scenarios of the corpus in lockstep, the cores' events
# compared instruction for instruction.
PARAM_ROWS       := sw/collectives/test.rows
PARAM_QUICK_ONLY := core-tutorial,core-gs-plan-grid-4x2
PARAM_LONG_ONLY  := core-tutorial,core-tworow,core-htree-16,core-stream-east-4x3,core-stream-uniform-6x6,core-stream-transpose-4x4,core-gs-plan-grid-4x2,core-gs-crystal-random-5x1,core-gs-pairwise-chain-3x2

param_set   = $(word 2,$(subst :, ,$(filter $(1):%,$(PARAM_SETS))))
param_flags = $(join IN_DEPTH= TX_DEPTH= RX_DEPTH=,$(subst $(comma), ,$(call param_set,$(1))))
comma := ,

PARAM_NAMES := $(foreach s,$(PARAM_SETS),$(firstword $(subst :, ,$(s))))

# params/NAME: the set NAME built in $(BUILD)/params/NAME, then its rows
# (PARAM_ROW: those whose name starts so; empty for all) and scenarios
# (PARAM_ONLY).
PARAM_ROW  ?=
PARAM_ONLY ?= $(PARAM_LONG_ONLY)
.PHONY: $(PARAM_NAMES:%=params/%)
$(PARAM_NAMES:%=params/%): params/%: firmware
	@echo "params $*: $(call param_flags,$*), built in $(BUILD)/params/$*"
	@mkdir -p $(BUILD)/params
	@$(MAKE) --no-print-directory $(BUILD_JOBS) $(VCORE_LIB) $(VRT_O) > /dev/null
	@$(MAKE) --no-print-directory $(BUILD_JOBS) BUILD=$(BUILD)/params/$* VBUILD=$(BUILD)/params/$* \
	    WM_PARAMS="$(call param_flags,$*)" WM_RTL_CORES_ONLY=1 VTILE_LIB= VTILE_TRACED= VTILECORE_TRACED= \
	    VMESH_LIB= VMESHCORE_LIB= VCORE_DIR=$(VCORE_DIR) VRT_O="$(VRT_O)" \
	    $(BUILD)/params/$*/wavemesh > $(BUILD)/params/$*.log 2>&1 \
	    || { tail -20 $(BUILD)/params/$*.log; echo "params $*: the build failed"; exit 1; }
	@awk '/^layout /{l = "layout $(CURDIR)/$(dir $(PARAM_ROWS))" $$2; p = 0} \
	    /^row $(PARAM_ROW)/{if (!p) print l; p = 1; print}' $(PARAM_ROWS) > $(BUILD)/params/$*/test.rows
	$(BUILD)/params/$*/wavemesh rows $(BUILD)/params/$*/test.rows --pe core --backend rtl --backend sw
	@for sc in $(subst $(comma), ,$(PARAM_ONLY)); do \
	    echo "$(BUILD)/params/$*/wavemesh regress --only $$sc"; \
	    $(BUILD)/params/$*/wavemesh regress --only $$sc || exit 1; done

.PHONY: test-params test-params-quick
test-params-quick: check-tools ## the tile's depths at DEPTHS2 with the cores running: tutorial row and two lockstep scenarios (make test)
	@$(MAKE) --no-print-directory params/$(PARAM_QUICK) PARAM_ROW='tutorial ' PARAM_ONLY=$(PARAM_QUICK_ONLY)

test-params: check-tools ## every set of PARAM_SETS: a build each, the seed's rows on the cores and lockstep scenarios (long)
	@for s in $(PARAM_NAMES); do $(MAKE) --no-print-directory params/$$s || exit 1; done
	@$(MAKE) --no-print-directory params-full/$(PARAM_QUICK)

# params-full/NAME: the set NAME with every Verilated model
# ($(BUILD)/params/NAME-full, some six minutes), for rtl/mesh.v with its
# cores at the set: the tworow row on the rtl-mesh backend beside the
# others, and core-tworow in lockstep, rtl-mesh against the sw model (the
# Verilated mesh with cores is 4x2; core-tworow-16, which the name also
# selects, does not fit it).
.PHONY: $(PARAM_NAMES:%=params-full/%)
$(PARAM_NAMES:%=params-full/%): params-full/%: firmware
	@echo "params $* (every model): $(call param_flags,$*), built in $(BUILD)/params/$*-full"
	@mkdir -p $(BUILD)/params/$*-full
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/params/$*-full VBUILD=$(BUILD)/params/$*-full \
	    WM_PARAMS="$(call param_flags,$*)" $(BUILD)/params/$*-full/wavemesh > $(BUILD)/params/$*-full.log 2>&1 \
	    || { tail -20 $(BUILD)/params/$*-full.log; echo "params $*: the build failed"; exit 1; }
	@awk '/^layout /{l = "layout $(CURDIR)/$(dir $(PARAM_ROWS))" $$2; p = 0} \
	    /^row tworow /{if (!p) print l; p = 1; print}' $(PARAM_ROWS) > $(BUILD)/params/$*-full/test.rows
	$(BUILD)/params/$*-full/wavemesh rows $(BUILD)/params/$*-full/test.rows --pe core \
	    --backend rtl-mesh --backend rtl --backend sw
	@echo "$(BUILD)/params/$*-full/wavemesh regress --only core-tworow --expected rtl-mesh --got sw"
	@$(BUILD)/params/$*-full/wavemesh regress --only core-tworow --expected rtl-mesh --got sw \
	    > $(BUILD)/params/$*-full/regress.log 2>&1; \
	grep '^PASS core-tworow ' $(BUILD)/params/$*-full/regress.log || \
	    { cat $(BUILD)/params/$*-full/regress.log; echo "params $*: core-tworow on rtl-mesh failed"; exit 1; }

# The priority and simultaneity rules the RTL's comments state, each at its
# module (tests/icarus/tb_rules.v; docs/fabric.md lists them).
.PHONY: test-rules
test-rules: check-tools ## tests/rules.sh: the FIFO's, arbiter's, router's and PE's same-cycle rules, driven at each module
	@IVERILOG=$(IVERILOG) sh tests/rules.sh $(BUILD)
