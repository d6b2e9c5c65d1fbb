# ---------------------------------------------------------------- sanitizers
# make sanitize: everything built again under build/san with AddressSanitizer
# and UndefinedBehaviorSanitizer (the Verilated models and Verilator's
# runtime too), then every test binary and regress --quick run on it; any
# report fails the run (UBSan halts on its first finding that
# tests/ubsan.supp does not waive, ASan on its first).
# The coroutine switches are announced to ASan (csim/run/native_sched.c). The
# FST writer's findings are waived in tests/ubsan.supp, with the reasons.
SAN_BUILD  := $(BUILD)/san
SAN_FLAGS  := -fsanitize=address,undefined -fno-omit-frame-pointer
SAN_MAKE   := $(MAKE) --no-print-directory BUILD=$(SAN_BUILD) CC="$(CC) $(SAN_FLAGS)" CXX="$(CXX) $(SAN_FLAGS)" \
              OPT="-O2 -g" VOPT="-O1"
SAN_ENV    := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=0 \
              UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:suppressions=$(abspath tests/ubsan.supp)
.PHONY: sanitize
sanitize: check-tools ## everything built again with ASan and UBSan under build/san, then run-tests on it
	@$(SAN_MAKE) all
	@$(SAN_ENV) $(SAN_MAKE) run-tests

# make sanitize-undefined (make test, so CI): UndefinedBehaviorSanitizer
# alone, on what we compile (csim/, sw/, tests/ and the C++ shims) under
# build/ubsan, linked with the plain Verilated models and runtime of
# $(BUILD) (VBUILD): those take most of make sanitize's hour to rebuild.
# They are built first, plain, so that nothing of $(BUILD) is rebuilt with
# the sanitizer. Then the same suite as make sanitize, and the check that
# fires: tests/sanitize/ub_fault.c, built and run the same way, must stop
# with UBSan's report.
UBSAN_BUILD := $(BUILD)/ubsan
UBSAN_MAKE  := $(MAKE) --no-print-directory BUILD=$(UBSAN_BUILD) VBUILD=$(BUILD) \
               CC="$(CC) -fsanitize=undefined" CXX="$(CXX) -fsanitize=undefined" OPT="-O2 -g"
UBSAN_ENV   := UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:suppressions=$(abspath tests/ubsan.supp)
.PHONY: sanitize-undefined
sanitize-undefined: check-tools ## UBSan on what we compile, the suite run on it; a planted overflow must be reported
	@$(MAKE) --no-print-directory $(BUILD_JOBS) all
	@$(UBSAN_MAKE) $(BUILD_JOBS) all
	@$(UBSAN_ENV) $(UBSAN_MAKE) run-tests-unit
	@$(CC) -fsanitize=undefined $(CSTD) $(WARN) -O0 -g tests/sanitize/ub_fault.c -o $(UBSAN_BUILD)/ub_fault
	@if $(UBSAN_ENV) $(UBSAN_BUILD)/ub_fault > $(UBSAN_BUILD)/ub_fault.log 2>&1 || \
	    ! grep -q 'runtime error: signed integer overflow' $(UBSAN_BUILD)/ub_fault.log; then \
	    cat $(UBSAN_BUILD)/ub_fault.log; echo "sanitize-undefined: a signed overflow went unreported"; exit 1; fi
	@echo "sanitize-undefined: the suite is clean, and a known signed overflow is reported and stops its program"
