# ---------------------------------------------------------------- the RTL
# Its include folders, its sources (what a model is rebuilt on), its
# modules (what lint and Icarus read) and the parameter sets that lint,
# synth-check and tests/depths.sh check.
RTL_DIRS  := -Irtl -Irtl/prim -Irtl/core
RTL_SRC   := $(wildcard rtl/*.v rtl/*.vh rtl/prim/*.v rtl/prim/*.vh) rtl/lint.vlt
RTL_MODS  := $(wildcard rtl/prim/wm_*.v rtl/wm_*.v rtl/core/wm_*.v)
# rtl/core/: the PE core, Verilated alone as the reference of the ISS
CORE_RTL  := $(wildcard rtl/core/*.v) rtl/prim/wm_assert.vh rtl/lint.vlt

# The second set of depths: none a power of two, none the default, no two
# alike, so that a ring wrapped with a mask where it needs a modulo, or a
# width taken from the wrong queue's depth, shows (docs/verification.md,
# "Parameters"). make test-params-quick runs the cores at the same set.
DEPTHS2   := IN_DEPTH=5 TX_DEPTH=7 RX_DEPTH=3
DEPTHS2_G := $(DEPTHS2:%=-G%)
DEPTHS2_Y := $(foreach d,$(DEPTHS2),-set $(subst =, ,$(d)))
