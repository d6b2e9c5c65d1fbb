// wm_tile_core: a tile whose firmware runs on its own PE core.
//
// wm_tile, unchanged, plus wm_core and its RAM (docs/core.md): the core
// drives the tile's firmware port (push, data, pop) and reads the PE
// datapath from the tile's outputs, all of them flops, so the core's view
// of a cycle is the tile's state at that cycle and its accesses take effect
// at the edge that ends it, exactly as the host's posted accesses do on a
// bare tile. The link ports are wm_tile's, and every tile-to-tile output is
// still wm_tile's flop, so the C side wires these tiles as it wires bare
// ones (csim/fabric/fabric_rtl.cpp).
//
// core_run_i holds the core, not the RAM or the tile, in reset while it is
// 0: the host loads the RAM through its public copies (u_ram.mem_q, imem_q), then raises it, and
// the first cycle with it high is the core's cycle 0 (F fetches address 0).
// core_hold_i freezes the core for the cycles it is 1 (wm_core's hold_i):
// GDB's hold on a core whose breakpoint it has not reported yet
// (docs/debugging.md); the tile runs on.
// The core's outputs here are for the host: the halt record (from flops),
// this cycle's retire, write-back, push and pop (combinational, valid
// between the inputs settling and the edge), the PC in X and whether X is
// stalled on a queue. The RAM (u_ram.mem_q and imem_q) and the register file
// (u_core.u_regfile.regs_q) are public for C++. INIT_FILE, when set, loads
// the RAM with $readmemh instead, for a simulator with no C++ host: so
// tests/icarus/tb_mesh_core.v runs rtl/mesh.v with CORES=1 under Icarus.
`default_nettype none
// Dumps show wm_waves and wm_core_waves only.
/*verilator tracing_off*/

module wm_tile_core #(
    parameter MEM_BYTES = 65536,  // WM_TILE_MEM_BYTES of csim/core/core_port.h
    parameter INIT_FILE = "",     // $readmemh image of the RAM; "" for none
    parameter IN_DEPTH  = 4,      // wm_tile's
    parameter TX_DEPTH  = 8,      // 1..15: the core reads the counts in 4 bits
    parameter RX_DEPTH  = 8
) (
    input  wire        clk_i,
    input  wire        rst_ni,
    input  wire        core_run_i,    // 0: the core is held in reset
    input  wire        core_hold_i,   // 1: the core stands still in this cycle (a debugger's hold)
    input  wire [9:0]  x_i,           // 10 bits: wm_tile's COORD_W, the core's COORD fields
    input  wire [9:0]  y_i,
    input  wire [9:0]  last_x_i,      // mesh width - 1
    input  wire [9:0]  last_y_i,      // mesh height - 1
    input  wire        enable_i,      // the message-passing region
    input  wire [63:0] tsc_init_i,    // the PE's tsc after reset: 0, or a test's start (wm_pe)
    output wire        en_o,          // registered enable, seen by the neighbours
    // link to the north
    input  wire        north_valid_i,
    input  wire [31:0] north_data_i,
    output wire        north_credit_o,
    input  wire        north_en_i,
    output wire        north_valid_o,
    output wire [31:0] north_data_o,
    input  wire        north_credit_i,
    // link to the east
    input  wire        east_valid_i,
    input  wire [31:0] east_data_i,
    output wire        east_credit_o,
    input  wire        east_en_i,
    output wire        east_valid_o,
    output wire [31:0] east_data_o,
    input  wire        east_credit_i,
    // link to the south
    input  wire        south_valid_i,
    input  wire [31:0] south_data_i,
    output wire        south_credit_o,
    input  wire        south_en_i,
    output wire        south_valid_o,
    output wire [31:0] south_data_o,
    input  wire        south_credit_i,
    // link to the west
    input  wire        west_valid_i,
    input  wire [31:0] west_data_i,
    output wire        west_credit_o,
    input  wire        west_en_i,
    output wire        west_valid_o,
    output wire [31:0] west_data_o,
    input  wire        west_credit_i,
    // the PE datapath, as wm_tile shows it
    output wire [31:0] pe_rx_head_o,
    output wire [3:0]  pe_tx_count_o, // zero-extended to the core's 4 bits
    output wire [3:0]  pe_rx_count_o,
    output wire [63:0] pe_tsc_o,
    output wire [3:0]  pe_status_o,   // {err_offmesh, err_rx_empty, err_tx_full, busy}
    output wire [31:0] err_hdr_o,
    output wire        ramp_valid_o,
    output wire [31:0] ramp_data_o,
    output wire [4*$clog2(IN_DEPTH)+3:0] in_count_o,
    output wire [159:0] in_head_o,
    // the core's halt, from flops (wm_core)
    output wire        halted_o,
    output wire        exited_o,
    output wire [31:0] exit_code_o,
    output wire        fault_o,
    output wire [2:0]  fault_cause_o,
    output wire [31:0] fault_pc_o,
    output wire [31:0] fault_insn_o,
    // what the core does in this cycle
    output wire        retire_o,
    output wire [31:0] retire_pc_o,
    output wire [31:0] retire_insn_o,
    output wire        rd_we_o,
    output wire [4:0]  rd_o,
    output wire [31:0] rd_data_o,
    output wire        core_push_o,   // a TX store: the wavelet enters TX at the edge
    output wire [31:0] core_push_data_o,
    output wire        core_pop_o,    // an RX load: the head leaves RX at the edge
    output wire [31:0] pc_o,          // the PC of the instruction in X
    output wire        core_wait_o    // X is stalled on a full TX or an empty RX
);
    localparam TCW = $clog2(TX_DEPTH) + 1;
    localparam RCW = $clog2(RX_DEPTH) + 1;

    // The core's registers hold a queue count in 4 bits (docs/core.md,
    // QUEUES): a depth past 15 is refused at elaboration, by naming a
    // module that does not exist.
    generate
        if (TX_DEPTH > 15 || RX_DEPTH > 15) begin : gen_bad_depth
            wm_tile_core_queue_depth_must_be_at_most_15 u_refuse ();
        end
    endgenerate

    wire [TCW-1:0] tx_count;
    wire [RCW-1:0] rx_count;
    // counts of up to 15, whatever width the tile gives them
    wire [31:0] tx_count32 = {{(32 - TCW){1'b0}}, tx_count};
    wire [31:0] rx_count32 = {{(32 - RCW){1'b0}}, rx_count};
    wire unused_count = &{1'b0, tx_count32[31:4], rx_count32[31:4]};
    assign pe_tx_count_o = tx_count32[3:0];
    assign pe_rx_count_o = rx_count32[3:0];

    wire        core_rst_n = rst_ni && core_run_i;

    // The coordinates are configuration, latched as the router latches
    // them: the core's COORD read then comes from flops, and none of the
    // core's logic hangs off a tile input (a simulator re-evaluates all
    // logic fed by an input at every evaluation).
    reg [9:0] col_q, row_q;
    always @(posedge clk_i) begin
        col_q <= x_i;
        row_q <= y_i;
    end
    wire [31:0] imem_addr, imem_rdata;
    wire        dmem_en;
    wire [3:0]  dmem_we;
    wire [31:0] dmem_addr, dmem_wdata, dmem_rdata;

    // wm_tile's own tracing_off hides everything in it but its wm_waves.
    /*verilator tracing_on*/
    wm_tile #(.IN_DEPTH(IN_DEPTH), .TX_DEPTH(TX_DEPTH), .RX_DEPTH(RX_DEPTH)) u_tile (
        .clk_i          (clk_i),
        .rst_ni         (rst_ni),
        .x_i            (x_i),
        .y_i            (y_i),
        .last_x_i       (last_x_i),
        .last_y_i       (last_y_i),
        .enable_i       (enable_i),
        .tsc_init_i     (tsc_init_i),
        .en_o           (en_o),
        .north_valid_i  (north_valid_i),
        .north_data_i   (north_data_i),
        .north_credit_o (north_credit_o),
        .north_en_i     (north_en_i),
        .north_valid_o  (north_valid_o),
        .north_data_o   (north_data_o),
        .north_credit_i (north_credit_i),
        .east_valid_i   (east_valid_i),
        .east_data_i    (east_data_i),
        .east_credit_o  (east_credit_o),
        .east_en_i      (east_en_i),
        .east_valid_o   (east_valid_o),
        .east_data_o    (east_data_o),
        .east_credit_i  (east_credit_i),
        .south_valid_i  (south_valid_i),
        .south_data_i   (south_data_i),
        .south_credit_o (south_credit_o),
        .south_en_i     (south_en_i),
        .south_valid_o  (south_valid_o),
        .south_data_o   (south_data_o),
        .south_credit_i (south_credit_i),
        .west_valid_i   (west_valid_i),
        .west_data_i    (west_data_i),
        .west_credit_o  (west_credit_o),
        .west_en_i      (west_en_i),
        .west_valid_o   (west_valid_o),
        .west_data_o    (west_data_o),
        .west_credit_i  (west_credit_i),
        .pe_push_i      (core_push_o),
        .pe_data_i      (core_push_data_o),
        .pe_pop_i       (core_pop_o),
        .pe_rx_head_o   (pe_rx_head_o),
        .pe_tx_count_o  (tx_count),
        .pe_rx_count_o  (rx_count),
        .pe_tsc_o       (pe_tsc_o),
        .pe_status_o    (pe_status_o),
        .err_hdr_o      (err_hdr_o),
        .ramp_valid_o   (ramp_valid_o),
        .ramp_data_o    (ramp_data_o),
        .in_count_o     (in_count_o),
        .in_head_o      (in_head_o)
    );
    /*verilator tracing_off*/

    wm_core #(.MEM_BYTES(MEM_BYTES), .TX_DEPTH(TX_DEPTH)) u_core (
        .clk_i          (clk_i),
        .rst_ni         (core_rst_n),
        .hold_i         (core_hold_i),
        .imem_addr_o    (imem_addr),
        .imem_rdata_i   (imem_rdata),
        .dmem_en_o      (dmem_en),
        .dmem_we_o      (dmem_we),
        .dmem_addr_o    (dmem_addr),
        .dmem_wdata_o   (dmem_wdata),
        .dmem_rdata_i   (dmem_rdata),
        .pe_push_o      (core_push_o),
        .pe_push_data_o (core_push_data_o),
        .pe_pop_o       (core_pop_o),
        .pe_tx_count_i  (pe_tx_count_o),
        .pe_rx_count_i  (pe_rx_count_o),
        .pe_rx_head_i   (pe_rx_head_o),
        .pe_tsc_i       (pe_tsc_o),
        .pe_status_i    ({4'd0, pe_status_o}),
        .pe_err_hdr_i   (err_hdr_o),
        .pe_col_i       (col_q),
        .pe_row_i       (row_q),
        .halted_o       (halted_o),
        .exited_o       (exited_o),
        .exit_code_o    (exit_code_o),
        .fault_o        (fault_o),
        .fault_cause_o  (fault_cause_o),
        .fault_pc_o     (fault_pc_o),
        .fault_insn_o   (fault_insn_o),
        .retire_o       (retire_o),
        .retire_pc_o    (retire_pc_o),
        .retire_insn_o  (retire_insn_o),
        .rd_we_o        (rd_we_o),
        .rd_o           (rd_o),
        .rd_data_o      (rd_data_o),
        .pc_o           (pc_o),
        .wait_o         (core_wait_o)
    );

    // No reset: the contents are the host's, loaded while the core waits.
    wm_ram #(.MEM_BYTES(MEM_BYTES), .INIT_FILE(INIT_FILE)) u_ram (
        .clk_i    (clk_i),
        .iaddr_i  (imem_addr),
        .irdata_o (imem_rdata),
        .den_i    (dmem_en),
        .dwe_i    (dmem_we),
        .daddr_i  (dmem_addr),
        .dwdata_i (dmem_wdata),
        .drdata_o (dmem_rdata)
    );

    // The one traced view of the core, beside wm_tile's u_waves.
    /*verilator tracing_on*/
    wm_core_waves u_core_waves (
        .pc_i          (pc_o),
        .retire_i      (retire_o),
        .retire_insn_i (retire_insn_o),
        .rd_we_i       (rd_we_o),
        .rd_i          (rd_o),
        .rd_data_i     (rd_data_o),
        .push_i        (core_push_o),
        .pop_i         (core_pop_o),
        .halted_i      (halted_o),
        .fault_cause_i (fault_cause_o)
    );
    /*verilator tracing_off*/
endmodule

`default_nettype wire
