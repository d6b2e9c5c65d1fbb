# ---------------------------------------------------------------- formal proofs
# docs/verification.md, "Formal". rtl/formal/run.sh proves each harness of
# rtl/formal/ with yosys-abc's pdr (or checks it to a stated depth) and
# reaches every cover with yosys-smtbmc and z3; the RTL's own invariants
# (under `ifdef FORMAL`) join every proof of the module that holds them.
#   formal        every job, the router's included (minutes)
#   formal-quick  (make test) the FIFO and the arbiter at several sizes,
#                 the router's messages from two inputs proved for all time
FORMAL_DIR := $(BUILD)/formal
.PHONY: formal formal-quick

formal: check-tools ## every formal proof and cover of rtl/formal/ (minutes)
	@sh rtl/formal/run.sh $(FORMAL_DIR)

# ... and the check fires: the FIFO that takes a push when full (the one
# bug the lockstep corpus let through) must fail fifo4's proof.
formal-quick: check-tools ## the FIFO's, the arbiter's and the router's message proofs; a planted FIFO bug must fail
	@sh rtl/formal/run.sh $(FORMAL_DIR) --quick
	@rm -rf $(FORMAL_DIR)-fault && mkdir -p $(FORMAL_DIR)-fault && cp -r rtl $(FORMAL_DIR)-fault/
	@sed -i 's/do_push = push_i && !full_q;/do_push = push_i;/' $(FORMAL_DIR)-fault/rtl/prim/wm_fifo.v
	@sh $(FORMAL_DIR)-fault/rtl/formal/run.sh $(FORMAL_DIR)-fault/out fifo4 > $(FORMAL_DIR)-fault/run.log; \
	if [ $$? -ne 1 ] || ! grep -q '^formal: fifo4: FAILED' $(FORMAL_DIR)-fault/run.log; then \
	    cat $(FORMAL_DIR)-fault/run.log; echo "formal-quick: a FIFO that takes a push when full went unnoticed"; exit 1; fi
	@echo "formal-quick: a planted FIFO push-when-full fails fifo4's proof, as it must"
