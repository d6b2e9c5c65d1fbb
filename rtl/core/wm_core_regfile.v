// wm_core_regfile: the 32 x 32-bit integer register file of wm_core.
//
// Two combinational read ports (X reads its operands in the cycle it
// decodes) and one write port, written at the edge that ends an
// instruction's last X cycle. x0 reads as zero and is never written. The
// storage has no reset (docs/core.md: the models start every register at
// 0; the hardware's are undefined) and is public so that C++ can read it
// (the lockstep tests) and zero it before reset is released.
`default_nettype none

module wm_core_regfile (
    input  wire        clk_i,
    input  wire [4:0]  rs1_i,
    input  wire [4:0]  rs2_i,
    output wire [31:0] rs1_data_o,
    output wire [31:0] rs2_data_o,
    input  wire        we_i,
    input  wire [4:0]  rd_i,
    input  wire [31:0] rd_data_i
);
    // public_flat_rd, not _rw: C++ zeroes it only while the core is in
    // reset, and a writable public signal makes Verilator re-evaluate all
    // logic that reads it (the operand path) at every evaluation.
    reg [31:0] regs_q [0:31] /*verilator public_flat_rd*/;

    always @(posedge clk_i) begin
        if (we_i && rd_i != 5'd0) regs_q[rd_i] <= rd_data_i;
    end

    assign rs1_data_o = (rs1_i == 5'd0) ? 32'd0 : regs_q[rs1_i];
    assign rs2_data_o = (rs2_i == 5'd0) ? 32'd0 : regs_q[rs2_i];
endmodule

`default_nettype wire
