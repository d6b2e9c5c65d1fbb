# ---------------------------------------------------------------- Verilated models
# Verilator flags, one per line, each for a reason.
VFLAGS    := --cc
VFLAGS    += -Wall                      # lint-clean is the rule
VFLAGS    += --assert                   # run the RTL's assertions in every test
VFLAGS    += +define+WM_ASSERTIONS      # ... which live under this define
VFLAGS    += -O3                        # Verilator's own optimisations
VFLAGS    += --x-assign fast
VFLAGS    += $(RTL_DIRS)

# One Verilated model, $(1)/$(2)__ALL.a: $(1) its folder, $(2) its prefix,
# $(3) its top module, $(4) its own Verilator options, $(5) the files read
# after rtl/lint.vlt, $(6) what it is rebuilt on. Its C++ is compiled at
# VOPT by the makefile Verilator writes.
define verilate
$(1)/$(2)__ALL.a: $(6)
	@mkdir -p $(1)
	$$(VERILATOR) $$(VFLAGS) --Mdir $(1) --prefix $(2) --top-module $(3) $(4) rtl/lint.vlt $(5)
	$$(MAKE) --no-print-directory -C $(1) -f $(2).mk OPT_FAST="$$(VOPT)" OPT_SLOW="$$(VOPT)" \
	    CXX="$$(CXX)" $(2)__ALL.a >/dev/null
endef

# A tile Verilated three times, each a model of its own picked at run time:
# a model built with tracing is slower even when it dumps nothing, and FST
# and VCD need two models. $(1) the folder under VBUILD, $(2) the prefix,
# $(3) the top module, $(4) the files, $(5) what it is rebuilt on.
define verilate_traced
$(call verilate,$(VBUILD)/$(1),$(2),$(3),,$(4),$(5))
$(call verilate,$(VBUILD)/$(1)_fst,$(2)_fst,$(3),--trace-fst,$(4),$(5))
$(call verilate,$(VBUILD)/$(1)_vcd,$(2)_vcd,$(3),--trace,$(4),$(5))
endef

# The tile: router and PE datapath.
VTILE_DIR := $(VBUILD)/vtile
VTILE_LIB := $(VTILE_DIR)/Vwm_tile__ALL.a
VTILE_TRACED := $(VBUILD)/vtile_fst/Vwm_tile_fst__ALL.a $(VBUILD)/vtile_vcd/Vwm_tile_vcd__ALL.a
$(eval $(call verilate_traced,vtile,Vwm_tile,wm_tile,rtl/wm_tile.v,$(RTL_SRC)))

# The Verilated mesh is for the cross-check only: one small, non-square size.
VMESH_DIR := $(VBUILD)/vmesh
VMESH_LIB := $(VMESH_DIR)/Vwm_mesh__ALL.a
VMESH_W   := 4
VMESH_H   := 3
$(eval $(call verilate,$(VMESH_DIR),Vwm_mesh,wm_mesh,-GW=$(VMESH_W) -GH=$(VMESH_H),rtl/mesh.v,$(RTL_SRC)))

# The PE core alone, the reference of the ISS.
VCORE_DIR := $(VBUILD)/vcore
VCORE_LIB := $(VCORE_DIR)/Vwm_core_top__ALL.a
$(eval $(call verilate,$(VCORE_DIR),Vwm_core_top,wm_core_top,-Irtl/core,rtl/core/wm_core_top.v,$(CORE_RTL)))

# rtl/wm_tile_core.v: wm_tile with wm_core and its RAM, the tile of a fabric
# made by create_cores; a fabric of bare tiles links these models but never
# runs them.
VTILECORE_DIR    := $(VBUILD)/vtilecore
VTILECORE_LIB    := $(VTILECORE_DIR)/Vwm_tile_core__ALL.a
VTILECORE_TRACED := $(VBUILD)/vtilecore_fst/Vwm_tile_core_fst__ALL.a $(VBUILD)/vtilecore_vcd/Vwm_tile_core_vcd__ALL.a
VTILECORE_LIBS   := $(VTILECORE_LIB) $(VTILECORE_TRACED)
VTILECORE_INC    := -isystem $(VTILECORE_DIR) -isystem $(VBUILD)/vtilecore_fst -isystem $(VBUILD)/vtilecore_vcd
VTILECORE_SRC    := $(RTL_SRC) $(CORE_RTL)
$(eval $(call verilate_traced,vtilecore,Vwm_tile_core,wm_tile_core,rtl/wm_tile_core.v,$(VTILECORE_SRC)))

# The cross-check of the tiles with cores (tests/test_icarus.c): rtl/mesh.v
# with CORES=1 Verilated as the rtl-mesh backend's create_cores
# (csim/fabric/fabric_vmesh.cpp), at its own fixed size, the 4x2 of the
# seed's tworow placement; Icarus runs the same mesh from $readmemh images.
VMESHCORE_DIR := $(VBUILD)/vmeshcore
VMESHCORE_LIB := $(VMESHCORE_DIR)/Vwm_mesh_core__ALL.a
VMESH_CORE_W  := 4
VMESH_CORE_H  := 2
$(eval $(call verilate,$(VMESHCORE_DIR),Vwm_mesh_core,wm_mesh,-GW=$(VMESH_CORE_W) -GH=$(VMESH_CORE_H) -GCORES=1,\
    rtl/mesh.v,$(RTL_SRC) $(CORE_RTL)))

# Verilator's runtime, built like the models.
VRT_SRC   := verilated.cpp verilated_threads.cpp verilated_fst_c.cpp verilated_vcd_c.cpp
VRT_O     := $(VRT_SRC:%.cpp=$(VBUILD)/vrt/%.o)

$(VBUILD)/vrt/%.o: $(VINC)/%.cpp
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -I$(VINC) -I$(VINC)/vltstd -c $< -o $@
