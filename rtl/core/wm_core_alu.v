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
    reg [31:0] y;
    // On its own: inside a ?: with an unsigned operand >>> would shift logically.
    wire [31:0] sra = $signed(a_i) >>> b_i[4:0];

    always @* begin
        case (op_i)
            3'b000:  y = alt_i ? a_i - b_i : a_i + b_i;
            3'b001:  y = a_i << b_i[4:0];
            3'b010:  y = {31'd0, $signed(a_i) < $signed(b_i)};
            3'b011:  y = {31'd0, a_i < b_i};
            3'b100:  y = a_i ^ b_i;
            3'b101:  y = alt_i ? sra : a_i >> b_i[4:0];
            3'b110:  y = a_i | b_i;
            default: y = a_i & b_i;
        endcase
    end

    assign y_o = y;
endmodule

`default_nettype wire
