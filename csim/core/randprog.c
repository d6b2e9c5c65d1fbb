/* randprog.c: see randprog.h. */
#include "randprog.h"

#include "rv32_asm.h"

#include <string.h>

#define MAX_DEPTH 2          /* nesting of skipped regions and loop bodies */
#define MAX_SKIP 3           /* items a forward branch or jump skips */
#define MAX_BODY 5           /* items in a loop body */
#define MAX_ITER 4           /* loop iterations */

typedef struct {
    wm_xorshift rng;
    const wm_randprog_cfg *cfg;
    uint32_t *w;
    unsigned n, max;
    bool overflow;
    wm_randprog_info *info;
} gen;

static void emit(gen *g, uint32_t word)
{
    if (g->n < g->max) g->w[g->n] = word;
    else g->overflow = true;
    g->n++;
}

static uint32_t rnd(gen *g, uint32_t n) { return wm_xs_below(&g->rng, n); }
static bool chance(gen *g, unsigned permille) { return rnd(g, 1000) < permille; }

/* Values that break arithmetic: the extremes and their neighbours. */
static uint32_t special_value(gen *g)
{
    static const uint32_t sp[] = {0,           1,           0xffffffffu, 0x80000000u, 0x7fffffffu,
                                  0x80000001u, 0xfffffffeu, 2,           0x0000ffffu, 0xffff0000u,
                                  0x00000080u, 0xffffff80u, 0x00008000u, 0xffff8000u, 31,
                                  32,          33,          63,          0xffffffe0u, 0x000007ffu};
    if (chance(g, 600)) return sp[rnd(g, sizeof sp / sizeof sp[0])];
    if (chance(g, 300)) return rnd(g, 64) - 32u;
    return (uint32_t)wm_xs_next(&g->rng);
}

static int32_t imm12(gen *g)
{
    static const int32_t ex[] = {-2048, 2047, 0, -1, 1, -2047, 2046, 0x7ff, -0x800, 0x400, -0x400};
    if (chance(g, 500)) return ex[rnd(g, sizeof ex / sizeof ex[0])];
    return (int32_t)rnd(g, 4096) - 2048;
}

static uint32_t imm20(gen *g)
{
    static const uint32_t ex[] = {0, 0xfffff, 0x80000, 0x7ffff, 1, 0x00003, 0xffffe};
    if (chance(g, 500)) return ex[rnd(g, sizeof ex / sizeof ex[0])];
    return rnd(g, 1u << 20);
}

static unsigned shamt(gen *g)
{
    static const unsigned ex[] = {0, 1, 31, 30, 16, 15};
    if (chance(g, 500)) return ex[rnd(g, sizeof ex / sizeof ex[0])];
    return rnd(g, 32);
}

/* A destination: any register whose bit is not in excl (x0 is never in
 * excl and comes up more often than 1 in 32). */
static unsigned dst(gen *g, uint32_t excl)
{
    if (chance(g, 40)) return 0;
    for (;;) {
        unsigned r = rnd(g, 32);
        if (!(excl >> r & 1u)) return r;
    }
}

/* A register the item can use as scratch (a base, an operand it sets). */
static unsigned scratch(gen *g, uint32_t excl)
{
    for (;;) {
        unsigned r = 1 + rnd(g, 31);
        if (!(excl >> r & 1u)) return r;
    }
}

static unsigned src(gen *g) { return rnd(g, 32); }

static void li(gen *g, unsigned rd, uint32_t v)
{
    uint32_t w[2];
    unsigned k = rv_li(w, rd, v);
    for (unsigned i = 0; i < k; i++) emit(g, w[i]);
}

/* Always two words, so an address is one item whatever its value. */
static void li2(gen *g, unsigned rd, uint32_t v)
{
    uint32_t lo = v & 0xfffu;
    emit(g, rv_lui(rd, (v >> 12) + (lo >> 11)));
    emit(g, rv_addi(rd, rd, (int32_t)(lo << 20) >> 20));
}

/* ---- items ------------------------------------------------------------- */

static void item(gen *g, uint32_t excl, unsigned depth);

static void items(gen *g, uint32_t excl, unsigned depth, unsigned k)
{
    for (unsigned i = 0; i < k; i++) item(g, excl, depth);
}

static void op_rr(gen *g, uint32_t excl)
{
    typedef uint32_t (*rr_fn)(unsigned, unsigned, unsigned);
    static const rr_fn f[] = {rv_add,  rv_sub,    rv_sll,   rv_slt,  rv_sltu,  rv_xor, rv_srl, rv_sra, rv_or,
                              rv_and,  rv_mul,    rv_mulh,  rv_mulhsu, rv_mulhu, rv_div, rv_divu, rv_rem, rv_remu};
    emit(g, f[rnd(g, sizeof f / sizeof f[0])](dst(g, excl), src(g), src(g)));
}

static uint32_t op_imm_word(gen *g, uint32_t excl)
{
    unsigned rd = dst(g, excl), rs1 = src(g);
    switch (rnd(g, 9)) {
    case 0: return rv_addi(rd, rs1, imm12(g));
    case 1: return rv_slti(rd, rs1, imm12(g));
    case 2: return rv_sltiu(rd, rs1, imm12(g));
    case 3: return rv_xori(rd, rs1, imm12(g));
    case 4: return rv_ori(rd, rs1, imm12(g));
    case 5: return rv_andi(rd, rs1, imm12(g));
    case 6: return rv_slli(rd, rs1, shamt(g));
    case 7: return rv_srli(rd, rs1, shamt(g));
    default: return rv_srai(rd, rs1, shamt(g));
    }
}

static void op_imm(gen *g, uint32_t excl) { emit(g, op_imm_word(g, excl)); }

/* FENCE with its other fields random: they are ignored. */
static void fence(gen *g)
{
    if (chance(g, 500)) emit(g, rv_fence());
    else emit(g, ((uint32_t)wm_xs_next(&g->rng) & ~0x707fu) | 0x0fu);
}

/* Code that rewrites the word right after the store: the old word executes
 * (docs/core.md, fine print), the new one on every later pass (in a loop). */
static void self_modify(gen *g, uint32_t excl)
{
    unsigned rs = scratch(g, excl), rb = scratch(g, excl | 1u << rs);
    li2(g, rs, op_imm_word(g, excl));
    emit(g, rv_auipc(rb, 0));
    emit(g, rv_sw(rs, rb, 8));
    op_imm(g, excl);
}

/* An M instruction on operands set to the cases RISC-V defines specially. */
static void m_corner(gen *g, uint32_t excl)
{
    static const uint32_t dividend[] = {0x80000000u, 0xffffffffu, 0, 1, 0x7fffffffu};
    static const uint32_t divisor[] = {0, 0xffffffffu, 1, 0x80000000u};
    typedef uint32_t (*rr_fn)(unsigned, unsigned, unsigned);
    static const rr_fn f[] = {rv_div, rv_divu, rv_rem, rv_remu, rv_mul, rv_mulh, rv_mulhsu, rv_mulhu};
    unsigned ra = scratch(g, excl), rb = scratch(g, excl);
    li(g, ra, chance(g, 800) ? dividend[rnd(g, 5)] : special_value(g));
    if (rb != ra) li(g, rb, divisor[rnd(g, 4)]);
    emit(g, f[rnd(g, chance(g, 800) ? 4 : 8)](dst(g, excl), ra, rb));
}

/* The offset of an access to address a: a quarter of the time one that
 * carries from the low 12 bits into rs1's high part (rs1 = a - off lies in
 * the page below a's), a quarter one that borrows from it (rs1 in the page
 * above), where such an offset exists; else plain or at an extreme. The
 * core decodes the RAM's and the window's edges on each path apart. */
static int32_t carry_off(gen *g, uint32_t a)
{
    const uint32_t lo = a & 0xfffu;
    return lo < 2047 ? (int32_t)(lo + 1 + rnd(g, 2047 - lo)) : 0;
}

static int32_t borrow_off(gen *g, uint32_t a)
{
    const uint32_t lo = a & 0xfffu, kmin = 0x1001 - lo;
    return lo >= 0x801 ? -(int32_t)(kmin + rnd(g, 2049 - kmin)) : 0;
}

static int32_t split_off(gen *g, uint32_t a)
{
    switch (rnd(g, 4)) {
    case 0: return carry_off(g, a);
    case 1: return borrow_off(g, a);
    default: return chance(g, 300) ? 0 : imm12(g);
    }
}

/* The data area's last 16 words, up to the RAM's end with the defaults:
 * most accesses go there, so that loads read what stores wrote. */
static uint32_t data_addr(gen *g, unsigned size)
{
    const wm_randprog_cfg *cfg = g->cfg;
    if (cfg->data_bytes >= 64 && chance(g, 600))
        return cfg->data_base + cfg->data_bytes - 64 + (rnd(g, 64) & ~(size - 1));
    return cfg->data_base + (rnd(g, cfg->data_bytes) & ~(size - 1));
}

/* A value whose bytes are each 0, 0x7f, 0x80, 0xff or random: every lane's
 * sign bit set or clear, the lanes unlike each other. */
static uint32_t lane_value(gen *g)
{
    static const uint8_t b[] = {0x00, 0x7f, 0x80, 0xff, 0x01, 0xfe};
    uint32_t v = 0;
    for (unsigned i = 0; i < 4; i++)
        v |= (uint32_t)(chance(g, 700) ? b[rnd(g, sizeof b)] : (uint8_t)rnd(g, 256)) << 8 * i;
    return v;
}

/* A load or store of the data area, the address split into base + offset
 * with the offset at an extreme. */
static void ram_access(gen *g, uint32_t excl, bool store)
{
    unsigned kind = rnd(g, store ? 3 : 5); /* store: b h w; load: b h w bu hu */
    unsigned size = store ? 1u << kind : (kind == 0 || kind == 3) ? 1u : (kind == 1 || kind == 4) ? 2u : 4u;
    uint32_t addr = data_addr(g, size);
    int32_t off = split_off(g, addr);
    unsigned rb = scratch(g, excl);
    li2(g, rb, addr - (uint32_t)off);
    if (store) {
        static uint32_t (*const s[3])(unsigned, unsigned, int32_t) = {rv_sb, rv_sh, rv_sw};
        emit(g, s[kind](src(g), rb, off));
    } else {
        static uint32_t (*const l[5])(unsigned, unsigned, int32_t) = {rv_lb, rv_lh, rv_lw, rv_lbu, rv_lhu};
        emit(g, l[kind](dst(g, excl), rb, off));
    }
}

/* The register window: the base in a register, the offset from it at
 * 0x8000_0000 or from 0x8000_0800 (a negative offset). */
static void window_access(gen *g, uint32_t excl)
{
    unsigned rb = scratch(g, excl);
    /* or from below the window, the offset carrying into the high part */
    unsigned how = rnd(g, 20);
    uint32_t base = how < 12 ? 0x80000000u : how < 15 ? 0x80000800u : 0x80000000u - 4u * (1 + rnd(g, 0x1f7));
    int32_t bias = (int32_t)(0x80000000u - base);
    if (base == 0x80000000u) emit(g, rv_lui(rb, 0x80000));
    else li2(g, rb, base);
    switch (rnd(g, 11)) {
    case 10: /* a burst: fills TX, or drains RX, faster than the datapath */
        if (chance(g, 500)) {
            for (unsigned i = 0, n = 4 + rnd(g, 9); i < n; i++, g->info->tx_stores++)
                emit(g, rv_sw(src(g), rb, bias + WM_CORE_REG_TX));
        } else {
            for (unsigned i = 0, n = 2 + rnd(g, 5); i < n; i++, g->info->rx_loads++)
                emit(g, rv_lw(dst(g, excl | 1u << rb), rb, bias + WM_CORE_REG_RX));
        }
        break;
    case 0:
    case 1:
    case 2:
        emit(g, rv_lw(dst(g, excl), rb, bias + WM_CORE_REG_RX));
        g->info->rx_loads++;
        break;
    case 3:
    case 4:
    case 5:
        emit(g, rv_sw(src(g), rb, bias + WM_CORE_REG_TX));
        g->info->tx_stores++;
        break;
    case 6: {
        static const int32_t ro[] = {WM_CORE_REG_QUEUES, WM_CORE_REG_STATUS, WM_CORE_REG_ERR_HDR, WM_CORE_REG_COORD,
                                     WM_CORE_REG_TSC_HI};
        emit(g, rv_lw(dst(g, excl), rb, bias + ro[rnd(g, 5)]));
        break;
    }
    case 7: emit(g, rv_lw(dst(g, excl), rb, bias + WM_CORE_REG_QUEUES)); break;
    default: { /* TSC_LO, then (sometimes after other work) TSC_HI */
        unsigned r = dst(g, excl | 1u << rb);
        emit(g, rv_lw(r, rb, bias + WM_CORE_REG_TSC_LO));
        if (chance(g, 500)) op_rr(g, excl | 1u << rb);
        emit(g, rv_lw(dst(g, excl), rb, bias + WM_CORE_REG_TSC_HI));
        break;
    }
    }
}

/* Patch a forward branch or jump at word at to land on the current end. */
static void patch(gen *g, unsigned at)
{
    if (at >= g->max || g->overflow) return;
    int32_t off = (int32_t)(g->n - at) * 4;
    uint32_t w = g->w[at];
    switch (w & 0x7fu) {
    case 0x63: g->w[at] = rv_b(off, (w >> 20) & 31u, (w >> 15) & 31u, (w >> 12) & 7u); break;
    case 0x6f: g->w[at] = rv_jal((w >> 7) & 31u, off); break;
    default: break;
    }
}

static void fwd_branch_on(gen *g, uint32_t excl, unsigned depth, unsigned rs1, unsigned rs2)
{
    static const unsigned f3[] = {0, 1, 4, 5, 6, 7};
    unsigned at = g->n;
    emit(g, rv_b(0, rs2, rs1, f3[rnd(g, 6)]));
    items(g, excl, depth + 1, 1 + rnd(g, MAX_SKIP));
    patch(g, at);
}

static void fwd_branch(gen *g, uint32_t excl, unsigned depth)
{
    unsigned rs1 = src(g);
    fwd_branch_on(g, excl, depth, rs1, chance(g, 150) ? rs1 : src(g));
}

static void fwd_jal(gen *g, uint32_t excl, unsigned depth)
{
    unsigned at = g->n;
    emit(g, rv_jal(dst(g, excl), 0));
    items(g, excl, depth + 1, 1 + rnd(g, MAX_SKIP));
    patch(g, at);
}

/* auipc rb, 0; jalr rd, off(rb) to after the skipped items; the offset
 * sometimes odd (JALR clears bit 0), rd sometimes rb itself. */
static void fwd_jalr(gen *g, uint32_t excl, unsigned depth)
{
    unsigned rb = scratch(g, excl);
    unsigned rd = chance(g, 200) && !(excl >> rb & 1u) ? rb : dst(g, excl);
    unsigned at = g->n;
    emit(g, rv_auipc(rb, 0));
    emit(g, 0);
    items(g, excl | 1u << rb, depth + 1, 1 + rnd(g, MAX_SKIP));
    int32_t off = (int32_t)(g->n - at) * 4 + (int32_t)rnd(g, 2);
    if (at + 1 < g->max) g->w[at + 1] = rv_jalr(rd, rb, off);
}

/* li rc, n; body; addi rc, rc, -1; b<cond> back while rc != 0. */
static void loop(gen *g, uint32_t excl, unsigned depth)
{
    unsigned rc = scratch(g, excl);
    uint32_t in = excl | 1u << rc;
    li(g, rc, 1 + rnd(g, MAX_ITER));
    unsigned top = g->n;
    items(g, in, depth + 1, 1 + rnd(g, MAX_BODY));
    emit(g, rv_addi(rc, rc, -1));
    int32_t back = -(int32_t)(g->n - top) * 4;
    switch (rnd(g, 4)) {
    case 0: emit(g, rv_bne(rc, 0, back)); break;
    case 1: emit(g, rv_bltu(0, rc, back)); break;
    case 2: emit(g, rv_blt(0, rc, back)); break;
    default: emit(g, rv_beq(rc, 0, 8)); emit(g, rv_jal(0, back - 4)); break; /* out when rc is 0, else back */
    }
}

/* The corners of core/corners.h, set up on purpose: a word of unlike lanes
 * stored and read back narrow (and used at once), shifts by 0, 31 and 32 or
 * more, branches on operands equal, one apart or of unlike signs, chains of
 * instructions each reading the one before (the register file's bypass),
 * loads through an address that wraps round from the top page. */
static void corner(gen *g, uint32_t excl, unsigned depth)
{
    const unsigned ra = scratch(g, excl), rb = scratch(g, excl | 1u << ra);
    unsigned c = rnd(g, 6);
    if (c == 3 && depth >= MAX_DEPTH) c = 2; /* no deeper nesting */
    switch (c) {
    case 0:
    case 1: {
        typedef uint32_t (*mem_fn)(unsigned, unsigned, int32_t);
        static const mem_fn st[3] = {rv_sw, rv_sb, rv_sh}, ld[5] = {rv_lb, rv_lbu, rv_lh, rv_lhu, rv_lw};
        const uint32_t a = data_addr(g, 4);
        unsigned k = chance(g, 600) ? 0 : 1 + rnd(g, 2), lane = k == 0 ? 0 : k == 1 ? rnd(g, 4) : 2 * rnd(g, 2);
        int32_t off = split_off(g, a + lane);
        li(g, ra, lane_value(g));
        li2(g, rb, a + lane - (uint32_t)off);
        emit(g, st[k](ra, rb, off));
        k = rnd(g, 5);
        lane = k < 2 ? rnd(g, 4) : k < 4 ? 2 * rnd(g, 2) : 0;
        off = split_off(g, a + lane);
        li2(g, rb, a + lane - (uint32_t)off);
        unsigned rd = dst(g, excl);
        emit(g, ld[k](rd, rb, off));
        if (rd && chance(g, 500)) emit(g, rv_xor(dst(g, excl), chance(g, 500) ? rd : src(g), rd));
        break;
    }
    case 2: {
        static const uint32_t amount[] = {0, 31, 32, 33, 63, 0xffffffe0u, 0xffffffffu, 0x80000000u, 64, 0x3f};
        typedef uint32_t (*rr_fn)(unsigned, unsigned, unsigned);
        typedef uint32_t (*ri_fn)(unsigned, unsigned, unsigned);
        static const rr_fn rr[3] = {rv_sll, rv_srl, rv_sra};
        static const ri_fn ri[3] = {rv_slli, rv_srli, rv_srai};
        li(g, ra, chance(g, 500) ? lane_value(g) : special_value(g));
        if (chance(g, 650)) {
            uint32_t n = chance(g, 800) ? amount[rnd(g, 10)] : (uint32_t)wm_xs_next(&g->rng);
            li(g, rb, n);
            emit(g, rr[rnd(g, 3)](dst(g, excl), ra, rb));
        } else {
            emit(g, ri[rnd(g, 3)](dst(g, excl), ra, chance(g, 500) ? 0 : 31));
        }
        break;
    }
    case 3: {
        static const uint32_t pair[][2] = {{0x7fffffffu, 0x80000000u}, {0, 0xffffffffu}, {0xffffffffu, 0x80000000u},
                                           {0x80000000u, 0x80000001u}, {0xfffffffeu, 0xffffffffu}, {0, 1}};
        uint32_t v = special_value(g), w;
        switch (rnd(g, 4)) {
        case 0: w = v; break;
        case 1: w = v + 1; break;
        case 2: w = v - 1; break;
        default: {
            const unsigned i = rnd(g, 6);
            v = pair[i][0];
            w = pair[i][1];
            break;
        }
        }
        if (chance(g, 500)) {
            const uint32_t t = v;
            v = w;
            w = t;
        }
        li(g, ra, v);
        li(g, rb, w);
        fwd_branch_on(g, excl, depth, ra, rb);
        break;
    }
    case 4: {
        typedef uint32_t (*rr_fn)(unsigned, unsigned, unsigned);
        static const rr_fn f[] = {rv_add, rv_sub, rv_xor, rv_sll, rv_sra, rv_sltu, rv_mul, rv_divu, rv_rem, rv_or};
        unsigned r = ra;
        li(g, r, special_value(g));
        for (unsigned i = 0, n = 2 + rnd(g, 3); i < n; i++) {
            const unsigned d = chance(g, 500) ? r : scratch(g, excl);
            const unsigned o = src(g);
            switch (rnd(g, 3)) {
            case 0: emit(g, f[rnd(g, 10)](d, r, o)); break;
            case 1: emit(g, f[rnd(g, 10)](d, o, r)); break;
            default: emit(g, f[rnd(g, 10)](d, r, r)); break;
            }
            r = d;
        }
        break;
    }
    default: {
        /* rs1 in the top page, the offset carrying it round to the code */
        const uint32_t a = 4 * rnd(g, 256);
        const int32_t off = (int32_t)(a + 1 + rnd(g, 2047 - a));
        li2(g, rb, a - (uint32_t)off);
        emit(g, (chance(g, 500) ? rv_lw : rv_lhu)(dst(g, excl), rb, off));
        break;
    }
    }
}

static void item(gen *g, uint32_t excl, unsigned depth)
{
    if (chance(g, g->cfg->window_permille)) {
        window_access(g, excl);
        return;
    }
    if (chance(g, g->cfg->corner_permille)) {
        corner(g, excl, depth);
        return;
    }
    unsigned k = rnd(g, 100);
    if (depth >= MAX_DEPTH && k >= 78) k = rnd(g, 78);
    if (k < 22) op_rr(g, excl);
    else if (k < 40) op_imm(g, excl);
    else if (k < 44) emit(g, rv_lui(dst(g, excl), imm20(g)));
    else if (k < 47) emit(g, rv_auipc(dst(g, excl), imm20(g)));
    else if (k < 52) li(g, dst(g, excl), special_value(g));
    else if (k < 58) m_corner(g, excl);
    else if (k < 67) ram_access(g, excl, false);
    else if (k < 75) ram_access(g, excl, true);
    else if (k < 76) fence(g);
    else if (k < 77) self_modify(g, excl);
    else if (k < 78) emit(g, rv_nop());
    else if (k < 87) fwd_branch(g, excl, depth);
    else if (k < 91) fwd_jal(g, excl, depth);
    else if (k < 94) fwd_jalr(g, excl, depth);
    else loop(g, excl, depth);
}

/* ---- the ending -------------------------------------------------------- */

static void fault_tail(gen *g)
{
    const wm_randprog_cfg *cfg = g->cfg;
    unsigned rb = scratch(g, 0), rd = dst(g, 0);
    g->info->ends_in_fault = true;
    unsigned c = rnd(g, 8);
    switch (c >= 6 ? 4 : c) { /* access faults twice as often: the edges */
    case 0: {
        static const uint32_t bad[] = {
            0x00000000u, 0xffffffffu, 0x00000073u /* ecall */, 0x00100073u /* ebreak */,
            0x34011073u /* csrrw */, 0x0000100fu /* fence.i */, 0x40001013u /* slli, funct7 0x20 */,
            0x02005013u /* srli, funct7 0x01 */, 0x80000033u /* add, funct7 0x40 */, 0x40002033u /* slt, funct7 0x20 */,
            0x00002063u /* branch f3 2 */, 0x00003063u /* branch f3 3 */, 0x00003003u /* load f3 3 */,
            0x00006003u /* load f3 6 */, 0x00003023u /* store f3 3 */, 0x00001067u /* jalr f3 1 */,
            0x00000001u /* compressed */, 0x0000000bu /* custom-0 */, 0x0000007fu, 0x00000053u /* OP-FP */,
            0x0000202fu /* AMO */, 0x00000007u /* LOAD-FP */, 0x00000057u /* OP-V */, 0x0000001fu /* 48-bit */};
        emit(g, bad[rnd(g, sizeof bad / sizeof bad[0])]);
        g->info->fault = WM_CORE_FAULT_ILLEGAL;
        break;
    }
    case 1:
        switch (rnd(g, 4)) {
        case 0: emit(g, rv_jal(rd, 6)); break;
        case 1: emit(g, rv_beq(rb, rb, 2 + 4 * (int32_t)rnd(g, 4))); break;
        case 2: emit(g, rv_auipc(rb, 0)); emit(g, rv_jalr(rd, rb, 6)); break;
        default: emit(g, rv_auipc(rb, 0)); emit(g, rv_jalr(rd, rb, 11)); break; /* (pc + 11) & ~1 = pc + 10 */
        }
        g->info->fault = WM_CORE_FAULT_JUMP_ALIGN;
        break;
    case 2:
        switch (rnd(g, 3)) {
        case 0: li2(g, rb, cfg->mem_bytes); break;
        case 1: emit(g, rv_lui(rb, 0x80000)); break;
        default: li2(g, rb, 0xfffffffcu); break;
        }
        emit(g, rv_jalr(rd, rb, 0));
        g->info->fault = WM_CORE_FAULT_FETCH;
        break;
    case 3: {
        uint32_t a = cfg->data_base + (rnd(g, cfg->data_bytes) & ~3u);
        li2(g, rb, a);
        static uint32_t (*const acc[])(unsigned, unsigned, int32_t) = {rv_lw, rv_lw, rv_lw, rv_lh, rv_lhu,
                                                                             rv_sw, rv_sw, rv_sw, rv_sh};
        static const int32_t off[] = {1, 2, 3, 1, 3, 1, 2, 3, 1};
        unsigned i = rnd(g, 9);
        emit(g, acc[i](i < 5 ? rd : src(g), rb, off[i]));
        g->info->fault = WM_CORE_FAULT_ALIGN;
        break;
    }
    case 4: {
        static const uint32_t where[] = {0, 0x40000000u, 0x80000024u, 0xfffffffcu, 0x7ffffffcu, 0x80001000u};
        uint32_t a = where[rnd(g, 6)];
        if (!a) a = cfg->mem_bytes;
        const unsigned how = rnd(g, 3);
        const int32_t off = how == 0 ? 0 : how == 1 ? carry_off(g, a) : split_off(g, a);
        li2(g, rb, a - (uint32_t)off);
        if (chance(g, 500)) emit(g, rv_lw(rd, rb, off));
        else if (chance(g, 500)) emit(g, rv_sb(src(g), rb, off));
        else emit(g, rv_lhu(rd, rb, off));
        g->info->fault = WM_CORE_FAULT_ACCESS;
        break;
    }
    default: {
        emit(g, rv_lui(rb, 0x80000));
        switch (rnd(g, 9)) {
        case 0: emit(g, rv_lw(rd, rb, WM_CORE_REG_TX)); break;
        case 1: emit(g, rv_lw(rd, rb, WM_CORE_REG_EXIT)); break;
        case 2: emit(g, rv_sw(src(g), rb, WM_CORE_REG_RX)); break;
        case 3: emit(g, rv_sw(src(g), rb, WM_CORE_REG_QUEUES)); break;
        case 4: emit(g, rv_sw(src(g), rb, WM_CORE_REG_TSC_LO)); break;
        case 5: emit(g, rv_lb(rd, rb, WM_CORE_REG_RX)); break;
        case 6: emit(g, rv_sh(src(g), rb, WM_CORE_REG_TX)); break;
        case 7: emit(g, rv_lhu(rd, rb, WM_CORE_REG_COORD)); break;
        default: emit(g, rv_sb(src(g), rb, WM_CORE_REG_EXIT + 3)); break;
        }
        g->info->fault = WM_CORE_FAULT_UNMAPPED;
        break;
    }
    }
}

void wm_randprog_defaults(wm_randprog_cfg *cfg)
{
    cfg->mem_bytes = WM_CORE_MEM_BYTES;
    cfg->data_base = 0x3000;
    cfg->data_bytes = 0x1000;
    cfg->items = 120;
    cfg->window_permille = 125;
    cfg->corner_permille = 150;
    cfg->fault_permille = 200;
}

bool wm_randprog(uint64_t seed, const wm_randprog_cfg *cfg, uint32_t *code, unsigned max_words,
                 wm_randprog_info *info)
{
    gen g = {.cfg = cfg, .w = code, .max = max_words, .info = info};
    memset(info, 0, sizeof *info);
    wm_xs_seed(&g.rng, seed);
    if (max_words > cfg->data_base / 4) g.max = cfg->data_base / 4;

    for (unsigned r = 1; r < 32; r++) li(&g, r, special_value(&g));
    items(&g, 0, 0, cfg->items);
    if (chance(&g, cfg->fault_permille)) {
        fault_tail(&g);
    } else {
        unsigned rb = scratch(&g, 0);
        unsigned rv = chance(&g, 500) ? rb : src(&g);
        emit(&g, rv_lui(rb, 0x80000));
        emit(&g, rv_sw(rv, rb, WM_CORE_REG_EXIT));
    }
    info->words = g.n;
    return !g.overflow;
}
