# ---------------------------------------------------------------- fuzzing
# libFuzzer harnesses (tests/fuzz/), built with Debian's clang, AddressSanitizer
# and UndefinedBehaviorSanitizer: the layout parser, the rows parser (through
# `rows` itself, on the sw backend) and the dump reader behind wavediff (with
# the FST reader it uses, instrumented too). Each starts from its committed
# seed corpus (tests/fuzz/corpus/NAME); what it finds new goes to
# build/fuzz/NAME-new. `make fuzz` runs each for FUZZ_SECONDS (30 s each;
# make test runs fuzz-quick, 5 s each); `make fuzz FUZZ_RUNS=1000000` runs each for that many inputs
# instead. A crash, a hang (FUZZ_TIMEOUT s on one input, 30 s: wall time, on a
# machine others share) or a leak fails the
# target and leaves the input under build/fuzz/ (docs/verification.md); an
# input that once failed is kept as tests/fuzz/crashes/NAME-* and run first.
FUZZ_CC      ?= clang
FUZZ_CXX     ?= clang++
FUZZ_DIR     := $(BUILD)/fuzz
# UBSan recovers, so that tests/ubsan.supp applies; halt_on_error stops on
# any other finding.
FUZZ_SAN     := -fsanitize=address,undefined
# -MMD -MP: an object is rebuilt when a header it includes changes (a struct
# that grows would otherwise be read at its old size).
FUZZ_CFLAGS  := $(CSTD) -g -O1 -MMD -MP $(FUZZ_SAN) -fsanitize=fuzzer-no-link -Icsim -Isw -DBUILD_DIR='"$(BUILD)"' \
                -isystem $(VINC)/gtkwave -DFST_CONFIG_INCLUDE='"fst_config.h"'
FUZZ_SECONDS ?= 30
FUZZ_RUNS    ?=
FUZZ_TIMEOUT ?= 30
FUZZ_NAMES   := layout rows dump
FUZZ_BIN     := $(FUZZ_NAMES:%=$(FUZZ_DIR)/fuzz_%)

$(FUZZ_DIR)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_DIR)/obj/fst/%.o: $(VINC)/gtkwave/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) -g -O1 $(FUZZ_SAN) -fsanitize=fuzzer-no-link -I$(VINC)/gtkwave -DFST_CONFIG_INCLUDE='"fst_config.h"' \
	    -c $< -o $@

# The parsers under test are instrumented; what they call comes from the
# build's own archives.
# The one line reader (csim/core/lines.c) is every harness's too.
FUZZ_LINES_O := $(FUZZ_DIR)/obj/csim/core/lines.o $(FUZZ_DIR)/obj/csim/core/xalloc.o
$(FUZZ_DIR)/fuzz_layout: $(FUZZ_DIR)/obj/tests/fuzz/fuzz_layout.o $(FUZZ_DIR)/obj/csim/run/layout.o $(FUZZ_LINES_O) \
                         $(MODEL_LIBS)
	$(FUZZ_CXX) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $(filter $(FUZZ_DIR)/%,$^) $(MODEL_LIBS) $(LDLIBS)
$(FUZZ_DIR)/fuzz_rows: $(FUZZ_DIR)/obj/tests/fuzz/fuzz_rows.o $(FUZZ_DIR)/obj/csim/cli/cmd_rows.o \
                       $(FUZZ_DIR)/obj/csim/run/layout.o $(FUZZ_LINES_O) $(MODEL_LIBS)
	$(FUZZ_CXX) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $(filter $(FUZZ_DIR)/%,$^) $(MODEL_LIBS) $(LDLIBS)
$(FUZZ_DIR)/fuzz_dump: $(FUZZ_DIR)/obj/tests/fuzz/fuzz_dump.o $(FUZZ_DIR)/obj/csim/waves/waves_read.o $(FUZZ_LINES_O) \
                       $(FUZZ_DIR)/obj/fst/fstapi.o $(FUZZ_DIR)/obj/fst/lz4.o $(FUZZ_DIR)/obj/fst/fastlz.o
	$(FUZZ_CXX) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ -lz -lpthread

-include $(shell find $(FUZZ_DIR)/obj -name '*.d' 2>/dev/null)

.PHONY: fuzz fuzz-quick fuzz-build
fuzz-build: $(FUZZ_BIN) ## build the libFuzzer harnesses under build/fuzz
fuzz-quick: check-tools ## each libFuzzer harness for 5 s (a step of test)
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=5
fuzz: check-tools ## each libFuzzer harness for FUZZ_SECONDS (30) or FUZZ_RUNS inputs
	@$(MAKE) --no-print-directory $(BUILD_JOBS) fuzz-build
	@for n in $(FUZZ_NAMES); do \
	    mkdir -p $(FUZZ_DIR)/$$n-new $(FUZZ_DIR)/$$n-out; \
	    for c in tests/fuzz/crashes/$$n-*; do [ -f "$$c" ] || continue; \
	        echo "== fuzz $$n: $$c, found by an earlier run"; \
	        $(FUZZ_DIR)/fuzz_$$n $$c > $(FUZZ_DIR)/$$n-crash.log 2>&1 || { tail -30 $(FUZZ_DIR)/$$n-crash.log; exit 1; }; \
	    done; \
	    echo "== fuzz $$n: $(if $(FUZZ_RUNS),$(FUZZ_RUNS) inputs,$(FUZZ_SECONDS) s)"; \
	    (cd $(FUZZ_DIR)/$$n-out && ASAN_OPTIONS=detect_leaks=1 \
	        UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:suppressions=$(abspath tests/ubsan.supp) \
	        $(abspath $(FUZZ_DIR))/fuzz_$$n \
	        $(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS),-max_total_time=$(FUZZ_SECONDS)) -timeout=$(FUZZ_TIMEOUT) \
	        -rss_limit_mb=2048 -max_len=8192 -close_fd_mask=3 -print_final_stats=1 \
	        $(abspath $(FUZZ_DIR))/$$n-new $(abspath tests/fuzz/corpus/$$n)) > $(FUZZ_DIR)/$$n.log 2>&1 \
	        || { tail -40 $(FUZZ_DIR)/$$n.log; echo "fuzz $$n: FAILED, the input is under $(FUZZ_DIR)/$$n-out"; exit 1; }; \
	    grep -E '^stat::number_of_executed_units|^stat::average_exec_per_sec|^stat::peak_rss_mb' $(FUZZ_DIR)/$$n.log \
	        | sed "s/^/fuzz $$n: /"; \
	done
