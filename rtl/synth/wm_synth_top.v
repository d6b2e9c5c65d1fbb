// wm_synth_top: the out-of-context wrapper that place and route measures.
//
// A tile has about 200 input and 500 output bits, a mesh more: no FPGA
// package has the pins, and a design whose ports are pins is timed from
// and to the I/O cells, not from flop to flop as it is inside a mesh. So
// every input of the design under test comes from a flop of a shift chain
// fed from one pin (sin_i), and every output is folded, eight bits to two
// LUTs, into flops whose XOR tree ends on one pin (sout_o). Each input is
// a distinct flop, so synthesis can neither drop nor merge the logic it
// drives (the coordinates included: the tile is measured as the one
// Verilated model that serves every position, not specialised to one);
// each output feeds the tree, so nothing the design computes is dead.
// Paths through the wrapper are two LUTs at the end, shorter than any the
// design has (the tile's outputs are flops). The design is kept as a hierarchy level
// (keep_hierarchy), so yosys's `stat` gives its cells apart from the
// wrapper's; place and route sees one flat netlist all the same.
//
// DESIGN: 0 = rtl/wm_tile.v, 1 = rtl/wm_tile_core.v, 2 = rtl/mesh.v
// (MESH_W x MESH_H bare tiles). The depths and MEM_BYTES are passed down.
`default_nettype none

module wm_synth_top #(
    parameter DESIGN    = 0,
    parameter IN_DEPTH  = 4,
    parameter TX_DEPTH  = 8,
    parameter RX_DEPTH  = 8,
    parameter MEM_BYTES = 4096,
    parameter MESH_W    = 2,
    parameter MESH_H    = 2
) (
    input  wire clk_i,
    input  wire sin_i,
    output wire sout_o
);
    localparam IC = $clog2(IN_DEPTH) + 1;   // one link buffer's count
    // the queue counts: the bare tile's are as wide as its depths need,
    // the tile with core and the mesh give 4 bits
    localparam TC = (DESIGN == 0) ? $clog2(TX_DEPTH) + 1 : 4;
    localparam RC = (DESIGN == 0) ? $clog2(RX_DEPTH) + 1 : 4;
    localparam T  = MESH_W * MESH_H;
    // links N..W: valid, data, en, credit in; credit, valid, data out
    localparam LINK_IN  = 4 * 35;
    localparam LINK_OUT = 4 * 34;
    // coordinates, mesh size, enable, reset; the coordinates' top two
    // bits each (COORD_W 10) come last in the chain, at CH
    localparam CFG_IN   = 34 + 8;
    localparam PE_OUT   = 32 + TC + RC + 64 + 4 + 32 + 33 + 4 * IC + 160;
    localparam CORE_OUT = 1 + 1 + 32 + 1 + 3 + 32 + 32 + 1 + 32 + 32 + 1 + 5 + 32 + 1 + 32 + 1 + 32 + 1;
    localparam NI = (DESIGN == 0) ? CFG_IN + LINK_IN + 34
                  : (DESIGN == 1) ? CFG_IN + LINK_IN + 1
                  : 1 + T * (1 + 34 + 1);
    localparam NO = (DESIGN == 0) ? 1 + LINK_OUT + PE_OUT
                  : (DESIGN == 1) ? 1 + LINK_OUT + PE_OUT + CORE_OUT
                  : T * (32 + TC + RC + 4 + 64 + 32 + 5 + 160);
    localparam NF = (NO + 7) / 8;           // folded outputs

    // ---- inputs: a shift chain, one flop per input bit ----
    reg  [NI-1:0] din_q;
    always @(posedge clk_i) din_q <= {din_q[NI-2:0], sin_i};
    localparam CH = NI - 8;

    // ---- the design ----
    wire [NO-1:0] dout;

    generate
        if (DESIGN == 0) begin : gen_tile
            (* keep_hierarchy *)
            wm_tile #(.IN_DEPTH(IN_DEPTH), .TX_DEPTH(TX_DEPTH), .RX_DEPTH(RX_DEPTH)) u_dut (
                .clk_i          (clk_i),
                .rst_ni         (din_q[0]),
                .x_i            ({din_q[CH +: 2], din_q[8:1]}),
                .y_i            ({din_q[CH + 2 +: 2], din_q[16:9]}),
                .last_x_i       ({din_q[CH + 4 +: 2], din_q[24:17]}),
                .last_y_i       ({din_q[CH + 6 +: 2], din_q[32:25]}),
                .enable_i       (din_q[33]),
                .tsc_init_i     (64'd0),
                .en_o           (dout[0]),
                .north_valid_i  (din_q[34]),
                .north_data_i   (din_q[66:35]),
                .north_en_i     (din_q[67]),
                .north_credit_i (din_q[68]),
                .east_valid_i   (din_q[69]),
                .east_data_i    (din_q[101:70]),
                .east_en_i      (din_q[102]),
                .east_credit_i  (din_q[103]),
                .south_valid_i  (din_q[104]),
                .south_data_i   (din_q[136:105]),
                .south_en_i     (din_q[137]),
                .south_credit_i (din_q[138]),
                .west_valid_i   (din_q[139]),
                .west_data_i    (din_q[171:140]),
                .west_en_i      (din_q[172]),
                .west_credit_i  (din_q[173]),
                .pe_push_i      (din_q[174]),
                .pe_data_i      (din_q[206:175]),
                .pe_pop_i       (din_q[207]),
                .north_credit_o (dout[1]),
                .north_valid_o  (dout[2]),
                .north_data_o   (dout[34:3]),
                .east_credit_o  (dout[35]),
                .east_valid_o   (dout[36]),
                .east_data_o    (dout[68:37]),
                .south_credit_o (dout[69]),
                .south_valid_o  (dout[70]),
                .south_data_o   (dout[102:71]),
                .west_credit_o  (dout[103]),
                .west_valid_o   (dout[104]),
                .west_data_o    (dout[136:105]),
                .pe_rx_head_o   (dout[168:137]),
                .pe_tx_count_o  (dout[169 +: TC]),
                .pe_rx_count_o  (dout[169 + TC +: RC]),
                .pe_tsc_o       (dout[169 + TC + RC +: 64]),
                .pe_status_o    (dout[233 + TC + RC +: 4]),
                .err_hdr_o      (dout[237 + TC + RC +: 32]),
                .ramp_valid_o   (dout[269 + TC + RC]),
                .ramp_data_o    (dout[270 + TC + RC +: 32]),
                .in_count_o     (dout[302 + TC + RC +: 4 * IC]),
                .in_head_o      (dout[302 + TC + RC + 4 * IC +: 160])
            );
        end else if (DESIGN == 1) begin : gen_tile_core
            (* keep_hierarchy *)
            wm_tile_core #(.MEM_BYTES(MEM_BYTES), .IN_DEPTH(IN_DEPTH), .TX_DEPTH(TX_DEPTH),
                           .RX_DEPTH(RX_DEPTH)) u_dut (
                .clk_i            (clk_i),
                .rst_ni           (din_q[0]),
                .x_i              ({din_q[CH +: 2], din_q[8:1]}),
                .y_i              ({din_q[CH + 2 +: 2], din_q[16:9]}),
                .last_x_i         ({din_q[CH + 4 +: 2], din_q[24:17]}),
                .last_y_i         ({din_q[CH + 6 +: 2], din_q[32:25]}),
                .enable_i         (din_q[33]),
                .tsc_init_i       (64'd0),
                .en_o             (dout[0]),
                .north_valid_i    (din_q[34]),
                .north_data_i     (din_q[66:35]),
                .north_en_i       (din_q[67]),
                .north_credit_i   (din_q[68]),
                .east_valid_i     (din_q[69]),
                .east_data_i      (din_q[101:70]),
                .east_en_i        (din_q[102]),
                .east_credit_i    (din_q[103]),
                .south_valid_i    (din_q[104]),
                .south_data_i     (din_q[136:105]),
                .south_en_i       (din_q[137]),
                .south_credit_i   (din_q[138]),
                .west_valid_i     (din_q[139]),
                .west_data_i      (din_q[171:140]),
                .west_en_i        (din_q[172]),
                .west_credit_i    (din_q[173]),
                .core_run_i       (din_q[174]),
                .core_hold_i      (1'b0),            // the debugger's hold is the simulator's
                .north_credit_o   (dout[1]),
                .north_valid_o    (dout[2]),
                .north_data_o     (dout[34:3]),
                .east_credit_o    (dout[35]),
                .east_valid_o     (dout[36]),
                .east_data_o      (dout[68:37]),
                .south_credit_o   (dout[69]),
                .south_valid_o    (dout[70]),
                .south_data_o     (dout[102:71]),
                .west_credit_o    (dout[103]),
                .west_valid_o     (dout[104]),
                .west_data_o      (dout[136:105]),
                .pe_rx_head_o     (dout[168:137]),
                .pe_tx_count_o    (dout[169 +: TC]),
                .pe_rx_count_o    (dout[169 + TC +: RC]),
                .pe_tsc_o         (dout[169 + TC + RC +: 64]),
                .pe_status_o      (dout[233 + TC + RC +: 4]),
                .err_hdr_o        (dout[237 + TC + RC +: 32]),
                .ramp_valid_o     (dout[269 + TC + RC]),
                .ramp_data_o      (dout[270 + TC + RC +: 32]),
                .in_count_o       (dout[302 + TC + RC +: 4 * IC]),
                .in_head_o        (dout[302 + TC + RC + 4 * IC +: 160]),
                .halted_o         (dout[1 + LINK_OUT + PE_OUT +: 1]),
                .exited_o         (dout[2 + LINK_OUT + PE_OUT +: 1]),
                .exit_code_o      (dout[3 + LINK_OUT + PE_OUT +: 32]),
                .fault_o          (dout[35 + LINK_OUT + PE_OUT +: 1]),
                .fault_cause_o    (dout[36 + LINK_OUT + PE_OUT +: 3]),
                .fault_pc_o       (dout[39 + LINK_OUT + PE_OUT +: 32]),
                .fault_insn_o     (dout[71 + LINK_OUT + PE_OUT +: 32]),
                .retire_o         (dout[103 + LINK_OUT + PE_OUT +: 1]),
                .retire_pc_o      (dout[104 + LINK_OUT + PE_OUT +: 32]),
                .retire_insn_o    (dout[136 + LINK_OUT + PE_OUT +: 32]),
                .rd_we_o          (dout[168 + LINK_OUT + PE_OUT +: 1]),
                .rd_o             (dout[169 + LINK_OUT + PE_OUT +: 5]),
                .rd_data_o        (dout[174 + LINK_OUT + PE_OUT +: 32]),
                .core_push_o      (dout[206 + LINK_OUT + PE_OUT +: 1]),
                .core_push_data_o (dout[207 + LINK_OUT + PE_OUT +: 32]),
                .core_pop_o       (dout[239 + LINK_OUT + PE_OUT +: 1]),
                .pc_o             (dout[240 + LINK_OUT + PE_OUT +: 32]),
                .core_wait_o      (dout[272 + LINK_OUT + PE_OUT +: 1])
            );
        end else begin : gen_mesh
            // per tile: enable, push, data, pop, core_run
            wire [T-1:0]    enable, push, pop, run;
            wire [32*T-1:0] data;
            genvar gt;
            for (gt = 0; gt < T; gt = gt + 1) begin : gen_in
                assign enable[gt]          = din_q[1 + 36 * gt];
                assign push[gt]            = din_q[2 + 36 * gt];
                assign data[32*gt +: 32]   = din_q[3 + 36 * gt +: 32];
                assign pop[gt]             = din_q[35 + 36 * gt];
                assign run[gt]             = din_q[36 + 36 * gt];
            end
            localparam O1 = T * 32;
            localparam O2 = O1 + T * TC;
            localparam O3 = O2 + T * RC;
            localparam O4 = O3 + T * 4;
            localparam O5 = O4 + T * 64;
            localparam O6 = O5 + T * 32;
            localparam O7 = O6 + T * 5;
            // A mesh of bare tiles drives its core outputs 0: they stay
            // out of the XOR tree, which the hierarchy boundary would
            // otherwise fill with constants.
            wire [271*T-1:0] unused_core;
            (* keep_hierarchy *)
            wm_mesh #(.W(MESH_W), .H(MESH_H), .IN_DEPTH(IN_DEPTH), .TX_DEPTH(TX_DEPTH),
                      .RX_DEPTH(RX_DEPTH)) u_dut (
                .clk_i              (clk_i),
                .rst_ni             (din_q[0]),
                .enable_i           (enable),
                .pe_push_i          (push),
                .pe_data_i          (data),
                .pe_pop_i           (pop),
                .core_run_i         (run),
                .pe_rx_head_o       (dout[0 +: O1]),
                .pe_tx_count_o      (dout[O1 +: T * TC]),
                .pe_rx_count_o      (dout[O2 +: T * RC]),
                .pe_status_o        (dout[O3 +: T * 4]),
                .pe_tsc_o           (dout[O4 +: T * 64]),
                .err_hdr_o          (dout[O5 +: T * 32]),
                .out_valid_o        (dout[O6 +: T * 5]),
                .out_data_o         (dout[O7 +: T * 160]),
                .core_exited_o      (unused_core[0 +: T]),
                .core_exit_code_o   (unused_core[0 + T +: 32 * T]),
                .core_fault_o       (unused_core[0 + 33 * T +: T]),
                .core_fault_cause_o (unused_core[0 + 34 * T +: 3 * T]),
                .core_fault_pc_o    (unused_core[0 + 37 * T +: 32 * T]),
                .core_fault_insn_o  (unused_core[0 + 69 * T +: 32 * T]),
                .core_retire_o      (unused_core[0 + 101 * T +: T]),
                .core_retire_pc_o   (unused_core[0 + 102 * T +: 32 * T]),
                .core_retire_insn_o (unused_core[0 + 134 * T +: 32 * T]),
                .core_rd_we_o       (unused_core[0 + 166 * T +: T]),
                .core_rd_o          (unused_core[0 + 167 * T +: 5 * T]),
                .core_rd_data_o     (unused_core[0 + 172 * T +: 32 * T]),
                .core_push_o        (unused_core[0 + 204 * T +: T]),
                .core_push_data_o   (unused_core[0 + 205 * T +: 32 * T]),
                .core_pop_o         (unused_core[0 + 237 * T +: T]),
                .core_pc_o          (unused_core[0 + 238 * T +: 32 * T]),
                .core_wait_o        (unused_core[0 + 270 * T +: T])
            );
        end
    endgenerate

    // ---- outputs: eight bits to two LUTs, into flops, then an XOR tree ----
    wire [8*NF-1:0] dout_pad = {{(8 * NF - NO){1'b0}}, dout};
    reg  [NF-1:0]   fold_q;
    always @(posedge clk_i) begin : b_fold
        integer f;
        for (f = 0; f < NF; f = f + 1)
            fold_q[f] <= ^dout_pad[8*f +: 8];
    end
    reg sout_q;
    always @(posedge clk_i) sout_q <= ^fold_q;
    assign sout_o = sout_q;
endmodule

`default_nettype wire
