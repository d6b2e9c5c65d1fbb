// wm_router: five-port wormhole router with dimension-order routing.
//
// Ports are numbered N=0, E=1, S=2, W=3, L=4 (the ramp to and from the PE;
// rtl/wm_ports.vh names them PORT_N..PORT_L), which is the order of every
// per-port vector inside; the links keep the tile's names at the ports.
// A message is a header wavelet {col, row, len, tag} followed by len data
// wavelets; col and row are COORD_W bits each at the top of the word, len
// the LEN_W bits under them and tag the rest (COORD_W 10: {col[31:22],
// row[21:12], len[11:6], tag[5:0]}, docs/fabric.md). The router routes a header east
// or west until its column matches, then north (towards row 0) or south,
// then to the ramp. An output is owned by the input whose header it granted
// until that message's last data wavelet has passed (wormhole), and a free
// output grants among the headers that want it round-robin.
//
// Timing: each of the four link inputs has an IN_DEPTH-entry buffer; a
// wavelet at the head of an input buffer moves to the output register of
// its port at the next edge, so a hop costs two cycles (output register,
// then the neighbour's buffer). The ramp input is the PE's TX queue and the
// ramp output register feeds the PE's RX queue, with the same credits as a
// link. Flow control is credit based: an output holds one credit per free
// buffer entry downstream; a credit comes back, registered, for each entry
// popped, and is counted at the next edge. The switch decides on flops
// only (its credit counters, the registered neighbour enables, latched
// coordinates), never on a tile input: that keeps all of the router's
// logic out of the input-driven evaluation of the Verilated tile, which
// halves its cost per cycle (measured, docs/benchmarks.md). The credit
// round trip is four cycles, and four buffer entries keep a link busy
// every cycle.
//
// One cycle of the switch is docs/fabric.md's steps 1-8, laid out so that
// the path from the flops to the flops is short (docs/fpga.md):
// - a head's route (one-hot: N, E, S, W, L, or off the mesh) is computed
//   as the word enters the head register and kept in flops beside it
//   (want_q, off_q), so the switch starts from a flop, not from four
//   comparators behind a read multiplexer; the coordinates are
//   configuration, constant while wavelets are in flight;
// - "input i holds an output or is discarding" is one flop per input
//   (busy_q), not a decode of every output's owner index;
// - an owned output names its input one-hot (own_sel_q), so the source of
//   each output register is an AND-OR of the heads, the same one for a
//   header and for the data behind it;
// - everything but the round-robin grant (the continuation of owned
//   messages, the discards, which input ends its message) depends on flops
//   alone and settles while the arbiters decide.
// The buffers' heads are flops too (wm_fifo), and the pop only selects
// between next states computed in advance.
//
// A header whose destination lies off the mesh (col > last_x_i or
// row > last_y_i) is discarded with its data wavelets where it is first
// seen, and raises the sticky err_offmesh_o with the header in err_hdr_o.
// A disabled router (enable_i low) pops nothing and grants nothing, and its
// neighbours send it nothing (nbr_en_i), so traffic through it stalls in
// place, visibly, instead of vanishing.
//
// Why XY routing cannot deadlock here: a message turns at most once, from
// the X dimension to the Y dimension, so the channel-dependency graph has no
// cycle (no Y-to-X turn exists); the ramp output always drains into the RX
// queue as the firmware pops, so every wait chain ends at a PE.
//
// rst_ni is active low and synchronous, in every module of the tile: the
// name follows the lowRISC convention for an active-low input, and the
// reset is sampled at the edge on purpose. The C side and the testbenches
// hold it over one edge; an FPGA maps it onto its flops' synchronous
// set/reset for free (SB_DFFSR / SB_DFFESR on iCE40) and needs no reset
// synchroniser; and wm_tile_core gates the core's reset with core_run_i,
// which is safe only for a synchronous reset.
`default_nettype none
`include "rtl/prim/wm_assert.vh"
// Dumps show wm_waves only.
/*verilator tracing_off*/

module wm_router #(
    parameter IN_DEPTH = 4,
    parameter RX_DEPTH = 8,
    parameter COORD_W  = 10
) (
    input  wire         clk_i,
    input  wire         rst_ni,
    input  wire  [COORD_W-1:0] x_i,
    input  wire  [COORD_W-1:0] y_i,
    input  wire  [COORD_W-1:0] last_x_i,
    input  wire  [COORD_W-1:0] last_y_i,
    input  wire         enable_i,
    // the links, named as wm_tile names them: per direction the input
    // (valid, data, the credit returned for its buffer), the neighbour's
    // enable, and the output register with the credit that comes back
    input  wire          north_valid_i,
    input  wire  [31:0]  north_data_i,
    output wire          north_credit_o,
    input  wire          north_en_i,
    output wire          north_valid_o,
    output wire  [31:0]  north_data_o,
    input  wire          north_credit_i,
    input  wire          east_valid_i,
    input  wire  [31:0]  east_data_i,
    output wire          east_credit_o,
    input  wire          east_en_i,
    output wire          east_valid_o,
    output wire  [31:0]  east_data_o,
    input  wire          east_credit_i,
    input  wire          south_valid_i,
    input  wire  [31:0]  south_data_i,
    output wire          south_credit_o,
    input  wire          south_en_i,
    output wire          south_valid_o,
    output wire  [31:0]  south_data_o,
    input  wire          south_credit_i,
    input  wire          west_valid_i,
    input  wire  [31:0]  west_data_i,
    output wire          west_credit_o,
    input  wire          west_en_i,
    output wire          west_valid_o,
    output wire  [31:0]  west_data_o,
    input  wire          west_credit_i,
    // ramp output: the register that feeds the PE's RX queue, and the
    // credit the queue returns for each pop
    output wire          ramp_valid_o,
    output wire  [31:0]  ramp_data_o,
    input  wire          ramp_credit_i,
    // ramp input: the head of the PE's TX queue, and the word that head
    // loads at this edge (wm_fifo's load_o and next_o), for its route
    input  wire          ramp_valid_i,
    input  wire  [31:0]  ramp_data_i,
    input  wire          ramp_load_i,
    input  wire  [2*COORD_W-1:0] ramp_next_i,   // its col and row
    output wire          ramp_pop_o,
    // status
    output wire  [4*$clog2(IN_DEPTH)+3:0] in_count_o,  // occupancy of the link buffers N..W
    output wire  [127:0] in_head_o,     // the oldest wavelet of each link buffer
    output wire          err_offmesh_o,
    output wire  [31:0]  err_hdr_o,
    // observation: per output {own_idx} while owned, else 7
    output wire  [14:0]  owner_o
);
`include "rtl/wm_ports.vh"
    localparam integer OFF_MESH = PORTS;   // a route's bit for a destination off the mesh
    // The header's fields: the length's LEN_W bits lie under the row's.
    localparam integer LEN_W  = (32 - 2 * COORD_W) / 2;
    localparam integer LEN_LO = 32 - 2 * COORD_W - LEN_W;
    localparam [LEN_W-1:0] LEN_ONE = 1;
    localparam IC  = $clog2(IN_DEPTH) + 1;
    localparam CW  = $clog2(RX_DEPTH > IN_DEPTH ? RX_DEPTH : IN_DEPTH) + 1;
    localparam integer IND = IN_DEPTH;
    localparam integer RXD = RX_DEPTH;
    localparam [CW-1:0] LINK_CREDITS = IND[CW-1:0];
    localparam [CW-1:0] RAMP_CREDITS = RXD[CW-1:0];
    localparam [CW-1:0] CR_ONE = 1;

    // Coordinates and mesh size are configuration: latched into flops so
    // that nothing combinational depends on them as inputs.
    reg [COORD_W-1:0] x_q, y_q, last_x_q, last_y_q;
    always @(posedge clk_i) begin
        x_q      <= x_i;
        y_q      <= y_i;
        last_x_q <= last_x_i;
        last_y_q <= last_y_i;
    end

    // The links as per-port vectors, for the loops below.
    wire [LINKS-1:0]    link_valid, nbr_en;
    wire [32*LINKS-1:0] link_data;
    wire [PORTS-1:0]    out_credit;
    assign link_valid[PORT_N]            = north_valid_i;
    assign link_valid[PORT_E]            = east_valid_i;
    assign link_valid[PORT_S]            = south_valid_i;
    assign link_valid[PORT_W]            = west_valid_i;
    assign link_data[32*PORT_N +: 32]    = north_data_i;
    assign link_data[32*PORT_E +: 32]    = east_data_i;
    assign link_data[32*PORT_S +: 32]    = south_data_i;
    assign link_data[32*PORT_W +: 32]    = west_data_i;
    assign nbr_en[PORT_N]                = north_en_i;
    assign nbr_en[PORT_E]                = east_en_i;
    assign nbr_en[PORT_S]                = south_en_i;
    assign nbr_en[PORT_W]                = west_en_i;
    assign out_credit[PORT_N]            = north_credit_i;
    assign out_credit[PORT_E]            = east_credit_i;
    assign out_credit[PORT_S]            = south_credit_i;
    assign out_credit[PORT_W]            = west_credit_i;
    assign out_credit[PORT_L]            = ramp_credit_i;

    // Steps 2 and 3 of docs/fabric.md for one wavelet, as a one-hot route:
    // bit p for output p, bit OFF_MESH for a destination off the mesh. Only
    // a header's route is ever used; data wavelets get one all the same.
    function [5:0] route_of(input [COORD_W-1:0] col, input [COORD_W-1:0] row, input [COORD_W-1:0] x,
                            input [COORD_W-1:0] y, input [COORD_W-1:0] last_x, input [COORD_W-1:0] last_y);
        begin
            route_of = 6'd0;
            if (col > last_x || row > last_y) route_of[OFF_MESH] = 1'b1;
            else if (col > x)                 route_of[PORT_E] = 1'b1;
            else if (col < x)                 route_of[PORT_W] = 1'b1;
            else if (row > y)                 route_of[PORT_S] = 1'b1;
            else if (row < y)                 route_of[PORT_N] = 1'b1;
            else                              route_of[PORT_L] = 1'b1;
        end
    endfunction

    // ---- input side: four link buffers (inputs N..W), the ramp from the PE (L) ----
    // Per input i: hv[i], head[i]; load[i] and next[i] say what the head
    // register takes at this edge. (Arrays of words rather than one wide
    // vector: a Verilated tile reads a word where it would shift a slice.)
    wire [4:0]   hv;
    wire [31:0]  head [0:4];
    wire [4:0]   load;
    wire [2*COORD_W-1:0] next [0:4];   // col and row of each input's next head
    reg  [4:0]   pop;

    genvar gp;
    generate
        for (gp = 0; gp < LINKS; gp = gp + 1) begin : gen_in
            wire        empty;
            wire        unused_full;
            wire [31:0] next_word;
            wm_fifo #(.WIDTH(32), .DEPTH(IN_DEPTH)) u_buf (
                .clk_i   (clk_i),
                .rst_ni  (rst_ni),
                .push_i  (link_valid[gp]),
                .data_i  (link_data[32*gp +: 32]),
                .pop_i   (pop[gp]),
                .data_o  (head[gp]),
                .count_o (in_count_o[IC*gp +: IC]),
                .empty_o (empty),
                .full_o  (unused_full),
                .load_o  (load[gp]),
                .next_o  (next_word)
            );
            assign hv[gp]              = !empty;
            assign next[gp]            = next_word[31 -: 2*COORD_W];
            wire   unused_next         = &{1'b0, next_word[31-2*COORD_W:0]};
        end
    endgenerate
    assign hv[PORT_L]     = ramp_valid_i;
    assign head[PORT_L]   = ramp_data_i;
    assign load[PORT_L]   = ramp_load_i;
    assign next[PORT_L]   = ramp_next_i;
    assign ramp_pop_o     = pop[PORT_L];

    // The heads' routes, transposed for the arbiters: want_q[5o + i] is
    // "input i's head goes to output o", off_q[i] "it is off the mesh".
    // They load with the head registers, at the edge only: no reset, read
    // only while hv says the head is there.
    reg [24:0] want_q;
    reg [4:0]  off_q;
    localparam [24:0] COL = 25'b00001_00001_00001_00001_00001;   // input 0 of every output
    // bit o of a route to bit 5o: one input's column of want_q
    function [24:0] column(input [4:0] r);
        column = {4'd0, r[4], 4'd0, r[3], 4'd0, r[2], 4'd0, r[1], 4'd0, r[0]};
    endfunction
    always @(posedge clk_i) begin : b_route
        integer i;
        reg [5:0]  r;
        reg [24:0] w;
        reg [4:0]  f;
        w = want_q;
        f = off_q;
        for (i = 0; i < 5; i = i + 1) begin
            if (load[i]) begin
                r    = route_of(next[i][COORD_W +: COORD_W], next[i][0 +: COORD_W], x_q, y_q, last_x_q, last_y_q);
                w    = (w & ~(COL << i)) | (column(r[4:0]) << i);
                f[i] = r[OFF_MESH];
            end
        end
        want_q <= w;
        off_q  <= f;
    end

    // The neighbours' enables, registered: a neighbour is seen enabled
    // from the second edge after its enable_i rose.
    reg [3:0] nbr_en_q;
    always @(posedge clk_i) begin
        if (!rst_ni) nbr_en_q <= 4'b0;
        else         nbr_en_q <= nbr_en;
    end

    // ---- state ----
    // Per output o: owned (own_q), by which input (own_sel_q[5o +: 5],
    // one-hot, 0 when free).
    // Per input i: holding an output or discarding (busy_q), discarding
    // (drop_q), data wavelets still to pass or to discard (rem_q[LEN_W*i +: LEN_W]:
    // an input holds one message at a time, so one count an input serves
    // both, as the sw model's rem[] does).
    reg  [4:0]    own_q, own_d;
    reg  [24:0]   own_sel_q, own_sel_d;
    reg  [4:0]    busy_q, busy_d;
    reg  [4:0]    drop_q, drop_d;
    reg  [5*LEN_W-1:0] rem_q;
    reg  [5*CW-1:0] credit_q;
    reg  [4:0]    out_valid_q;
    reg  [159:0]  out_data_q;
    reg  [LINKS-1:0] link_credit_q;
    reg           err_offmesh_q;
    reg  [31:0]   err_hdr_q;

    // ---- what depends on flops only (steps 4, 5, 8, the owned half of 7) ----
    // Word-wide where the logic allows: the Verilated tile evaluates this
    // every cycle, and a word operation costs it what one bit does.
    // any(v)[o]: some bit of v's field o (five 5-bit fields, one per output)
    function [4:0] any(input [24:0] v);
        any = {v[24:20] != 5'b0, v[19:15] != 5'b0, v[14:10] != 5'b0, v[9:5] != 5'b0, v[4:0] != 5'b0};
    endfunction
    // each output's 5-bit field of v, kept where m's bit for that output is set
    function [24:0] keep(input [24:0] v, input [4:0] m);
        keep = v & {{5{m[4]}}, {5{m[3]}}, {5{m[2]}}, {5{m[1]}}, {5{m[0]}}};
    endfunction

    wire [4:0] en     = {5{enable_i}};
    wire [4:0] ne     = {1'b1, nbr_en_q};   // L, above N..W: the ramp's "neighbour" is our own RX queue
    wire [4:0] act    = hv & ~busy_q;       // inputs whose head is a header to place
    wire [4:0] drop_pop = en & hv & drop_q; // a wavelet of a discarded message
    wire [4:0] off_pop  = en & act & off_q; // an off-mesh header
    // step 5: output o may send (a credit, and a neighbour that is enabled)
    wire [4:0] ok     = ne & {credit_q[4*CW +: CW] != {CW{1'b0}}, credit_q[3*CW +: CW] != {CW{1'b0}},
                              credit_q[2*CW +: CW] != {CW{1'b0}}, credit_q[CW +: CW] != {CW{1'b0}},
                              credit_q[0 +: CW] != {CW{1'b0}}};
    wire [4:0] take   = en & ~own_q & ok;   // output o is free and may send: its arbiter grants
    // input i's count is at its message's last wavelet; its head has data behind it
    wire [4:0] last   = {rem_q[4*LEN_W +: LEN_W] == LEN_ONE, rem_q[3*LEN_W +: LEN_W] == LEN_ONE,
                         rem_q[2*LEN_W +: LEN_W] == LEN_ONE, rem_q[LEN_W +: LEN_W] == LEN_ONE,
                         rem_q[0 +: LEN_W] == LEN_ONE};
    wire [4:0] len_nz = {head[4][LEN_LO +: LEN_W] != {LEN_W{1'b0}}, head[3][LEN_LO +: LEN_W] != {LEN_W{1'b0}},
                         head[2][LEN_LO +: LEN_W] != {LEN_W{1'b0}}, head[1][LEN_LO +: LEN_W] != {LEN_W{1'b0}},
                         head[0][LEN_LO +: LEN_W] != {LEN_W{1'b0}}};
    wire [24:0] hv5   = {5{hv}};
    wire [24:0] last5 = {5{last}};
    // output o moves the next wavelet of its message, and it is the last
    wire [4:0] cont    = en & own_q & ok & any(own_sel_q & hv5);
    wire [24:0] cont_sel = keep(own_sel_q, cont);
    wire [4:0] own_end = any(cont_sel & last5);
    // input i is popped by the output it holds
    wire [4:0] cont_pop = cont_sel[4:0] | cont_sel[9:5] | cont_sel[14:10] | cont_sel[19:15] | cont_sel[24:20];
    // step 6: req[5o + i], input i requests output o
    wire [24:0] req   = want_q & {5{act}};

    // ---- one arbiter per output (the free half of step 7) ----
    wire [24:0] gnt;       // gnt[5o + i]: output o grants input i's header
    wire [4:0]  granted;   // output o granted a header
    genvar go;
    generate
        for (go = 0; go < 5; go = go + 1) begin : gen_arb
            wm_rr_arbiter #(.N(5)) u_arb (
                .clk_i   (clk_i),
                .rst_ni  (rst_ni),
                .req_i   (req[5*go +: 5]),
                .take_i  (take[go]),
                .gnt_o   (gnt[5*go +: 5]),
                .valid_o (granted[go])
            );
        end
    endgenerate

    // ---- the switch: what moves this cycle ----
    wire [4:0]  moved = cont | granted;                 // output o loads its register
    wire [4:0]  won   = gnt[4:0] | gnt[9:5] | gnt[14:10] | gnt[19:15] | gnt[24:20];   // headers granted
    wire [24:0] src   = cont_sel | gnt;                 // src[5o + i]: output o takes input i's head
    // a granted header with data takes the output; the last data wavelet frees it
    wire [24:0] gnt_data = gnt & {5{len_nz}};
    always @* begin
        own_d     = (granted & any(gnt_data)) | (~granted & own_q & ~own_end);
        own_sel_d = gnt_data | keep(own_sel_q, ~granted & ~own_end);
        pop       = cont_pop | won | drop_pop | off_pop;
        // an input is busy from its header's grant or discard (len > 0)
        // to its message's last wavelet
        busy_d    = (busy_q & ~((cont_pop | drop_pop) & last)) | ((won | off_pop) & len_nz);
        drop_d    = (drop_q & ~(drop_pop & last)) | (off_pop & len_nz);
    end

    always @(posedge clk_i) begin
        if (!rst_ni) begin
            own_q         <= 5'b0;
            own_sel_q     <= 25'b0;
            busy_q        <= 5'b0;
            drop_q        <= 5'b0;
            out_valid_q   <= 5'b0;
            link_credit_q <= {LINKS{1'b0}};
            err_offmesh_q <= 1'b0;
        end else begin
            own_q         <= own_d;
            own_sel_q     <= own_sel_d;
            busy_q        <= busy_d;
            drop_q        <= drop_d;
            out_valid_q   <= moved;
            link_credit_q <= pop[LINKS-1:0];
            err_offmesh_q <= err_offmesh_q || (off_pop != 5'b0);
        end
    end

    // Credits are the only state the credit inputs feed: kept apart from
    // the switch, so that the switch depends on flops alone, and counted
    // in the clocked block, so that the Verilated tile does not re-count
    // them whenever its inputs change.
    always @(posedge clk_i) begin : b_credit
        integer o;
        if (!rst_ni) credit_q <= {RAMP_CREDITS, {LINKS{LINK_CREDITS}}};   // L above N..W
        else
            for (o = 0; o < 5; o = o + 1)
                if (out_credit[o] != moved[o])
                    credit_q[CW*o +: CW] <= out_credit[o] ? credit_q[CW*o +: CW] + CR_ONE
                                                            : credit_q[CW*o +: CW] - CR_ONE;
    end

    // The first off-mesh header; of several in one cycle, the lowest
    // input's (as csim/fabric/fabric_sw.c takes them in order).
    always @(posedge clk_i) begin : b_err_hdr
        integer i;
        if (!rst_ni) err_hdr_q <= 32'd0;
        else if (!err_offmesh_q)
            for (i = 4; i >= 0; i = i - 1)
                if (off_pop[i]) err_hdr_q <= head[i];
    end

    // Counts and data registers without a reset, loaded in the clocked
    // block (a Verilated tile then computes their inputs only when they
    // load). rem_q is read only while busy_q says its input holds a
    // message, and an output register's data only with its valid bit: 160
    // flops whose reset would buy nothing. A dump starts them at 0 all the
    // same, as the sw model does, since the Verilated model starts at 0.
    always @(posedge clk_i) begin : b_data
        integer o, i;
        for (i = 0; i < 5; i = i + 1) begin
            // a header loads its input's count, a data wavelet takes one off
            if (won[i] || off_pop[i])             rem_q[LEN_W*i +: LEN_W] <= head[i][LEN_LO +: LEN_W];
            else if (cont_pop[i] || drop_pop[i]) rem_q[LEN_W*i +: LEN_W] <= rem_q[LEN_W*i +: LEN_W] - LEN_ONE;
        end
        for (o = 0; o < 5; o = o + 1)
            if (moved[o])
                out_data_q[32*o +: 32] <= ({32{src[5*o]}}     & head[0])
                                        | ({32{src[5*o + 1]}} & head[1])
                                        | ({32{src[5*o + 2]}} & head[2])
                                        | ({32{src[5*o + 3]}} & head[3])
                                        | ({32{src[5*o + 4]}} & head[4]);
    end

    assign north_valid_o  = out_valid_q[PORT_N];
    assign north_data_o   = out_data_q[32*PORT_N +: 32];
    assign north_credit_o = link_credit_q[PORT_N];
    assign east_valid_o   = out_valid_q[PORT_E];
    assign east_data_o    = out_data_q[32*PORT_E +: 32];
    assign east_credit_o  = link_credit_q[PORT_E];
    assign south_valid_o  = out_valid_q[PORT_S];
    assign south_data_o   = out_data_q[32*PORT_S +: 32];
    assign south_credit_o = link_credit_q[PORT_S];
    assign west_valid_o   = out_valid_q[PORT_W];
    assign west_data_o    = out_data_q[32*PORT_W +: 32];
    assign west_credit_o  = link_credit_q[PORT_W];
    assign ramp_valid_o   = out_valid_q[PORT_L];
    assign ramp_data_o    = out_data_q[32*PORT_L +: 32];
    assign err_offmesh_o = err_offmesh_q;
    assign err_hdr_o     = err_hdr_q;
    assign in_head_o     = {head[PORT_W], head[PORT_S], head[PORT_E], head[PORT_N]};
    genvar gw;
    generate
        for (gw = 0; gw < 5; gw = gw + 1) begin : gen_owner
            wire [4:0] sel = own_sel_q[5*gw +: 5];
            assign owner_o[3*gw +: 3] = sel[0] ? 3'd0 : sel[1] ? 3'd1 : sel[2] ? 3'd2
                                      : sel[3] ? 3'd3 : sel[4] ? 3'd4 : 3'd7;
        end
    endgenerate

`ifdef FORMAL
    // Internal invariants, from the first reset on (make formal; the
    // port-level properties are rtl/formal/wm_router_props.v's): every
    // credit counter stays within its buffer's depth and is never spent
    // at zero, nothing is popped from an empty input, an output is owned
    // exactly when it names one input, an input is busy exactly when it
    // holds an output or is discarding, and no input holds two outputs.
    reg f_reset_q = 1'b0;
    always @(posedge clk_i) if (!rst_ni) f_reset_q <= 1'b1;
    wire [4:0] f_owned_by = own_sel_q[4:0] | own_sel_q[9:5] | own_sel_q[14:10] | own_sel_q[19:15] | own_sel_q[24:20];
    wire [4:0] f_owns     = any(own_sel_q);
    wire [4:0] f_sel [0:4];
    assign f_sel[0] = own_sel_q[4:0];
    assign f_sel[1] = own_sel_q[9:5];
    assign f_sel[2] = own_sel_q[14:10];
    assign f_sel[3] = own_sel_q[19:15];
    assign f_sel[4] = own_sel_q[24:20];
    always @* begin : b_formal
        integer o, o2;
        if (f_reset_q) begin
            for (o = 0; o < 5; o = o + 1) begin
                assert (credit_q[CW*o +: CW] <= ((o == PORT_L) ? RAMP_CREDITS : LINK_CREDITS));
                if (moved[o]) assert (credit_q[CW*o +: CW] != {CW{1'b0}});
                assert ((f_sel[o] & (f_sel[o] - 1'b1)) == 5'b0);
                for (o2 = o + 1; o2 < 5; o2 = o2 + 1)
                    assert ((f_sel[o] & f_sel[o2]) == 5'b0);
                cover (credit_q[CW*o +: CW] == {CW{1'b0}});
            end
            assert ((pop & ~hv) == 5'b0);
            assert (own_q == f_owns);
            assert (busy_q == (drop_q | f_owned_by));
            assert ((drop_q & f_owned_by) == 5'b0);
            cover (own_q == 5'b11111);
            cover (drop_q != 5'b0);
        end
    end
`endif

    // Word-wide checks: every test runs them, every cycle, on every tile.
    // A credit never returns beyond the buffer it stands for.
    generate
        for (go = 0; go < PORTS; go = go + 1) begin : gen_credit_check
            `WM_ASSERT(credit_in_range, clk_i, rst_ni,
                       credit_q[CW*go +: CW] <= ((go == PORT_L) ? RAMP_CREDITS : LINK_CREDITS),
                       ("credit overflow on output %0d", go))
        end
    endgenerate
    // An output is owned exactly when it names an input, and an input is
    // busy exactly when it holds an output or is discarding.
    `WM_ASSERT(owners_consistent, clk_i, rst_ni,
               own_q == any(own_sel_q)
               && busy_q == (drop_q | own_sel_q[4:0] | own_sel_q[9:5] | own_sel_q[14:10] | own_sel_q[19:15]
                             | own_sel_q[24:20]),
               ("owners %b of outputs %b, busy inputs %b", own_sel_q, own_q, busy_q))
endmodule

`default_nettype wire
