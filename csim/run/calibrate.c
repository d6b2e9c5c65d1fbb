/* calibrate.c: the native cost model from the core (see calibrate.h). */
#include "run/calibrate.h"

#include "core/cpi.h"
#include "mp.h"
#include "run/layout.h"
#include "run/runner.h"

#include <string.h>

static const char calib_layout[] = "mesh 2 1\n"
                                   "region all\n"
                                   "at s 0 0\n"
                                   "at r 1 0\n"
                                   "pe s calib ROLE=0 PEERX=r.x PEERY=r.y\n"
                                   "pe r calib ROLE=1 PEERX=s.x PEERY=s.y\n";

static const char gs_layout[] = "mesh 2 1\n"
                                "region all\n"
                                "at s 0 0\n"
                                "at r 1 0\n"
                                "pe s gscalib ROLE=0 PEERX=r.x PEERY=r.y\n"
                                "pe r gscalib ROLE=1 PEERX=s.x PEERY=s.y\n";

/* The tutorial row of the seed's tree (sw/collectives/bench.layout, SHAPE=0)
 * and lesson 9's chain (chain.layout): the kernels' own work between their
 * calls, which the node and chain kernels charge at their steps. */
static const char tree_layout[] = "mesh 7 1\n"
                                  "region all\n"
                                  "at l0 0 0\nat l1 1 0\nat l2 2 0\nat l3 3 0\nat p0 4 0\nat p1 5 0\nat root 6 0\n"
                                  "pe l0 leaf VAL=10 SIDE=0 UPX=p0.x UPY=p0.y\n"
                                  "pe l1 leaf VAL=20 SIDE=1 UPX=p0.x UPY=p0.y\n"
                                  "pe l2 leaf VAL=30 SIDE=0 UPX=p1.x UPY=p1.y\n"
                                  "pe l3 leaf VAL=40 SIDE=1 UPX=p1.x UPY=p1.y\n"
                                  "pe p0 node ROOT=0 SIDE=0 UPX=root.x UPY=root.y LX=l0.x LY=l0.y RX=l1.x RY=l1.y\n"
                                  "pe p1 node ROOT=0 SIDE=1 UPX=root.x UPY=root.y LX=l2.x LY=l2.y RX=l3.x RY=l3.y\n"
                                  "pe root node ROOT=1 SIDE=0 UPX=root.x UPY=root.y LX=p0.x LY=p0.y RX=p1.x RY=p1.y\n";

static const char chain_layout[] = "mesh 4 1\n"
                                   "region all\n"
                                   "at l0 0 0\nat l1 1 0\nat l2 2 0\nat l3 3 0\n"
                                   "pe l0 chain VAL=10 FIRST=1 LAST=0 NEXTX=l1.x NEXTY=l1.y\n"
                                   "pe l1 chain VAL=20 FIRST=0 LAST=0 NEXTX=l2.x NEXTY=l2.y\n"
                                   "pe l2 chain VAL=30 FIRST=0 LAST=0 NEXTX=l3.x NEXTY=l3.y\n"
                                   "pe l3 chain VAL=40 FIRST=0 LAST=1\n";

/* The entries of sw/mp.h, then the kernels' steps and the instruction
 * classes, then the gs kernels', in the order of the table. */
enum {
    C_NODE_STEP = 13, C_CHAIN_STEP, C_ALU, C_LOAD, C_STORE, C_BRANCH, C_BRANCH_TAKEN, C_JUMP, C_MUL, C_DIV,
    MP_ENTRIES,
    G_HEAP_TAKE = MP_ENTRIES, G_HEAP_BLOCK, G_HEAP_ZERO_UNIT, G_HEAP_MERGE_BLOCK, G_HEAP_GIVE, G_HEAP_RESIZE,
    G_COPY, G_RECORD, G_ENTRY, G_LIST_ADD, G_REDUCE, G_DOF, G_TERM,
    G_XFER_CALL, G_XFER_LOOP, G_XFER_SCAN, G_XFER_IN_HEADER, G_XFER_IN_DATA, G_XFER_OUT_HEADER, G_XFER_OUT_DATA,
    G_XFER_PLACE_STEP, G_XFER_INIT, G_XFER_RECV_LOOP, G_VEC_PUSH, G_GLUE_PAIRWISE, G_GLUE_CRYSTAL, G_GLUE_PLAN_SETUP, G_GLUE_PLAN_OP,
    G_PEER_PAIRWISE, G_STAGE_CRYSTAL, G_STAGE_PLAN_SETUP, G_STAGE_PLAN_OP
};
_Static_assert(G_STAGE_PLAN_OP + 1 == WM_COST_ENTRIES, "calibrate.h counts the entries");

static const char glue_layout[] = "mesh 2 1\n"
                                  "region all\n"
                                  "at s 0 0\n"
                                  "at r 1 0\n"
                                  "pe s gsglue ROLE=0 PEERX=r.x PEERY=r.y\n"
                                  "pe r gsglue ROLE=1 PEERX=s.x PEERY=s.y\n";

static const char *const names[WM_COST_ENTRIES] = {
    "WM_COST_START",       "WM_COST_TSC",       "WM_COST_PARAM",       "WM_COST_EXPORT", "WM_COST_HEADER",
    "WM_COST_SEND_CALL",   "WM_COST_SEND_WAVELET", "WM_COST_RECV_CALL", "WM_COST_RECV_WAVELET",
    "WM_COST_QUEUES",      "WM_COST_PUSH",      "WM_COST_POP",         "WM_COST_ADD",
    "WM_COST_NODE_STEP",   "WM_COST_CHAIN_STEP", "WM_COST_ALU",        "WM_COST_LOAD",   "WM_COST_STORE",
    "WM_COST_BRANCH",      "WM_COST_BRANCH_TAKEN", "WM_COST_JUMP",     "WM_COST_MUL",    "WM_COST_DIV",
    "WM_GS_COST_HEAP_TAKE", "WM_GS_COST_HEAP_BLOCK", "WM_GS_COST_HEAP_ZERO_UNIT", "WM_GS_COST_HEAP_MERGE_BLOCK",
    "WM_GS_COST_HEAP_GIVE", "WM_GS_COST_HEAP_RESIZE", "WM_GS_COST_COPY", "WM_GS_COST_RECORD", "WM_GS_COST_ENTRY",
    "WM_GS_COST_LIST_ADD", "WM_GS_COST_REDUCE", "WM_GS_COST_DOF", "WM_GS_COST_TERM", "WM_GS_COST_XFER_CALL",
    "WM_GS_COST_XFER_LOOP", "WM_GS_COST_XFER_SCAN", "WM_GS_COST_XFER_IN_HEADER", "WM_GS_COST_XFER_IN_DATA",
    "WM_GS_COST_XFER_OUT_HEADER", "WM_GS_COST_XFER_OUT_DATA", "WM_GS_COST_XFER_PLACE_STEP",
    "WM_GS_COST_XFER_INIT", "WM_GS_COST_XFER_RECV_LOOP", "WM_GS_COST_VEC_PUSH",
    "WM_GS_COST_GLUE_PAIRWISE", "WM_GS_COST_GLUE_CRYSTAL", "WM_GS_COST_GLUE_PLAN_SETUP",
    "WM_GS_COST_GLUE_PLAN_OP", "WM_GS_COST_PEER_PAIRWISE", "WM_GS_COST_STAGE_CRYSTAL",
    "WM_GS_COST_STAGE_PLAN_SETUP", "WM_GS_COST_STAGE_PLAN_OP"};

static const char *const whats[WM_COST_ENTRIES] = {
    "from reset to the kernel's first timestamp access (crt0, the PE block's check, the call)",
    "wm_mp_tsc, besides its access",
    "wm_mp_param: one load off the PE block's constant address",
    "wm_mp_export: a 64-bit store and the exported bit",
    "wm_mp_header: a compare of the coordinates' OR and one of the length's and tag's, packing",
    "wm_mp_send: what a send costs besides its wavelets",
    "per data wavelet sent, besides its push",
    "wm_mp_recv: what a receive costs besides its wavelets (the header's length checked)",
    "per data wavelet received, besides its pop",
    "wm_mp_queues, besides its access",
    "wm_mp_push, besides its push",
    "wm_mp_pop and wm_mp_pop_header, besides the pop",
    "one integer add in a kernel: one ALU instruction (wavemesh cpi)",
    "a tree node's own work at each step (children's values summed; the prefix passed on), besides its calls",
    "a chain PE's own work between its receive and its send, besides its calls",
    "an ALU instruction (add, shift, compare into a register) in a kernel's own code (wavemesh cpi)",
    "a load from the PE's memory",
    "a store to the PE's memory",
    "a branch not taken",
    "a branch taken (a loop's turn)",
    "a jump or a call's jump, and a return",
    "a multiply (mul, mulh, mulhu, mulhsu): the core's multiplier takes one cycle a bit",
    "a divide or remainder (div, divu, rem, remu)",
    "gs heap: wm_heap_take, its call, the first block's merge and split",
    "gs heap: per block a take walks past",
    "gs heap: per 8 bytes a take zeroes",
    "gs heap: per free block a walk merges",
    "gs heap: wm_heap_give",
    "gs heap: wm_heap_resize, when the block already fits",
    "gs: per word gathered or copied (an indexed load, a store, the loop)",
    "gs: per record header looked at (two words, as COPY measures them)",
    "gs: per entry of a send or receive list set up (as COPY)",
    "gs: per list append, besides its words (as HEAP_RESIZE)",
    "gs reduction: the call",
    "gs reduction: per dof (its own value's load and store)",
    "gs reduction: per further term, a float32 add in libgcc's soft float",
    "gs transfers: wm_xfer_exchange's call and its last turn",
    "gs transfers: per turn of the exchange loop that sends, besides what it does",
    "gs transfers: per posted receive looked at",
    "gs transfers: per message taken, header and routing word, besides the pops",
    "gs transfers: per data wavelet taken, besides its pop",
    "gs transfers: per message pushed, header and routing word, besides wm_mp_header and the pushes",
    "gs transfers: per data wavelet pushed, besides its push",
    "gs transfers: per step of the place table's binary search",
    "gs transfers: wm_xfer_port_init (the port struct cleared)",
    "gs transfers: per turn of the exchange loop that only receives, besides the pop",
    "gs crystal plan builder: per item pushed onto one of its lists",
    "gs pairwise gs_op: its own bookkeeping, besides the parts above",
    "gs crystal router gs_op: its own bookkeeping, besides the parts above",
    "gs crystal plan setup: its own bookkeeping, besides the parts above",
    "gs crystal plan gs_op: its own bookkeeping, besides the parts above",
    "gs pairwise gs_op: per peer sent to, besides the parts above",
    "gs crystal router gs_op: per bisection stage, besides the parts above",
    "gs crystal plan setup: per bisection stage, besides the parts above",
    "gs crystal plan gs_op: per active stage, besides the parts above"};

static bool value(wm_sched *s, const char *inst, const char *name, long *out, FILE *err)
{
    int64_t v;
    if (!wm_sched_result(s, inst, name, &v)) {
        fprintf(err, "calibrate: the calib kernel did not export %s.%s\n", inst, name);
        return false;
    }
    *out = (long)v;
    return true;
}

/* The gscalib kernel's figures (sw/gs/calib.c) as the charges of the gs
 * kernels' own work. header, queues, push and pop are what the core
 * measured for those calls (their native charges plus one access). Each
 * line solves for one charge from two figures that differ in that
 * charge's count only; the comments give the counts. */
/* Runs a calibration kernel's two-PE layout in mode pe and reads figure
 * i of fig from instance inst[i] ("s" or "r"). */
static bool run_figures(const wm_fabric_ops *ops, const char *text, const char *what, wm_pe_mode pe,
                        const char *const *fig, const char *inst, int nfig, long *out, FILE *err)
{
    wm_layout *l = wm_layout_parse(text, what, NULL, 0, err);
    if (!l) return false;
    wm_runner *r = wm_runner_create_mode(ops, l, NULL, pe);
    bool ok = r != NULL;
    if (ok) {
        const wm_run_result res = wm_runner_run(r, 1000000);
        wm_sched *s = wm_runner_sched(r);
        if (res != WM_RUN_DONE) {
            fprintf(err, "calibrate: %s did not finish %s:\n", what, pe == WM_PE_CORE ? "on the cores" : "natively");
            wm_sched_report(s, res, err);
            ok = false;
        }
        const char name[2][2] = {"s", "r"};
        for (int i = 0; ok && i < nfig; i++) ok = value(s, name[inst[i] == 'r'], fig[i], &out[i], err);
    }
    wm_runner_destroy(r);
    wm_layout_destroy(l);
    return ok;
}

static bool calibrate_gs(const wm_fabric_ops *ops, long header, long queues, long push, long pop,
                         long g[WM_COST_ENTRIES], FILE *err)
{
    enum { TAKE1, TAKE33, WALK8, MERGE8, GIVE, RESIZE, GATHER0, GATHER64, RED1, RED9, RED9X1,
           SEND0, SEND1, SEND5, SEND2, SEND1P8, RECV1, RECV5, RECV1X4, PORT_INIT, MIX, NFIG };
    static const char *const fig[NFIG] = {"take1", "take33", "walk8", "merge8", "give", "resize", "gather0",
                                          "gather64", "red1", "red9", "red9x1", "send0", "send1", "send5",
                                          "send2", "send1p8", "recv1", "recv5", "recv1x4", "portinit", "mix"};
    static const char inst[NFIG + 1] = "ssssssssssssssssrrrsr";
    enum { OP_PAIRWISE, OP_CRYSTAL, SETUP_PLAN, OP_PLAN, SWAP_S, SWAP_R, INIT1, INIT16, PAIR_S, PAIR_R = PAIR_S + 4,
           NGLUE = PAIR_R + 4 };
    static const char *const glue[NGLUE] = {
        "op_pairwise",   "op_crystal",   "setup_plan",      "op_plan",   "swap",          "swap",
        "init1",         "init16",       "pair_pairwise",   "pair_crystal", "pair_setup_plan", "pair_plan",
        "pair_pairwise", "pair_crystal", "pair_setup_plan", "pair_plan"};
    static const char glue_inst[NGLUE + 1] = "sssssrssssssrrrr";
    /* f: on the cores; gf on the cores and gn natively, under the charges
     * built in. */
    long f[NFIG] = {0}, gf[NGLUE] = {0}, gn[NGLUE] = {0};
    if (!run_figures(ops, gs_layout, "the gscalib kernel", WM_PE_CORE, fig, inst, NFIG, f, err) ||
        !run_figures(ops, glue_layout, "the gsglue kernel", WM_PE_CORE, glue, glue_inst, NGLUE, gf, err) ||
        !run_figures(ops, glue_layout, "the gsglue kernel", WM_PE_NATIVE, glue, glue_inst, NGLUE, gn, err))
        return false;
    /* take1: TAKE + BLOCK + ZERO_UNIT; take33: 33 units zeroed; walk8: 8 blocks
     * more; merge8: 8 merges more. */
    g[G_HEAP_ZERO_UNIT] = (f[TAKE33] - f[TAKE1]) / 32;
    g[G_HEAP_BLOCK] = (f[WALK8] - f[TAKE1]) / 8;
    g[G_HEAP_MERGE_BLOCK] = (f[MERGE8] - f[TAKE1]) / 8;
    g[G_HEAP_TAKE] = f[TAKE1] - g[G_HEAP_BLOCK] - g[G_HEAP_ZERO_UNIT];
    g[G_HEAP_GIVE] = f[GIVE];
    g[G_HEAP_RESIZE] = f[RESIZE];
    g[G_COPY] = (f[GATHER64] - f[GATHER0]) / 64;
    /* init16: the plan builder pushes 15 dofs more than init1. */
    g[G_VEC_PUSH] = (gf[INIT16] - gf[INIT1]) / 15;
    g[G_RECORD] = 2 * g[G_COPY];
    g[G_ENTRY] = g[G_COPY];
    g[G_LIST_ADD] = g[G_HEAP_RESIZE];
    /* red1: REDUCE + DOF; red9: 8 terms more; red9x1: 8 dofs more. */
    g[G_TERM] = (f[RED9] - f[RED1]) / 8;
    g[G_DOF] = (f[RED9X1] - f[RED1]) / 8;
    g[G_REDUCE] = f[RED1] - g[G_DOF];
    /* send0: CALL + LOOP. send1: CALL + 2 LOOP + queues + PLACE_STEP + header
     * + OUT_HEADER + OUT_DATA + 3 pushes; send2 one message more, send5 four
     * data wavelets more, send1p8 three search steps more. */
    const long per_message = f[SEND2] - f[SEND1];
    g[G_XFER_CALL] = f[SEND0];
    g[G_XFER_LOOP] = f[SEND1] - f[SEND0] - per_message - queues;
    g[G_XFER_OUT_DATA] = (f[SEND5] - f[SEND1]) / 4 - push;
    g[G_XFER_PLACE_STEP] = (f[SEND1P8] - f[SEND1]) / 3;
    g[G_XFER_INIT] = f[PORT_INIT];
    /* A method alone on one rank: what the core takes beyond what the
     * native mode charged for it without this charge (built is the table
     * compiled in). Exact once the other charges are the ones measured,
     * which is why `make calibrate` runs twice. */
    const long built[4] = {WM_GS_COST_GLUE_PAIRWISE, WM_GS_COST_GLUE_CRYSTAL, WM_GS_COST_GLUE_PLAN_SETUP,
                           WM_GS_COST_GLUE_PLAN_OP};
    for (int k = 0; k < 4; k++) {
        const long v = built[k] + gf[OP_PAIRWISE + k] - gn[OP_PAIRWISE + k];
        g[G_GLUE_PAIRWISE + k] = v > 0 ? v : 0;
    }
    /* Two ranks, each with one peer and one stage: what the two cores
     * take beyond the native charges, on average, is the method's work per
     * peer (pairwise) or per stage. */
    const long built_pair[4] = {WM_GS_COST_PEER_PAIRWISE, WM_GS_COST_STAGE_CRYSTAL, WM_GS_COST_STAGE_PLAN_SETUP,
                                WM_GS_COST_STAGE_PLAN_OP};
    for (int k = 0; k < 4; k++) {
        const long v = built_pair[k] + (gf[PAIR_S + k] + gf[PAIR_R + k] - gn[PAIR_S + k] - gn[PAIR_R + k]) / 2;
        g[G_PEER_PAIRWISE + k] = v > 0 ? v : 0;
    }
    g[G_XFER_OUT_HEADER] = per_message - g[G_XFER_PLACE_STEP] - header - g[G_XFER_OUT_DATA] - 3 * push;
    /* recv1: CALL + 4 LOOP + 5 SCAN + 3 pops + IN_HEADER + IN_DATA; recv5: four
     * data wavelets more, each a turn and a scan; recv1x4: 15 scans more. */
    g[G_XFER_SCAN] = (f[RECV1X4] - f[RECV1]) / 15;
    /* mix: CALL + a sending turn (LOOP, queues, one message out) whose pops
     * take a whole 5-word message (pops, IN_HEADER, 5 IN_DATA: taken) and
     * 2 scans; recv5: CALL + 7 receiving turns, 9 scans and the same taken;
     * recv1 four data wavelets fewer, each a turn and a scan. */
    const long taken = f[MIX] - g[G_XFER_CALL] - g[G_XFER_LOOP] - queues - per_message - 2 * g[G_XFER_SCAN];
    g[G_XFER_RECV_LOOP] = (f[RECV5] - g[G_XFER_CALL] - 9 * g[G_XFER_SCAN] - taken) / 7;
    g[G_XFER_IN_DATA] = (f[RECV5] - f[RECV1]) / 4 - g[G_XFER_RECV_LOOP] - g[G_XFER_SCAN] - pop;
    g[G_XFER_IN_HEADER] = taken - 7 * pop - 5 * g[G_XFER_IN_DATA];
    return true;
}

/* The sum over a layout's leaves of their cycles (t1 - t0), in mode pe. */
static bool leaf_sum(const wm_fabric_ops *ops, const char *text, const char *what, wm_pe_mode pe, long *sum, FILE *err)
{
    wm_layout *l = wm_layout_parse(text, what, NULL, 0, err);
    if (!l) return false;
    wm_runner *r = wm_runner_create_mode(ops, l, NULL, pe);
    bool ok = r != NULL;
    if (ok) {
        const wm_run_result res = wm_runner_run(r, 1000000);
        if (res != WM_RUN_DONE) {
            fprintf(err, "calibrate: %s did not finish %s:\n", what, pe == WM_PE_CORE ? "on the cores" : "natively");
            wm_sched_report(wm_runner_sched(r), res, err);
            ok = false;
        }
        const char *inst[8];
        int64_t cycles[8];
        const size_t n = ok ? wm_runner_leaf_cycles(r, inst, cycles, 8) : 0;
        *sum = 0;
        for (size_t i = 0; i < n && i < 8; i++) *sum += (long)cycles[i];
    }
    wm_runner_destroy(r);
    wm_layout_destroy(l);
    return ok;
}

/* The kernels' steps: what the cores take beyond the native mode's other
 * charges, measured with the table built in (as the gs methods' glue).
 * Every leaf of the tutorial row waits for three node steps (its parent's
 * up, the root's, its parent's down): twelve in the four leaves' sum; the
 * chain's last PE for three steps. */
static bool calibrate_steps(const wm_fabric_ops *ops, long *node, long *chain, FILE *err)
{
    long tc = 0, tn = 0, cc = 0, cn = 0;
    if (!leaf_sum(ops, tree_layout, "the tree", WM_PE_CORE, &tc, err) ||
        !leaf_sum(ops, tree_layout, "the tree", WM_PE_NATIVE, &tn, err) ||
        !leaf_sum(ops, chain_layout, "the chain", WM_PE_CORE, &cc, err) ||
        !leaf_sum(ops, chain_layout, "the chain", WM_PE_NATIVE, &cn, err))
        return false;
    /* the chain's cycles: 0, 1, 2 and 3 steps */
    *node = WM_COST_NODE_STEP + (tc - tn) / 12;
    *chain = WM_COST_CHAIN_STEP + (cc - cn) / 6;
    return true;
}

/* The instruction classes of `wavemesh cpi`, on both models of the core. */
static bool calibrate_classes(long out[C_DIV - C_ALU + 1], FILE *err)
{
    wm_cpi_row rows[16];
    const size_t n = wm_cpi_measure(100, rows, 16);
    /* the rows of core/cpi.c, in its order: ALU, load, store, branch not
     * taken, taken, jal, jalr, mul, div */
    static const int from[C_DIV - C_ALU + 1] = {0, 1, 2, 3, 4, 5, 7, 8};
    if (n < 9) {
        fprintf(err, "calibrate: the instruction classes could not be measured\n");
        return false;
    }
    for (int i = 0; i <= C_DIV - C_ALU; i++) {
        const wm_cpi_row *r = &rows[from[i]];
        if (r->iss != r->rtl) {
            fprintf(err, "calibrate: %s takes %.2f cycles on the simulator and %.2f on the RTL core\n", r->name,
                    r->iss, r->rtl);
            return false;
        }
        out[i] = (long)(r->iss + 0.5);
    }
    return true;
}

bool wm_calibrate(const wm_fabric_ops *ops, wm_cost_entry out[WM_COST_ENTRIES], FILE *err)
{
    wm_layout *l = wm_layout_parse(calib_layout, "the calibration layout", NULL, 0, err);
    if (!l) return false;
    wm_runner *r = wm_runner_create_mode(ops, l, NULL, WM_PE_CORE);
    bool ok = r != NULL;
    long start = 0, tsc = 0, param = 0, exp = 0, header = 0, send1 = 0, send4 = 0, recv1 = 0, recv4 = 0;
    long queues = 0, push = 0, pop = 0;
    if (ok) {
        const wm_run_result res = wm_runner_run(r, 1000000);
        wm_sched *s = wm_runner_sched(r);
        if (res != WM_RUN_DONE) {
            fprintf(err, "calibrate: the calib kernel did not finish on the cores:\n");
            wm_sched_report(s, res, err);
            ok = false;
        }
        ok = ok && value(s, "s", "start", &start, err) && value(s, "s", "tsc", &tsc, err) &&
             value(s, "s", "param", &param, err) && value(s, "s", "export", &exp, err) &&
             value(s, "s", "header", &header, err) && value(s, "s", "send1", &send1, err) &&
             value(s, "s", "send4", &send4, err) && value(s, "s", "queues", &queues, err) &&
             value(s, "s", "push", &push, err) && value(s, "r", "recv1", &recv1, err) &&
             value(s, "r", "recv4", &recv4, err) && value(s, "r", "pop", &pop, err);
    }
    wm_runner_destroy(r);
    wm_layout_destroy(l);
    long g[WM_COST_ENTRIES] = {0}, classes[C_DIV - C_ALU + 1] = {0}, node = 0, chain = 0;
    if (ok) ok = calibrate_gs(ops, header, queues, push, pop, g, err);
    if (ok) ok = calibrate_steps(ops, &node, &chain, err) && calibrate_classes(classes, err);
    if (!ok) return false;
    /* A send of n data wavelets is CALL + 1 + n (WAVELET + 1) natively, the
     * 1s its pushes (the header's is a store of a value in a register, each
     * data wavelet a load and a store); the same for a receive and its
     * pops. The native mode
     * charges a timestamp read before its access, so the kernel's first
     * read, at `start` on the core, comes WM_COST_TSC after its start. */
    const long send_per = (send4 - send1) / 3, recv_per = (recv4 - recv1) / 3;
    long v[WM_COST_ENTRIES] = {start - (tsc - 1), tsc - 1,         param,         exp,        header,
                                     send1 - 1 - send_per, send_per - 1, recv1 - 1 - recv_per, recv_per - 1,
                                     queues - 1,          push - 1,      pop - 1,       classes[0],
                                     node,                chain};
    for (int i = 0; i < WM_COST_ENTRIES; i++) {
        if (i >= C_ALU && i <= C_DIV) v[i] = classes[i - C_ALU];
        if (i >= MP_ENTRIES) v[i] = g[i];
        if (v[i] < 0) {
            fprintf(err, "calibrate: %s came out negative (%ld): the calib kernel's timing is off\n", names[i], v[i]);
            return false;
        }
        out[i] = (wm_cost_entry){names[i], v[i], whats[i]};
    }
    return true;
}

void wm_cost_model_write(FILE *out, const wm_cost_entry e[WM_COST_ENTRIES])
{
    fprintf(out, "/* cost_model.h: the native mode's charges, in cycles, measured on the PE core.\n"
                 " *\n"
                 " * Generated by `make calibrate` (`wavemesh calibrate --write sw/cost_model.h`\n"
                 " * until the table measures itself) from the calib, gscalib and gsglue\n"
                 " * kernels (sw/traffic/calib.c, sw/gs/calib.c, sw/gs/calib_glue.c) run on the\n"
                 " * cores; `make test` fails when this no longer matches what the cores\n"
                 " * measure. Do not edit: change the firmware library or the core, and\n"
                 " * calibrate again.\n"
                 " *\n"
                 " * The native mode charges these on top of one cycle per port access (push,\n"
                 " * pop, timestamp read, queue read) and whatever the queues stall\n"
                 " * (docs/cost-model.md). */\n"
                 "#ifndef WM_COST_MODEL_H\n#define WM_COST_MODEL_H\n\nenum {\n");
    for (int i = 0; i < WM_COST_ENTRIES; i++)
        fprintf(out, "    %-27s = %4ld%s /* %s */\n", e[i].name, e[i].value, i + 1 < WM_COST_ENTRIES ? "," : " ",
                e[i].what);
    fprintf(out, "};\n\n#endif\n");
}

void wm_cost_model_current(wm_cost_entry out[WM_COST_ENTRIES])
{
    const long v[WM_COST_ENTRIES] = {WM_COST_START,        WM_COST_TSC,       WM_COST_PARAM,
                                     WM_COST_EXPORT,       WM_COST_HEADER,    WM_COST_SEND_CALL,
                                     WM_COST_SEND_WAVELET, WM_COST_RECV_CALL, WM_COST_RECV_WAVELET,
                                     WM_COST_QUEUES,       WM_COST_PUSH,      WM_COST_POP,
                                     WM_COST_ADD,          WM_COST_NODE_STEP, WM_COST_CHAIN_STEP,
                                     WM_COST_ALU,          WM_COST_LOAD,      WM_COST_STORE,
                                     WM_COST_BRANCH,       WM_COST_BRANCH_TAKEN, WM_COST_JUMP,
                                     WM_COST_MUL,          WM_COST_DIV,
                                     WM_GS_COST_HEAP_TAKE, WM_GS_COST_HEAP_BLOCK, WM_GS_COST_HEAP_ZERO_UNIT,
                                     WM_GS_COST_HEAP_MERGE_BLOCK, WM_GS_COST_HEAP_GIVE, WM_GS_COST_HEAP_RESIZE,
                                     WM_GS_COST_COPY, WM_GS_COST_RECORD, WM_GS_COST_ENTRY, WM_GS_COST_LIST_ADD,
                                     WM_GS_COST_REDUCE, WM_GS_COST_DOF, WM_GS_COST_TERM, WM_GS_COST_XFER_CALL,
                                     WM_GS_COST_XFER_LOOP, WM_GS_COST_XFER_SCAN, WM_GS_COST_XFER_IN_HEADER,
                                     WM_GS_COST_XFER_IN_DATA, WM_GS_COST_XFER_OUT_HEADER, WM_GS_COST_XFER_OUT_DATA,
                                     WM_GS_COST_XFER_PLACE_STEP, WM_GS_COST_XFER_INIT, WM_GS_COST_XFER_RECV_LOOP,
                                     WM_GS_COST_VEC_PUSH, WM_GS_COST_GLUE_PAIRWISE,
                                     WM_GS_COST_GLUE_CRYSTAL, WM_GS_COST_GLUE_PLAN_SETUP, WM_GS_COST_GLUE_PLAN_OP,
                                     WM_GS_COST_PEER_PAIRWISE, WM_GS_COST_STAGE_CRYSTAL,
                                     WM_GS_COST_STAGE_PLAN_SETUP, WM_GS_COST_STAGE_PLAN_OP};
    for (int i = 0; i < WM_COST_ENTRIES; i++) out[i] = (wm_cost_entry){names[i], v[i], whats[i]};
}
