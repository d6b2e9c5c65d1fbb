// wm_core_top: wm_core and its RAM, without the fabric.
//
// The unit Verilated for the core's own tests (csim/core/core_rtl.cpp):
// the C side plays the PE datapath, driving the queue counts, RX head, tsc,
// status and coordinates each cycle and taking the push / pop requests, so
// the core can be run against the instruction-set simulator cycle by cycle
// with any datapath behaviour a test wants. The RAM (u_ram.mem_q, imem_q) and the
// register file (u_core.u_regfile.regs_q) are public for C++.
`default_nettype none

module wm_core_top #(
    parameter MEM_BYTES = 16384,
    parameter TX_DEPTH  = 8,
    parameter INIT_FILE = ""
) (
    input  wire        clk_i,
    input  wire        rst_ni,
    // PE datapath
    output wire        pe_push_o,
    output wire [31:0] pe_push_data_o,
    output wire        pe_pop_o,
    input  wire [3:0]  pe_tx_count_i,
    input  wire [3:0]  pe_rx_count_i,
    input  wire [31:0] pe_rx_head_i,
    input  wire [63:0] pe_tsc_i,
    input  wire [7:0]  pe_status_i,
    input  wire [31:0] pe_err_hdr_i,
    input  wire [9:0]  pe_col_i,
    input  wire [9:0]  pe_row_i,
    // halt
    output wire        halted_o,
    output wire        exited_o,
    output wire [31:0] exit_code_o,
    output wire        fault_o,
    output wire [2:0]  fault_cause_o,
    output wire [31:0] fault_pc_o,
    output wire [31:0] fault_insn_o,
    // retire
    output wire        retire_o,
    output wire [31:0] retire_pc_o,
    output wire [31:0] retire_insn_o,
    output wire        rd_we_o,
    output wire [4:0]  rd_o,
    output wire [31:0] rd_data_o,
    output wire [31:0] pc_o,
    output wire        wait_o          // X is stalled on the TX or RX queue
);
    wire [31:0] imem_addr, imem_rdata;
    wire        dmem_en;
    wire [3:0]  dmem_we;
    wire [31:0] dmem_addr, dmem_wdata, dmem_rdata;

    wm_core #(.MEM_BYTES(MEM_BYTES), .TX_DEPTH(TX_DEPTH)) u_core (
        .clk_i          (clk_i),
        .rst_ni         (rst_ni),
        .hold_i         (1'b0),           // no debugger here
        .imem_addr_o    (imem_addr),
        .imem_rdata_i   (imem_rdata),
        .dmem_en_o      (dmem_en),
        .dmem_we_o      (dmem_we),
        .dmem_addr_o    (dmem_addr),
        .dmem_wdata_o   (dmem_wdata),
        .dmem_rdata_i   (dmem_rdata),
        .pe_push_o      (pe_push_o),
        .pe_push_data_o (pe_push_data_o),
        .pe_pop_o       (pe_pop_o),
        .pe_tx_count_i  (pe_tx_count_i),
        .pe_rx_count_i  (pe_rx_count_i),
        .pe_rx_head_i   (pe_rx_head_i),
        .pe_tsc_i       (pe_tsc_i),
        .pe_status_i    (pe_status_i),
        .pe_err_hdr_i   (pe_err_hdr_i),
        .pe_col_i       (pe_col_i),
        .pe_row_i       (pe_row_i),
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
        .wait_o         (wait_o)
    );

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
endmodule

`default_nettype wire
