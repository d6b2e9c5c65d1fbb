# ---------------------------------------------------------------- the tree's rules
# Static checks of the sources, each shown to fire on a planted fault.

# The layer rule of csim/README.md, and proof that the check fires: a copy
# of csim/ with one upward include must be refused.
.PHONY: check-layers check-firmware check-no-exit check-cycles check-docs
check-layers: ## no file of csim/ includes from a higher layer; a planted upward include is refused
	@sh tests/check_layers.sh .
	@rm -rf $(BUILD)/layers-fault && mkdir -p $(BUILD)/layers-fault && cp -r csim $(BUILD)/layers-fault/
	@echo '#include "cli/commands.h"' >> $(BUILD)/layers-fault/csim/fabric/fabric_backend.c
	@if sh tests/check_layers.sh $(BUILD)/layers-fault >/dev/null; then \
	    echo "check-layers: an upward include went unnoticed"; exit 1; fi

# Firmware is freestanding C that sees only sw/mp.h and its PE's memory
# (docs/pe-memory.md); and the check fires: a kernel that calls malloc is
# refused.
check-firmware: ## sw/ is freestanding C that sees only sw/mp.h; a planted malloc is refused
	@CC=$(CC) sh tests/check_firmware.sh . $(BUILD)/freestanding
	@rm -rf $(BUILD)/firmware-fault && mkdir -p $(BUILD)/firmware-fault && cp -r sw $(BUILD)/firmware-fault/
	@printf 'void *malloc(unsigned long n);\nvoid *wm_leaf_scratch(void) { return malloc(64); }\n' \
	    >> $(BUILD)/firmware-fault/sw/collectives/leaf.c
	@if CC=$(CC) sh tests/check_firmware.sh $(BUILD)/firmware-fault $(BUILD)/firmware-fault/obj >/dev/null; then \
	    echo "check-firmware: a kernel calling malloc went unnoticed"; exit 1; fi

# Library code (csim/ but cli/) returns its errors: no exit or abort but the
# allowed ones; the self-test plants one and expects the report.
check-no-exit: ## no exit()/abort() in csim/ outside cli/ but the allowed; a planted abort() is refused
	@sh tests/check_no_exit.sh .
	@sh tests/check_no_exit.sh --self-test

# No cycle in csim/'s includes, nor in the calls between the objects of one
# folder (nm on the built objects); the self-test plants cycles.
check-cycles: $(LIBWM) ## no include cycle in csim/, no call cycle within a folder; planted cycles are refused
	@sh tests/check_include_cycles.sh . $(BUILD)/obj
	@CC=$(CC) sh tests/check_include_cycles.sh --self-test . $(BUILD)/obj

# The docs say what the tool prints: checked figures, no commit hash or load
# average outside a Machine: line, no broken link; planted faults are refused.
check-docs: $(WAVEMESH) ## docs/ figures match the tool, no hash or load average, links resolve; planted faults are refused
	@bash tests/check_docs.sh
	@bash tests/check_docs_fires.sh

# A check that is a script of tests/ and nothing else: check-NAME runs
# tests/check_NAME.sh on the source tree, whose exit status is the verdict;
# naming it in TEST_STEPS puts it in make test.
check-%: tests/check_%.sh ## tests/check_NAME.sh on the source tree (a script that takes the tree's root)
	@sh $< .

# Jitter (docs/kernels.md): the seed's rows under 20 schedules natively
# and on the cores, exercise 1's hidden race caught with its reproducing
# command, the gs methods under 3; -full: 100 schedules, the gs ones too.
check-jitter: $(WAVEMESH) ## the seed's rows pass 20 jittered schedules natively and on the cores, the gs kernels 3; exercise 1's race on race.rows is caught with its seed
	@sh tests/check_jitter.sh $(WAVEMESH) 20 3
check-jitter-full: $(WAVEMESH) ## the same under 100 schedules, the gs kernels too
	@sh tests/check_jitter.sh $(WAVEMESH) 100 100
