# ---------------------------------------------------------------- the host build
# csim/ and sw/ compiled for the host into libwavemesh.a, the C++ shims
# over the Verilated models, and wavemesh and every cmocka test linked with
# them and the models.
# csim/mpi/plugin is the MPI plugin's, built apart with mpicc (below).
CSIM_C    := $(filter-out csim/cli/main.c csim/mpi/plugin/%,$(shell find csim -name '*.c'))
# sw/rv32 is the core's runtime: firmware only, never linked into the host.
SW_C      := $(shell find sw -path sw/rv32 -prune -o -name '*.c' -print 2>/dev/null)
LIB_C     := $(CSIM_C) $(SW_C)
LIB_O     := $(LIB_C:%.c=$(BUILD)/obj/%.o)
SHIM_CPP  := $(wildcard csim/fabric/*.cpp)
SHIM_O    := $(SHIM_CPP:%.cpp=$(BUILD)/obj/%.o)
TEST_C    := $(wildcard tests/test_*.c)
TEST_BIN  := $(TEST_C:tests/%.c=$(BUILD)/tests/%)

WAVEMESH  := $(BUILD)/wavemesh
LIBWM     := $(BUILD)/libwavemesh.a
# The core's shim in an archive of its own: it needs the core model only.
CORE_O    := $(BUILD)/obj/csim/core/core_rtl.o
CORE_LIBS := $(BUILD)/libwmcore.a $(VCORE_LIB)
# What wavemesh and the tests link, in link order.
MODEL_LIBS := $(LIBWM) $(CORE_LIBS) $(VTILECORE_LIBS) $(VTILE_LIB) $(VTILE_TRACED) $(VMESH_LIB) $(VRT_O) \
              $(VMESHCORE_LIB)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

# No absolute path is built in: the binary finds its firmware and the
# corpus's layouts relative to its own location (csim/core/datadir.h), so a
# moved build tree and an installed copy (mk/install.mk) work as well.

# The C++ shims over the Verilated models (csim/fabric/, csim/core/), each
# built after the models whose headers it includes.
SHIM_CXX   = $(CXX) $(CPPFLAGS) $(CXXFLAGS) -Wall -Wextra -Werror -isystem $(VINC) -isystem $(VINC)/vltstd

$(BUILD)/obj/csim/fabric/%.o: csim/fabric/%.cpp $(VTILE_LIB) $(VTILE_TRACED) $(VMESH_LIB)
	@mkdir -p $(@D)
	$(SHIM_CXX) -isystem $(VTILE_DIR) -isystem $(VBUILD)/vtile_fst -isystem $(VBUILD)/vtile_vcd \
	    -isystem $(VMESH_DIR) $(VTILECORE_INC) -DWM_VMESH_W=$(VMESH_W) -DWM_VMESH_H=$(VMESH_H) -c $< -o $@
$(BUILD)/obj/csim/fabric/fabric_rtl.o: $(VTILECORE_LIBS)
$(BUILD)/obj/csim/fabric/fabric_vmesh.o: $(VMESHCORE_LIB)
$(BUILD)/obj/csim/fabric/fabric_vmesh.o: CPPFLAGS += -isystem $(VMESHCORE_DIR) \
    -DWM_VMESH_CORE_W=$(VMESH_CORE_W) -DWM_VMESH_CORE_H=$(VMESH_CORE_H)

$(CORE_O): csim/core/core_rtl.cpp $(VCORE_LIB)
	@mkdir -p $(@D)
	$(SHIM_CXX) -isystem $(VCORE_DIR) -c $< -o $@

$(LIBWM): $(LIB_O) $(SHIM_O)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/libwmcore.a: $(CORE_O)
	@rm -f $@
	ar rcs $@ $^

$(WAVEMESH): $(BUILD)/obj/csim/cli/main.o $(MODEL_LIBS)
	$(CXX) -o $@ $< $(MODEL_LIBS) $(LDLIBS)

$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(MODEL_LIBS)
	@mkdir -p $(@D)
	$(CXX) -o $@ $< $(MODEL_LIBS) -lcmocka $(LDLIBS)
# A test's object is kept: made by a pattern rule only, make would delete it
# as an intermediate and the next make would compile every test again.
.SECONDARY: $(TEST_C:tests/%.c=$(BUILD)/obj/tests/%.o)

# The MPI transport of regress campaigns (csim/regress/campaign.h): a plugin
# that wavemesh dlopen()s only when a launcher (mpirun, srun) started it, so
# the binary neither links MPI nor needs it installed. Built when mpicc is
# there; installed beside the binary (mk/install.mk).
MPICC     ?= mpicc
MPI_PLUGIN := $(BUILD)/lib/wavemesh-mpi.so
HAVE_MPICC := $(shell command -v $(MPICC) 2>/dev/null)
$(MPI_PLUGIN): csim/mpi/plugin/transport_mpi.c csim/mpi/transport.h
	@mkdir -p $(@D)
	$(MPICC) $(filter-out -MMD -MP,$(CPPFLAGS)) $(CFLAGS) -fPIC -shared $< -o $@
all: $(if $(HAVE_MPICC),$(MPI_PLUGIN))

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
