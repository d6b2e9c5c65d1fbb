// wm_router: five-port wormhole router with dimension-order routing.
//
// Ports are numbered N=0, E=1, S=2, W=3, L=4 (the ramp to and from the PE).
// A message is a header wavelet {col[31:24], row[23:16], len[15:8],
// tag[7:0]} followed by len data wavelets. The router routes a header east
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
`default_nettype none
// Dumps show wm_waves only.
/*verilator tracing_off*/

module wm_router #(
    parameter IN_DEPTH = 4,
    parameter RX_DEPTH = 8
) (
    input  wire         clk_i,
    input  wire         rst_ni,
    input  wire  [7:0]  x_i,
    input  wire  [7:0]  y_i,
    input  wire  [7:0]  last_x_i,
    input  wire  [7:0]  last_y_i,
    input  wire         enable_i,
    // link inputs, port p at bits [p] / [32p+31:32p], p = N, E, S, W
    input  wire  [3:0]   link_valid_i,
    input  wire  [127:0] link_data_i,
    output wire  [3:0]   link_credit_o,
    input  wire  [3:0]   nbr_en_i,
    // outputs, port p = N, E, S, W, L (L feeds the PE's RX queue)
    output wire  [4:0]   out_valid_o,
    output wire  [159:0] out_data_o,
    input  wire  [4:0]   out_credit_i,
    // ramp input: the head of the PE's TX queue
    input  wire          ramp_valid_i,
    input  wire  [31:0]  ramp_data_i,
    output wire          ramp_pop_o,
    // status
    output wire  [4*$clog2(IN_DEPTH)+3:0] in_count_o,  // occupancy of the link buffers N..W
    output wire  [127:0] in_head_o,     // the oldest wavelet of each link buffer
    output wire          err_offmesh_o,
    output wire  [31:0]  err_hdr_o,
    // observation: per output {own_idx} while owned, else 7
    output wire  [14:0]  owner_o
);
    localparam PW  = $clog2(IN_DEPTH);
    localparam CW  = $clog2(RX_DEPTH > IN_DEPTH ? RX_DEPTH : IN_DEPTH) + 1;
    localparam [2:0] P_N = 3'd0, P_E = 3'd1, P_S = 3'd2, P_W = 3'd3, P_L = 3'd4;
    localparam [CW-1:0] LINK_CREDITS = IN_DEPTH;
    localparam [CW-1:0] RAMP_CREDITS = RX_DEPTH;

    // ---- input side: four link buffers, the ramp from the PE ----
    wire [4:0]  head_valid;
    wire [31:0] head_data [0:4];
    reg  [4:0]  pop;
    wire [PW:0] fifo_count [0:3];

    genvar gp;
    generate
        for (gp = 0; gp < 4; gp = gp + 1) begin : gen_in
            wire empty;
            wire unused_full;
            wm_fifo #(.WIDTH(32), .DEPTH(IN_DEPTH)) u_buf (
                .clk_i   (clk_i),
                .rst_ni  (rst_ni),
                .push_i  (link_valid_i[gp]),
                .data_i  (link_data_i[32*gp +: 32]),
                .pop_i   (pop[gp]),
                .data_o  (head_data[gp]),
                .count_o (fifo_count[gp]),
                .empty_o (empty),
                .full_o  (unused_full)
            );
            assign head_valid[gp] = !empty;
        end
    endgenerate
    assign head_valid[4] = ramp_valid_i;
    assign head_data[4]  = ramp_data_i;
    assign ramp_pop_o    = pop[4];

    // Coordinates and mesh size are configuration: latched into flops so
    // that nothing combinational depends on them as inputs.
    reg [7:0] x_q, y_q, last_x_q, last_y_q;
    always @(posedge clk_i) begin
        x_q      <= x_i;
        y_q      <= y_i;
        last_x_q <= last_x_i;
        last_y_q <= last_y_i;
    end

    // The neighbours' enables, registered: a neighbour is seen enabled
    // from the second edge after its enable_i rose.
    reg [3:0] nbr_en_q;
    always @(posedge clk_i) begin
        if (!rst_ni) nbr_en_q <= 4'b0;
        else         nbr_en_q <= nbr_en_i;
    end

    // ---- per-input routing of the head wavelet ----
    reg [2:0] route [0:4];
    reg [4:0] offmesh;
    integer i;
    always @* begin
        for (i = 0; i < 5; i = i + 1) begin
            offmesh[i] = (head_data[i][31:24] > last_x_q) || (head_data[i][23:16] > last_y_q);
            if      (head_data[i][31:24] > x_q) route[i] = P_E;
            else if (head_data[i][31:24] < x_q) route[i] = P_W;
            else if (head_data[i][23:16] > y_q) route[i] = P_S;
            else if (head_data[i][23:16] < y_q) route[i] = P_N;
            else                                route[i] = P_L;
        end
    end

    // ---- state ----
    reg  [4:0]    own_valid_q, own_valid_d;   // per output: held by a message
    reg  [2:0]    own_idx_q [0:4];            // per output: the input holding it
    reg  [2:0]    own_idx_d [0:4];
    reg  [7:0]    own_rem_q [0:4];            // data wavelets still to pass
    reg  [7:0]    own_rem_d [0:4];
    reg  [4:0]    drop_q, drop_d;             // per input: discarding an off-mesh message
    reg  [7:0]    drop_rem_q [0:4];
    reg  [7:0]    drop_rem_d [0:4];
    reg  [CW-1:0] credit_q [0:4];
    reg  [CW-1:0] credit_d [0:4];
    reg  [4:0]    out_valid_q, out_valid_d;
    reg  [31:0]   out_data_q [0:4];
    reg  [31:0]   out_data_d [0:4];
    reg  [3:0]    link_credit_q;
    reg           err_offmesh_q, err_offmesh_d;
    reg  [31:0]   err_hdr_q, err_hdr_d;

    // an input is busy while it holds an output or is discarding
    reg [4:0] in_owner;
    integer o;
    always @* begin
        in_owner = 5'b0;
        for (o = 0; o < 5; o = o + 1)
            if (own_valid_q[o]) in_owner[own_idx_q[o]] = 1'b1;
    end

    // ---- one arbiter per output ----
    reg  [4:0] req [0:4];
    wire [4:0] arb_valid;
    wire [2:0] arb_idx [0:4];
    reg  [4:0] cred_ok;
    reg  [4:0] take;
    integer j;
    always @* begin
        for (o = 0; o < 5; o = o + 1) begin
            cred_ok[o] = (credit_q[o] != {CW{1'b0}});
            if (o < 4) cred_ok[o] = cred_ok[o] && nbr_en_q[o];
            for (j = 0; j < 5; j = j + 1)
                req[o][j] = enable_i && head_valid[j] && !in_owner[j] && !drop_q[j]
                            && !offmesh[j] && (route[j] == o[2:0]);
            take[o] = enable_i && !own_valid_q[o] && cred_ok[o];
        end
    end

    genvar go;
    generate
        for (go = 0; go < 5; go = go + 1) begin : gen_arb
            wm_rr_arbiter #(.N(5)) u_arb (
                .clk_i   (clk_i),
                .rst_ni  (rst_ni),
                .req_i   (req[go]),
                .take_i  (take[go]),
                .valid_o (arb_valid[go]),
                .idx_o   (arb_idx[go])
            );
        end
    endgenerate

    // Credits are the only state the credit inputs feed: kept apart from
    // the switch, so that the switch depends on flops alone (below).
    integer c;
    always @* begin
        for (c = 0; c < 5; c = c + 1)
            credit_d[c] = credit_q[c] + {{(CW-1){1'b0}}, out_credit_i[c]} - {{(CW-1){1'b0}}, out_valid_d[c]};
    end

    // ---- switch: what moves this cycle ----
    reg [2:0] src;
    always @* begin
        pop           = 5'b0;
        own_valid_d   = own_valid_q;
        drop_d        = drop_q;
        out_valid_d   = 5'b0;
        err_offmesh_d = err_offmesh_q;
        err_hdr_d     = err_hdr_q;
        for (o = 0; o < 5; o = o + 1) begin
            own_idx_d[o]  = own_idx_q[o];
            own_rem_d[o]  = own_rem_q[o];
            out_data_d[o] = out_data_q[o];
            src           = 3'd0;
            if (enable_i && own_valid_q[o]) begin
                // body of a message: the owner's next wavelet
                src = own_idx_q[o];
                if (head_valid[src] && cred_ok[o]) begin
                    out_valid_d[o] = 1'b1;
                    pop[src]       = 1'b1;
                    own_rem_d[o]   = own_rem_q[o] - 8'd1;
                    if (own_rem_q[o] == 8'd1) own_valid_d[o] = 1'b0;
                end
            end else if (take[o] && arb_valid[o]) begin
                // a header wins the free output
                src            = arb_idx[o];
                out_valid_d[o] = 1'b1;
                pop[src]       = 1'b1;
                own_idx_d[o]   = src;
                own_rem_d[o]   = head_data[src][15:8];
                own_valid_d[o] = (head_data[src][15:8] != 8'd0);
            end
            if (out_valid_d[o]) out_data_d[o] = head_data[src];
        end
        // discarding: off-mesh headers and the data behind them
        for (i = 0; i < 5; i = i + 1) begin
            drop_rem_d[i] = drop_rem_q[i];
            if (enable_i && head_valid[i] && drop_q[i]) begin
                pop[i]        = 1'b1;
                drop_rem_d[i] = drop_rem_q[i] - 8'd1;
                if (drop_rem_q[i] == 8'd1) drop_d[i] = 1'b0;
            end else if (enable_i && head_valid[i] && !in_owner[i] && offmesh[i]) begin
                pop[i]        = 1'b1;
                drop_rem_d[i] = head_data[i][15:8];
                drop_d[i]     = (head_data[i][15:8] != 8'd0);
                if (!err_offmesh_q) err_hdr_d = head_data[i];
                err_offmesh_d = 1'b1;
            end
        end
    end

    always @(posedge clk_i) begin
        if (!rst_ni) begin
            own_valid_q   <= 5'b0;
            drop_q        <= 5'b0;
            out_valid_q   <= 5'b0;
            link_credit_q <= 4'b0;
            err_offmesh_q <= 1'b0;
            err_hdr_q     <= 32'd0;
            for (o = 0; o < 5; o = o + 1) begin
                own_idx_q[o]  <= 3'd0;
                own_rem_q[o]  <= 8'd0;
                drop_rem_q[o] <= 8'd0;
                out_data_q[o] <= 32'd0;
                credit_q[o]   <= (o == 4) ? RAMP_CREDITS : LINK_CREDITS;
            end
        end else begin
            own_valid_q   <= own_valid_d;
            drop_q        <= drop_d;
            out_valid_q   <= out_valid_d;
            link_credit_q <= pop[3:0];
            err_offmesh_q <= err_offmesh_d;
            err_hdr_q     <= err_hdr_d;
            for (o = 0; o < 5; o = o + 1) begin
                own_idx_q[o]  <= own_idx_d[o];
                own_rem_q[o]  <= own_rem_d[o];
                drop_rem_q[o] <= drop_rem_d[o];
                out_data_q[o] <= out_data_d[o];
                credit_q[o]   <= credit_d[o];
            end
        end
    end

    assign out_valid_o   = out_valid_q;
    assign out_data_o    = {out_data_q[4], out_data_q[3], out_data_q[2], out_data_q[1], out_data_q[0]};
    assign link_credit_o = link_credit_q;
    assign err_offmesh_o = err_offmesh_q;
    assign err_hdr_o     = err_hdr_q;
    assign in_head_o     = {head_data[3], head_data[2], head_data[1], head_data[0]};
    assign in_count_o    = {fifo_count[3], fifo_count[2], fifo_count[1], fifo_count[0]};
    genvar gw;
    generate
        for (gw = 0; gw < 5; gw = gw + 1) begin : gen_owner
            assign owner_o[3*gw +: 3] = own_valid_q[gw] ? own_idx_q[gw] : 3'd7;
        end
    endgenerate

`ifdef WM_ASSERTIONS
    // A credit never returns beyond the buffer it stands for.
    always @(posedge clk_i) begin
        for (o = 0; o < 5; o = o + 1)
            if (rst_ni && credit_q[o] > ((o == 4) ? RAMP_CREDITS : LINK_CREDITS)) begin
                $display("ASSERTION FAILED %m: credit overflow on output %0d", o);
                $stop;
            end
    end
`endif
endmodule

`default_nettype wire
