# ---------------------------------------------------------------- the suites
# The cmocka binaries and regress --quick, as built (make sanitize runs
# them built with the sanitizers). Each cmocka binary exits with its number
# of failed tests; its report goes to stderr, so it is captured with 2>&1.
.PHONY: run-tests run-tests-unit run-tests-scenarios regress-long check-mpi-sigint
# run-tests-unit: the cmocka binaries and regress --quick, the part that
# exercises every source file (make sanitize-undefined runs it under UBSan);
# run-tests-scenarios the scenario checks: random lockstep, shrinking,
# ledgers, campaigns and one fabric on MPI; run-tests both.
RUN_UNIT = for t in $(TEST_BIN); do \
	    echo "== $$t"; \
	    if $$t 2>&1; then pass=$$((pass+1)); else fail=$$((fail+1)); echo "FAILED: $$t"; fi; \
	done; \
	echo "== $(WAVEMESH) regress --quick"; \
	if $(WAVEMESH) regress --quick; then pass=$$((pass+1)); else fail=$$((fail+1)); echo "FAILED: regress --quick"; fi
run-tests-unit: ## the cmocka binaries and regress --quick, as built
	@pass=0; fail=0; $(RUN_UNIT); \
	echo "test binaries: $$pass passed, $$fail failed"; \
	[ $$fail -eq 0 ]
run-tests: ## the cmocka binaries, regress --quick, the random lockstep and campaigns on MPI (a rank killed or stopped among them), as built
	@$(MAKE) --no-print-directory run-tests-unit
	@$(MAKE) --no-print-directory run-tests-scenarios
run-tests-scenarios: $(if $(HAVE_MPICC),$(MPI_PLUGIN)) ## the random lockstep, the shrinker, the ledgers, campaigns and one fabric on MPI, as built (a step of test)
	@pass=0; fail=0; \
	echo "== $(WAVEMESH) $(RANDOM_TEST_ARGS) (each line in $(BUILD)/regress-random.log)"; \
	if $(WAVEMESH) $(RANDOM_TEST_ARGS) --log $(BUILD)/regress-random.log; then pass=$$((pass+1)); \
	else fail=$$((fail+1)); echo "FAILED: regress --random"; fi; \
	echo "== sh tests/check_coverage_report.sh"; \
	if sh tests/check_coverage_report.sh; then pass=$$((pass+1)); \
	else fail=$$((fail+1)); echo "FAILED: check_coverage_report.sh"; fi; \
	echo "== sh tests/check_random_shrink.sh"; \
	if sh tests/check_random_shrink.sh $(WAVEMESH); then pass=$$((pass+1)); \
	else fail=$$((fail+1)); echo "FAILED: check_random_shrink.sh"; fi; \
	echo "== sh tests/check_regress_ledger.sh"; \
	if sh tests/check_regress_ledger.sh $(WAVEMESH); then pass=$$((pass+1)); \
	else fail=$$((fail+1)); echo "FAILED: check_regress_ledger.sh"; fi; \
	echo "== sh tests/check_mpi_regress.sh"; \
	if sh tests/check_mpi_regress.sh $(WAVEMESH); then pass=$$((pass+1)); \
	else fail=$$((fail+1)); echo "FAILED: check_mpi_regress.sh"; fi; \
	echo "== sh tests/check_mpi_fabric.sh"; \
	if sh tests/check_mpi_fabric.sh $(WAVEMESH); then pass=$$((pass+1)); \
	else fail=$$((fail+1)); echo "FAILED: check_mpi_fabric.sh"; fi; \
	echo "== sh tests/check_mpi_ledger.sh"; \
	if sh tests/check_mpi_ledger.sh $(WAVEMESH); then pass=$$((pass+1)); \
	else fail=$$((fail+1)); echo "FAILED: check_mpi_ledger.sh"; fi; \
	echo "scenario checks: $$pass passed, $$fail failed"; \
	[ $$fail -eq 0 ]

# Constrained-random lockstep (docs/verification.md): `make test` runs a
# few hundred small scenarios; `make regress-long` ten thousand over every
# shape up to 32x32, one process per scenario, JOBS at a time, each line in
# $(BUILD)/regress-long.log, failures and the summary on the terminal.
RANDOM_TEST_ARGS := regress --random 400 --seed 1 --max-side 16 --max-line-side 320 --max-core-side 4 --jobs 2
RANDOM_LONG_N    ?= 10000
RANDOM_SEED      ?= 1
JOBS             ?= 2
# With mpirun installed it runs on MPI, one rank a core (Open MPI's root
# opt-in set here); without, JOBS forked processes.
MPIRUN           ?= $(shell command -v mpirun 2>/dev/null)
RANKS            ?= $(shell nproc)
check-mpi-sigint: all ## SIGINT to mpirun in the middle of a campaign, RUNS (10) times: the summary so far and the JUnit file each time (tests/check_mpi_sigint.sh)
	sh tests/check_mpi_sigint.sh $(WAVEMESH) $(or $(RUNS),10)

regress-long: check-tools ## RANDOM_LONG_N (10000) random lockstep scenarios: on MPI, a rank a core, or JOBS (2) at a time
	@$(MAKE) --no-print-directory $(WAVEMESH) firmware $(if $(MPIRUN),$(MPI_PLUGIN))
	$(if $(MPIRUN),OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 $(MPIRUN) -np $(RANKS)) \
	$(WAVEMESH) regress --random $(RANDOM_LONG_N) --seed $(RANDOM_SEED) --jobs $(JOBS) --progress \
	    --log $(BUILD)/regress-long.log --junit $(BUILD)/regress-long.xml

# The core's differential test linked with the core's model alone, not the
# tiles' (make mutate's random check rebuilds only the core for a mutant of
# rtl/core/): `test_core-alone --random-only` runs the random programs only.
CORE_ALONE   := $(BUILD)/tests/test_core-alone
CORE_ALONE_O := $(BUILD)/obj/tests/test_core.o $(filter $(BUILD)/obj/csim/core/%,$(LIB_O))
$(CORE_ALONE): $(CORE_ALONE_O) $(CORE_LIBS) $(VRT_O)
	@mkdir -p $(@D)
	$(CXX) -o $@ $(CORE_ALONE_O) $(CORE_LIBS) $(VRT_O) -lcmocka $(LDLIBS)
