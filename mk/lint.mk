# ---------------------------------------------------------------- lint
# verilator --lint-only -Wall on every module alone and on every top at the
# parameters the build and synth use, iverilog -g2005 on rtl/mesh.v at the
# same. Each job is a target of its own, lint/JOB, made by one of the two
# rules below: make lint runs them all (lint-mesh-cores and lint-depths
# first), make lint/JOB one.

# A Verilator job: $(1) its name, $(2) what it reads (top module,
# parameters, files).
define lint_verilator
.PHONY: lint/$(1)
lint/$(1): check-tools
	$$(VERILATOR) --lint-only -Wall +define+WM_ASSERTIONS $$(RTL_DIRS) rtl/lint.vlt $(2)
endef
# An Icarus job, lint/iverilog-NAME: rtl/mesh.v and every module into
# $(BUILD)/NAME.vvp; $(1) NAME, $(2) the parameters.
define lint_icarus
.PHONY: lint/iverilog-$(1)
lint/iverilog-$(1): check-tools
	@mkdir -p $$(BUILD)
	$$(IVERILOG) -g2005 -DWM_ASSERTIONS -Irtl $(2) -o $$(BUILD)/$(1).vvp rtl/mesh.v $$(RTL_MODS)
endef
lint_v = $(eval $(call lint_verilator,$(1),$(2)))
lint_i = $(eval $(call lint_icarus,$(1),$(2)))

# Every module alone, and the mesh at its defaults.
LINT_MODULES := $(basename $(notdir $(RTL_MODS)))
$(foreach m,$(RTL_MODS),$(call lint_v,$(basename $(notdir $(m))),$(m)))
$(call lint_v,mesh,--top-module wm_mesh rtl/mesh.v)
$(call lint_i,mesh,)

# The mesh with PE cores at the size of its Verilated model, with and
# without INIT_PREFIX's file names.
$(call lint_v,mesh-cores,--top-module wm_mesh -GW=$(VMESH_CORE_W) -GH=$(VMESH_CORE_H) -GCORES=1 rtl/mesh.v)
$(call lint_v,mesh-cores-init,--top-module wm_mesh -GW=$(VMESH_CORE_W) -GH=$(VMESH_CORE_H) -GCORES=1 \
    '-GINIT_PREFIX="mesh"' rtl/mesh.v)
$(call lint_i,mesh_core,-Pwm_mesh.W=$(VMESH_CORE_W) -Pwm_mesh.H=$(VMESH_CORE_H) -Pwm_mesh.CORES=1)

# The tops at the second set of depths (DEPTHS2), and wm_synth_top's three
# designs (rtl/synth/, docs/fpga.md).
$(foreach m,wm_tile wm_tile_core,$(call lint_v,$(m)-depths2,--top-module $(m) $(DEPTHS2_G) rtl/$(m).v))
$(call lint_v,mesh-depths2,--top-module wm_mesh $(DEPTHS2_G) rtl/mesh.v)
$(call lint_v,mesh-cores-depths2,--top-module wm_mesh -GCORES=1 -GW=2 -GH=2 $(DEPTHS2_G) rtl/mesh.v)
$(call lint_v,synth_top1-depths2,--top-module wm_synth_top -GDESIGN=1 $(DEPTHS2_G) rtl/mesh.v rtl/synth/wm_synth_top.v)
$(call lint_i,mesh_depths2,$(DEPTHS2:%=-Pwm_mesh.%))
$(foreach d,0 1 2,$(call lint_v,synth_top$(d),--top-module wm_synth_top -GDESIGN=$(d) \
    rtl/mesh.v rtl/synth/wm_synth_top.v))

# The groups, in the order make lint runs them.
LINT_MESH_CORES := mesh-cores mesh-cores-init iverilog-mesh_core
LINT_DEPTHS     := wm_tile-depths2 wm_tile_core-depths2 mesh-depths2 mesh-cores-depths2 synth_top1-depths2 \
                   iverilog-mesh_depths2 synth_top0 synth_top1 synth_top2
LINT_ALONE      := $(LINT_MODULES) mesh iverilog-mesh
LINT_JOBS       := $(LINT_MESH_CORES) $(LINT_DEPTHS) $(LINT_ALONE)

.PHONY: lint lint-mesh-cores lint-depths
lint-mesh-cores: check-tools $(LINT_MESH_CORES:%=lint/%) ## lint the mesh with PE cores (verilator, iverilog)
lint-depths: check-tools $(LINT_DEPTHS:%=lint/%) ## lint the tops at DEPTHS2 and wm_synth_top's three designs
	@echo "lint-depths: clean at $(DEPTHS2)"
lint: check-tools lint-mesh-cores lint-depths $(LINT_ALONE:%=lint/%) ## verilator -Wall and iverilog on every module and top
	@echo "lint: clean"
