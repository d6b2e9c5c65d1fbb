/* node.c: an inner node or the root of the tree collectives.
 *
 * Up-sweep: receive one message from each child, attribute it by its tag
 * (messages from the two children arrive in either order), and send the sum
 * up, tagged with this node's side; the root keeps it as the total. Down-
 * sweep: receive the prefix from the parent (the root's is 0), send it
 * unchanged to the left child and plus the left sum to the right child.
 * IGNORE_TAG=1 is the seed's exercise 1: the first message to arrive counts
 * as the left child's, which is wrong whenever the right child is nearer. */
#include "collectives.h"


enum { ROOT, SIDE, UPX, UPY, LX, LY, RX, RY, CHILDREN, IGNORE_TAG };
const wm_kernel_param wm_node_params[] = {
    [ROOT] = {"ROOT", true, 0, WM_RANGE(0, 1)}, /* 1: this node is the root */
    [SIDE] = {"SIDE", true, 0, WM_RANGE(0, 1)}, /* 0: left child of its parent, 1: right */
    [UPX] = {"UPX", true, 0, WM_RANGE(0, WM_MESH_MAX - 1)}, /* the parent's coordinates (unused by the root) */
    [UPY] = {"UPY", true, 0, WM_RANGE(0, WM_MESH_MAX - 1)},
    [LX] = {"LX", true, 0, WM_RANGE(0, WM_MESH_MAX - 1)}, /* the left child's coordinates */
    [LY] = {"LY", true, 0, WM_RANGE(0, WM_MESH_MAX - 1)},
    [RX] = {"RX", false, -1, WM_RANGE(-1, WM_MESH_MAX - 1)}, /* the right child's, when there is one */
    [RY] = {"RY", false, -1, WM_RANGE(-1, WM_MESH_MAX - 1)},
    [CHILDREN] = {"CHILDREN", false, 2, WM_RANGE(1, 2)}, /* 1 only for the root of a one-leaf tree */
    [IGNORE_TAG] = {"IGNORE_TAG", false, 0, WM_RANGE(0, 1)}, /* exercise 1: take arrival order as tree order */
    {NULL, false, 0, 0, 0},
};

enum { TOTAL };
const char *const wm_node_exports[] = {[TOTAL] = "total", NULL}; /* the root's */

/* Inlined on the core (sw/rv32/mp_inline.h): a constant length, so the
 * send is two stores. Coordinates in 32 bits, the core's width. */
static inline void send_one(wm_mp *mp, int32_t col, int32_t row, unsigned tag, uint32_t value)
{
    wm_mp_send(mp, wm_mp_header(mp, col, row, 1, tag), &value);
}

void wm_kernel_node(wm_mp *mp)
{
    const unsigned children = (unsigned)wm_mp_param(mp, CHILDREN);
    const bool ignore_tag = (uint32_t)wm_mp_param(mp, IGNORE_TAG) != 0;
    uint32_t left = 0, right = 0;
    for (unsigned c = 0; c < children; c++) {
        uint32_t value = 0;
        const uint32_t header = wm_mp_recv(mp, &value, 1);
        const bool from_left = ignore_tag ? c == 0 : wm_header_tag(header) == 0;
        if (from_left)
            left = value;
        else
            right = value;
    }
    wm_mp_work(mp, WM_COST_NODE_STEP);
    const uint32_t sum = left + right;

    /* The root keeps the total, exported once the down-sweep is sent. */
    const bool root = (uint32_t)wm_mp_param(mp, ROOT) != 0;
    uint32_t prefix = 0;
    if (!root) {
        send_one(mp, (int32_t)wm_mp_param(mp, UPX), (int32_t)wm_mp_param(mp, UPY), (unsigned)wm_mp_param(mp, SIDE),
                 sum);
        wm_mp_recv(mp, &prefix, 1);
        wm_mp_work(mp, WM_COST_NODE_STEP);
    }

    send_one(mp, (int32_t)wm_mp_param(mp, LX), (int32_t)wm_mp_param(mp, LY), 0, prefix);
    if (children == 2) {
        wm_mp_work(mp, WM_COST_ADD);
        send_one(mp, (int32_t)wm_mp_param(mp, RX), (int32_t)wm_mp_param(mp, RY), 1, prefix + left);
    }
    if (root) wm_mp_export(mp, TOTAL, (int32_t)sum);
}
