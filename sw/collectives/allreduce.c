/* allreduce.c: every PE of a tree ends with the sum of every PE's value.
 *
 * The worked example of docs/kernels.md. One kernel for every PE, leaf,
 * inner node or root alike: the up-sweep receives one partial sum from
 * each child (tag TAG_UP), adds its own value and sends the subtree's sum
 * to its parent; the root's sum is the total, which the down-sweep
 * broadcasts (tag TAG_DOWN) from parent to children. Addition does not
 * care in which order the children's sums arrive, so, unlike the scan's
 * nodes, this kernel needs no side; the tags only catch a message that
 * arrives in the wrong phase, which is a fault naming this PE. */
#include "collectives.h"

enum { VAL, ROOT, UPX, UPY, CHILDREN, C0X, C0Y, C1X, C1Y, C2X, C2Y, C3X, C3Y };
#define COORD(name) {name, false, -1, WM_RANGE(-1, WM_MESH_MAX - 1)}
const wm_kernel_param wm_allreduce_params[] = {
    [VAL] = {"VAL", true, 0, WM_RANGE(INT32_MIN, INT32_MAX)}, /* this PE's value */
    [ROOT] = {"ROOT", false, 0, WM_RANGE(0, 1)},              /* 1: the tree's root, which has no parent */
    [UPX] = COORD("UPX"),                                     /* the parent's coordinates, unless ROOT */
    [UPY] = COORD("UPY"),
    [CHILDREN] = {"CHILDREN", false, 0, WM_RANGE(0, 4)},      /* how many of C0..C3 are children */
    [C0X] = COORD("C0X"),
    [C0Y] = COORD("C0Y"),
    [C1X] = COORD("C1X"),
    [C1Y] = COORD("C1Y"),
    [C2X] = COORD("C2X"),
    [C2Y] = COORD("C2Y"),
    [C3X] = COORD("C3X"),
    [C3Y] = COORD("C3Y"),
    {NULL, false, 0, 0, 0},
};
#undef COORD

enum { SUM, TOTAL };
const char *const wm_allreduce_exports[] = {[SUM] = "sum", [TOTAL] = "total", NULL};

enum { TAG_UP = 1, TAG_DOWN = 2 };

static void send_value(wm_mp *mp, int64_t col, int64_t row, unsigned tag, uint32_t value)
{
    wm_mp_send(mp, wm_mp_header(mp, col, row, 1, tag), &value);
}

/* One message of one wavelet in phase `tag`; anything else is a fault. */
static uint32_t recv_value(wm_mp *mp, unsigned tag)
{
    uint32_t value = 0;
    const uint32_t header = wm_mp_recv(mp, &value, 1);
    if (wm_header_tag(header) != tag || wm_header_len(header) != 1)
        wm_mp_fault(mp, "expected a message of 1 wavelet with tag %u, got %u wavelets with tag %u", tag,
                    wm_header_len(header), wm_header_tag(header));
    return value;
}

void wm_kernel_allreduce(wm_mp *mp)
{
    const unsigned children = (unsigned)wm_mp_param(mp, CHILDREN);
    uint32_t sum = (uint32_t)wm_mp_param(mp, VAL);
    for (unsigned c = 0; c < children; c++) {
        const uint32_t part = recv_value(mp, TAG_UP);
        wm_mp_work(mp, WM_COST_ADD);
        sum += part;
    }
    wm_mp_export(mp, SUM, (int32_t)sum);

    uint32_t total = sum;
    if (!wm_mp_param(mp, ROOT)) {
        send_value(mp, wm_mp_param(mp, UPX), wm_mp_param(mp, UPY), TAG_UP, sum);
        total = recv_value(mp, TAG_DOWN);
    }
    for (unsigned c = 0; c < children; c++)
        send_value(mp, wm_mp_param(mp, C0X + 2 * c), wm_mp_param(mp, C0Y + 2 * c), TAG_DOWN, total);
    wm_mp_export(mp, TOTAL, (int32_t)total);
}
