/* tree.c: the tree layout generator (see tree.h). */
#include "run/tree.h"

#include "core/xalloc.h"
#include "fabric/fabric.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    long left, right, parent; /* node indices, -1 for none */
    long leaf;                /* leaf number, or -1 for an inner node */
    long inner;               /* p number in breadth-first order; -1 for leaves and the root */
    int side;                 /* 0: left child, 1: right child */
    int depth;
    unsigned x, y;
    unsigned w, h;            /* htree: the rectangle of the subtree */
} tnode;

typedef struct {
    tnode *n;
    size_t count;
    long root;
} tree;

static const char *const placement_names[] = {"row", "tworow", "inorder", "htree", "chain", "packed"};

bool wm_tree_placement_parse(const char *name, wm_tree_placement *out)
{
    for (size_t i = 0; i < sizeof placement_names / sizeof placement_names[0]; i++) {
        if (!strcmp(name, placement_names[i])) {
            *out = (wm_tree_placement)i;
            return true;
        }
    }
    return false;
}

const char *wm_tree_placement_name(wm_tree_placement p) { return placement_names[p]; }

void wm_tree_seed_values(uint64_t seed, size_t leaves, int64_t *values)
{
    /* splitmix64: small, and the same values on every machine */
    uint64_t s = seed;
    for (size_t i = 0; i < leaves; i++) {
        uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        values[i] = (int64_t)(z % 1000);
    }
}

static long build(tree *t, size_t lo, size_t hi, long parent, int side, int depth)
{
    const long me = (long)t->count++;
    tnode *n = &t->n[me];
    n->parent = parent;
    n->side = side;
    n->depth = depth;
    n->left = n->right = -1;
    n->inner = -1;
    if (hi - lo == 1) {
        n->leaf = (long)lo;
        return me;
    }
    n->leaf = -1;
    const size_t mid = lo + (hi - lo + 1) / 2;
    const long l = build(t, lo, mid, me, 0, depth + 1);
    const long r = build(t, mid, hi, me, 1, depth + 1);
    t->n[me].left = l;
    t->n[me].right = r;
    return me;
}

/* p numbers in breadth-first order, the root excluded. */
static void number_inner(tree *t)
{
    long *queue = wm_xmalloc(t->count * sizeof *queue);
    size_t head = 0, tail = 0;
    long next = 0;
    queue[tail++] = t->root;
    while (head < tail) {
        tnode *n = &t->n[queue[head++]];
        if (n->leaf >= 0) continue;
        if (queue[head - 1] != t->root) n->inner = next++;
        queue[tail++] = n->left;
        queue[tail++] = n->right;
    }
    free(queue);
}

static void place_inorder(tree *t, long i, unsigned *x)
{
    tnode *n = &t->n[i];
    if (n->leaf < 0) place_inorder(t, n->left, x);
    n->x = (*x)++;
    n->y = 0;
    if (n->leaf < 0) place_inorder(t, n->right, x);
}

static void htree_size(tree *t, long i)
{
    tnode *n = &t->n[i];
    if (n->leaf >= 0) {
        n->w = n->h = 1;
        return;
    }
    htree_size(t, n->left);
    htree_size(t, n->right);
    const tnode *a = &t->n[n->left], *b = &t->n[n->right];
    if (n->depth % 2 == 0) {
        n->w = a->w + 1 + b->w;
        n->h = a->h > b->h ? a->h : b->h;
    } else {
        n->h = a->h + 1 + b->h;
        n->w = a->w > b->w ? a->w : b->w;
    }
}

static void htree_place(tree *t, long i, unsigned x0, unsigned y0)
{
    tnode *n = &t->n[i];
    if (n->leaf >= 0) {
        n->x = x0;
        n->y = y0;
        return;
    }
    const tnode *a = &t->n[n->left];
    if (n->depth % 2 == 0) {
        htree_place(t, n->left, x0, y0);
        n->x = x0 + a->w;
        n->y = y0 + (n->h - 1) / 2;
        htree_place(t, n->right, x0 + a->w + 1, y0);
    } else {
        htree_place(t, n->left, x0, y0);
        n->x = x0 + (n->w - 1) / 2;
        n->y = y0 + a->h;
        htree_place(t, n->right, x0, y0 + a->h + 1);
    }
}

/* packed: a subtree of up to 2^k leaves owns a rectangle of 2^(k+1) tiles,
 * a square or twice as wide as high. The rectangle is cut across its longer
 * side (a wide one into two squares, a square into two wide ones) and each
 * half goes to one child subtree. The rectangle comes with one tile to keep
 * free: the half holding it passes it down, and the node takes a tile of the
 * other half on the cut, which that half then keeps free in turn. So a full
 * subtree fills its rectangle but for the one tile handed up, which is the
 * parent's or an ancestor's. */
typedef struct {
    unsigned x0, y0, w, h;
} rect;

typedef struct {
    unsigned x, y;
} tile;

static bool rect_holds(rect r, tile t) { return t.x >= r.x0 && t.x < r.x0 + r.w && t.y >= r.y0 && t.y < r.y0 + r.h; }

static void rect_halves(rect r, rect half[2])
{
    if (r.w > r.h) {
        half[0] = (rect){r.x0, r.y0, r.w / 2, r.h};
        half[1] = (rect){r.x0 + r.w / 2, r.y0, r.w / 2, r.h};
    } else {
        half[0] = (rect){r.x0, r.y0, r.w, r.h / 2};
        half[1] = (rect){r.x0, r.y0 + r.h / 2, r.w, r.h / 2};
    }
}

/* The tiles of half s of r that touch the cut: tile i of `length` of them. */
static tile cut_tile(rect r, int s, unsigned i)
{
    if (r.w > r.h) return (tile){r.x0 + r.w / 2 - (s == 0), r.y0 + i};
    return (tile){r.x0 + i, r.y0 + r.h / 2 - (s == 0)};
}

static unsigned cut_length(rect r) { return r.w > r.h ? r.h : r.w; }

/* Distances in half tiles, so that a point between two tiles is exact. */
typedef struct {
    long x, y;
} point2;

static point2 twice(tile t) { return (point2){2 * (long)t.x, 2 * (long)t.y}; }

static long distance2(point2 a, point2 b) { return labs(a.x - b.x) + labs(a.y - b.y); }

/* A leaf's tile: the one of r nearest `near` other than the free one. A
 * subtree has at least half the leaves its rectangle is for, so a lone
 * leaf's rectangle has two tiles or four. */
static tile packed_leaf_tile(rect r, tile free_tile, point2 near)
{
    tile best = {0, 0};
    long best_d = -1;
    for (unsigned y = r.y0; y < r.y0 + r.h; y++) {
        for (unsigned x = r.x0; x < r.x0 + r.w; x++) {
            const tile t = {x, y};
            const long d = distance2(twice(t), near);
            if ((x != free_tile.x || y != free_tile.y) && (best_d < 0 || d < best_d)) {
                best = t;
                best_d = d;
            }
        }
    }
    return best;
}

/* Where node i will sit in r, near enough to choose its parent's tile by:
 * a leaf exactly, an inner node at the middle of its cut on the side away
 * from the free tile. */
static point2 packed_guess(const tree *t, long i, rect r, tile free_tile, point2 parent)
{
    if (t->n[i].leaf >= 0) return twice(packed_leaf_tile(r, free_tile, parent));
    rect half[2];
    rect_halves(r, half);
    const int s = rect_holds(half[0], free_tile) ? 1 : 0;
    const point2 a = twice(cut_tile(r, s, 0)), b = twice(cut_tile(r, s, cut_length(r) - 1));
    return (point2){(a.x + b.x) / 2, (a.y + b.y) / 2};
}

/* Places the subtree of node i in r, keeping free_tile free. */
static void packed_place(tree *t, long i, rect r, tile free_tile, const point2 *parent)
{
    tnode *n = &t->n[i];
    if (n->leaf >= 0) {
        const tile at = packed_leaf_tile(r, free_tile, parent ? *parent : twice(free_tile));
        n->x = at.x;
        n->y = at.y;
        return;
    }
    rect half[2];
    rect_halves(r, half);
    const int f = rect_holds(half[0], free_tile) ? 0 : 1; /* the half that keeps free_tile */
    const long child[2] = {n->left, n->right};
    /* The node's tile on the cut, in the other half: the one nearest its
     * parent and the two children's guessed places, tried from the middle out. */
    const unsigned length = cut_length(r);
    tile best = cut_tile(r, 1 - f, length / 2);
    long best_cost = -1;
    for (unsigned k = 0; k < length; k++) {
        const unsigned i_cut = k % 2 ? length / 2 + k / 2 : length / 2 - 1 - k / 2;
        const tile c = cut_tile(r, 1 - f, i_cut);
        const point2 here = twice(c);
        long cost = parent ? distance2(here, *parent) : 0;
        for (int s = 0; s < 2; s++)
            cost += distance2(here, packed_guess(t, child[s], half[s], s == f ? free_tile : c, here));
        if (best_cost < 0 || cost < best_cost) {
            best = c;
            best_cost = cost;
        }
    }
    n->x = best.x;
    n->y = best.y;
    const point2 here = twice(best);
    for (int s = 0; s < 2; s++) packed_place(t, child[s], half[s], s == f ? free_tile : best, &here);
}

/* The rectangle of 2^(k+1) tiles for 2^k >= leaves; the free tile in its
 * last corner. Then every coordinate moved so that the PEs start at 0, 0
 * (a tree short of a power of two leaves rows or columns empty). */
static void packed_layout(tree *t, size_t leaves, unsigned *w, unsigned *h)
{
    unsigned k = 0;
    while (((size_t)1 << k) < leaves) k++;
    const rect all = {0, 0, 1u << ((k + 2) / 2), 1u << ((k + 1) / 2)};
    packed_place(t, t->root, all, (tile){all.w - 1, all.h - 1}, NULL);
    unsigned x0 = all.w, y0 = all.h, x1 = 0, y1 = 0;
    for (size_t i = 0; i < t->count; i++) {
        const tnode *n = &t->n[i];
        x0 = n->x < x0 ? n->x : x0;
        y0 = n->y < y0 ? n->y : y0;
        x1 = n->x > x1 ? n->x : x1;
        y1 = n->y > y1 ? n->y : y1;
    }
    for (size_t i = 0; i < t->count; i++) {
        t->n[i].x -= x0;
        t->n[i].y -= y0;
    }
    *w = x1 - x0 + 1;
    *h = y1 - y0 + 1;
}

/* The last leaf of the left subtree of inner node i: the split column. */
static long split_of(const tree *t, long i)
{
    long k = t->n[i].left;
    while (t->n[k].leaf < 0) k = t->n[k].right;
    return t->n[k].leaf;
}

/* tworow: inner node over the split between leaves s and s+1, at column s
 * if it is a left child (or the root) and s+1 if a right child, which is
 * the seed's p0 0, root 1, p1 3; a taken column falls back to the nearest
 * free one. */
static void place_tworow(tree *t, size_t leaves)
{
    unsigned char *taken = wm_xcalloc(leaves, 1);
    for (size_t i = 0; i < t->count; i++) {
        tnode *n = &t->n[i];
        if (n->leaf >= 0) {
            n->x = (unsigned)n->leaf;
            n->y = 1;
            continue;
        }
        const long s = split_of(t, (long)i);
        long want = ((long)i != t->root && n->side == 1) ? s + 1 : s;
        for (long d = 0; d < (long)leaves; d++) {
            if (want - d >= 0 && !taken[want - d]) {
                want -= d;
                break;
            }
            if (want + d < (long)leaves && !taken[want + d]) {
                want += d;
                break;
            }
        }
        taken[want] = 1;
        n->x = (unsigned)want;
        n->y = 0;
    }
    free(taken);
}

static void name_of(const tree *t, long i, char *buf, size_t size)
{
    const tnode *n = &t->n[i];
    if (n->leaf >= 0)
        snprintf(buf, size, "l%ld", n->leaf);
    else if (i == t->root)
        snprintf(buf, size, "root");
    else
        snprintf(buf, size, "p%ld", n->inner);
}

static bool write_chain(FILE *out, size_t leaves, const int64_t *values, const char *origin, char *err,
                        size_t errsize)
{
    unsigned w = 1;
    while ((size_t)w * w < leaves) w++;
    const unsigned h = (unsigned)((leaves + w - 1) / w);
    if (w > WM_MESH_MAX || h > WM_MESH_MAX) {
        snprintf(err, errsize, "a chain of %zu PEs needs a %ux%u mesh (at most %d x %d)", leaves, w, h, WM_MESH_MAX,
                 WM_MESH_MAX);
        return false;
    }
    fprintf(out, "# %s\n# lesson 9's chain: a running sum along a serpentine line of %zu PEs\n", origin, leaves);
    for (size_t i = 0; i < leaves; i++) fprintf(out, "param V%zu %lld\n", i, (long long)values[i]);
    fprintf(out, "mesh %u %u\nregion all\n", w, h);
    for (size_t i = 0; i < leaves; i++) {
        const unsigned y = (unsigned)(i / w), k = (unsigned)(i % w);
        fprintf(out, "at l%zu %u %u\n", i, y % 2 ? w - 1 - k : k, y);
    }
    for (size_t i = 0; i < leaves; i++) {
        fprintf(out, "pe l%zu chain VAL=$V%zu FIRST=%d LAST=%d", i, i, i == 0, i + 1 == leaves);
        if (i + 1 < leaves) fprintf(out, " NEXTX=l%zu.x NEXTY=l%zu.y", i + 1, i + 1);
        fputc('\n', out);
    }
    return true;
}

bool wm_tree_write(FILE *out, size_t leaves, wm_tree_placement placement, const int64_t *values, const char *origin,
                   char *err, size_t errsize)
{
    if (leaves < 1) {
        snprintf(err, errsize, "a tree needs at least one leaf");
        return false;
    }
    if (placement == WM_TREE_CHAIN) return write_chain(out, leaves, values, origin, err, errsize);
    tree t = {calloc(2 * leaves + 1, sizeof(tnode)), 0, -1};
    if (!t.n) {
        snprintf(err, errsize, "out of memory");
        return false;
    }
    unsigned w = 0, h = 0;
    if (leaves == 1) {
        /* the root over one leaf: a node with one child */
        t.count = 2;
        t.root = 0;
        t.n[0] = (tnode){1, -1, -1, -1, -1, 0, 0, 1, 0, 0, 0};
        t.n[1] = (tnode){-1, -1, 0, 0, -1, 0, 1, 0, 0, 0, 0};
        w = 2;
        h = 1;
    } else {
        t.root = build(&t, 0, leaves, -1, 0, 0);
        number_inner(&t);
        switch (placement) {
        case WM_TREE_ROW: {
            /* leaves first, then inner nodes in breadth-first order, root last */
            for (size_t i = 0; i < t.count; i++) {
                tnode *n = &t.n[i];
                n->y = 0;
                if (n->leaf >= 0)
                    n->x = (unsigned)n->leaf;
                else if ((long)i == t.root)
                    n->x = (unsigned)(2 * leaves - 2);
                else
                    n->x = (unsigned)(leaves + (size_t)n->inner);
            }
            w = (unsigned)(2 * leaves - 1);
            h = 1;
            break;
        }
        case WM_TREE_TWOROW:
            place_tworow(&t, leaves);
            w = (unsigned)leaves;
            h = 2;
            break;
        case WM_TREE_INORDER: {
            unsigned x = 0;
            place_inorder(&t, t.root, &x);
            w = x;
            h = 1;
            break;
        }
        case WM_TREE_HTREE:
            htree_size(&t, t.root);
            htree_place(&t, t.root, 0, 0);
            w = t.n[t.root].w;
            h = t.n[t.root].h;
            break;
        case WM_TREE_PACKED:
            packed_layout(&t, leaves, &w, &h);
            break;
        case WM_TREE_CHAIN:
            break;
        }
    }
    if (w > WM_MESH_MAX || h > WM_MESH_MAX) {
        snprintf(err, errsize, "placement %s of %zu leaves needs a %ux%u mesh (at most %dx%d; packed is the compact one)",
                 wm_tree_placement_name(placement), leaves, w, h, WM_MESH_MAX, WM_MESH_MAX);
        free(t.n);
        return false;
    }
    fprintf(out, "# %s\n# a binary tree over %zu leaves, placement %s (%zu PEs on %ux%u)\n", origin, leaves,
            wm_tree_placement_name(placement), t.count, w, h);
    fprintf(out, "param IGNORE_TAG 0\n");
    for (size_t i = 0; i < leaves; i++) fprintf(out, "param V%zu %lld\n", i, (long long)values[i]);
    fprintf(out, "mesh %u %u\nregion all\n", w, h);
    char name[32], a[32], b[32], up[32];
    for (size_t i = 0; i < t.count; i++) {
        name_of(&t, (long)i, name, sizeof name);
        fprintf(out, "at %s %u %u\n", name, t.n[i].x, t.n[i].y);
    }
    for (size_t i = 0; i < t.count; i++) {
        const tnode *n = &t.n[i];
        name_of(&t, (long)i, name, sizeof name);
        name_of(&t, n->parent >= 0 ? n->parent : (long)i, up, sizeof up);
        if (n->leaf >= 0) {
            fprintf(out, "pe %s leaf VAL=$V%ld SIDE=%d UPX=%s.x UPY=%s.y\n", name, n->leaf, n->side, up, up);
            continue;
        }
        name_of(&t, n->left, a, sizeof a);
        fprintf(out, "pe %s node ROOT=%d SIDE=%d UPX=%s.x UPY=%s.y LX=%s.x LY=%s.y", name, (long)i == t.root,
                n->side, up, up, a, a);
        if (n->right >= 0) {
            name_of(&t, n->right, b, sizeof b);
            fprintf(out, " RX=%s.x RY=%s.y", b, b);
        } else {
            fprintf(out, " CHILDREN=1");
        }
        fprintf(out, " IGNORE_TAG=$IGNORE_TAG\n");
    }
    free(t.n);
    return true;
}
