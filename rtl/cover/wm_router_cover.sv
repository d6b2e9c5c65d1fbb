// wm_router_cover: the router's events that `make coverage` must see hit.
//
// Bound into every wm_router (wm_cover_bind.sv) in the coverage build
// only: synthesis, Icarus and the other Verilated models never read this
// file, and it drives nothing, so the router's cycles are the same with it.
// Only what XY routing can do is a cover point: a wavelet that came from
// the north travels south and can only go on south or down the ramp, so
// "granted N to N" is not a gap but an impossibility (docs/verification.md).
// Ports PORT_N..PORT_L (rtl/wm_ports.vh); gnt and req hold input i for
// output o at bit 5o + i.
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
`include "rtl/wm_ports.vh"

`define WM_COVER(name, cond) name: cover property (@(posedge clk_i) rst_ni && (cond));
    // every input/output pair XY routing can grant (17 of 25)
    `WM_COVER(grant_s_to_n, gnt[5*PORT_N + PORT_S])
    `WM_COVER(grant_e_to_n, gnt[5*PORT_N + PORT_E])
    `WM_COVER(grant_w_to_n, gnt[5*PORT_N + PORT_W])
    `WM_COVER(grant_l_to_n, gnt[5*PORT_N + PORT_L])
    `WM_COVER(grant_w_to_e, gnt[5*PORT_E + PORT_W])
    `WM_COVER(grant_l_to_e, gnt[5*PORT_E + PORT_L])
    `WM_COVER(grant_n_to_s, gnt[5*PORT_S + PORT_N])
    `WM_COVER(grant_e_to_s, gnt[5*PORT_S + PORT_E])
    `WM_COVER(grant_w_to_s, gnt[5*PORT_S + PORT_W])
    `WM_COVER(grant_l_to_s, gnt[5*PORT_S + PORT_L])
    `WM_COVER(grant_e_to_w, gnt[5*PORT_W + PORT_E])
    `WM_COVER(grant_l_to_w, gnt[5*PORT_W + PORT_L])
    `WM_COVER(grant_n_to_l, gnt[5*PORT_L + PORT_N])
    `WM_COVER(grant_e_to_l, gnt[5*PORT_L + PORT_E])
    `WM_COVER(grant_s_to_l, gnt[5*PORT_L + PORT_S])
    `WM_COVER(grant_w_to_l, gnt[5*PORT_L + PORT_W])
    `WM_COVER(grant_l_to_l, gnt[5*PORT_L + PORT_L])
    // every pair of inputs that can contend for one free output (24)
    `WM_COVER(contend_n_s_e, take[PORT_N] && req[5*PORT_N + PORT_S] && req[5*PORT_N + PORT_E])
    `WM_COVER(contend_n_s_w, take[PORT_N] && req[5*PORT_N + PORT_S] && req[5*PORT_N + PORT_W])
    `WM_COVER(contend_n_s_l, take[PORT_N] && req[5*PORT_N + PORT_S] && req[5*PORT_N + PORT_L])
    `WM_COVER(contend_n_e_w, take[PORT_N] && req[5*PORT_N + PORT_E] && req[5*PORT_N + PORT_W])
    `WM_COVER(contend_n_e_l, take[PORT_N] && req[5*PORT_N + PORT_E] && req[5*PORT_N + PORT_L])
    `WM_COVER(contend_n_w_l, take[PORT_N] && req[5*PORT_N + PORT_W] && req[5*PORT_N + PORT_L])
    `WM_COVER(contend_s_n_e, take[PORT_S] && req[5*PORT_S + PORT_N] && req[5*PORT_S + PORT_E])
    `WM_COVER(contend_s_n_w, take[PORT_S] && req[5*PORT_S + PORT_N] && req[5*PORT_S + PORT_W])
    `WM_COVER(contend_s_n_l, take[PORT_S] && req[5*PORT_S + PORT_N] && req[5*PORT_S + PORT_L])
    `WM_COVER(contend_s_e_w, take[PORT_S] && req[5*PORT_S + PORT_E] && req[5*PORT_S + PORT_W])
    `WM_COVER(contend_s_e_l, take[PORT_S] && req[5*PORT_S + PORT_E] && req[5*PORT_S + PORT_L])
    `WM_COVER(contend_s_w_l, take[PORT_S] && req[5*PORT_S + PORT_W] && req[5*PORT_S + PORT_L])
    `WM_COVER(contend_e_w_l, take[PORT_E] && req[5*PORT_E + PORT_W] && req[5*PORT_E + PORT_L])
    `WM_COVER(contend_w_e_l, take[PORT_W] && req[5*PORT_W + PORT_E] && req[5*PORT_W + PORT_L])
    `WM_COVER(contend_l_n_e, take[PORT_L] && req[5*PORT_L + PORT_N] && req[5*PORT_L + PORT_E])
    `WM_COVER(contend_l_n_s, take[PORT_L] && req[5*PORT_L + PORT_N] && req[5*PORT_L + PORT_S])
    `WM_COVER(contend_l_n_w, take[PORT_L] && req[5*PORT_L + PORT_N] && req[5*PORT_L + PORT_W])
    `WM_COVER(contend_l_n_l, take[PORT_L] && req[5*PORT_L + PORT_N] && req[5*PORT_L + PORT_L])
    `WM_COVER(contend_l_e_s, take[PORT_L] && req[5*PORT_L + PORT_E] && req[5*PORT_L + PORT_S])
    `WM_COVER(contend_l_e_w, take[PORT_L] && req[5*PORT_L + PORT_E] && req[5*PORT_L + PORT_W])
    `WM_COVER(contend_l_e_l, take[PORT_L] && req[5*PORT_L + PORT_E] && req[5*PORT_L + PORT_L])
    `WM_COVER(contend_l_s_w, take[PORT_L] && req[5*PORT_L + PORT_S] && req[5*PORT_L + PORT_W])
    `WM_COVER(contend_l_s_l, take[PORT_L] && req[5*PORT_L + PORT_S] && req[5*PORT_L + PORT_L])
    `WM_COVER(contend_l_w_l, take[PORT_L] && req[5*PORT_L + PORT_W] && req[5*PORT_L + PORT_L])
    // every link buffer full
    `WM_COVER(buffer_full_n, in_count_o[IC*PORT_N +: IC] == IN_DEPTH)
    `WM_COVER(buffer_full_e, in_count_o[IC*PORT_E +: IC] == IN_DEPTH)
    `WM_COVER(buffer_full_s, in_count_o[IC*PORT_S +: IC] == IN_DEPTH)
    `WM_COVER(buffer_full_w, in_count_o[IC*PORT_W +: IC] == IN_DEPTH)
    // every output out of credits
    `WM_COVER(credits_zero_n, credit_q[CW*PORT_N +: CW] == 0)
    `WM_COVER(credits_zero_e, credit_q[CW*PORT_E +: CW] == 0)
    `WM_COVER(credits_zero_s, credit_q[CW*PORT_S +: CW] == 0)
    `WM_COVER(credits_zero_w, credit_q[CW*PORT_W +: CW] == 0)
    `WM_COVER(credits_zero_l, credit_q[CW*PORT_L +: CW] == 0)
    // a wormhole held across a stall: the output stays owned, nothing moves
    `WM_COVER(wormhole_stalled_n, own_q[PORT_N] && !cont[PORT_N])
    `WM_COVER(wormhole_stalled_e, own_q[PORT_E] && !cont[PORT_E])
    `WM_COVER(wormhole_stalled_s, own_q[PORT_S] && !cont[PORT_S])
    `WM_COVER(wormhole_stalled_w, own_q[PORT_W] && !cont[PORT_W])
    `WM_COVER(wormhole_stalled_l, own_q[PORT_L] && !cont[PORT_L])
    // off-mesh headers, discarded where first seen (the source's ramp):
    // alone, and with the data wavelets behind them
    `WM_COVER(offmesh_header_alone, off_pop[PORT_L] && !len_nz[PORT_L])
    `WM_COVER(offmesh_header_with_data, off_pop[PORT_L] && len_nz[PORT_L])
    // a disabled neighbour holding up a header or a message for it
    `WM_COVER(neighbour_off_n, !nbr_en_q[PORT_N] && (req[5*PORT_N +: 5] != 5'b0 || own_q[PORT_N]))
    `WM_COVER(neighbour_off_e, !nbr_en_q[PORT_E] && (req[5*PORT_E +: 5] != 5'b0 || own_q[PORT_E]))
    `WM_COVER(neighbour_off_s, !nbr_en_q[PORT_S] && (req[5*PORT_S +: 5] != 5'b0 || own_q[PORT_S]))
    `WM_COVER(neighbour_off_w, !nbr_en_q[PORT_W] && (req[5*PORT_W +: 5] != 5'b0 || own_q[PORT_W]))
    // this router disabled with wavelets waiting in it
    `WM_COVER(router_off_with_heads, !enable_i && hv != 5'b0)
`undef WM_COVER
endmodule

`default_nettype wire
