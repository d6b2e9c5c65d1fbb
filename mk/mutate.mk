# ---------------------------------------------------------------- mutation score
# docs/verification.md, "Mutation": every mutant of tests/mutation/mutants
# applied alone to a copy of the sources in a folder of its own
# (build/mutate/NAME, never rtl/ itself), and built and checked there:
# lint, the formal jobs that read its file, the Icarus benches, the cmocka
# tests on the Verilated models, regress --quick, test-params-quick
# (mk/params.mk), stopping at the first
# that kills it; the table goes to build/mutate/table.md. An hour or more
# on this machine: not part of make test. MUTATE_ARGS passes options
# (--checks, --only, --jobs 2, --no-core), MUTATE_FORMAL_JOBS names the
# formal jobs. mutate-check (make test) runs two known mutants
# through the formal checks: one must be killed, the equivalent one must
# survive; and two of the core's corners (a halfword's sign, the window's
# edge) through its random programs alone: both must be killed.
MUTATE_ARGS ?=
# the formal jobs of about a minute each (the -deep ones take minutes;
# the router's proofs come last: they kill what the bounded checks miss)
MUTATE_FORMAL_JOBS ?= fifo4 fifo1 fifo3 arb5 arb3 router-credits-2 router-msgs-2 router-msgs-5 router-msgs-proof-2 router-msgs-proof-5
# The core's corner mutants (tests/mutation/mutants, the block "corners the
# core's random programs must reach") against the random programs alone.
MUTATE_RANDOM ?= load-half-zero-ext,load-half-sign-lane,load-byte-sign-lane,load-byte-lane,win-carry-edge,win-end-past,ram-end-carry,shift-six-bits
.PHONY: mutate mutate-check mutate-random mutate-check-classes
mutate: check-tools ## the mutation score of the RTL, build/mutate/table.md (an hour or more; MUTATE_ARGS)
	@$(MAKE) --no-print-directory all
	@MUTATE_FORMAL_JOBS="$(MUTATE_FORMAL_JOBS)" nice -n 10 sh tests/mutation/mutate.sh $(MUTATE_ARGS) $(BUILD)/mutate

mutate-random: check-tools ## the core's corner mutants against its random programs alone, build/mutate-random/table.md (minutes)
	@$(MAKE) --no-print-directory $(BUILD)/tests/test_core-alone
	@nice -n 10 sh tests/mutation/mutate.sh --checks random --only $(MUTATE_RANDOM) $(BUILD)/mutate-random

mutate-check: check-tools ## known mutants: formal kills one, the equivalent one survives, the core's random programs kill two
	@rm -rf $(BUILD)/mutate-check
	@MUTATE_FORMAL_JOBS="fifo4 router-credits-2" sh tests/mutation/mutate.sh --checks formal --jobs 2 \
	    --only fifo-push-when-full,route-y-first $(BUILD)/mutate-check > $(BUILD)/mutate-check.log 2>&1; \
	if [ $$? -ne 0 ] || ! grep -q '^| fifo-push-when-full | rtl/prim/wm_fifo.v:[0-9]* | .* | killed by formal | fifo4: ' \
	        $(BUILD)/mutate-check/table.md || \
	    ! grep -q '^| route-y-first | rtl/wm_router.v:[0-9]* | .* | equivalent (no check run killed it)' \
	        $(BUILD)/mutate-check/table.md; then \
	    cat $(BUILD)/mutate-check.log; echo "mutate-check: the mutation run misjudged a known mutant"; exit 1; fi
	@echo "mutate-check: fifo-push-when-full killed by formal, route-y-first survives as equivalent"
	@rm -rf $(BUILD)/mutate-check-random
	@$(MAKE) --no-print-directory $(BUILD)/tests/test_core-alone
	@sh tests/mutation/mutate.sh --checks random --jobs 2 --only load-half-sign-lane,win-carry-edge \
	    $(BUILD)/mutate-check-random > $(BUILD)/mutate-check-random.log 2>&1; \
	if [ $$? -ne 0 ] || [ $$(grep -c '^| [a-z-]* | rtl/core/wm_core.v:[0-9]* | .* | killed by random | test_core-alone: seed ' \
	        $(BUILD)/mutate-check-random/table.md) -ne 2 ]; then \
	    cat $(BUILD)/mutate-check-random.log; echo "mutate-check: the core's random programs alone missed a corner's mutant"; exit 1; fi
	@echo "mutate-check: load-half-sign-lane and win-carry-edge killed by the core's random programs alone"

# mutate-check-classes (make test, after all): one mutant of each class
# the checks reach only away from the defaults or on cases built for it,
# killed by the quick check written for it: a parameter not passed down
# with the cores running (test-params-quick), the tsc's high word past
# 2^32 and a same-cycle priority of the router (tests/rules.sh, in the
# icarus check); a ring wrapped with a mask (test-params-quick at RX 3), a
# width taken from the wrong depth (tb_mesh_depths at IN 8 / RX 3, in the
# icarus check); the debugger's answers against the model (test_rsp) and
# the profile's invariants (test_profile_invariants). Each entry is
# NAME:CHECK, or NAME:CHECK:TEST for a cmocka test run alone.
MUTATE_CLASSES := tsc-high-no-carry:icarus err-hdr-highest:icarus tile-core-tx-depth:params \
                  sw-rx-ring-mask:params credit-width-rx:icarus gdb-coord-swapped:cmocka:test_rsp \
                  path-empty-segments:cmocka:test_profile_invariants
mutate-check-classes: check-tools ## one mutant per class (parameters, wide counters, simultaneity, odd depths, checked answers) killed by its quick check
	@rm -rf $(BUILD)/mutate-classes $(BUILD)/mutate-classes.log
	@for mc in $(MUTATE_CLASSES); do \
	    name=$${mc%%:*}; check=$${mc#*:}; tests=""; \
	    case "$$check" in *:*) tests=$${check#*:}; check=$${check%%:*} ;; esac; \
	    MUTATE_TESTS="$$tests" sh tests/mutation/mutate.sh --checks $$check --only $$name $(BUILD)/mutate-classes \
	        >> $(BUILD)/mutate-classes.log 2>&1; \
	    grep -q "^| $$name | [^|]* | .* | killed by $$check | " $(BUILD)/mutate-classes/table.md || { \
	        cat $(BUILD)/mutate-classes.log; echo "mutate-check-classes: $$name not killed by $$check"; exit 1; }; \
	    grep "^| $$name |" $(BUILD)/mutate-classes/table.md | awk -F' [|] ' '{ print "mutate-check-classes: " $$1 " " $$5 }' \
	        | sed -e 's/^mutate-check-classes: | /mutate-check-classes: /' -e 's/ |$$//'; \
	done
