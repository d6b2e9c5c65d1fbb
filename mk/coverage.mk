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

# The three models Verilated again under $(COV) with --coverage, the cover
# points bound in.
COV_VFILES  := $(RTL_SRC) $(CORE_RTL)
$(eval $(call verilate,$(COV)/vtile,Vwm_tile,wm_tile,--coverage,rtl/wm_tile.v $(COV_ROUTER) $(COV_PE),\
    $(COV_VFILES) $(COV_ROUTER) $(COV_PE)))
$(eval $(call verilate,$(COV)/vtilecore,Vwm_tile_core,wm_tile_core,--coverage,\
    rtl/wm_tile_core.v $(COV_ROUTER) $(COV_PE) $(COV_CORE),$(COV_VFILES) $(COV_ROUTER) $(COV_PE) $(COV_CORE)))
$(eval $(call verilate,$(COV)/vcore,Vwm_core_top,wm_core_top,--coverage,\
    -Irtl/core rtl/core/wm_core_top.v $(COV_CORE),$(COV_VFILES) $(COV_CORE)))

$(COV)/vrt/verilated_cov.o: $(VINC)/verilated_cov.cpp
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -DVM_COVERAGE=1 -I$(VINC) -I$(VINC)/vltstd -c $< -o $@

$(COV)/obj/fabric_rtl.o: csim/fabric/fabric_rtl.cpp $(COV_VTILE) $(COV_VTC) $(VTILE_TRACED) $(VTILECORE_TRACED)
	@mkdir -p $(@D)
	$(SHIM_CXX) $(COV_SHIMDEF) -isystem $(COV)/vtile -isystem $(COV)/vtilecore -isystem $(VBUILD)/vtile_fst \
	    -isystem $(VBUILD)/vtile_vcd -isystem $(VBUILD)/vtilecore_fst -isystem $(VBUILD)/vtilecore_vcd -c $< -o $@

$(COV)/obj/core_rtl.o: csim/core/core_rtl.cpp $(COV_VCORE)
	@mkdir -p $(@D)
	$(SHIM_CXX) $(COV_SHIMDEF) -isystem $(COV)/vcore -c $< -o $@

$(COV_LIBWM): $(LIB_O) $(COV_SHIM_O) $(BUILD)/obj/csim/fabric/fabric_vmesh.o
	@rm -f $@
	ar rcs $@ $^

$(COV)/wavemesh: $(BUILD)/obj/csim/cli/main.o $(COV_LIBS)
	$(CXX) -o $@ $< $(COV_LIBS) $(LDLIBS)

$(COV)/tests/%: $(BUILD)/obj/tests/%.o $(COV_LIBS)
	@mkdir -p $(@D)
	$(CXX) -o $@ $< $(COV_LIBS) -lcmocka $(LDLIBS)

.PHONY: coverage
coverage: check-tools ## Verilator's coverage over every test, the corpus and COV_RANDOM; build/coverage/report.txt
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
