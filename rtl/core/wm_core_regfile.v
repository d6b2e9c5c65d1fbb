// wm_core_regfile: the 32 x 32-bit integer register file of wm_core.
//
// Block RAM (iCE40: SB_RAM40_4K, two copies for the two read ports), not
// flops: 31 x 32 flops and two 32:1 read multiplexers cost about 1,600
// logic cells, a fifth of the largest iCE40 (docs/fpga.md).
//
// Block RAM reads are synchronous, so the operands are read at the edge
// where an instruction enters X, from the register fields of its word as
// it stands on the RAM's instruction port in the cycle before (the core
// fetches on the falling edge, wm_ram). The instruction leaving X writes
// its result at that same edge, and a block RAM read at the edge of a
// write returns the old word, so that write is bypassed: the flops beside
// the RAM remember whether each operand is the register just written (and
// its value) or x0, and one LUT per bit picks. An instruction that stays in
// X more than one cycle holds its operands (re_i low), since nothing
// writes the file before it ends.
//
// The storage has no reset (docs/core.md: the models start every register
// at 0; the hardware's are undefined) and is public so that C++ can read it
// (the lockstep tests) and zero it before reset is released.
`default_nettype none

module wm_core_regfile (
    input  wire        clk_i,
    input  wire        re_i,          // the next instruction enters X at this edge
    input  wire [4:0]  rs1_i,         // its register fields
    input  wire [4:0]  rs2_i,
    output wire [31:0] rs1_data_o,    // from the cycle after re_i, until the next re_i
    output wire [31:0] rs2_data_o,
    input  wire        we_i,          // rd_i != 0: the core never writes x0
    input  wire [4:0]  rd_i,
    input  wire [31:0] rd_data_i
);
    // public_flat_rd, not _rw: C++ zeroes it only while the core is in
    // reset, and a writable public signal makes Verilator re-evaluate all
    // logic that reads it (the operand path) at every evaluation.
    (* ram_style = "block" *)
    reg [31:0] regs_q [0:31] /*verilator public_flat_rd*/;

    reg [31:0] ram1_q, ram2_q;        // the RAM's read registers
    reg        zero1_q, zero2_q;      // the operand is x0
    reg        byp1_q, byp2_q;        // the operand is the register written at the read's edge
    reg [31:0] wd_q;                  // what was written there

    always @(posedge clk_i) begin
        if (we_i) regs_q[rd_i] <= rd_data_i;
    end

    always @(posedge clk_i) begin
        if (re_i) begin
            ram1_q <= regs_q[rs1_i];
            ram2_q <= regs_q[rs2_i];
        end
    end

    always @(posedge clk_i) begin
        if (re_i) begin
            zero1_q <= (rs1_i == 5'd0);
            zero2_q <= (rs2_i == 5'd0);
            byp1_q  <= we_i && (rd_i == rs1_i);
            byp2_q  <= we_i && (rd_i == rs2_i);
            wd_q    <= rd_data_i;
        end
    end

    assign rs1_data_o = zero1_q ? 32'd0 : byp1_q ? wd_q : ram1_q;
    assign rs2_data_o = zero2_q ? 32'd0 : byp2_q ? wd_q : ram2_q;
endmodule

`default_nettype wire
