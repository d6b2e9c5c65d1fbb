/* test_hostile.c: a deliberately hostile user. Each row of the table is
 * one bad invocation of a command (or a make target): malformed, out of
 * range or contradictory input, unwritable or full disks, messages that go
 * astray. For each, the exit status, a line of the message that names the
 * file and line, the PE, or the option and its valid range, that stderr
 * holds only printable text, and that no output file (nor any temporary)
 * is left behind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cli/commands.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The fixtures and every output of the table go here, $D in a command;
 * $W is the wavemesh binary. */
#define HDIR BUILD_DIR "/hostile"

typedef struct {
    const char *cmd;    /* run by /bin/sh from the repository's root */
    int status;         /* the exit status expected */
    const char *expect; /* a piece of stderr */
    const char *output; /* a file that must not exist afterwards, or NULL */
    long fsize;         /* a file-size limit in bytes (a full disk), 0: none */
} hostile;

static const hostile table[] = {
    /* layouts: the file and line */
    {"$W run $D/missing.layout", 1, "/missing.layout: cannot open: No such file or directory", NULL, 0},
    {"$W run sw", 1, "sw: cannot open: Is a directory", NULL, 0},
    {"$W run $D/garbage.layout", 1, "/garbage.layout:1: unknown statement '\\x01\\xfe", NULL, 0},
    {"$W run $D/big.layout", 1, "/big.layout:5: a (kernel chain, PE (0,0)): VAL=4294967296 is outside its range -2147483648..2147483647",
     NULL, 0},
    {"$W run $D/huge.layout", 1,
     "/huge.layout:1: 100000000000000000000000 is out of range (a layout's numbers lie in "
     "-9223372036854775808..9223372036854775807)",
     NULL, 0},
    {"$W run $D/negchild.layout", 1, "/negchild.layout:6: p (kernel node, PE (1,0)): CHILDREN=-1 is outside its range 1..2", NULL, 0},
    {"$W run $D/nomesh.layout", 1, "/nomesh.layout:1: mesh 0x1 is outside 1x1..1024x1024", NULL, 0},
    {"$W run $D/offmesh_at.layout", 1, "/offmesh_at.layout:3: a at (2,0) is off the 2x1 mesh", NULL, 0},
    {"$W run $D/kernel.layout", 1, "/kernel.layout:3: unknown kernel 'gpu'", NULL, 0},
    {"$W tree --leaves 4 --placement row -o $D/t.layout && $W run $D/t.layout --set NOPE=1", 1,
     "--set NOPE: the layout declares no parameter NOPE", NULL, 0},
    /* --gdb: loopback only unless asked, the cores only, a port in range */
    {"$W run sw/collectives/bench.layout --pe core --gdb 192.0.2.1:1234", 2,
     "wavemesh run: --gdb 192.0.2.1:1234: expected a loopback address (127.0.0.1, ::1, localhost): the protocol has no "
     "authentication",
     NULL, 0},
    {"$W rows sw/collectives/test.rows --pe core --gdb 0.0.0.0:0", 2,
     "wavemesh rows: --gdb 0.0.0.0:0: expected a loopback address", NULL, 0},
    {"$W run sw/collectives/bench.layout --gdb 127.0.0.1:0", 2,
     "wavemesh run: --gdb 127.0.0.1:0: needs --pe core (GDB debugs the firmware on the cores)", NULL, 0},
    {"$W run sw/collectives/bench.layout --pe core --gdb 127.0.0.1:65536", 2,
     "wavemesh run: --gdb 127.0.0.1:65536: expected HOST:PORT, the port in 0..65535", NULL, 0},
    {"$W run sw/collectives/bench.layout --pe core --gdb :1234", 2, "wavemesh run: --gdb :1234: expected HOST:PORT",
     NULL, 0},
    {"$W run sw/collectives/bench.layout --pe core --gdb localhost", 2,
     "wavemesh run: --gdb localhost: expected HOST:PORT", NULL, 0},
    {"$W run sw/collectives/bench.layout --pe core --gdb-any-host --gdb 192.0.2.1:0", 1,
     "wavemesh run: --gdb 192.0.2.1:0: cannot listen on 192.0.2.1:0: Cannot assign requested address", NULL, 0},
    {"$W rows sw/collectives/test.rows --pe core --gdb-writes-ok", 2,
     "wavemesh rows: --gdb-writes-ok without --gdb HOST:PORT: there is no GDB to write", NULL, 0},
    /* --jitter holds cores on the cores: not beside GDB's holds, nor on a
     * backend that cannot hold one core */
    {"$W run sw/collectives/bench.layout --pe core --jitter 1 --gdb 127.0.0.1:0", 2,
     "wavemesh run: --jitter with --gdb 127.0.0.1:0: both hold cores, and each would let go of the other's holds",
     NULL, 0},
    {"$W rows sw/collectives/test.rows --pe core --jitter-runs 2 --gdb 127.0.0.1:0", 2,
     "wavemesh rows: --jitter with --gdb 127.0.0.1:0: both hold cores", NULL, 0},
    {"$W rows sw/collectives/test.rows --pe core --backend rtl-mesh --jitter 1", 2,
     "wavemesh rows: --jitter with --pe core needs a backend that holds one core at a time (rtl or sw), not rtl-mesh",
     NULL, 0},
    {"$W regress sw/collectives/bench.layout --pe core --expected rtl-mesh --jitter 1", 2,
     "wavemesh regress: --jitter on the cores needs backends that hold one core at a time (rtl or sw), not rtl-mesh",
     NULL, 0},
    /* issue 35: --gdb-any-host needs --gdb; a host that does not resolve
     * is said so */
    {"$W run sw/collectives/bench.layout --gdb-any-host", 2, "wavemesh run: --gdb-any-host without --gdb HOST:PORT",
     NULL, 0},
    {"$W rows sw/collectives/test.rows --pe core --gdb-any-host", 2,
     "wavemesh rows: --gdb-any-host without --gdb HOST:PORT", NULL, 0},
    {"$W run sw/collectives/bench.layout --pe core --gdb no-such-host.invalid:0", 2,
     "wavemesh run: --gdb no-such-host.invalid:0: cannot resolve no-such-host.invalid", NULL, 0},
    /* issue 35, names checked against each other (mechanism 2): no output
     * over an input (a link to it too), no two outputs on one path; the
     * layout is left as it was */
    {"cp sw/collectives/bench.layout $D/L.layout && $W profile $D/L.layout --csv $D/L.layout; s=$?; "
     "cmp -s $D/L.layout sw/collectives/bench.layout || echo 'the layout was overwritten' >&2; exit $s",
     2, "wavemesh profile: --csv " HDIR "/L.layout: the same file as LAYOUT " HDIR "/L.layout", NULL, 0},
    {"cp sw/collectives/bench.layout $D/L.layout && $W profile $D/L.layout --chrome $D/L.layout", 2,
     "wavemesh profile: --chrome " HDIR "/L.layout: the same file as LAYOUT", NULL, 0},
    {"cp sw/collectives/bench.layout $D/L.layout && $W profile $D/L.layout --folded $D/L.layout", 2,
     "wavemesh profile: --folded " HDIR "/L.layout: the same file as LAYOUT", NULL, 0},
    {"cp sw/collectives/bench.layout $D/L.layout && ln -sf L.layout $D/Llink && $W profile $D/L.layout --png $D/Llink",
     2, "wavemesh profile: --png " HDIR "/Llink: the same file as LAYOUT " HDIR "/L.layout", NULL, 0},
    {"$W profile sw/collectives/bench.layout --chrome $D/two.out --folded $D/two.out", 2,
     "wavemesh profile: --folded " HDIR "/two.out: the same file as --chrome " HDIR "/two.out", HDIR "/two.out", 0},
    {"cp sw/collectives/bench.layout $D/L.layout && $W regress $D/L.layout --junit $D/L.layout; s=$?; "
     "cmp -s $D/L.layout sw/collectives/bench.layout || echo 'the layout was overwritten' >&2; exit $s",
     2, "wavemesh regress: --junit " HDIR "/L.layout: the same file as LAYOUT... " HDIR "/L.layout", NULL, 0},
    {"$W regress --quick --only tutorial --junit $D/j.xml --log $D/j.xml", 2,
     "wavemesh regress: --log " HDIR "/j.xml: the same file as --junit " HDIR "/j.xml", HDIR "/j.xml", 0},
    {"cp sw/collectives/bench.layout $D/L.vcd && $W run $D/L.vcd --trace $D/L.vcd", 2,
     "wavemesh run: --trace " HDIR "/L.vcd: the same file as LAYOUT " HDIR "/L.vcd", NULL, 0},
    {"$W waves sw/collectives/bench.layout -o $D/s.gtkw --dump $D/s.gtkw", 2,
     "wavemesh waves: -o " HDIR "/s.gtkw: the same file as --dump " HDIR "/s.gtkw", HDIR "/s.gtkw", 0},
    {"cp sw/collectives/bench.layout $D/L.gtkw && $W run $D/L.gtkw --trace $D/L.vcd", 2,
     "wavemesh run: --trace " HDIR "/L.vcd (its file " HDIR "/L.gtkw): the same file as LAYOUT " HDIR "/L.gtkw", NULL,
     0},
    {"cp sw/collectives/bench.layout $D/L-upsweep.png && $W heatmap $D/L-upsweep.png -o $D/L", 2,
     "wavemesh heatmap: -o " HDIR "/L (its file " HDIR "/L-upsweep.png): the same file as LAYOUT", NULL, 0},
    /* `--` ends the options */
    {"$W run --backend sw -- sw/collectives/bench.layout >/dev/null && $W run --backend sw -- -x", 1,
     "-x: cannot open: No such file or directory", NULL, 0},
    /* run's options: the option and its range */
    {"$W run sw/collectives/bench.layout --set V0=100000000000000000000000", 2,
     "--set V0=100000000000000000000000: expected NAME=INTEGER, the integer in "
     "-9223372036854775808..9223372036854775807",
     NULL, 0},
    {"$W run sw/collectives/bench.layout $(for i in $(seq 65); do printf -- '--set V0=%d ' $i; done)", 2,
     "wavemesh run: --set V0=65: too many --set options (at most 64)", NULL, 0},
    /* every command that takes --set says the same of the 65th */
    {"$W heatmap sw/collectives/bench.layout -o $D/h $(for i in $(seq 65); do printf -- '--set V0=%d ' $i; done)", 2,
     "wavemesh heatmap: --set V0=65: too many --set options (at most 64)", NULL, 0},
    {"$W regress sw/collectives/bench.layout $(for i in $(seq 65); do printf -- '--set V0=%d ' $i; done)", 2,
     "wavemesh regress: --set V0=65: too many --set options (at most 64)", NULL, 0},
    {"$W waves sw/collectives/bench.layout -o $D/g.gtkw --set V0", 2,
     "wavemesh waves: --set V0: expected NAME=INTEGER, the integer in -9223372036854775808..9223372036854775807",
     HDIR "/g.gtkw", 0},
    {"$W run sw/collectives/bench.layout --max-cycles 0", 2,
     "--max-cycles 0: expected an integer in 1..18446744073709551615", NULL, 0},
    {"$W run sw/collectives/bench.layout --max-cycles -5", 2,
     "--max-cycles -5: expected an integer in 1..18446744073709551615", NULL, 0},
    {"$W run sw/collectives/bench.layout --backend gpu", 2, "wavemesh run: --backend gpu: expected rtl, sw or rtl-mesh", NULL, 0},
    {"$W run sw/collectives/bench.layout --pe gpu", 2, "wavemesh run: --pe gpu: expected native or core", NULL, 0},
    {"$W run sw/collectives/bench.layout --trace-window 5:10", 2, "--trace-window without --trace FILE", NULL, 0},
    {"$W run sw/collectives/bench.layout --trace-tiles 0,0:1,0", 2, "--trace-tiles without --trace FILE", NULL, 0},
    {"$W run sw/collectives/bench.layout --trace $D/w.fst --trace-window 100000:200000", 1,
     "--trace-window 100000:200000: the run ended at cycle 299, before the window opens (0..299)", HDIR "/w.fst", 0},
    {"$W run sw/collectives/bench.layout --trace $D/w.fst --trace-window 9:2", 2,
     "--trace-window 9:2: expected FROM:TO, cycles in 0..18446744073709551615, with FROM<=TO", HDIR "/w.fst", 0},
    {"$W run sw/collectives/bench.layout --trace $D/no/such/dir/w.fst", 1,
     "cannot write " HDIR "/no/such/dir/w.fst: No such file or directory", NULL, 0},
    {"$W run sw/collectives/bench.layout --trace $D/w.txt", 2, "--trace " HDIR "/w.txt: expected FILE.fst or FILE.vcd",
     HDIR "/w.txt", 0},
    {"$W run sw/collectives/bench.layout --trace $D/w.fst --trace-tiles 0,0:9,0", 1,
     "--trace-tiles 0,0:9,0: the mesh is 7x1 (tiles 0,0:6,0)", HDIR "/w.fst", 0},
    /* messages that go astray: the PE and the header */
    {"$W run $D/nokernel.layout --backend sw", 1, "2 wavelet(s) delivered to PE (2,0), where no kernel runs", NULL, 0},
    {"$W run $D/lost.layout --backend rtl", 1,
     "router (0,0) discarded a message addressed off the 2x1 mesh: header 00800040 (to (2,0)", NULL, 0},
    /* a full disk: the dump's path and the OS error, nothing left */
    {"$W run sw/collectives/bench.layout --backend rtl --trace $D/full.vcd", 1,
     "writing the dump " HDIR "/full.vcd failed: File too large", HDIR "/full.vcd", 8192},
    {"$W run sw/collectives/bench.layout --backend sw --trace $D/full.vcd", 1,
     "writing the dump " HDIR "/full.vcd failed: File too large", HDIR "/full.vcd", 8192},
    {"$W run sw/collectives/bench.layout --backend rtl --trace $D/full.fst", 1,
     "writing " HDIR "/full.fst failed: the FST writer could not write a page of its memory-mapped files (SIGBUS)",
     HDIR "/full.fst", 2048},
    {"$W run sw/collectives/bench.layout --backend sw --trace $D/full.fst", 1,
     "writing " HDIR "/full.fst failed: the FST writer could not write a page of its memory-mapped files (SIGBUS)",
     HDIR "/full.fst", 2048},
    {"$W run sw/collectives/bench.layout --backend sw --trace $D/full.fst", 1,
     "writing " HDIR "/full.gtkw failed: File too large", HDIR "/full.fst", 8192},
    {"$W traffic --backend sw --mesh 4x4 --cycles 2000 --trace $D/full.vcd", 1,
     "writing the dump " HDIR "/full.vcd failed: File too large", HDIR "/full.vcd", 8192},
    {"$W tree --leaves 100 --placement htree -o $D/full.layout", 1,
     "wavemesh tree: writing " HDIR "/full.layout failed: File too large", HDIR "/full.layout", 1024},
    {"$W gs --ranks 16x16 --write-layout $D/full.layout", 1,
     "wavemesh gs: --write-layout: writing " HDIR "/full.layout failed: File too large", HDIR "/full.layout", 1024},
    /* traffic */
    {"$W traffic --mesh -4x4", 2, "--mesh -4x4: expected WxH, each an integer in 1..1024", NULL, 0},
    {"$W traffic --mesh 1100x2", 2, "--mesh 1100x2: expected WxH, each an integer in 1..1024", NULL, 0},
    {"$W traffic --mesh 4x4 --pattern hotspot --hotspot 9,9", 2, "hotspot (9,9) is outside the 4x4 mesh (0,0..3,3)",
     NULL, 0},
    {"$W traffic --pattern hotspot --hotspot -1,0", 2, "--hotspot -1,0: expected X,Y, each an integer in 0..1023",
     NULL, 0},
    {"$W traffic --rate 2", 2, "--rate 2: expected a number in 0..1", NULL, 0},
    {"$W traffic --len 0", 2, "--len 0: expected an integer in 1..64", NULL, 0},
    /* a wafer-sized dump is refused before the run, with what to give instead */
    {"$W traffic --mesh 300x300 --cycles 1 --trace $D/wafer.fst", 2,
     "a dump of every one of the mesh's 90000 tiles (300x300) would run to gigabytes: give at most 65536 of them "
     "with --trace-tiles X0,Y0:X1,Y1", HDIR "/wafer.fst", 0},
    {"$W traffic --cycles 1e23", 2, "--cycles 1e23: expected an integer in 1..4294967295", NULL, 0},
    {"$W traffic --pattern zigzag", 2, "wavemesh traffic: --pattern zigzag: expected uniform, transpose, bitcomp or hotspot",
     NULL, 0},
    {"$W traffic --trace-window 1:2", 2, "wavemesh traffic: --trace-window without --trace FILE", NULL, 0},
    /* tree */
    {"$W tree --leaves 0 --placement row -o $D/t0.layout", 2, "--leaves 0: expected an integer in 1..524288",
     HDIR "/t0.layout", 0},
    {"$W tree --leaves 4 --placement row --values 1,2,3 -o $D/t0.layout", 2,
     "--values: expected 4 comma-separated integers, each in -2147483648..2147483647", HDIR "/t0.layout", 0},
    {"$W tree --leaves 4 --placement row --values 1,2,3,4294967296 -o $D/t0.layout", 2,
     "--values: expected 4 comma-separated integers, each in -2147483648..2147483647", HDIR "/t0.layout", 0},
    {"$W tree --leaves 4 --placement row --seed -3 -o $D/t0.layout", 2,
     "--seed -3: expected an integer in 0..18446744073709551615", HDIR "/t0.layout", 0},
    {"$W tree --leaves 4 --placement spiral -o $D/t0.layout", 2, "wavemesh tree: --placement spiral: expected row, tworow, inorder, htree, packed or chain", HDIR "/t0.layout", 0},
    /* gs */
    {"$W gs --ranks 0x4", 2, "--ranks 0x4: expected WxH, each an integer in 1..1024", NULL, 0},
    {"$W gs --ranks 4x4x4", 2, "--ranks 4x4x4: expected WxH, each an integer in 1..1024", NULL, 0},
    /* past gs's 15 bisection stages, refused before anything is built */
    {"$W gs --ranks 256x256", 1, "gs: a 256x256 rank grid has 65536 ranks, more than the 32768 (15 bisection stages) gs runs",
     NULL, 0},
    {"$W gs --dofs 10211", 2, "--dofs 10211: expected an integer in 1..10210", NULL, 0},
    {"$W gs --seed -1", 2, "--seed -1: expected an integer in 0..18446744073709551615", NULL, 0},
    /* values as words (issue 26, mechanism 3): a value out of the word's
     * range is refused with the setting; an exact sum that does not fit
     * the word it is exported in is a warning naming it, and exit 1,
     * natively and on the cores, on both backends */
    {"$W run sw/collectives/bench.layout --set V0=2147483648", 1,
     "bench.layout:55: l0 (kernel leaf, PE (0,0)): VAL=2147483648 is outside its range -2147483648..2147483647 "
     "(VAL=$V0, given by --set V0=2147483648)", NULL, 0},
    {"$W tree --leaves 4 --placement row --values 1,2,3,2147483648 -o $D/t0.layout", 2,
     "--values: expected 4 comma-separated integers, each in -2147483648..2147483647", HDIR "/t0.layout", 0},
    {"$W run sw/collectives/bench.layout --set V0=2147483647 --set V1=1", 1,
     "wavemesh: warning: l1.incl wrapped: its exact value 2147483648 does not fit a 32-bit word "
     "(-2147483648..2147483647); the word holds -2147483648, the exact value minus 1*2^32", NULL, 0},
    {"$W run sw/collectives/bench.layout --set V0=2147483647 --set V1=1 --backend sw --pe core", 1,
     "wavemesh: warning: root.total wrapped: its exact value 2147483718 does not fit a 32-bit word", NULL, 0},
    {"$W run sw/collectives/allreduce.layout --set VC=-2147483648 --set VN=-100 --pe core", 1,
     "wavemesh: warning: nw.total wrapped: its exact value -2147483710 does not fit a 32-bit word "
     "(-2147483648..2147483647); the word holds 2147483586, the exact value plus 1*2^32", NULL, 0},
    {"$W run sw/collectives/chain.layout --set V3=-2147483648 --set V2=-100 --backend sw", 1,
     "wavemesh: warning: l3.incl wrapped: its exact value -2147483718 does not fit", NULL, 0},
    /* early limits (issue 26, mechanism 6): a size known before the run
     * is refused before any work (the schedule of --dofs 4096 alone takes
     * a minute to make), with the limit */
    {"timeout 10 $W gs --dofs 4096", 2,
     "wavemesh gs: --dofs 4096: a rank of the 4x4 grid schedule holds 16793604 dofs, a word each, and the PE's data "
     "memory has room for 10210 after the image's header (40960 bytes in all): the grid schedule on 4x4 ranks takes "
     "at most 99", NULL, 0},
    {"timeout 10 $W gs --dofs 5000 --schedule chain --ranks 16x16", 2,
     "the chain schedule on 16x16 ranks takes at most 3403", NULL, 0},
    {"timeout 10 $W gs --dofs 10208 --schedule random --ranks 2x2", 2,
     "the random schedule on 2x2 ranks takes at most 10207", NULL, 0},
    /* names that become file and scope names (issue 26, mechanism 7):
     * checked once, where they are read, with the file's line */
    {"printf 'layout %s/sw/collectives/bench.layout\\nrow x SHAPE=0\\nrow y SHAPE=1\\nrow x SHAPE=2\\n' \"$PWD\" "
     "> $D/dup.rows && $W rows $D/dup.rows --backend sw --trace $D/dup.vcd", 2,
     "/dup.rows:4: row x is already defined at line 2", HDIR "/dup-x-sw.vcd", 0},
    {"printf 'layout %s/sw/collectives/bench.layout\\nrow a/b SHAPE=0\\n' \"$PWD\" > $D/slash.rows && mkdir -p $D/r-a && "
     "$W rows $D/slash.rows --backend sw --trace $D/r.vcd", 2,
     "/slash.rows:2: 'a/b' is not a row name (at most 128 letters, digits, '_', '-' or '.', the first a letter, "
     "digit or '_': it names the row's dump files)", HDIR "/r-a/b-sw.vcd", 0},
    {"printf 'layout x\\nrow ..\\n' > $D/dots.rows && $W rows $D/dots.rows", 2, "/dots.rows:2: '..' is not a row name",
     NULL, 0},
    {"printf 'mesh 1 1\\nregion all\\nat a 0 0\\npe a%063d chain VAL=1 FIRST=1 LAST=1\\n' 0 > $D/name.layout && "
     "$W run $D/name.layout --trace $D/name.vcd", 1,
     "/name.layout:4: instance name a0000000000000000000... is 64 characters long; at most 63 (it names its tile in a "
     "dump)", HDIR "/name.vcd", 0},
    /* one line reader (issue 35, mechanism 3, csim/core/lines.h): a
     * comment longer than any buffer stays a comment, a NUL byte is
     * refused at its line and column, a line of megabytes is one line, and
     * a million rows are read (a duplicate name at the end is found) */
    {"{ printf 'layout %s/sw/collectives/bench.layout\\n# ' \"$PWD\"; head -c 4093 /dev/zero | tr '\\0' x; "
     "printf 'row injected SHAPE=1\\n'; } > $D/long.rows && $W rows $D/long.rows --backend sw", 1,
     "/long.rows: no rows", NULL, 0},
    {"printf 'layout %s/sw/collectives/bench.layout\\nrow tut\\000orial\\n' \"$PWD\" > $D/nul.rows && "
     "$W rows $D/nul.rows --backend sw", 2, "wavemesh rows: " HDIR "/nul.rows:2:8: a NUL byte: not a text file", NULL, 0},
    {"{ printf 'layout x\\n'; head -c 5000000 /dev/zero | tr '\\0' y; printf '\\nrow\\n'; } > $D/bigline.rows && "
     "$W rows $D/bigline.rows 2>$D/bigline.err; s=$?; echo \"$(wc -l < $D/bigline.err) lines: $(tail -1 $D/bigline.err)\" >&2; exit $s",
     2, "2 lines: " HDIR "/bigline.rows:3: expected `layout PATH`", NULL, 0},
    {"{ echo 'layout x'; seq 0 999999 | sed 's/^/row r/'; echo 'row r0'; } > $D/million.rows && $W rows $D/million.rows",
     2, HDIR "/million.rows:1000002: row r0 is already defined at line 2", NULL, 0},
    {"printf 'mesh 1 1\\nregion all\\000\\nat a 0 0\\n' > $D/nul.layout && $W run $D/nul.layout", 1,
     HDIR "/nul.layout:2:11: a NUL byte: not a text file", NULL, 0},
    {"printf '$timescale 1ns $end\\n$scope module t $end\\n$var wire 1 ! a $end\\n$upscope $end\\n$enddefinitions "
     "$end\\n#0\\n1!\\n#1\\n0\\000!\\n' > $D/nul.vcd && $W wavediff $D/nul.vcd $D/nul.vcd", 2,
     "wavemesh wavediff: " HDIR "/nul.vcd:9:2: a NUL byte: not a text file", NULL, 0},
    {"printf '<testsuite name=\"wavemesh regress\"\\000>\\n' > $D/nul.xml && $W regress --merge $D/nul.xml $D/nul.xml", 2,
     "wavemesh regress: --merge: " HDIR "/nul.xml:1:35: a NUL byte: not a text file", NULL, 0},
    /* regress */
    {"$W regress --quick --perturb rr-reverse:40,40", 2,
     "--perturb: tile (40,40) is off the mesh of every scenario selected", NULL, 0},
    {"$W regress --only no-such-scenario", 2, "no scenario matches", NULL, 0},
    {"$W rows sw/collectives/test.rows --backend sw --trace-window 0:9", 2,
     "wavemesh rows: --trace-window without --trace FILE", NULL, 0},
    {"$W rows sw/collectives/test.rows --max-cycles 0", 2,
     "--max-cycles 0: expected an integer in 1..18446744073709551615", NULL, 0},
    /* from another folder: the corpus's layouts are found all the same */
    {"cd $D && $W regress --quick --only tutorial", 0, "", NULL, 0},
    /* dumps read back */
    {"$W wavediff $D/garbage.fst $D/garbage.fst", 2, HDIR "/garbage.fst is not a readable FST file", NULL, 0},
    {"head -c 600 tests/fuzz/corpus/dump/seed.fst > $D/cut.fst && $W wavediff $D/cut.fst $D/cut.fst", 2,
     HDIR "/cut.fst is not a readable FST file (block 3 at byte 592 is cut short)", NULL, 0},
    /* a hierarchy cut inside a name: GTKWave's FST reader would loop for
     * ever; its child is stopped at its CPU-time limit */
    {"WM_FST_READ_SECONDS=0.25 $W wavediff tests/fuzz/crashes/dump-fst-hier-cut-in-name.fst "
     "tests/fuzz/crashes/dump-fst-hier-cut-in-name.fst",
     2, "dump-fst-hier-cut-in-name.fst is not a readable FST file (the FST reader failed on it: it did not end)", NULL, 0},
    {"$W waves sw/collectives/bench.layout -o $D/g.gtkw --dump $D/garbage.fst", 1,
     "--dump " HDIR "/garbage.fst: " HDIR "/garbage.fst is not a readable FST file", HDIR "/g.gtkw", 0},
    {"$W waves sw/collectives/bench.layout -o $D/g.gtkw --dump $D", 1, "--dump " HDIR ": cannot read " HDIR ":",
     HDIR "/g.gtkw", 0},
    {"$W cpi --count 0", 2, "--count 0: expected an integer in 1..3000", NULL, 0},
    {"$W cpi --count 3001", 2, "--count 3001: expected an integer in 1..3000", NULL, 0},
    /* issue 26, every write checked (mechanism 2): standard output on a
     * full device ends each command that prints with the file named, the
     * reason and exit 1, as cat and sort do */
    {"$W run sw/collectives/bench.layout > /dev/full", 1, "wavemesh run: standard output: No space left on device", NULL, 0},
    {"$W run sw/collectives/bench.layout --pe core > /dev/full", 1, "wavemesh run: standard output: No space left on device",
     NULL, 0},
    {"$W rows sw/collectives/test.rows --backend sw > /dev/full", 1, "wavemesh rows: standard output: No space left on device",
     NULL, 0},
    {"$W traffic --backend sw --mesh 2x2 --cycles 100 --csv > /dev/full", 1,
     "wavemesh traffic: standard output: No space left on device", NULL, 0},
    {"$W regress --quick --only tutorial > /dev/full", 1, "wavemesh regress: standard output: No space left on device",
     NULL, 0},
    {"$W gs --ranks 2x2 --backend sw > /dev/full", 1, "wavemesh gs: standard output: No space left on device", NULL, 0},
    {"$W selftest > /dev/full", 1, "wavemesh selftest: standard output: No space left on device", NULL, 0},
    {"$W cpi --count 1 > /dev/full", 1, "wavemesh cpi: standard output: No space left on device", NULL, 0},
    {"$W heatmap sw/collectives/bench.layout -o $D/hf > /dev/full", 1,
     "wavemesh heatmap: standard output: No space left on device", NULL, 0},
    /* /dev/stdout's own kind of link, made here: a regression run as root
     * must not replace the machine's */
    {"ln -sf /proc/self/fd/1 $D/stdout && $W tree --leaves 4 --placement row -o $D/stdout > /dev/full", 1,
     "wavemesh tree: writing " HDIR "/stdout failed: No space left on device", NULL, 0},
    {"$W run --help > /dev/full", 1, "wavemesh run: standard output: No space left on device", NULL, 0},
    {"$W --help > /dev/full", 1, "wavemesh: standard output: No space left on device", NULL, 0},
    /* issue 26, one output routine (mechanism 1): a directory is refused,
     * a side file's name taken by a folder is refused before the run, a
     * missing folder before gnuplot draws (tests/test_outfile.c has the
     * whole table) */
    {"mkdir -p $D/odir && $W tree --leaves 4 --placement row -o $D/odir", 1, "cannot write " HDIR "/odir: Is a directory",
     NULL, 0},
    {"mkdir -p $D/oside.gtkw && $W run sw/collectives/bench.layout --backend sw --trace $D/oside.fst", 1,
     "cannot write " HDIR "/oside.gtkw: Is a directory", HDIR "/oside.fst", 0},
    {"$W heatmap sw/collectives/bench.layout -o $D/no/such/dir/h", 1,
     "cannot write " HDIR "/no/such/dir/h-upsweep.png: No such file or directory", NULL, 0},
    /* issue 26, signals at any moment (mechanism 4): a layout that is a
     * FIFO with no writer blocks its open; SIGINT ends it at once, as a
     * run stopped in its loop ends */
    {"rm -f $D/fifo.layout && mkfifo $D/fifo.layout && { $W run $D/fifo.layout & p=$!; sleep 0.5; kill -INT $p; wait $p; }",
     130, "wavemesh: interrupted by SIGINT", NULL, 0},
    {"rm -f $D/fifo.layout && mkfifo $D/fifo.layout && { $W run $D/fifo.layout --trace $D/ff.fst & p=$!; sleep 0.5; "
     "kill -TERM $p; wait $p; }",
     143, "wavemesh: interrupted by SIGTERM", HDIR "/ff.fst", 0},
    /* issue 35, every way a write or a child fails is reported (mechanism
     * 6): past the file-size limit (ulimit -f, SIGXFSZ at its default) the
     * write fails with EFBIG, said with the path, no temporary left; a
     * gnuplot that is not on PATH, or ends without reading its script (of
     * a 1024-leaf tree: more than a pipe holds, so SIGPIPE would strike),
     * is named, the tables printed all the same, its status said when it
     * printed nothing */
    {"ulimit -f 2 && $W tree --leaves 100 --placement htree -o $D/xfsz.layout", 1,
     "wavemesh tree: writing " HDIR "/xfsz.layout failed: File too large", HDIR "/xfsz.layout", 0},
    {"ulimit -f 1 && $W regress --quick --only tutorial --junit $D/xfsz.xml >/dev/null", 2,
     "wavemesh regress: --junit: writing " HDIR "/xfsz.xml failed: File too large", HDIR "/xfsz.xml", 0},
    {"$W tree --leaves 1024 --placement htree -o $D/t1k.layout && for i in 1 2 3; do PATH=/nonexistent $W profile "
     "$D/t1k.layout --backend sw --png $D/np.png > $D/np.out; s=$?; [ $s = 1 ] || exit $s; "
     "grep -q 'critical path' $D/np.out || exit 9; done; exit 1",
     1, "wavemesh profile: " HDIR "/np.png: gnuplot is not installed, or not on PATH", HDIR "/np.png", 0},
    {"$W tree --leaves 1024 --placement htree -o $D/t1k.layout && for i in 1 2 3; do PATH=/nonexistent $W heatmap "
     "$D/t1k.layout --backend sw -o $D/np > $D/np.out; s=$?; [ $s = 1 ] || exit $s; "
     "grep -q 'downsweep' $D/np.out || exit 9; done; exit 1",
     1, "wavemesh heatmap: gnuplot is not installed, or not on PATH", HDIR "/np-upsweep.png", 0},
    {"mkdir -p $D/bin && printf '#!/bin/sh\\nexit 3\\n' > $D/bin/gnuplot && chmod +x $D/bin/gnuplot && "
     "PATH=$D/bin:$PATH $W heatmap sw/collectives/bench.layout -o $D/g3 >/dev/null", 1,
     "wavemesh heatmap: gnuplot failed drawing " HDIR "/g3-upsweep.png: it exited with status 3 and printed nothing",
     HDIR "/g3-upsweep.png", 0},
    /* out of memory building the rtl backend's models (ulimit -v): said
     * as the sw backend says it, not an abort on std::bad_alloc */
    {"ulimit -v 200000 && $W traffic --backend rtl --pe core --mesh 256x256 --cycles 10", 1,
     "wavemesh: out of memory for a 256x256 rtl fabric with cores", NULL, 0},
    /* make */
    {"make --no-print-directory waves TEST=eight", 2,
     "TEST=eight is not a row of sw/collectives/bench.layout (TEST=tutorial, tworow or compact)", NULL, 0},
    {"env -u DISPLAY make --no-print-directory view TEST=tutorial", 2, "make view: no DISPLAY, GTKWave needs one",
     NULL, 0},
    {"DISPLAY=:7391 make --no-print-directory view TEST=tutorial", 2, "make view: GTKWave could not start", NULL, 0},
};

static void write_file(const char *name, const void *bytes, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, HDIR "/%s", name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static void write_text(const char *name, const char *text) { write_file(name, text, strlen(text)); }

static int setup(void **state)
{
    (void)state;
    if (system("rm -rf " HDIR " && mkdir -p " HDIR) != 0) return -1;
    static const unsigned char garbage[] = {0x01, 0xfe, 0x1b, '[', '2', 'J', 0x07, '\n', 0x00, 0xff};
    write_file("garbage.layout", garbage, 8); /* its first line: raw bytes, shown escaped (a NUL: nul.layout) */
    write_file("garbage.fst", garbage, sizeof garbage);
    const char *chain2 = "mesh 2 1\nregion all\nat a 0 0\nat b 1 0\n";
    char text[512];
    snprintf(text, sizeof text, "%spe a chain VAL=4294967296 FIRST=1 LAST=1\npe b chain VAL=1 FIRST=1 LAST=1\n", chain2);
    write_text("big.layout", text);
    write_text("huge.layout", "param V 100000000000000000000000\n");
    write_text("negchild.layout", "mesh 2 1\nregion all\nat a 0 0\nat p 1 0\n"
                                  "pe a leaf VAL=5 SIDE=0 UPX=p.x UPY=p.y\n"
                                  "pe p node ROOT=1 SIDE=0 UPX=p.x UPY=p.y LX=a.x LY=a.y CHILDREN=-1\n");
    write_text("nomesh.layout", "mesh 0 1\n");
    write_text("offmesh_at.layout", "mesh 2 1\nregion all\nat a 2 0\npe a chain VAL=1 FIRST=1 LAST=1\n");
    write_text("kernel.layout", "mesh 1 1\nregion all\npe a gpu\nat a 0 0\n");
    snprintf(text, sizeof text, "%spe a chain VAL=3 FIRST=1 LAST=0 NEXTX=2 NEXTY=0\npe b chain VAL=4 FIRST=1 LAST=1\n",
             chain2);
    write_text("lost.layout", text);
    write_text("nokernel.layout", "mesh 3 1\nregion all\nat a 0 0\nat b 1 0\n"
                                  "pe a chain VAL=3 FIRST=1 LAST=0 NEXTX=2 NEXTY=0\npe b chain VAL=4 FIRST=1 LAST=1\n");
    return 0;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[1 << 16];
    const size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* A temporary (NAME.PID.part) left in HDIR. */
static bool temporary_left(void)
{
    DIR *d = opendir(HDIR);
    assert_non_null(d);
    bool found = false;
    for (struct dirent *e; (e = readdir(d));) found |= strstr(e->d_name, ".part") != NULL;
    closedir(d);
    return found;
}

static int run(const hostile *h, const char *err_path)
{
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        const int null = open("/dev/null", O_WRONLY), e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (null < 0 || e < 0 || dup2(null, 1) < 0 || dup2(e, 2) < 0) _exit(99);
        if (h->fsize) {
            /* a full disk: a write past the limit fails with EFBIG */
            signal(SIGXFSZ, SIG_IGN);
            const struct rlimit rl = {(rlim_t)h->fsize, (rlim_t)h->fsize};
            setrlimit(RLIMIT_FSIZE, &rl);
        }
        execl("/bin/sh", "sh", "-c", h->cmd, (char *)NULL);
        _exit(98);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status)) fail_msg("%s: killed by signal %d", h->cmd, WTERMSIG(status));
    return WEXITSTATUS(status);
}

/* $W and $D of the table's commands. */
static void set_table_variables(void)
{
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    char w[4200];
    snprintf(w, sizeof w, BUILD_DIR[0] == '/' ? "%.0s%s" : "%s/%s", cwd, BUILD_DIR "/wavemesh");
    setenv("W", w, 1);
    setenv("D", HDIR, 1);
}

static void test_every_bad_invocation_is_refused_well(void **state)
{
    (void)state;
    set_table_variables();
    const size_t n = sizeof table / sizeof table[0];
    assert_true(n >= 40);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        const hostile *h = &table[i];
        if (h->output) remove(h->output);
        const int status = run(h, HDIR "/stderr.txt");
        const char *err = slurp(HDIR "/stderr.txt");
        const char *why = NULL;
        if (status != h->status) why = "wrong exit status";
        else if (!strstr(err, h->expect)) why = "the expected message is missing";
        for (const unsigned char *c = (const unsigned char *)err; !why && *c; c++)
            if (!isprint(*c) && *c != '\n' && *c != '\t') why = "a raw byte on stderr";
        if (!why && h->output && exists(h->output)) why = "an output file was left behind";
        if (!why && temporary_left()) why = "a temporary was left behind";
        if (!why) continue;
        bad++;
        print_error("row %zu: %s\n  %s: exit %d (expected %d), expected in stderr: %s\n  stderr:\n%s\n", i, h->cmd,
                    why, status, h->status, h->expect, err);
    }
    assert_int_equal(bad, 0);
    printf("hostile: %zu bad invocations refused, each with its message, nothing left behind\n", n);
}

/* A caller that blocks SIGPROF (a mask is inherited through exec; the
 * shell of the table's rows clears it, so wavemesh is started directly)
 * must not turn the FST reader's CPU-time limit into a bare "killed by a
 * signal": its child unblocks the timer's signals, and a child killed once
 * its CPU time is spent did not end, whichever signal ended it. */
static void test_a_reader_that_never_ends_is_named_so_with_sigprof_blocked(void **state)
{
    (void)state;
    static const char cut[] = "tests/fuzz/crashes/dump-fst-hier-cut-in-name.fst";
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        const int e = open(HDIR "/stderr-blocked.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (e < 0 || dup2(e, 2) < 0) _exit(99);
        sigset_t prof;
        sigemptyset(&prof);
        sigaddset(&prof, SIGPROF);
        sigaddset(&prof, SIGXCPU);
        sigprocmask(SIG_BLOCK, &prof, NULL);
        setenv("WM_FST_READ_SECONDS", "0.25", 1);
        execl(BUILD_DIR "/wavemesh", "wavemesh", "wavediff", cut, cut, (char *)NULL);
        _exit(98);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    const char *err = slurp(HDIR "/stderr-blocked.txt");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 2 ||
        !strstr(err, "dump-fst-hier-cut-in-name.fst is not a readable FST file (the FST reader failed on it: it did not end)"))
        fail_msg("status %#x, stderr:\n%s", status, err);
}

/* Every numeric option of every command, found in its --help, refuses
 * values that are not numbers of its range, and says which option and what
 * range: a number written with blanks, a sign or a trailing letter, an
 * empty one, one past 64 bits, a negative one. Each command gets the
 * arguments that let it reach its options; a value taken by mistake would
 * run the command, so each invocation has 60 s. */
static const struct {
    const char *name, *base;
} sweep_commands[] = {
    {"selftest", ""},
    {"traffic", "--mesh 2x2 --cycles 10 --warmup 0 --drain 10"},
    {"run", "sw/collectives/bench.layout --backend sw"},
    {"rows", "sw/collectives/test.rows --backend sw"},
    {"tree", "--leaves 4 --placement row -o $D/sweep.layout"},
    {"regress", "--random 1"},
    {"gs", "--ranks 2x2 --backend sw"},
    {"heatmap", "sw/collectives/bench.layout -o $D/sweep"},
    {"waves", "sw/collectives/bench.layout -o $D/sweep.gtkw"},
    {"calibrate", "--write $D/sweep.h"},
    {"cpi", ""},
    {"wavediff", ""},
    {"profile", "sw/collectives/bench.layout --backend sw"},
};

/* Every command of the command table is in the sweeps: a command added
 * later without a row here fails this, not silently unswept. */
static void test_every_command_is_swept(void **state)
{
    (void)state;
    for (const wm_command *c = wm_commands; c->name; c++) {
        bool found = false;
        for (size_t k = 0; k < sizeof sweep_commands / sizeof sweep_commands[0]; k++)
            found = found || !strcmp(sweep_commands[k].name, c->name);
        if (!found) fail_msg("command %s is not in sweep_commands", c->name);
    }
}

/* The metavariables of numeric values in the commands' --help. */
static bool numeric_meta(const char *m)
{
    static const char *const metas[] = {"N", "P", "S", "K", "J", "L", "R", "F", "WxH", "X,Y", "X0,Y0:X1,Y1", "FROM:TO"};
    for (size_t i = 0; i < sizeof metas / sizeof metas[0]; i++)
        if (!strcmp(m, metas[i])) return true;
    return false;
}

/* The numeric options of one command's --help: "--name META" pairs. */
static size_t numeric_options(const char *help, char names[][40], size_t max)
{
    size_t n = 0;
    for (const char *p = strstr(help, "--"); p && n < max; p = strstr(p + 2, "--")) {
        size_t len = 0;
        while (p[2 + len] == '-' || (p[2 + len] >= 'a' && p[2 + len] <= 'z')) len++;
        if (!len || p[2 + len] != ' ' || len + 3 > sizeof names[0]) continue;
        const char *m = p + 3 + len;
        size_t mlen = strcspn(m, " ]|\n");
        char meta[32];
        if (mlen >= sizeof meta) continue;
        memcpy(meta, m, mlen);
        meta[mlen] = '\0';
        if (!numeric_meta(meta)) continue;
        char name[40];
        snprintf(name, sizeof name, "%.*s", (int)len + 2, p);
        bool seen = false;
        for (size_t k = 0; k < n; k++) seen |= !strcmp(names[k], name);
        if (!seen) snprintf(names[n++], sizeof names[0], "%s", name);
    }
    return n;
}

static void test_every_numeric_option_refuses_bad_values(void **state)
{
    (void)state;
    set_table_variables();
    static const char *const bad[] = {"abc", "", " 5", "5x", "+5", "99999999999999999999999", "-1"};
    size_t options = 0, runs = 0, wrong = 0;
    for (size_t c = 0; c < sizeof sweep_commands / sizeof sweep_commands[0]; c++) {
        char cmd[4096];
        /* --help goes to stdout: sent to the file run() keeps for stderr */
        snprintf(cmd, sizeof cmd, "$W %s --help >&2", sweep_commands[c].name);
        const hostile show = {cmd, 0, "", NULL, 0};
        assert_int_equal(run(&show, HDIR "/help.txt"), 0);
        char names[64][40];
        const size_t n = numeric_options(slurp(HDIR "/help.txt"), names, 64);
        options += n;
        for (size_t o = 0; o < n; o++)
            for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
                snprintf(cmd, sizeof cmd, "ulimit -t 60; $W %s %s %s '%s'", sweep_commands[c].name,
                         sweep_commands[c].base, names[o], bad[b]);
                const hostile h = {cmd, 0, "", NULL, 0};
                const int status = run(&h, HDIR "/stderr-sweep.txt");
                const char *err = slurp(HDIR "/stderr-sweep.txt");
                runs++;
                const bool named = strstr(err, names[o]) != NULL, ranged = strstr(err, "..") != NULL;
                const bool left = exists(HDIR "/sweep.layout") || exists(HDIR "/sweep.gtkw") || exists(HDIR "/sweep.h");
                if (status != 0 && named && ranged && !left) continue;
                wrong++;
                print_error("%s: exit %d%s%s%s\n  stderr: %s\n", cmd, status, named ? "" : ", the option not named",
                            ranged ? "" : ", no range", left ? ", an output left" : "", err);
            }
    }
    assert_true(options >= 25);
    assert_int_equal(wrong, 0);
    printf("sweep: %zu numeric options of %zu commands, %zu bad values, each refused with the option and its range\n",
           options, sizeof sweep_commands / sizeof sweep_commands[0], runs);
}

/* The options of one command, as the option list of its --help (generated
 * from the command's table, csim/cli/options.c) gives them: "  --name META
 * help" or "  --name  help" (a flag), META empty for a flag. */
static size_t listed_options(const char *help, char names[][40], char metas[][64], size_t max)
{
    size_t n = 0;
    for (const char *line = help; line && *line && n < max; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        if (strncmp(line, "  -", 3)) continue;
        const size_t len = strcspn(line + 2, " \n");
        const char *after = line + 2 + len;
        const size_t mlen = after[0] == ' ' && after[1] != ' ' ? strcspn(after + 1, " \n") : 0;
        if (len >= sizeof names[0] || mlen >= sizeof metas[0]) continue;
        snprintf(names[n], sizeof names[0], "%.*s", (int)len, line + 2);
        snprintf(metas[n], sizeof metas[0], "%.*s", (int)mlen, after + 1);
        n++;
    }
    return n;
}

/* Metavariables of values that any text is (a file name, a name to look
 * for): these have no out-of-range value. */
static bool free_text_meta(const char *m)
{
    static const char *const metas[] = {"FILE", "FILE.gtkw", "TEXT", "PREFIX", "DUMP", "INSTANCE|none"};
    for (size_t i = 0; i < sizeof metas / sizeof metas[0]; i++)
        if (!strcmp(m, metas[i])) return true;
    return false;
}

/* One invocation of the option sweep: exit 2 and a message that begins
 * "wavemesh CMD: " followed by `what`. */
static bool refused_so(const char *cmd, const char *name, const char *what)
{
    const hostile h = {cmd, 0, "", NULL, 0};
    const int status = run(&h, HDIR "/stderr-sweep.txt");
    const char *err = slurp(HDIR "/stderr-sweep.txt");
    char want[300];
    snprintf(want, sizeof want, "wavemesh %s: %s", name, what);
    const bool left = exists(HDIR "/sweep.layout") || exists(HDIR "/sweep.gtkw") || exists(HDIR "/sweep.h");
    if (status == 2 && !strncmp(err, want, strlen(want)) && !left) return true;
    print_error("%s: exit %d%s, expected 2 and a message beginning '%s'\n  stderr: %s\n", cmd, status,
                left ? ", an output left" : "", want, err);
    return false;
}

/* Every option of every command, as its --help lists it, in the one format
 * of csim/cli/options.h: an unknown option, a value missing (the option
 * last), a value out of its range or not of its kind. */
static void test_every_option_of_every_command_is_checked(void **state)
{
    (void)state;
    set_table_variables();
    static const char too_big[] = "99999999999999999999999";
    size_t options = 0, runs = 0, wrong = 0;
    for (size_t c = 0; c < sizeof sweep_commands / sizeof sweep_commands[0]; c++) {
        const char *name = sweep_commands[c].name, *base = sweep_commands[c].base;
        char cmd[4096], what[400];
        snprintf(cmd, sizeof cmd, "$W %s --help >&2", name);
        const hostile show = {cmd, 0, "", NULL, 0};
        assert_int_equal(run(&show, HDIR "/help.txt"), 0);
        char names[64][40], metas[64][64];
        const size_t n = listed_options(slurp(HDIR "/help.txt"), names, metas, 64);
        options += n;
        snprintf(cmd, sizeof cmd, "$W %s %s --no-such-option", name, base);
        wrong += !refused_so(cmd, name, "unknown option '--no-such-option' (see --help)");
        runs++;
        for (size_t o = 0; o < n; o++) {
            if (!metas[o][0]) continue; /* a flag */
            snprintf(cmd, sizeof cmd, "ulimit -t 60; $W %s %s %s", name, base, names[o]);
            snprintf(what, sizeof what, "%.39s: expected ", names[o]);
            wrong += !refused_so(cmd, name, what);
            runs++;
            if (free_text_meta(metas[o])) continue;
            snprintf(cmd, sizeof cmd, "ulimit -t 60; $W %s %s %s %s", name, base, names[o], too_big);
            snprintf(what, sizeof what, "%.39s %s: expected ", names[o], too_big);
            /* tree's --values is counted against --leaves after the options */
            if (!strcmp(names[o], "--values")) snprintf(what, sizeof what, "%.39s: expected ", names[o]);
            wrong += !refused_so(cmd, name, what);
            runs++;
        }
    }
    assert_true(options >= 80);
    assert_int_equal(wrong, 0);
    printf("options: %zu options of %zu commands, %zu unknown, missing or bad values, each refused in one format\n",
           options, sizeof sweep_commands / sizeof sweep_commands[0], runs);
}

int main(void)
{
    /* The rows that run make start one of their own: not a job of a
     * `make -j` this test may run under, whose job-server pipe it does not
     * inherit. */
    unsetenv("MAKEFLAGS");
    unsetenv("MFLAGS");
    unsetenv("MAKELEVEL");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_command_is_swept),
        cmocka_unit_test(test_every_bad_invocation_is_refused_well),
        cmocka_unit_test(test_a_reader_that_never_ends_is_named_so_with_sigprof_blocked),
        cmocka_unit_test(test_every_numeric_option_refuses_bad_values),
        cmocka_unit_test(test_every_option_of_every_command_is_checked),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
