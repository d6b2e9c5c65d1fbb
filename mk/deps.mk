# ---------------------------------------------------------------- deps
# The Debian packages the build needs. Every job that runs a tool starts
# with check-tools, which installs them when a tool is missing (root on CI
# and here).
DEPS_PKGS := verilator iverilog libcmocka-dev gtkwave zlib1g-dev xvfb x11-utils imagemagick bc \
             gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf \
             yosys nextpnr-ice40 fpga-icestorm gnuplot-nox z3 clang \
             gdb-multiarch openmpi-bin libopenmpi-dev

.PHONY: check-tools deps
check-tools: ## install the Debian packages if a tool is missing (every job runs it first)
	@missing=""; \
	command -v $(VERILATOR) >/dev/null || missing="$$missing verilator"; \
	command -v $(IVERILOG) >/dev/null || missing="$$missing iverilog"; \
	[ -f /usr/include/cmocka.h ] || missing="$$missing libcmocka-dev"; \
	command -v gtkwave >/dev/null || missing="$$missing gtkwave"; \
	[ -f /usr/include/zlib.h ] || missing="$$missing zlib1g-dev"; \
	command -v xvfb-run >/dev/null || missing="$$missing xvfb"; \
	command -v xwininfo >/dev/null || missing="$$missing x11-utils"; \
	command -v bc >/dev/null || missing="$$missing bc"; \
	command -v $(RV_CC) >/dev/null || missing="$$missing gcc-riscv64-unknown-elf"; \
	command -v $(RV_OBJCOPY) >/dev/null || missing="$$missing binutils-riscv64-unknown-elf"; \
	command -v yosys >/dev/null || missing="$$missing yosys"; \
	command -v nextpnr-ice40 >/dev/null || missing="$$missing nextpnr-ice40"; \
	command -v icepack >/dev/null || missing="$$missing fpga-icestorm"; \
	command -v gnuplot >/dev/null || missing="$$missing gnuplot-nox"; \
	command -v z3 >/dev/null || missing="$$missing z3"; \
	command -v clang >/dev/null || missing="$$missing clang"; \
	command -v gdb-multiarch >/dev/null || missing="$$missing gdb-multiarch"; \
	command -v mpirun >/dev/null || missing="$$missing openmpi-bin"; \
	command -v mpicc >/dev/null || missing="$$missing libopenmpi-dev"; \
	if [ -n "$$missing" ]; then echo "wavemesh: installing:$$missing"; $(MAKE) --no-print-directory deps; fi

deps: ## install the Debian packages the build needs (apt-get)
	@if [ "$$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi; \
	$$SUDO apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $(DEPS_PKGS)
