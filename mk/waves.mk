# ---------------------------------------------------------------- waves
# Waves of one seed row (TEST=tutorial, tworow or compact) from both
# backends, with their save files; `view` opens the rtl one in GTKWave;
# `waves-png` makes the screenshots of docs/waves.md headless (xvfb-run).
# `waves-core` is `waves` for the cores: build/waves/TEST-core-{rtl,sw}.fst,
# their save files, whose filters disassemble the cores' instructions and
# name their PCs (csim/waves/waves_fw.c, from build/firmware/KERNEL.elf),
# and their wavediff; waves/TEST-core.gtkw is made from it (docs/waves.md).
TEST      ?= tutorial
WAVES_DIR := $(BUILD)/waves
# The rows of sw/collectives/test.rows on bench.layout, with their settings;
# any other TEST is refused rather than dumped under its name.
WAVES_TESTS := tutorial tworow compact
WAVES_SET := $(if $(filter tworow,$(TEST)),--set SHAPE=1 --set V0=7 --set V1=300 --set V2=0 --set V3=5,\
             $(if $(filter compact,$(TEST)),--set SHAPE=2,--set SHAPE=0))
.PHONY: waves view waves-png waves-core waves-test-check
waves-test-check: ## refuse a TEST that is not a row of bench.layout (waves and waves-core run it first)
	@case " $(WAVES_TESTS) " in *" $(TEST) "*) ;; \
	    *) echo "make: TEST=$(TEST) is not a row of sw/collectives/bench.layout (TEST=tutorial, tworow or compact)" >&2; \
	       exit 2;; esac

waves: check-tools waves-test-check ## dump one seed row (TEST=tutorial) from both backends, compare them
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
view: waves ## make waves, then open the rtl dump in GTKWave (needs a DISPLAY)
	@if [ -z "$$DISPLAY" ]; then echo "make view: no DISPLAY, GTKWave needs one (make waves-png makes screenshots without)" >&2; \
	    exit 1; fi
	@gtkwave -a $(WAVES_DIR)/$(TEST)-rtl.gtkw $(WAVES_DIR)/$(TEST)-rtl.fst & pid=$$!; sleep 2; \
	if ! kill -0 $$pid 2>/dev/null; then wait $$pid; \
	    echo "make view: GTKWave could not start (exit $$?; DISPLAY=$$DISPLAY)" >&2; exit 1; fi

waves-png: ## the screenshots of docs/waves.md, headless (xvfb-run)
	@$(MAKE) --no-print-directory waves TEST=tutorial
	@$(MAKE) --no-print-directory waves TEST=tworow
	@mkdir -p docs/img
	sh waves/screenshot.sh waves/tutorial-compact.gtkw $(WAVES_DIR)/tutorial-rtl.fst 0 400 docs/img/tutorial-upsweep.png 1920x1080
	sh waves/screenshot.sh waves/tutorial-compact.gtkw $(WAVES_DIR)/tutorial-rtl.fst 500 860 docs/img/tutorial-downsweep.png 1920x1080
	sh waves/screenshot.sh waves/tworow-compact.gtkw $(WAVES_DIR)/tworow-rtl.fst 0 860 docs/img/tworow-compact.png 1920x1080

waves-core: check-tools waves-test-check ## make waves on the PE cores (--pe core), instructions disassembled
	@$(MAKE) --no-print-directory $(WAVEMESH) firmware
	@mkdir -p $(WAVES_DIR)
	@for b in rtl sw; do \
	    $(WAVEMESH) run sw/collectives/bench.layout --backend $$b --pe core $(WAVES_SET) \
	        --trace $(WAVES_DIR)/$(TEST)-core-$$b.fst | grep '^waves:' || exit 1; \
	done
	@$(WAVEMESH) wavediff $(WAVES_DIR)/$(TEST)-core-rtl.fst $(WAVES_DIR)/$(TEST)-core-sw.fst
