/* test_core_firmware.c: bad firmware on the PE cores (`--pe core`), as a
 * user meets it through `wavemesh run`: each kind of fault stops the run
 * with the PE, its instance, the cause, the PC and the instruction named
 * and a non-zero exit, word for word the same on both backends; a core
 * that spins is stopped by --max-cycles with its PC named; an image too
 * big for the memory is refused before the run; a firmware fault raised by
 * sw/mp.h on the core is formatted on the host.
 *
 * The bad images are hand-assembled (csim/core/rv32_asm.h) into a folder
 * that WM_FIRMWARE_DIR points the loader at, as the chain kernel's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/rv32_asm.h"
#include "rv32/pe_block.h"

static char dir[64];
static char layout[128];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/wm-core-fw-XXXXXX");
    if (!mkdtemp(dir)) return -1;
    snprintf(layout, sizeof layout, "%s/one.layout", dir);
    FILE *f = fopen(layout, "w");
    if (!f) return -1;
    fputs("mesh 1 1\nregion all\nat l0 0 0\npe l0 chain VAL=5 FIRST=1 LAST=1\n", f);
    fclose(f);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* dir/NAME/chain.bin holding the n words. */
static void write_image(const char *name, const uint32_t *words, size_t n)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/%s/chain.bin", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(words, 4, n, f), n);
    fclose(f);
}

/* `wavemesh run` of the layout on backend with the images of dir/NAME
 * (NULL: the built ones); stdout and stderr into out; the exit status. */
static int run(const char *name, const char *backend, const char *layout_path, const char *extra, char *out,
               size_t n)
{
    char cmd[1024], fwdir[256] = "";
    if (name) snprintf(fwdir, sizeof fwdir, "WM_FIRMWARE_DIR=%s/%s ", dir, name);
    snprintf(cmd, sizeof cmd, "%s%s/wavemesh run %s --pe core --backend %s %s 2>&1", fwdir, BUILD_DIR, layout_path,
             backend, extra);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    const size_t got = fread(out, 1, n - 1, p);
    out[got] = '\0';
    const int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* What `run` prints after a one-PE run's report: its cycles and l0's end. */
#define RUN_TABLE(cycles, end) "run: " cycles " cycles\npe        l0\nend " end "\n"

/* Runs on both backends; both must exit 1 and print exactly `expected`. */
static void expect_report(const char *name, const char *layout_path, const char *extra, const char *expected)
{
    static const char *const backends[] = {"rtl", "sw"};
    for (int b = 0; b < 2; b++) {
        char out[4096];
        const int status = run(name, backends[b], layout_path, extra, out, sizeof out);
        if (strcmp(out, expected)) fprintf(stderr, "%s on %s printed:\n%s", name ? name : "", backends[b], out);
        assert_string_equal(out, expected);
        assert_int_equal(status, 1);
    }
}

static const uint32_t NOP = 0x00000013u;

static void test_an_illegal_instruction_is_named_with_its_pc(void **state)
{
    (void)state;
    const uint32_t prog[] = {NOP, 0x00000000u};
    write_image("illegal", prog, 2);
    /* cycle 0 fetches 0, the NOP is in X in cycle 1, the zero word in cycle 2 and halts at its end */
    expect_report("illegal", layout, "",
                  "firmware fault at cycle 3\n"
                  "  PE (0,0) l0 [chain]: fault: illegal instruction at pc 0x00000004, instruction 00000000 "
                  "(illegal 0x00000000)\n"
                  RUN_TABLE("3", "       3"));
}

static void test_a_misaligned_load_is_named(void **state)
{
    (void)state;
    const uint32_t prog[] = {NOP, rv_lw(1, 0, 2)};
    write_image("misaligned", prog, 2);
    expect_report("misaligned", layout, "",
                  "firmware fault at cycle 3\n"
                  "  PE (0,0) l0 [chain]: fault: misaligned load or store at pc 0x00000004, instruction 00202083 "
                  "(lw x1, 2(x0))\n"
                  RUN_TABLE("3", "       3"));
}

static void test_a_load_outside_the_memory_is_named(void **state)
{
    (void)state;
    const uint32_t prog[] = {rv_lui(1, 0x40000), rv_lw(2, 1, 0)};
    write_image("outside", prog, 2);
    expect_report("outside", layout, "",
                  "firmware fault at cycle 3\n"
                  "  PE (0,0) l0 [chain]: fault: load or store outside the memory at pc 0x00000004, instruction "
                  "0000a103 (lw x2, 0(x1))\n"
                  RUN_TABLE("3", "       3"));
}

static void test_a_store_outside_the_memory_is_named(void **state)
{
    (void)state;
    const uint32_t prog[] = {rv_lui(1, 0x10), rv_sw(0, 1, 0)};
    write_image("store-outside", prog, 2);
    expect_report("store-outside", layout, "",
                  "firmware fault at cycle 3\n"
                  "  PE (0,0) l0 [chain]: fault: load or store outside the memory at pc 0x00000004, instruction "
                  "0000a023 (sw x0, 0(x1))\n"
                  RUN_TABLE("3", "       3"));
}

static void test_a_read_of_an_unmapped_register_is_named(void **state)
{
    (void)state;
    /* TX (offset 0) is write-only */
    const uint32_t prog[] = {rv_lui(1, 0x80000), rv_lw(2, 1, 0)};
    write_image("unmapped", prog, 2);
    expect_report("unmapped", layout, "",
                  "firmware fault at cycle 3\n"
                  "  PE (0,0) l0 [chain]: fault: access to an unmapped PE register at pc 0x00000004, instruction "
                  "0000a103 (lw x2, 0(x1))\n"
                  RUN_TABLE("3", "       3"));
}

static void test_a_jump_to_nowhere_is_named_where_it_lands(void **state)
{
    (void)state;
    /* 0x10000 is past the 64 KiB RAM: JALR takes cycles 2-3, the target reaches X in cycle 4 */
    const uint32_t prog[] = {rv_lui(1, 0x10), rv_jalr(0, 1, 0)};
    write_image("nowhere", prog, 2);
    expect_report("nowhere", layout, "",
                  "firmware fault at cycle 5\n"
                  "  PE (0,0) l0 [chain]: fault: instruction fetch outside the memory at pc 0x00010000, instruction "
                  "00000000 (none)\n"
                  RUN_TABLE("5", "       5"));
}

/* dir/NAME/chain.elf assembled from source, and chain.bin copied out of
 * it, as make firmware makes them: an image with its own ELF. */
static void write_image_with_elf(const char *name, const char *source)
{
    char path[256], cmd[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/%s/chain.S", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(source, f);
    fclose(f);
    snprintf(cmd, sizeof cmd,
             "riscv64-unknown-elf-gcc -march=rv32im -mabi=ilp32 -nostdlib -Wl,-Ttext=0 -o %s/%s/chain.elf %s && "
             "riscv64-unknown-elf-objcopy -O binary %s/%s/chain.elf %s/%s/chain.bin",
             dir, name, path, dir, name, dir, name);
    assert_int_equal(system(cmd), 0);
}

/* A PC past the RAM is no function's, though the ELF has functions below
 * it: the report says where it is. */
static void test_a_jump_past_the_ram_is_named_outside_it(void **state)
{
    (void)state;
    write_image_with_elf("past", ".globl _start\n.type _start, @function\n_start:\n lui x1, 0x10\n jalr x0, 0(x1)\n"
                                 ".size _start, .-_start\n");
    expect_report("past", layout, "",
                  "firmware fault at cycle 5\n"
                  "  PE (0,0) l0 [chain]: fault: instruction fetch outside the memory at pc 0x00010000, instruction "
                  "00000000 (none), outside the RAM, 0x00000000..0x0000ffff\n"
                  RUN_TABLE("5", "       5"));
}

/* Another kernel's ELF beside an image (leaf.elf copied over node.elf)
 * names nothing: profile refuses it, naming both files, and a run's
 * report says why its PCs go unnamed. */
static void test_an_elf_that_is_not_the_images_is_refused(void **state)
{
    (void)state;
    char cmd[2048], out[8192];
    snprintf(cmd, sizeof cmd,
             "mkdir -p %s/swapped && cp %s/firmware/leaf.bin %s/firmware/node.bin %s/swapped/ && "
             "cp %s/firmware/leaf.elf %s/swapped/leaf.elf && cp %s/firmware/leaf.elf %s/swapped/node.elf",
             dir, BUILD_DIR, BUILD_DIR, dir, BUILD_DIR, dir, BUILD_DIR, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd,
             "WM_FIRMWARE_DIR=%s/swapped %s/wavemesh profile sw/collectives/bench.layout --pe core 2>&1", dir,
             BUILD_DIR);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int status = pclose(p);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 1);
    char want[1024];
    snprintf(want, sizeof want,
             "wavemesh profile: %s/swapped/node.elf does not match the image %s/swapped/node.bin (it loads 1036 "
             "bytes, the image has 1312): they are not of one build (make firmware)\n",
             dir, dir);
    assert_string_equal(out, want);
    /* the run stopped early names the leaves' PCs, not the nodes' */
    snprintf(cmd, sizeof cmd,
             "WM_FIRMWARE_DIR=%s/swapped %s/wavemesh run sw/collectives/bench.layout --pe core --backend sw "
             "--max-cycles 100 2>&1",
             dir, BUILD_DIR);
    p = popen(cmd, "r");
    assert_non_null(p);
    n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    status = pclose(p);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 1);
    snprintf(want, sizeof want,
             "PE (4,0) p0 [node]: running at pc 0x000000fc (no function named: %s/swapped/node.elf does not "
             "match the image %s/swapped/node.bin (it loads 1036 bytes, the image has 1312): they are not of one "
             "build (make firmware)), ",
             dir, dir);
    if (!strstr(out, want)) fail_msg("no '%s' in:\n%s", want, out);
    assert_non_null(strstr(out, "PE (0,0) l0 [leaf]: blocked on receive at pc 0x000000f0 (wm_kernel_leaf+0x78, "
                                "sw/collectives/leaf.c:31)"));
}

static void test_a_spinning_core_is_stopped_by_max_cycles_with_its_pc(void **state)
{
    (void)state;
    /* addi 1 cycle + jal 2 cycles: from cycle 1 to 299, 299 cycles, 199 retired (100 addi, 99 jal... one
     * addi-jal pair every 3 cycles: 99 pairs and the 100th addi) */
    const uint32_t prog[] = {rv_addi(1, 1, 1), rv_jal(0, -4)};
    write_image("spin", prog, 2);
    expect_report("spin", layout, "--max-cycles 300",
                  "cycle limit reached at cycle 300 with 1 kernel(s) still running\n"
                  "  PE (0,0) l0 [chain]: running at pc 0x00000004, 199 instructions retired\n"
                  RUN_TABLE("300", "       -"));
}

static void test_an_image_too_big_is_refused_before_the_run(void **state)
{
    (void)state;
    const size_t n = WM_PE_CODE_MAX / 4 + 1;
    uint32_t *prog = calloc(n, 4);
    assert_non_null(prog);
    for (size_t i = 0; i < n; i++) prog[i] = NOP;
    write_image("big", prog, n);
    free(prog);
    char expected[512];
    snprintf(expected, sizeof expected,
             "wavemesh: PE (0,0) l0 [chain]: the firmware %s/big/chain.bin is too big for the PE's memory: more "
             "than 22016 bytes, and code and data must end at 0x5600 to leave 2048 bytes of stack below the PE "
             "block at 0x5e00\n",
             dir);
    expect_report("big", layout, "", expected);
}

static void test_a_missing_image_says_how_to_build_it(void **state)
{
    (void)state;
    char empty[256], expected[512];
    snprintf(empty, sizeof empty, "%s/none", dir);
    mkdir(empty, 0755);
    snprintf(expected, sizeof expected,
             "wavemesh: PE (0,0) l0 [chain]: cannot read the firmware of kernel chain, %s/none/chain.bin: No such "
             "file or directory (`make firmware` builds it)\n",
             dir);
    expect_report("none", layout, "", expected);
}

static void test_a_library_fault_on_the_core_is_formatted_on_the_host(void **state)
{
    (void)state;
    char path[160];
    snprintf(path, sizeof path, "%s/fault.layout", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("mesh 1 1\nregion all\nat l0 0 0\npe l0 msgcost ROLE=0 TOX=1100 TOY=0\n", f);
    fclose(f);
    /* the real msgcost firmware, whose TOX has no declared range:
     * wm_mp_header (sw/rv32/mp_core.c) refuses column 1100 */
    char out[4096];
    const int status = run(NULL, "rtl", path, "", out, sizeof out);
    assert_int_equal(status, 1);
    assert_non_null(strstr(out, "  PE (0,0) l0 [msgcost]: fault: header to (1100,0): coordinates outside 0..1023 (the "
                                "EXIT store at pc 0x"));
    char out_sw[4096];
    assert_int_equal(run(NULL, "sw", path, "", out_sw, sizeof out_sw), 1);
    assert_string_equal(out, out_sw);
}

/* What one message costs a core (docs/core.md, "What a message costs"):
 * sw/mp.h inlined into the kernel, a header of one data wavelet built and
 * sent in 12 cycles, received in 11, a timestamp read in 4, on both
 * backends; the seed's cores took 31 at the sender, and the targets are
 * at most 31, 16 and 4. */
static void test_a_message_costs_a_core_less_than_the_seed(void **state)
{
    (void)state;
    static const char *const backends[] = {"rtl", "sw"};
    for (int b = 0; b < 2; b++) {
        char out[4096];
        assert_int_equal(run(NULL, backends[b], "sw/collectives/msgcost.layout", "", out, sizeof out), 0);
        assert_string_equal(out, "sender.cycles = 12\nsender.tsc_read = 4\nreceiver.cycles = 11\n"
                                 "receiver.tsc_read = 4\nrun: 152 cycles\npe     sender receiver\n"
                                 "end       130      152\n");
    }
}

/* A tag over 63 would be cut to the header's 6 bits: both PE modes stop
 * with the PE and the tag named (the leaf sends its SIDE as the tag). */
static void test_a_tag_too_wide_is_a_fault_in_both_modes(void **state)
{
    (void)state;
    char path[160];
    snprintf(path, sizeof path, "%s/tag.layout", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("mesh 2 1\nregion all\nat l 0 0\nat p 1 0\npe l leaf VAL=5 SIDE=100 UPX=p.x UPY=p.y\n"
          "pe p node ROOT=1 SIDE=0 UPX=p.x UPY=p.y LX=l.x LY=l.y CHILDREN=1\n",
          f);
    fclose(f);
    const char *const modes[] = {"core", "native"};
    for (int m = 0; m < 2; m++) {
        char cmd[512], out[4096];
        snprintf(cmd, sizeof cmd, "%s/wavemesh run %s --pe %s --backend sw 2>&1", BUILD_DIR, path, modes[m]);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        const size_t n = fread(out, 1, sizeof out - 1, p);
        out[n] = '\0';
        const int status = pclose(p);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 1);
        if (!strstr(out, "PE (0,0) l [leaf]: fault: header with tag 100 (the header's tag field holds 0..63)"))
            fail_msg("--pe %s printed:\n%s", modes[m], out);
    }
}

/* `traffic --pe core`: the stream kernel's firmware traffic, the same run
 * on both backends line for line (but the speed line), every PE checked. */
static void test_firmware_traffic_is_the_same_on_both_backends(void **state)
{
    (void)state;
    char out[2][4096];
    const char *const backends[] = {"rtl", "sw"};
    for (int b = 0; b < 2; b++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd,
                 "%s/wavemesh traffic --pe core --backend %s --mesh 4x3 --rate 0.05 --len 3 --cycles 400 2>&1 "
                 "| grep -v '^cpu '",
                 BUILD_DIR, backends[b]);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        const size_t n = fread(out[b], 1, sizeof out[b] - 1, p);
        out[b][n] = '\0';
        assert_int_equal(pclose(p), 0);
        assert_non_null(strstr(out[b], "firmware traffic: 7 messages a PE, one every 60 cycles; 84 sent, 84 arrived, "
                                       "every PE got what was sent to it\n"));
    }
    assert_string_equal(strchr(out[0], '\n'), strchr(out[1], '\n'));
}

/* `traffic --pe`: the latency percentiles come from the records the
 * stream kernels leave in their PEs' data memories. On an uncontended 2x2
 * mesh with one message a PE (the transpose: two PEs send to themselves,
 * two to each other one hop away), the cores' messages all take the same
 * time, their receivers' polling loops being longer than the hop; natively
 * a message to itself takes 16 cycles and one over the hop 18. The same on
 * both backends, text and CSV. */
static void test_firmware_traffic_percentiles_come_from_the_kernels_records(void **state)
{
    (void)state;
    const char *const modes[] = {"native", "core"};
    const char *const want_text[] = {"average latency 17.00 cycles (p50 16, p90 18, p99 18, max 18)\n",
                                     "average latency 122.00 cycles (p50 122, p90 122, p99 122, max 122)\n"};
    const char *const want_csv[] = {",native,2x2,transpose,0.05,3,1,4,4,132,17.000,16,18,18,18,",
                                    ",core,2x2,transpose,0.05,3,1,4,4,431,122.000,122,122,122,122,"};
    const char *const backends[] = {"rtl", "sw"};
    for (int m = 0; m < 2; m++) {
        for (int b = 0; b < 2; b++) {
            for (int csv = 0; csv < 2; csv++) {
                char cmd[512], out[4096];
                snprintf(cmd, sizeof cmd,
                         "%s/wavemesh traffic --pe %s --backend %s --mesh 2x2 --pattern transpose --rate 0.05 --len 3 "
                         "--cycles 20%s 2>&1",
                         BUILD_DIR, modes[m], backends[b], csv ? " --csv" : "");
                FILE *p = popen(cmd, "r");
                assert_non_null(p);
                const size_t n = fread(out, 1, sizeof out - 1, p);
                out[n] = '\0';
                assert_int_equal(pclose(p), 0);
                if (!strstr(out, csv ? want_csv[m] : want_text[m])) fail_msg("%s printed:\n%s", cmd, out);
                if (csv) assert_non_null(strstr(out, ",avg_latency,p50_latency,p90_latency,p99_latency,max_latency,"));
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_an_illegal_instruction_is_named_with_its_pc),
        cmocka_unit_test(test_a_misaligned_load_is_named),
        cmocka_unit_test(test_a_load_outside_the_memory_is_named),
        cmocka_unit_test(test_a_store_outside_the_memory_is_named),
        cmocka_unit_test(test_a_read_of_an_unmapped_register_is_named),
        cmocka_unit_test(test_a_jump_to_nowhere_is_named_where_it_lands),
        cmocka_unit_test(test_a_jump_past_the_ram_is_named_outside_it),
        cmocka_unit_test(test_an_elf_that_is_not_the_images_is_refused),
        cmocka_unit_test(test_a_spinning_core_is_stopped_by_max_cycles_with_its_pc),
        cmocka_unit_test(test_an_image_too_big_is_refused_before_the_run),
        cmocka_unit_test(test_a_missing_image_says_how_to_build_it),
        cmocka_unit_test(test_a_library_fault_on_the_core_is_formatted_on_the_host),
        cmocka_unit_test(test_a_message_costs_a_core_less_than_the_seed),
        cmocka_unit_test(test_a_tag_too_wide_is_a_fault_in_both_modes),
        cmocka_unit_test(test_firmware_traffic_is_the_same_on_both_backends),
        cmocka_unit_test(test_firmware_traffic_percentiles_come_from_the_kernels_records),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
