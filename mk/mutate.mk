# ---------------------------------------------------------------- mutation score
# docs/verification.md, "Mutation": every mutant of tests/mutation/mutants
# applied alone to a copy of the sources in a folder of its own
# (build/mutate/NAME, never rtl/ itself), and built and checked there:
# lint, the formal jobs that read its file, the Icarus benches, the cmocka
# tests on the Verilated models, regress --quick, stopping at the first
# that kills it; the table goes to build/mutate/table.md. An hour or more
# on this machine: not part of make test. MUTATE_ARGS passes options
# (--checks, --only, --jobs 2, --no-core), MUTATE_FORMAL_JOBS names the
# formal jobs. mutate-check (make test) runs two known mutants
# through the formal checks: one must be killed, the equivalent one must
# survive.
MUTATE_ARGS ?=
# the formal jobs of about a minute each (the -deep ones take minutes;
# the router's proofs come last: they kill what the bounded checks miss)
MUTATE_FORMAL_JOBS ?= fifo4 fifo1 fifo3 arb5 arb3 router-credits-2 router-msgs-2 router-msgs-5 router-msgs-proof-2 router-msgs-proof-5
.PHONY: mutate mutate-check
mutate: check-tools ## the mutation score of the RTL, build/mutate/table.md (an hour or more; MUTATE_ARGS)
	@$(MAKE) --no-print-directory all
	@MUTATE_FORMAL_JOBS="$(MUTATE_FORMAL_JOBS)" nice -n 10 sh tests/mutation/mutate.sh $(MUTATE_ARGS) $(BUILD)/mutate

mutate-check: check-tools ## two known mutants through the formal checks: one killed, the equivalent one survives
	@rm -rf $(BUILD)/mutate-check
	@MUTATE_FORMAL_JOBS="fifo4 router-credits-2" sh tests/mutation/mutate.sh --checks formal --jobs 2 \
	    --only fifo-push-when-full,route-y-first $(BUILD)/mutate-check > $(BUILD)/mutate-check.log 2>&1; \
	if [ $$? -ne 0 ] || ! grep -q '^| fifo-push-when-full | rtl/prim/wm_fifo.v:[0-9]* | .* | killed by formal | fifo4: ' \
	        $(BUILD)/mutate-check/table.md || \
	    ! grep -q '^| route-y-first | rtl/wm_router.v:[0-9]* | .* | equivalent (no check run killed it)' \
	        $(BUILD)/mutate-check/table.md; then \
	    cat $(BUILD)/mutate-check.log; echo "mutate-check: the mutation run misjudged a known mutant"; exit 1; fi
	@echo "mutate-check: fifo-push-when-full killed by formal, route-y-first survives as equivalent"
