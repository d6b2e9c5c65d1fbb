// wm_router_props: the router's port-level properties, proved by make
// formal (docs/verification.md, "Formal").
//
// The router sits between models of what surrounds it in a tile and a mesh:
// - each link input has an upstream neighbour that sends only with a
//   credit (IN_DEPTH at reset, one back per link_credit_o pulse);
// - the ramp input is a wm_fifo TX queue, as in wm_pe, pushed only when
//   not full;
// - each output feeds a downstream buffer (IN_DEPTH entries, RX_DEPTH for
//   the ramp) that pops whenever it likes and returns a registered credit
//   pulse per pop, as a neighbour's wm_router or the PE's RX queue does;
// - the enable, the neighbours' enables and the pops are free in every
//   cycle; the coordinates and mesh size are any constants with the tile
//   inside the mesh.
// Every input sends well-formed messages: a header, then len data
// wavelets. The router interprets only a header's col, row and len, so the
// sender may number its wavelets in the fields the router passes along:
// the tag of a header and the same bits of a data wavelet carry the source
// input (bits 5:3), the message's number among that input's messages to
// the mesh (2:1), whether it is off the mesh (0), and for data its index in
// the message (in the bits of a header's len, 11:6, from 1). The header's
// fields are wm_router's at its COORD_W of 10: col 31:22, row 21:12, len
// 11:6, tag 5:0. The rest of every wavelet is free.
// Properties, checked on every output wavelet:
// - a header goes out of the one port its destination's XY route names;
// - no wavelet lost, duplicated or reordered on a path: each output carries
//   whole messages, data indices 1..len in order, and the messages of one
//   input leave (wherever they go) in the order they entered, none skipped,
//   none twice;
// - a message's wavelets never interleave with another's on an output: the
//   data behind a header come from the header's input and message;
// - credits: an output never sends into a full downstream buffer, the
//   router never lets a link buffer be pushed when full, returns one credit
//   pulse for each wavelet it pops, the cycle after, and (inside wm_router,
//   under FORMAL) no credit counter passes its depth or is spent at zero;
// - enables: a disabled router moves nothing and returns no credit, and no
//   output sends to a neighbour it sees disabled;
// - a header off the mesh is discarded whole: no wavelet of such a message
//   leaves on any output, the messages behind it do, and err_hdr_o holds
//   an off-mesh header once err_offmesh_o is set; both then stay as they
//   are until reset.
// The first cycle resets, and only the first.
`default_nettype none

// Two runs read this file: the proof (assertions, covers aside) and the
// cover run (-DWM_COVER_RUN: no assertions, each cover an assertion of its
// negation, which yosys-abc's bmc3 -a must see fail, one by one: smtbmc
// does not get through this design).
`ifdef WM_COVER_RUN
`define WM_PROP_ASSERT(c)
`define WM_PROP_COVER(c) assert (!(c))
`else
`define WM_PROP_ASSERT(c) assert (c)
`define WM_PROP_COVER(c) cover (c)
`endif

module wm_router_props #(
    parameter IN_DEPTH = 4,
    parameter RX_DEPTH = 8,
    parameter TX_DEPTH = 8,
    // A proof's state space shrinks with these: a wavelet's upper bits of
    // col, row and len are tied to 0 at the inputs (and the coordinates),
    // so meshes up to 2^COORD_BITS wide and messages up to 2^LEN_BITS-1
    // data wavelets. 10 and 6 are the router's whole range.
    parameter COORD_BITS = 10,
    parameter LEN_BITS   = 6,
    // the message numbers carried: 1 bit is enough to see one lost or
    // repeated, 2 (the tag's room) to see up to 3 in a row
    parameter MID_BITS   = 2,
    // the coordinates and mesh size: any constants (FIXED = 0), or these
    // (FIXED = 1: the centre of a 3x3 mesh, every route and off-mesh
    // headers at hand, which a bounded check searches much faster)
    parameter FIXED  = 0,
    parameter [9:0] FIX_X = 10'd1, FIX_Y = 10'd1, FIX_LAST_X = 10'd2, FIX_LAST_Y = 10'd2,
    // the inputs that send (N, E, S, W, ramp at bits 0..4); the others stay
    // idle, which a search over two contending inputs needs
    parameter [4:0] ACTIVE = 5'b11111,
    // which properties: bit 0 credits, bit 1 routes and messages, bit 2
    // the off-mesh discard (a proof of fewer properties has less to track)
    parameter [2:0] GROUPS = 3'b111,
    // 1: the strengthening invariants of wm_router_inv.vh join the
    // properties, for a proof by induction
    parameter INV = 0
) (
    input  wire         clk_i,
    input  wire         rst_ni,
    input  wire  [9:0]  x_i,
    input  wire  [9:0]  y_i,
    input  wire  [9:0]  last_x_i,
    input  wire  [9:0]  last_y_i,
    input  wire         enable_i,
    input  wire  [3:0]  nbr_en_i,
    input  wire  [3:0]  link_valid_i,
    input  wire [127:0] link_data_i,
    input  wire         tx_push_i,
    input  wire  [31:0] tx_data_i,
    input  wire  [4:0]  down_pop_i      // each downstream buffer pops
);
`include "rtl/wm_ports.vh"
    localparam IC  = $clog2(IN_DEPTH) + 1;
    localparam DC  = $clog2(RX_DEPTH > IN_DEPTH ? RX_DEPTH : IN_DEPTH) + 1;
    localparam TC  = $clog2(TX_DEPTH) + 1;
    localparam integer IND = IN_DEPTH;
    localparam integer RXD = RX_DEPTH;
    localparam integer TXD = TX_DEPTH;
    localparam [IC-1:0] IN_FULL = IND[IC-1:0];
    localparam [DC-1:0] LINK_DOWN = IND[DC-1:0];
    localparam [DC-1:0] RAMP_DOWN = RXD[DC-1:0];
    localparam [TC-1:0] TX_FULL = TXD[TC-1:0];

    // ---- what enters: input i's wavelet this cycle ----
    localparam [9:0]  CMASK = 10'h3ff >> (10 - COORD_BITS);
    localparam [5:0]  LMASK = 6'h3f >> (6 - LEN_BITS);
    localparam [3:0]  MMASK = 4'hf >> (4 - MID_BITS);
    localparam [31:0] WMASK = {CMASK, CMASK, LMASK, 3'b111, MMASK[1:0], 1'b1};
    // a wavelet's fields, as above
    function [9:0] col_of(input [31:0] w); col_of = w[31:22]; endfunction
    function [9:0] row_of(input [31:0] w); row_of = w[21:12]; endfunction
    function [7:0] len_of(input [31:0] w); len_of = {2'b0, w[11:6]}; endfunction   // a header's len, data's index
    function [2:0] src_of(input [31:0] w); src_of = w[5:3]; endfunction
    function [3:0] mid_of(input [31:0] w); mid_of = {2'b0, w[2:1]}; endfunction
    wire [3:0]  lv   = link_valid_i & ACTIVE[3:0];
    wire        tp   = tx_push_i && ACTIVE[4];
    wire [4:0]  in_v = {tp, lv} & {5{rst_ni}};
    wire [31:0] in_w [0:4];
    assign in_w[0] = link_data_i[31:0] & WMASK;
    assign in_w[1] = link_data_i[63:32] & WMASK;
    assign in_w[2] = link_data_i[95:64] & WMASK;
    assign in_w[3] = link_data_i[127:96] & WMASK;
    assign in_w[4] = tx_data_i & WMASK;
    wire [9:0]  x      = FIXED ? FIX_X      : x_i & CMASK;
    wire [9:0]  y      = FIXED ? FIX_Y      : y_i & CMASK;
    wire [9:0]  last_x = FIXED ? FIX_LAST_X : last_x_i & CMASK;
    wire [9:0]  last_y = FIXED ? FIX_LAST_Y : last_y_i & CMASK;

    // ---- the router and its TX queue ----
    wire [3:0]   link_credit_o;
    wire [4:0]   out_valid_o;
    wire [159:0] out_data_o;
    wire [4:0]   out_credit;
    wire [4*$clog2(IN_DEPTH)+3:0] in_count_o;
    wire [127:0] in_head_o;
    wire         err_offmesh_o;
    wire [31:0]  err_hdr_o;
    wire [14:0]  owner_o;
    wire         tx_empty, tx_full, tx_load, ramp_pop;
    wire [31:0]  tx_head, tx_next;
    wire [TC-1:0] tx_count;

    wm_fifo #(.WIDTH(32), .DEPTH(TX_DEPTH)) u_tx (
        .clk_i(clk_i), .rst_ni(rst_ni), .push_i(tp), .data_i(in_w[4]), .pop_i(ramp_pop),
        .data_o(tx_head), .count_o(tx_count), .empty_o(tx_empty), .full_o(tx_full),
        .load_o(tx_load), .next_o(tx_next)
    );

    // The properties below read the router's ports as vectors in port order.
    wm_router #(.IN_DEPTH(IN_DEPTH), .RX_DEPTH(RX_DEPTH), .COORD_W(10)) dut (
        .clk_i(clk_i), .rst_ni(rst_ni), .x_i(x), .y_i(y), .last_x_i(last_x), .last_y_i(last_y),
        .enable_i(enable_i),
        .north_valid_i(lv[PORT_N]), .north_data_i(in_w[PORT_N]), .north_credit_o(link_credit_o[PORT_N]),
        .north_en_i(nbr_en_i[PORT_N]), .north_valid_o(out_valid_o[PORT_N]),
        .north_data_o(out_data_o[32*PORT_N +: 32]), .north_credit_i(out_credit[PORT_N]),
        .east_valid_i(lv[PORT_E]), .east_data_i(in_w[PORT_E]), .east_credit_o(link_credit_o[PORT_E]),
        .east_en_i(nbr_en_i[PORT_E]), .east_valid_o(out_valid_o[PORT_E]),
        .east_data_o(out_data_o[32*PORT_E +: 32]), .east_credit_i(out_credit[PORT_E]),
        .south_valid_i(lv[PORT_S]), .south_data_i(in_w[PORT_S]), .south_credit_o(link_credit_o[PORT_S]),
        .south_en_i(nbr_en_i[PORT_S]), .south_valid_o(out_valid_o[PORT_S]),
        .south_data_o(out_data_o[32*PORT_S +: 32]), .south_credit_i(out_credit[PORT_S]),
        .west_valid_i(lv[PORT_W]), .west_data_i(in_w[PORT_W]), .west_credit_o(link_credit_o[PORT_W]),
        .west_en_i(nbr_en_i[PORT_W]), .west_valid_o(out_valid_o[PORT_W]),
        .west_data_o(out_data_o[32*PORT_W +: 32]), .west_credit_i(out_credit[PORT_W]),
        .ramp_valid_o(out_valid_o[PORT_L]), .ramp_data_o(out_data_o[32*PORT_L +: 32]),
        .ramp_credit_i(out_credit[PORT_L]), .ramp_valid_i(!tx_empty),
        .ramp_data_i(tx_head), .ramp_load_i(tx_load), .ramp_next_i(tx_next[31:12]),
        .ramp_pop_o(ramp_pop), .in_count_o(in_count_o), .in_head_o(in_head_o),
        .err_offmesh_o(err_offmesh_o), .err_hdr_o(err_hdr_o), .owner_o(owner_o)
    );
    wire unused = &{1'b0, in_head_o, owner_o, tx_count, tx_next[11:0]};

    // ---- the first cycle resets, the configuration is constant ----
    reg       f_init = 1'b1;
    reg [39:0] cfg_q;
    always @(posedge clk_i) begin
        f_init <= 1'b0;
        cfg_q  <= {x, y, last_x, last_y};
    end
    always @* begin
        assume (rst_ni == !f_init);
        assume (x <= last_x && y <= last_y);
        if (!f_init) assume ({x, y, last_x, last_y} == cfg_q);
    end

    // ---- what leaves: output o's wavelet this cycle ----
    wire [31:0] out_w [0:4];
    assign out_w[0] = out_data_o[31:0];
    assign out_w[1] = out_data_o[63:32];
    assign out_w[2] = out_data_o[95:64];
    assign out_w[3] = out_data_o[127:96];
    assign out_w[4] = out_data_o[159:128];

    function off_mesh(input [31:0] h);
        off_mesh = col_of(h) > last_x || row_of(h) > last_y;
    endfunction
    // the route output o takes, as a header's destination names it
    function routed_to(input [31:0] h, input integer o);
        case (o)
            0:       routed_to = col_of(h) == x && row_of(h) < y;    // N
            1:       routed_to = col_of(h) > x;                      // E
            2:       routed_to = col_of(h) == x && row_of(h) > y;    // S
            3:       routed_to = col_of(h) < x;                      // W
            default: routed_to = col_of(h) == x && row_of(h) == y;   // L
        endcase
    endfunction

    wire [4:0] hdr_out;                  // output o carries a header now
    wire [2:0] out_src [0:4];
    // hdr_from[5s + o]: output o carries a header from input s
    wire [24:0] hdr_from;
    reg  [3:0]  exp_mid_q [0:4];         // the next message expected from input s
    reg         sent_off_q [0:4];        // input s sent an off-mesh message with data
    reg  [4:0]  off_before_q;            // a message from input s left after an off-mesh one

    genvar g;
    generate
        for (g = 0; g < 5; g = g + 1) begin : gen_port
            // ---- input g's sender ----
            localparam [2:0] SRC = g;
            reg [LEN_BITS-1:0] s_rem_q;   // data wavelets still to send
            reg [7:0]          s_seq_q;   // index of the next one
            reg [3:0]          s_mid_q;   // this input's messages to the mesh so far
            reg                s_off_q;   // the message being sent is off the mesh
            wire [31:0] w = in_w[g];
            wire hdr_in   = s_rem_q == {LEN_BITS{1'b0}};
            always @* begin
                if (in_v[g]) begin
                    if (hdr_in) begin
                        assume (src_of(w) == SRC && w[0] == off_mesh(w));
                        assume (w[0] || mid_of(w) == (s_mid_q & MMASK));
                    end else begin
                        assume (src_of(w) == SRC && w[0] == s_off_q && len_of(w) == s_seq_q);
                        assume (s_off_q || mid_of(w) == ((s_mid_q - 1'b1) & MMASK));
                    end
                end
            end
            always @(posedge clk_i) begin
                if (!rst_ni) begin
                    s_rem_q <= {LEN_BITS{1'b0}};
                    s_mid_q <= 4'd0;
                    s_off_q <= 1'b0;
                end else if (in_v[g]) begin
                    if (hdr_in) begin
                        s_rem_q <= w[6 +: LEN_BITS];
                        s_seq_q <= 8'd1;
                        s_off_q <= w[0];
                        if (!w[0]) s_mid_q <= s_mid_q + 1'b1;
                    end else begin
                        s_rem_q <= s_rem_q - 1'b1;
                        s_seq_q <= s_seq_q + 1'b1;
                    end
                end
            end

            // ---- output g's receiver: the downstream buffer and its credits ----
            localparam [DC-1:0] DDEPTH = (g == 4) ? RAMP_DOWN : LINK_DOWN;
            reg [DC-1:0] d_cnt_q;
            reg          d_cp_q;
            wire         d_pop = down_pop_i[g] && d_cnt_q != {DC{1'b0}};
            always @(posedge clk_i) begin
                if (!rst_ni) begin
                    d_cnt_q <= {DC{1'b0}};
                    d_cp_q  <= 1'b0;
                end else begin
                    d_cnt_q <= d_cnt_q + (out_valid_o[g] ? 1'b1 : 1'b0) - (d_pop ? 1'b1 : 1'b0);
                    d_cp_q  <= d_pop;
                end
            end
            assign out_credit[g] = d_cp_q;

            // ---- output g's monitor: whole messages, in order ----
            reg [7:0] m_rem_q;            // data wavelets still due on this output
            reg [7:0] m_seq_q;
            reg [2:0] m_src_q;
            reg [3:0] m_mid_q;
            reg [2:0] m_last_src_q;       // source of the last whole message with data
            reg       m_done_q;           // a whole message with data went out
            wire [31:0] o = out_w[g];
            assign hdr_out[g]  = out_valid_o[g] && m_rem_q == 8'd0;
            assign out_src[g]  = src_of(o);
            always @(posedge clk_i) begin
                if (!rst_ni) begin
                    m_rem_q  <= 8'd0;
                    m_done_q <= 1'b0;
                end else if (out_valid_o[g]) begin
                    if (m_rem_q == 8'd0) begin
                        m_rem_q <= len_of(o);
                        m_seq_q <= 8'd1;
                        m_src_q <= src_of(o);
                        m_mid_q <= mid_of(o);
                    end else begin
                        m_rem_q <= m_rem_q - 1'b1;
                        m_seq_q <= m_seq_q + 1'b1;
                        if (m_rem_q == 8'd1) begin
                            m_done_q     <= 1'b1;
                            m_last_src_q <= m_src_q;
                        end
                    end
                end
            end

            always @* begin
                if (!f_init) begin
                    // credits: never into a full downstream buffer
                    if (GROUPS[0] && out_valid_o[g]) `WM_PROP_ASSERT(d_cnt_q < DDEPTH);
                    if (GROUPS[2] && out_valid_o[g]) `WM_PROP_ASSERT(!o[0]);   // nothing of an off-mesh message leaves
                    if (GROUPS[1] && out_valid_o[g]) begin
                        if (m_rem_q == 8'd0) begin
                            // a header: the right port, the next message of its input
                            `WM_PROP_ASSERT(routed_to(o, g));
                            `WM_PROP_ASSERT(src_of(o) <= 3'd4);
                            `WM_PROP_ASSERT(mid_of(o) == (exp_mid_q[src_of(o)] & MMASK));
                        end else begin
                            // data: its message's, in order
                            `WM_PROP_ASSERT(src_of(o) == m_src_q && mid_of(o) == m_mid_q && len_of(o) == m_seq_q);
                        end
                    end
                end
            end

            // Not vacuous: a header on every port; a long message whole; two
            // sources back to back; a full downstream buffer used up.
            always @* begin
                if (!f_init) begin
                    `WM_PROP_COVER(hdr_out[g]);
                    `WM_PROP_COVER(out_valid_o[g] && m_rem_q == 8'd1 && m_seq_q == 8'd2);
                    `WM_PROP_COVER(hdr_out[g] && m_done_q && src_of(o) != m_last_src_q);
                    `WM_PROP_COVER(out_valid_o[g] && d_cnt_q == DDEPTH - 1'b1);
                end
            end
        end
    endgenerate

    // ---- per input: its messages leave in order, each once ----
    assign hdr_from = {hdr_out & {out_src[4] == 3'd4, out_src[3] == 3'd4, out_src[2] == 3'd4, out_src[1] == 3'd4, out_src[0] == 3'd4},
                       hdr_out & {out_src[4] == 3'd3, out_src[3] == 3'd3, out_src[2] == 3'd3, out_src[1] == 3'd3, out_src[0] == 3'd3},
                       hdr_out & {out_src[4] == 3'd2, out_src[3] == 3'd2, out_src[2] == 3'd2, out_src[1] == 3'd2, out_src[0] == 3'd2},
                       hdr_out & {out_src[4] == 3'd1, out_src[3] == 3'd1, out_src[2] == 3'd1, out_src[1] == 3'd1, out_src[0] == 3'd1},
                       hdr_out & {out_src[4] == 3'd0, out_src[3] == 3'd0, out_src[2] == 3'd0, out_src[1] == 3'd0, out_src[0] == 3'd0}};
    integer s;
    always @(posedge clk_i) begin
        for (s = 0; s < 5; s = s + 1) begin
            if (!rst_ni) begin
                exp_mid_q[s]    <= 4'd0;
                sent_off_q[s]   <= 1'b0;
                off_before_q[s] <= 1'b0;
            end else begin
                if (hdr_from[5*s +: 5] != 5'b0) begin
                    exp_mid_q[s] <= exp_mid_q[s] + 1'b1;
                    if (sent_off_q[s]) off_before_q[s] <= 1'b1;
                end
                if (in_v[s] && in_w[s][0] && len_of(in_w[s]) != 8'd0) sent_off_q[s] <= 1'b1;
            end
        end
    end

    always @* begin
        if (!f_init) begin
            for (s = 0; s < 5; s = s + 1) begin
                // one header of an input at a time, whichever outputs
                if (GROUPS[1]) `WM_PROP_ASSERT((hdr_from[5*s +: 5] & (hdr_from[5*s +: 5] - 1'b1)) == 5'b0);
            end
            if (tp) assume (!tx_full);
            if (GROUPS[2] && err_offmesh_o) `WM_PROP_ASSERT(err_hdr_o[0] && off_mesh(err_hdr_o));
            // not vacuous
            `WM_PROP_COVER(err_offmesh_o);
            `WM_PROP_COVER(off_before_q != 5'b0);
            `WM_PROP_COVER(link_full != 4'b0);
            if (ACTIVE[4]) `WM_PROP_COVER(tx_full);
        end
    end

    // ---- enables: a disabled router moves nothing, nothing is sent to a
    // disabled neighbour (the router sees nbr_en_i through a flop, and
    // decides on that flop one cycle before its output register shows) ----
    reg [3:0] ne1_q, ne2_q;
    reg       en1_q;
    always @(posedge clk_i) begin
        ne1_q <= rst_ni ? nbr_en_i : 4'b0;
        ne2_q <= ne1_q;
        en1_q <= enable_i;
    end
    always @* begin
        if (!f_init && GROUPS[0]) begin
            `WM_PROP_ASSERT((out_valid_o[3:0] & ~ne2_q) == 4'b0);
            if (!en1_q) `WM_PROP_ASSERT(out_valid_o == 5'b0 && link_credit_o == 4'b0);
        end
    end

    // ---- exact credits and a sticky error: a credit pulse on a link is
    // the pop of its buffer at the edge before (its count says so), and
    // err_offmesh_o and err_hdr_o never change once set ----
    integer        q;
    reg [4*IC-1:0] cnt1_q;
    reg [3:0]      lv1_q;
    reg            err1_q;
    reg [31:0]     hdr1_q;
    always @(posedge clk_i) begin
        cnt1_q <= rst_ni ? in_count_o : {(4*IC){1'b0}};
        lv1_q  <= rst_ni ? lv : 4'b0;
        err1_q <= rst_ni && err_offmesh_o;
        hdr1_q <= err_hdr_o;
    end
    always @* begin
        if (!f_init) begin
            for (q = 0; q < 4; q = q + 1)
                if (GROUPS[0]) `WM_PROP_ASSERT(link_credit_o[q] ==
                    (cnt1_q[IC*q +: IC] + (lv1_q[q] ? 1'b1 : 1'b0) != in_count_o[IC*q +: IC]));
            if (GROUPS[2] && err1_q) `WM_PROP_ASSERT(err_offmesh_o && err_hdr_o == hdr1_q);
        end
    end

    // an active link input's buffer is full
    wire [3:0] link_full;
    generate
        for (g = 0; g < 4; g = g + 1) begin : gen_full
            assign link_full[g] = ACTIVE[g] && in_count_o[IC*g +: IC] == IN_FULL;
        end
    endgenerate

    // ---- upstream neighbours: send only with a credit ----
    reg [IC-1:0] u_cr_q [0:3];
    integer p;
    always @(posedge clk_i) begin
        for (p = 0; p < 4; p = p + 1)
            if (!rst_ni) u_cr_q[p] <= IN_FULL;
            else u_cr_q[p] <= u_cr_q[p] - (lv[p] ? 1'b1 : 1'b0) + (link_credit_o[p] ? 1'b1 : 1'b0);
    end
    always @* begin
        for (p = 0; p < 4; p = p + 1) begin
            if (lv[p]) assume (u_cr_q[p] != {IC{1'b0}});
            // credits: a link buffer is never pushed when full
            if (GROUPS[0] && !f_init && lv[p]) `WM_PROP_ASSERT(in_count_o[IC*p +: IC] < IN_FULL);
        end
    end

`include "rtl/formal/wm_router_inv.vh"
endmodule

`default_nettype wire
