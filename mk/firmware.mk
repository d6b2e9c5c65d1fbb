# ---------------------------------------------------------------- firmware for the PE cores
# Every kernel of sw/kernels.c compiled for the core (docs/core.md, "The PE
# image"): one image a kernel, crt0 + sw/rv32's runtime + the kernel and
# what it calls (--gc-sections drops the rest), linked by sw/rv32/link.ld
# at address 0. KERNEL.elf for objdump and the waves' disassembler,
# KERNEL.bin the bytes the loader writes into the tile's RAM.
RV_CC      := $(RV_PREFIX)gcc
RV_OBJCOPY := $(RV_PREFIX)objcopy
# -fno-var-tracking-assignments: the debug information GDB reads
# (docs/debugging.md) tracks a local in the register that holds it, where
# GCC's default loses left and right of the node kernel's loop; the code
# is the same, byte for byte. -fdebug-prefix-map: the sources named as
# ./sw/... whoever built them, for the reports' source lines
# (csim/waves/fw_lines.h).
RV_CFLAGS  := -std=c11 -march=rv32im -mabi=ilp32 -O2 -g -fno-var-tracking-assignments -ffreestanding -fno-builtin -nostdlib -nostartfiles \
              -fno-tree-loop-distribute-patterns -msmall-data-limit=8 -ffunction-sections -fdata-sections \
              -fdebug-prefix-map=$(CURDIR)=. $(WARN) -Isw -MMD -MP
RV_LDFLAGS := -march=rv32im -mabi=ilp32 -nostdlib -nostartfiles -Wl,-T,sw/rv32/link.ld -Wl,--gc-sections
FW_DIR     := $(BUILD)/firmware
FW_KERNELS := leaf node chain allreduce gs stream msgcost calib gscalib gsglue
# The kernels' sources and the runtime; kernels.c (the host's registry)
# and start.c (compiled once per kernel) are not shared objects.
FW_SRC     := $(filter-out sw/kernels.c sw/rv32/start.c,$(shell find sw -name '*.c'))
FW_OBJ     := $(FW_SRC:%.c=$(FW_DIR)/obj/%.o)
FW_BIN     := $(FW_KERNELS:%=$(FW_DIR)/%.bin)

.PHONY: firmware
firmware: $(FW_BIN) ## every kernel's image for the PE cores, build/firmware/KERNEL.bin and .elf

$(FW_DIR)/obj/%.o: %.c mk/firmware.mk
	@mkdir -p $(@D)
	$(RV_CC) $(RV_CFLAGS) -c $< -o $@

# The gscalib and gsglue kernels link the gs library besides their own
# timing code; that code only reads the timestamp around library calls
# (compiled -O2 like every kernel), so it is compiled for size to fit.
$(FW_DIR)/obj/sw/gs/calib.o $(FW_DIR)/obj/sw/gs/calib_glue.o: RV_CFLAGS += -Os
# The folding router and the auto method's trials are compiled for size
# too (-msave-restore: the registers saved by shared routines of libgcc),
# so that the gs image with every method fits below the stack.
$(FW_DIR)/obj/sw/gs/fold.o $(FW_DIR)/obj/sw/gs/autotune.o: RV_CFLAGS += -Os -msave-restore

$(FW_DIR)/obj/crt0.o: sw/rv32/crt0.S
	@mkdir -p $(@D)
	$(RV_CC) -march=rv32im -mabi=ilp32 -c $< -o $@

$(FW_DIR)/obj/start_%.o: sw/rv32/start.c
	@mkdir -p $(@D)
	$(RV_CC) $(RV_CFLAGS) -DWM_FW_KERNEL=wm_kernel_$* -c $< -o $@

$(FW_DIR)/%.elf: $(FW_DIR)/obj/crt0.o $(FW_DIR)/obj/start_%.o $(FW_OBJ) sw/rv32/link.ld
	$(RV_CC) $(RV_LDFLAGS) -o $@ $(FW_DIR)/obj/crt0.o $(FW_DIR)/obj/start_$*.o $(FW_OBJ) -lgcc

$(FW_DIR)/%.bin: $(FW_DIR)/%.elf
	$(RV_OBJCOPY) -O binary $< $@

# The dependency files come from the compiler, never from a rule: without
# this one, make's built-in `%: %.o` would have it remake start_KERNEL.d,
# when sw/rv32/start.c is newer, from a start_KERNEL.d.o built by the
# start_%.o rule.
$(FW_DIR)/obj/%.d: ;

# The objects stay for incremental builds; the .elf for objdump.
.SECONDARY: $(FW_OBJ) $(FW_KERNELS:%=$(FW_DIR)/obj/start_%.o) $(FW_DIR)/obj/crt0.o $(FW_KERNELS:%=$(FW_DIR)/%.elf)
-include $(wildcard $(FW_DIR)/obj/*.d $(FW_DIR)/obj/*/*.d $(FW_DIR)/obj/*/*/*.d)
