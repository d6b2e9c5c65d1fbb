// wm_router_cover: the router's events that `make coverage` must see hit.
//
// Bound into every wm_router (wm_cover_bind.sv) in the coverage build
// only: synthesis, Icarus and the other Verilated models never read this
// file, and it drives nothing, so the router's cycles are the same with it.
// Only what XY routing can do is a cover point: a wavelet that came from
// the north travels south and can only go on south or down the ramp, so
// "granted N to N" is not a gap but an impossibility (docs/verification.md).
// Ports N=0, E=1, S=2, W=3, L=4; gnt and req hold input i for output o at
// bit 5o + i.
`default_nettype none

module wm_router_cover #(
    parameter IN_DEPTH = 4,
    parameter CW       = 4
) (
    input wire                          clk_i,
    input wire                          rst_ni,
    input wire                          enable_i,
    input wire [24:0]                   gnt,
    input wire [24:0]                   req,
    input wire [4:0]                    take,
    input wire [4:0]                    own_q,
    input wire [4:0]                    cont,
    input wire [4:0]                    hv,
    input wire [4:0]                    off_pop,
    input wire [4:0]                    len_nz,
    input wire [3:0]                    nbr_en_q,
    input wire [5*CW-1:0]               credit_q,
    input wire [4*$clog2(IN_DEPTH)+3:0] in_count_o
);
    localparam integer IC = $clog2(IN_DEPTH) + 1;
    localparam integer N = 0, E = 1, S = 2, W = 3, L = 4;

`define WM_COVER(name, cond) name: cover property (@(posedge clk_i) rst_ni && (cond));
    // every input/output pair XY routing can grant (17 of 25)
    `WM_COVER(grant_s_to_n, gnt[5*N + S])
    `WM_COVER(grant_e_to_n, gnt[5*N + E])
    `WM_COVER(grant_w_to_n, gnt[5*N + W])
    `WM_COVER(grant_l_to_n, gnt[5*N + L])
    `WM_COVER(grant_w_to_e, gnt[5*E + W])
    `WM_COVER(grant_l_to_e, gnt[5*E + L])
    `WM_COVER(grant_n_to_s, gnt[5*S + N])
    `WM_COVER(grant_e_to_s, gnt[5*S + E])
    `WM_COVER(grant_w_to_s, gnt[5*S + W])
    `WM_COVER(grant_l_to_s, gnt[5*S + L])
    `WM_COVER(grant_e_to_w, gnt[5*W + E])
    `WM_COVER(grant_l_to_w, gnt[5*W + L])
    `WM_COVER(grant_n_to_l, gnt[5*L + N])
    `WM_COVER(grant_e_to_l, gnt[5*L + E])
    `WM_COVER(grant_s_to_l, gnt[5*L + S])
    `WM_COVER(grant_w_to_l, gnt[5*L + W])
    `WM_COVER(grant_l_to_l, gnt[5*L + L])
    // every pair of inputs that can contend for one free output (24)
    `WM_COVER(contend_n_s_e, take[N] && req[5*N + S] && req[5*N + E])
    `WM_COVER(contend_n_s_w, take[N] && req[5*N + S] && req[5*N + W])
    `WM_COVER(contend_n_s_l, take[N] && req[5*N + S] && req[5*N + L])
    `WM_COVER(contend_n_e_w, take[N] && req[5*N + E] && req[5*N + W])
    `WM_COVER(contend_n_e_l, take[N] && req[5*N + E] && req[5*N + L])
    `WM_COVER(contend_n_w_l, take[N] && req[5*N + W] && req[5*N + L])
    `WM_COVER(contend_s_n_e, take[S] && req[5*S + N] && req[5*S + E])
    `WM_COVER(contend_s_n_w, take[S] && req[5*S + N] && req[5*S + W])
    `WM_COVER(contend_s_n_l, take[S] && req[5*S + N] && req[5*S + L])
    `WM_COVER(contend_s_e_w, take[S] && req[5*S + E] && req[5*S + W])
    `WM_COVER(contend_s_e_l, take[S] && req[5*S + E] && req[5*S + L])
    `WM_COVER(contend_s_w_l, take[S] && req[5*S + W] && req[5*S + L])
    `WM_COVER(contend_e_w_l, take[E] && req[5*E + W] && req[5*E + L])
    `WM_COVER(contend_w_e_l, take[W] && req[5*W + E] && req[5*W + L])
    `WM_COVER(contend_l_n_e, take[L] && req[5*L + N] && req[5*L + E])
    `WM_COVER(contend_l_n_s, take[L] && req[5*L + N] && req[5*L + S])
    `WM_COVER(contend_l_n_w, take[L] && req[5*L + N] && req[5*L + W])
    `WM_COVER(contend_l_n_l, take[L] && req[5*L + N] && req[5*L + L])
    `WM_COVER(contend_l_e_s, take[L] && req[5*L + E] && req[5*L + S])
    `WM_COVER(contend_l_e_w, take[L] && req[5*L + E] && req[5*L + W])
    `WM_COVER(contend_l_e_l, take[L] && req[5*L + E] && req[5*L + L])
    `WM_COVER(contend_l_s_w, take[L] && req[5*L + S] && req[5*L + W])
    `WM_COVER(contend_l_s_l, take[L] && req[5*L + S] && req[5*L + L])
    `WM_COVER(contend_l_w_l, take[L] && req[5*L + W] && req[5*L + L])
    // every link buffer full
    `WM_COVER(buffer_full_n, in_count_o[IC*N +: IC] == IN_DEPTH)
    `WM_COVER(buffer_full_e, in_count_o[IC*E +: IC] == IN_DEPTH)
    `WM_COVER(buffer_full_s, in_count_o[IC*S +: IC] == IN_DEPTH)
    `WM_COVER(buffer_full_w, in_count_o[IC*W +: IC] == IN_DEPTH)
    // every output out of credits
    `WM_COVER(credits_zero_n, credit_q[CW*N +: CW] == 0)
    `WM_COVER(credits_zero_e, credit_q[CW*E +: CW] == 0)
    `WM_COVER(credits_zero_s, credit_q[CW*S +: CW] == 0)
    `WM_COVER(credits_zero_w, credit_q[CW*W +: CW] == 0)
    `WM_COVER(credits_zero_l, credit_q[CW*L +: CW] == 0)
    // a wormhole held across a stall: the output stays owned, nothing moves
    `WM_COVER(wormhole_stalled_n, own_q[N] && !cont[N])
    `WM_COVER(wormhole_stalled_e, own_q[E] && !cont[E])
    `WM_COVER(wormhole_stalled_s, own_q[S] && !cont[S])
    `WM_COVER(wormhole_stalled_w, own_q[W] && !cont[W])
    `WM_COVER(wormhole_stalled_l, own_q[L] && !cont[L])
    // off-mesh headers, discarded where first seen (the source's ramp):
    // alone, and with the data wavelets behind them
    `WM_COVER(offmesh_header_alone, off_pop[L] && !len_nz[L])
    `WM_COVER(offmesh_header_with_data, off_pop[L] && len_nz[L])
    // a disabled neighbour holding up a header or a message for it
    `WM_COVER(neighbour_off_n, !nbr_en_q[N] && (req[5*N +: 5] != 5'b0 || own_q[N]))
    `WM_COVER(neighbour_off_e, !nbr_en_q[E] && (req[5*E +: 5] != 5'b0 || own_q[E]))
    `WM_COVER(neighbour_off_s, !nbr_en_q[S] && (req[5*S +: 5] != 5'b0 || own_q[S]))
    `WM_COVER(neighbour_off_w, !nbr_en_q[W] && (req[5*W +: 5] != 5'b0 || own_q[W]))
    // this router disabled with wavelets waiting in it
    `WM_COVER(router_off_with_heads, !enable_i && hv != 5'b0)
`undef WM_COVER
endmodule

`default_nettype wire
