// wm_mesh: a W x H mesh of tiles in Verilog, for Icarus and for the
// full-mesh cross-check of the C-wired tiles on small meshes.
//
// The C side normally instantiates the Verilated wm_tile W x H times and
// copies outputs to neighbours between edges; this top does the same wiring
// with Verilog wires, so the two must agree wavelet for wavelet. Tile (x, y)
// is index y*W + x in every flattened port; row 0 is the north row. Edge
// links are tied off: no valid, no credit, neighbour disabled.
//
// CORES=1 puts a PE core in every tile (rtl/wm_tile_core.v), wired by the
// same wires, so the cores' cross-check is the bare mesh's wiring: the
// cores drive the firmware ports and pe_push_i, pe_data_i and pe_pop_i are
// not used; core_run_i[T] holds tile T's core in reset while 0, and the
// core_* outputs are wm_tile_core's, flattened like the others. CORES=0
// ignores core_run_i and drives the core_* outputs 0.
//
// The RAM images (CORES=1): with INIT_PREFIX "" the RAMs start empty and a
// C++ host loads them through their public mem_q and imem_q (csim/fabric/
// fabric_vmesh.cpp). Otherwise every tile's RAM is loaded by $readmemh from
// its own file, INIT_PREFIX + "_XX_YY.hex" with the tile's column and row
// as two decimal digits (INIT_PREFIX "build/m": build/m_03_01.hex is tile
// (3,1)), one hex word per line of the RAM's 32-bit words: a file per tile
// because $readmemh loads one memory, and the name assembled from fixed-
// width pieces because Verilog-2005 has no string formatting at
// elaboration, only concatenation (so W and H up to 100). Every tile needs
// its file, also one whose core stays in reset.
`default_nettype none

module wm_mesh #(
    parameter W = 4,
    parameter H = 4,
    parameter CORES = 0,
    parameter INIT_PREFIX = "",
    parameter IN_DEPTH = 4,
    parameter TX_DEPTH = 8,
    parameter RX_DEPTH = 8,
    parameter [63:0] TSC_INIT = 64'd0   // every PE's tsc after reset (wm_pe's tsc_init_i)
) (
    input  wire                  clk_i,
    input  wire                  rst_ni,
    input  wire [W*H-1:0]        enable_i,
    input  wire [W*H-1:0]        pe_push_i,
    input  wire [32*W*H-1:0]     pe_data_i,
    input  wire [W*H-1:0]        pe_pop_i,
    output wire [32*W*H-1:0]     pe_rx_head_o,
    output wire [4*W*H-1:0]      pe_tx_count_o,
    output wire [4*W*H-1:0]      pe_rx_count_o,
    output wire [4*W*H-1:0]      pe_status_o,
    output wire [64*W*H-1:0]     pe_tsc_o,
    output wire [32*W*H-1:0]     err_hdr_o,
    // every output register of every tile, ports N, E, S, W, L: the link trace
    output wire [5*W*H-1:0]      out_valid_o,
    output wire [160*W*H-1:0]    out_data_o,
    // the PE cores (CORES=1), as rtl/wm_tile_core.v names them
    input  wire [W*H-1:0]        core_run_i,
    output wire [W*H-1:0]        core_exited_o,
    output wire [32*W*H-1:0]     core_exit_code_o,
    output wire [W*H-1:0]        core_fault_o,
    output wire [3*W*H-1:0]      core_fault_cause_o,
    output wire [32*W*H-1:0]     core_fault_pc_o,
    output wire [32*W*H-1:0]     core_fault_insn_o,
    output wire [W*H-1:0]        core_retire_o,
    output wire [32*W*H-1:0]     core_retire_pc_o,
    output wire [32*W*H-1:0]     core_retire_insn_o,
    output wire [W*H-1:0]        core_rd_we_o,
    output wire [5*W*H-1:0]      core_rd_o,
    output wire [32*W*H-1:0]     core_rd_data_o,
    output wire [W*H-1:0]        core_push_o,
    output wire [32*W*H-1:0]     core_push_data_o,
    output wire [W*H-1:0]        core_pop_o,
    output wire [32*W*H-1:0]     core_pc_o,
    output wire [W*H-1:0]        core_wait_o
);
`include "rtl/wm_ports.vh"
    localparam N = W * H;
    localparam integer LX = W - 1;
    localparam integer LY = H - 1;
    localparam [9:0] LAST_X = LX[9:0];
    localparam [9:0] LAST_Y = LY[9:0];
    localparam ICW = 4 * $clog2(IN_DEPTH) + 4;   // a tile's in_count_o
    localparam TCW = $clog2(TX_DEPTH) + 1;
    localparam RCW = $clog2(RX_DEPTH) + 1;

    // a name that does not exist: the counts are 4 bits a tile
    generate
        if (TX_DEPTH > 15 || RX_DEPTH > 15) begin : gen_bad_depth
            wm_mesh_queue_depth_must_be_at_most_15 u_refuse ();
        end
    endgenerate

    // What each tile drives towards each direction.
    wire [N-1:0]    n_valid, e_valid, s_valid, w_valid;
    wire [32*N-1:0] n_data,  e_data,  s_data,  w_data;
    wire [N-1:0]    n_credit, e_credit, s_credit, w_credit;
    wire [N-1:0]    en;

    genvar gx, gy;
    generate
        for (gy = 0; gy < H; gy = gy + 1) begin : gen_row
            for (gx = 0; gx < W; gx = gx + 1) begin : gen_col
                localparam T  = gy * W + gx;
                localparam TN = (gy > 0)     ? T - W : T;
                localparam TS = (gy < H - 1) ? T + W : T;
                localparam TW = (gx > 0)     ? T - 1 : T;
                localparam TE = (gx < W - 1) ? T + 1 : T;
                localparam HAS_N = (gy > 0);
                localparam HAS_S = (gy < H - 1);
                localparam HAS_W = (gx > 0);
                localparam HAS_E = (gx < W - 1);
                localparam integer XI = gx;
                localparam integer YI = gy;
                localparam [9:0] X = XI[9:0];
                localparam [9:0] Y = YI[9:0];

                // This tile's link inputs: what each neighbour drives towards it.
                wire        north_valid  = HAS_N ? s_valid[TN] : 1'b0;
                wire [31:0] north_data   = HAS_N ? s_data[32*TN +: 32] : 32'd0;
                wire        north_en     = HAS_N ? en[TN] : 1'b0;
                wire        north_credit = HAS_N ? s_credit[TN] : 1'b0;
                wire        east_valid   = HAS_E ? w_valid[TE] : 1'b0;
                wire [31:0] east_data    = HAS_E ? w_data[32*TE +: 32] : 32'd0;
                wire        east_en      = HAS_E ? en[TE] : 1'b0;
                wire        east_credit  = HAS_E ? w_credit[TE] : 1'b0;
                wire        south_valid  = HAS_S ? n_valid[TS] : 1'b0;
                wire [31:0] south_data   = HAS_S ? n_data[32*TS +: 32] : 32'd0;
                wire        south_en     = HAS_S ? en[TS] : 1'b0;
                wire        south_credit = HAS_S ? n_credit[TS] : 1'b0;
                wire        west_valid   = HAS_W ? e_valid[TW] : 1'b0;
                wire [31:0] west_data    = HAS_W ? e_data[32*TW +: 32] : 32'd0;
                wire        west_en      = HAS_W ? en[TW] : 1'b0;
                wire        west_credit  = HAS_W ? e_credit[TW] : 1'b0;

                // occupancy is read per tile from the C-wired model only
                wire [ICW-1:0] unused_in_count;
                wire [159:0] unused_in_head;

                if (CORES != 0) begin : gen_core
                    // "_XX_YY.hex": the digits as characters, fixed width
                    localparam integer CX1 = 48 + XI / 10 % 10;
                    localparam integer CX0 = 48 + XI % 10;
                    localparam integer CY1 = 48 + YI / 10 % 10;
                    localparam integer CY0 = 48 + YI % 10;
                    localparam [7:0] X1 = CX1[7:0];
                    localparam [7:0] X0 = CX0[7:0];
                    localparam [7:0] Y1 = CY1[7:0];
                    localparam [7:0] Y0 = CY0[7:0];
                    localparam INIT_FILE = (INIT_PREFIX == "") ? ""
                                         : {INIT_PREFIX, "_", X1, X0, "_", Y1, Y0, ".hex"};

                    // the halt flag is exited || fault, both of them outputs already
                    wire unused_halted;
                    // the cores drive the firmware ports
                    wire unused_pe = &{1'b0, pe_push_i[T], pe_data_i[32*T +: 32], pe_pop_i[T]};

                    wm_tile_core #(.INIT_FILE(INIT_FILE), .IN_DEPTH(IN_DEPTH), .TX_DEPTH(TX_DEPTH),
                                   .RX_DEPTH(RX_DEPTH)) u_tile (
                        .clk_i           (clk_i),
                        .rst_ni          (rst_ni),
                        .core_run_i      (core_run_i[T]),
                        .core_hold_i     (1'b0),          // no debugger on the Verilated mesh
                        .x_i             (X),
                        .y_i             (Y),
                        .last_x_i        (LAST_X),
                        .last_y_i        (LAST_Y),
                        .enable_i        (enable_i[T]),
                        .tsc_init_i      (TSC_INIT),
                        .en_o            (en[T]),
                        .north_valid_i   (north_valid),
                        .north_data_i    (north_data),
                        .north_credit_o  (n_credit[T]),
                        .north_en_i      (north_en),
                        .north_valid_o   (n_valid[T]),
                        .north_data_o    (n_data[32*T +: 32]),
                        .north_credit_i  (north_credit),
                        .east_valid_i    (east_valid),
                        .east_data_i     (east_data),
                        .east_credit_o   (e_credit[T]),
                        .east_en_i       (east_en),
                        .east_valid_o    (e_valid[T]),
                        .east_data_o     (e_data[32*T +: 32]),
                        .east_credit_i   (east_credit),
                        .south_valid_i   (south_valid),
                        .south_data_i    (south_data),
                        .south_credit_o  (s_credit[T]),
                        .south_en_i      (south_en),
                        .south_valid_o   (s_valid[T]),
                        .south_data_o    (s_data[32*T +: 32]),
                        .south_credit_i  (south_credit),
                        .west_valid_i    (west_valid),
                        .west_data_i     (west_data),
                        .west_credit_o   (w_credit[T]),
                        .west_en_i       (west_en),
                        .west_valid_o    (w_valid[T]),
                        .west_data_o     (w_data[32*T +: 32]),
                        .west_credit_i   (west_credit),
                        .pe_rx_head_o    (pe_rx_head_o[32*T +: 32]),
                        .pe_tx_count_o   (pe_tx_count_o[4*T +: 4]),
                        .pe_rx_count_o   (pe_rx_count_o[4*T +: 4]),
                        .pe_tsc_o        (pe_tsc_o[64*T +: 64]),
                        .pe_status_o     (pe_status_o[4*T +: 4]),
                        .err_hdr_o       (err_hdr_o[32*T +: 32]),
                        .ramp_valid_o    (out_valid_o[5*T + PORT_L]),
                        .ramp_data_o     (out_data_o[160*T + 32*PORT_L +: 32]),
                        .in_count_o      (unused_in_count),
                        .in_head_o       (unused_in_head),
                        .halted_o        (unused_halted),
                        .exited_o        (core_exited_o[T]),
                        .exit_code_o     (core_exit_code_o[32*T +: 32]),
                        .fault_o         (core_fault_o[T]),
                        .fault_cause_o   (core_fault_cause_o[3*T +: 3]),
                        .fault_pc_o      (core_fault_pc_o[32*T +: 32]),
                        .fault_insn_o    (core_fault_insn_o[32*T +: 32]),
                        .retire_o        (core_retire_o[T]),
                        .retire_pc_o     (core_retire_pc_o[32*T +: 32]),
                        .retire_insn_o   (core_retire_insn_o[32*T +: 32]),
                        .rd_we_o         (core_rd_we_o[T]),
                        .rd_o            (core_rd_o[5*T +: 5]),
                        .rd_data_o       (core_rd_data_o[32*T +: 32]),
                        .core_push_o     (core_push_o[T]),
                        .core_push_data_o(core_push_data_o[32*T +: 32]),
                        .core_pop_o      (core_pop_o[T]),
                        .pc_o            (core_pc_o[32*T +: 32]),
                        .core_wait_o     (core_wait_o[T])
                    );
                end else begin : gen_bare
                    wire unused_core_run = core_run_i[T];
                    // the counts, zero-extended (or cut: their top bit is 0) to 4 bits
                    wire [TCW-1:0] tx_count;
                    wire [RCW-1:0] rx_count;
                    wire [31:0]    tx_count32 = {{(32 - TCW){1'b0}}, tx_count};
                    wire [31:0]    rx_count32 = {{(32 - RCW){1'b0}}, rx_count};
                    wire unused_count = &{1'b0, tx_count32[31:4], rx_count32[31:4]};
                    assign pe_tx_count_o[4*T +: 4] = tx_count32[3:0];
                    assign pe_rx_count_o[4*T +: 4] = rx_count32[3:0];

                    wm_tile #(.IN_DEPTH(IN_DEPTH), .TX_DEPTH(TX_DEPTH), .RX_DEPTH(RX_DEPTH)) u_tile (
                        .clk_i         (clk_i),
                        .rst_ni        (rst_ni),
                        .x_i           (X),
                        .y_i           (Y),
                        .last_x_i      (LAST_X),
                        .last_y_i      (LAST_Y),
                        .enable_i      (enable_i[T]),
                        .tsc_init_i    (TSC_INIT),
                        .en_o          (en[T]),
                        .north_valid_i (north_valid),
                        .north_data_i  (north_data),
                        .north_credit_o(n_credit[T]),
                        .north_en_i    (north_en),
                        .north_valid_o (n_valid[T]),
                        .north_data_o  (n_data[32*T +: 32]),
                        .north_credit_i(north_credit),
                        .east_valid_i  (east_valid),
                        .east_data_i   (east_data),
                        .east_credit_o (e_credit[T]),
                        .east_en_i     (east_en),
                        .east_valid_o  (e_valid[T]),
                        .east_data_o   (e_data[32*T +: 32]),
                        .east_credit_i (east_credit),
                        .south_valid_i (south_valid),
                        .south_data_i  (south_data),
                        .south_credit_o(s_credit[T]),
                        .south_en_i    (south_en),
                        .south_valid_o (s_valid[T]),
                        .south_data_o  (s_data[32*T +: 32]),
                        .south_credit_i(south_credit),
                        .west_valid_i  (west_valid),
                        .west_data_i   (west_data),
                        .west_credit_o (w_credit[T]),
                        .west_en_i     (west_en),
                        .west_valid_o  (w_valid[T]),
                        .west_data_o   (w_data[32*T +: 32]),
                        .west_credit_i (west_credit),
                        .pe_push_i     (pe_push_i[T]),
                        .pe_data_i     (pe_data_i[32*T +: 32]),
                        .pe_pop_i      (pe_pop_i[T]),
                        .pe_rx_head_o  (pe_rx_head_o[32*T +: 32]),
                        .pe_tx_count_o (tx_count),
                        .pe_rx_count_o (rx_count),
                        .pe_tsc_o      (pe_tsc_o[64*T +: 64]),
                        .pe_status_o   (pe_status_o[4*T +: 4]),
                        .err_hdr_o     (err_hdr_o[32*T +: 32]),
                        .ramp_valid_o  (out_valid_o[5*T + PORT_L]),
                        .ramp_data_o   (out_data_o[160*T + 32*PORT_L +: 32]),
                        .in_count_o    (unused_in_count),
                        .in_head_o     (unused_in_head)
                    );

                    assign core_exited_o[T]               = 1'b0;
                    assign core_exit_code_o[32*T +: 32]   = 32'd0;
                    assign core_fault_o[T]                = 1'b0;
                    assign core_fault_cause_o[3*T +: 3]   = 3'd0;
                    assign core_fault_pc_o[32*T +: 32]    = 32'd0;
                    assign core_fault_insn_o[32*T +: 32]  = 32'd0;
                    assign core_retire_o[T]               = 1'b0;
                    assign core_retire_pc_o[32*T +: 32]   = 32'd0;
                    assign core_retire_insn_o[32*T +: 32] = 32'd0;
                    assign core_rd_we_o[T]                = 1'b0;
                    assign core_rd_o[5*T +: 5]            = 5'd0;
                    assign core_rd_data_o[32*T +: 32]     = 32'd0;
                    assign core_push_o[T]                 = 1'b0;
                    assign core_push_data_o[32*T +: 32]   = 32'd0;
                    assign core_pop_o[T]                  = 1'b0;
                    assign core_pc_o[32*T +: 32]          = 32'd0;
                    assign core_wait_o[T]                 = 1'b0;
                end
                assign out_valid_o[5*T + PORT_N]          = n_valid[T];
                assign out_valid_o[5*T + PORT_E]          = e_valid[T];
                assign out_valid_o[5*T + PORT_S]          = s_valid[T];
                assign out_valid_o[5*T + PORT_W]          = w_valid[T];
                assign out_data_o[160*T + 32*PORT_N +: 32] = n_data[32*T +: 32];
                assign out_data_o[160*T + 32*PORT_E +: 32] = e_data[32*T +: 32];
                assign out_data_o[160*T + 32*PORT_S +: 32] = s_data[32*T +: 32];
                assign out_data_o[160*T + 32*PORT_W +: 32] = w_data[32*T +: 32];
            end
        end
    endgenerate
endmodule

`default_nettype wire
