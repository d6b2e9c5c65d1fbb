# ---------------------------------------------------------------- FPGA: synthesis, place and route
# docs/fpga.md. yosys, nextpnr-ice40 and fpga-icestorm come from Debian
# (DEPS_PKGS, check-tools). Every yosys run fails on any warning (-e), on an
# inferred latch and on a net with two drivers (rtl/synth/checks.ys).
#   synth-check  (make test, about 30 s) yosys's generic synthesis at the
#                default depths and at DEPTHS2: the tile down to gates, the
#                tile with core and a 2x2 mesh to word-level cells (the
#                checks are done by then; the core's multiplier alone takes
#                half a minute to map to gates)
#   lint-depths  (make lint, mk/lint.mk) verilator and iverilog at DEPTHS2
#   test-depths  (make test) tests/depths.sh: the depths work, or are refused
#   synth        (make bench) synth_ice40 and nextpnr-ice40 of each design
#                on its part (rtl/synth/pnr.sh): cells, block RAMs, the
#                critical path and one "Fmax: N MHz (part, design)" line
#                each; fails when a design misses its target; then the 3x2
#                mesh as synthesised, simulated (rtl/synth/gatesim.sh)
SYNTH_DIR := $(BUILD)/synth
SYNTH_SRC := $(shell sed -e 's/\#.*//' rtl/synth/files)

.PHONY: synth synth-check test-depths

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

synth-check: check-tools ## yosys: the tile, the tile with core and a 2x2 mesh synthesise clean; planted faults refused
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

test-depths: check-tools ## tests/depths.sh: the FIFO depths work, or are refused
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
synth: check-tools ## synth_ice40 and nextpnr-ice40 of each design: cells, Fmax; the synthesised mesh simulated
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
