/* generate.h: the gather-scatter schedules the tests and benchmarks use.
 *
 * Each builds every rank's local dofs by global id and derives the send and
 * receive lists from them (wm_gs_schedule_derive), so the lists always
 * agree. dofs is the number of dofs on one shared face. */
#ifndef WM_GS_GENERATE_H
#define WM_GS_GENERATE_H

#include "gs/rank_grid.h"
#include "gs/schedule.h"
#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { WM_GS_CHAIN = 0, WM_GS_GRID = 1, WM_GS_RANDOM = 2, WM_GS_STAR = 3 } wm_gs_kind;

WM_MUST_USE bool wm_gs_kind_parse(const char *name, wm_gs_kind *kind);
const char *wm_gs_kind_name(wm_gs_kind kind);

/* A 1-D chain partition: rank r owns dofs interior dofs and shares dofs
 * dofs with rank r - 1 and with rank r + 1 (by rank number). */
WM_MUST_USE wm_gs_schedule *wm_gs_generate_chain(unsigned nranks, unsigned dofs);

/* A 2-D grid of square elements, one per PE of the w x h rank grid, each
 * with (dofs + 2)^2 nodes: a face shares dofs nodes plus its two corners
 * with the neighbour across it, and a corner node is shared by up to four
 * ranks. The rank owning the element at PE (x, y) is wm_rank_at(order...). */
WM_MUST_USE wm_gs_schedule *wm_gs_generate_grid(unsigned w, unsigned h, wm_rank_order order, unsigned dofs);

/* A random sparse schedule: every rank owns dofs private dofs, shares
 * 1..dofs dofs with each of two random peers, and one dof with a random
 * pair of others (multiplicity 3). Deterministic for a seed. */
WM_MUST_USE wm_gs_schedule *wm_gs_generate_random(unsigned nranks, unsigned dofs, uint64_t seed);

/* Stars: the ranks cut into groups of multiplicity consecutive ranks (by
 * rank number; the last group takes what is left), every rank of a group
 * holding the same dofs shared dofs, each a vertex of that multiplicity,
 * and dofs private dofs of its own. Where folding at relays matters: a
 * vertex of multiplicity k costs pairwise k (k - 1) words. multiplicity
 * is 1 .. nranks (wm_gs_generate uses nranks: one star of every rank). */
WM_MUST_USE wm_gs_schedule *wm_gs_generate_star(unsigned nranks, unsigned multiplicity, unsigned dofs);

/* The most dofs one rank of the schedule holds, known before it is made:
 * chain dofs (one rank), 2 * dofs (two) or 3 * dofs; grid (dofs + 2)^2;
 * random at least dofs (one rank), dofs + 2 (two) or dofs + 3; star
 * 2 * dofs. */
uint64_t wm_gs_generate_rank_dofs(wm_gs_kind kind, unsigned w, unsigned h, unsigned dofs);

/* The most dofs a rank's image could ever hold: a word each, after the
 * image's header, in the PE's data memory (sw/gs/gs_image.h, sw/mp.h). */
enum { WM_GS_DOFS_ROOM = 10240 - 30 };

/* The largest dofs of the kind on w x h whose rank dofs fit WM_GS_DOFS_ROOM
 * (its image may need more: lists, the reduction). */
unsigned wm_gs_generate_dofs_max(wm_gs_kind kind, unsigned w, unsigned h);

/* False, with the limit in err, when no image of the schedule could fit a
 * PE: checked before the schedule is made, which takes minutes for
 * millions of dofs. */
WM_MUST_USE bool wm_gs_generate_check(wm_gs_kind kind, unsigned w, unsigned h, unsigned dofs, char *err,
                                      size_t err_size);

/* The kind named, on the rank grid w x h (chain and random use w*h ranks). */
WM_MUST_USE wm_gs_schedule *wm_gs_generate(wm_gs_kind kind, unsigned w, unsigned h, wm_rank_order order, unsigned dofs,
                                           uint64_t seed);

#endif
