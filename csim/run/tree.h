/* tree.h: layouts for the tree collectives over any number of leaves.
 *
 * The tree is binary over P >= 1 leaves l0..l{P-1}: a subtree of n leaves
 * gives its left child ceil(n/2) of them, so every inner node has two
 * children and the tree has 2P-1 PEs (a one-leaf tree is the root over l0).
 * Inner nodes are p0, p1, ... in breadth-first order and the top one is
 * root. The placement decides only the coordinates:
 *   row      leaves on one row, then the inner nodes (the seed's tutorial)
 *   tworow   leaves on row 1, inner nodes above them on row 0 (tworow)
 *   inorder  one row in in-order, every child next to its parent (exercise 3)
 *   htree    2-D: each subtree in a rectangle, the two halves side by side
 *            with the node in the column (or row) between them, alternating
 *            direction with depth; P = 4096 fits in 127 x 127
 *   packed   2-D, a PE on every tile: a subtree of up to 2^k leaves in a
 *            rectangle of 2^(k+1) tiles cut in two halves for its children;
 *            each half keeps one tile free, the node takes one (on the cut)
 *            and the other is handed up. 2^k leaves fill 2^(k+1) tiles but
 *            one: P = 32768 in 256 x 256, P = 2^19 in 1024 x 1024
 *   chain    not a tree: lesson 9's running sum along a serpentine line */
#ifndef WM_TREE_H
#define WM_TREE_H

#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum {
    WM_TREE_ROW,
    WM_TREE_TWOROW,
    WM_TREE_INORDER,
    WM_TREE_HTREE,
    WM_TREE_CHAIN,
    WM_TREE_PACKED
} wm_tree_placement;

/* "row" etc.; false if unknown. */
WM_MUST_USE bool wm_tree_placement_parse(const char *name, wm_tree_placement *out);
const char *wm_tree_placement_name(wm_tree_placement p);

/* The deterministic values of --seed S: P values in 0..999. */
void wm_tree_seed_values(uint64_t seed, size_t leaves, int64_t *values);

/* Write the layout of a tree over `leaves` leaves with these values to out.
 * False, with a message in err, when the placement cannot hold it (a mesh
 * side above WM_MESH_MAX). */
WM_MUST_USE
bool wm_tree_write(FILE *out, size_t leaves, wm_tree_placement placement, const int64_t *values, const char *origin,
                   char *err, size_t errsize);

#endif
