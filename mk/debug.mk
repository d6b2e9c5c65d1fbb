# ---------------------------------------------------------------- GDB on the PE cores
# docs/debugging.md. check-gdb drives gdb-multiarch through the sessions
# of tests/gdb/ against `wavemesh run --gdb` on both backends;
# debug starts an interactive session on a row of sw/collectives/test.rows
# (TEST, default tutorial; BACKEND, default sw), GDB on the node kernel.
.PHONY: check-gdb debug
check-gdb: check-tools $(WAVEMESH) firmware ## gdb-multiarch on the tutorial row's cores (sw, rtl): threads, breaks, values, watch, stepi, same results; cores that stop in one cycle, each reported
	@bash tests/check_gdb.sh $(WAVEMESH)

TEST    ?= tutorial
BACKEND ?= sw
debug: check-tools $(WAVEMESH) firmware ## the TEST row (tutorial) of sw/collectives/test.rows on the cores, under gdb-multiarch
	@row=$$(sed -n 's/^row $(TEST) //p' sw/collectives/test.rows); \
	if [ -z "$$row" ]; then echo "make debug: no row '$(TEST)' in sw/collectives/test.rows"; exit 2; fi; \
	sets=; for s in $$row; do sets="$$sets --set $$s"; done; \
	port=$$((20000 + $$$$ % 20000)); \
	$(WAVEMESH) run sw/collectives/bench.layout $$sets --pe core --backend $(BACKEND) --gdb 127.0.0.1:$$port & \
	sleep 1; gdb-multiarch -q $(FW_DIR)/node.elf -ex "target remote 127.0.0.1:$$port"; wait
