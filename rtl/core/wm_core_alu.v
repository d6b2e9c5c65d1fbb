// wm_core_alu: the integer ALU of wm_core (OP, OP-IMM, LUI, AUIPC).
//
// Purely combinational. op_i is the instruction's funct3; alt_i selects
// SUB for op 000 and SRA for op 101 (funct7[5] of OP, of SRAI). LUI and
// AUIPC reach it as an ADD (0 + imm, pc + imm). Shifts use the low five
// bits of b_i, as RISC-V defines.
`default_nettype none

module wm_core_alu (
    input  wire [31:0] a_i,
    input  wire [31:0] b_i,
    input  wire [2:0]  op_i,
    input  wire        alt_i,
    output wire [31:0] y_o
);
    // ADD and SUB, the carry chain, come last: the adder's result is one
    // LUT from the output (and wm_core's write-back selects the ALU last),
    // so the ALU's longest path is its carry chain, not the chain and the
    // whole result multiplexer after it.
    wire [31:0] sum = alt_i ? a_i - b_i : a_i + b_i;
    // On its own: inside a ?: with an unsigned operand >>> would shift logically.
    wire [31:0] sra = $signed(a_i) >>> b_i[4:0];
    reg  [31:0] other;

    always @* begin
        case (op_i)
            3'b001:  other = a_i << b_i[4:0];
            3'b010:  other = {31'd0, $signed(a_i) < $signed(b_i)};
            3'b011:  other = {31'd0, a_i < b_i};
            3'b100:  other = a_i ^ b_i;
            3'b101:  other = alt_i ? sra : a_i >> b_i[4:0];
            3'b110:  other = a_i | b_i;
            default: other = a_i & b_i;
        endcase
    end

    assign y_o = (op_i == 3'b000) ? sum : other;
endmodule

`default_nettype wire
