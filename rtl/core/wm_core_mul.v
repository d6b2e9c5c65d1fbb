// wm_core_mul: the iterative multiplier of wm_core (MUL, MULH, MULHSU, MULHU).
//
// Shift and add, one multiplier bit per cycle, like the divider beside it
// (wm_core_div): an iCE40 has no DSP, and a 32 x 32 array multiplier is
// some 2,000 logic cells whose 32 rows of carry chains in series close
// far below the tile's clock (docs/fpga.md). The core drives it for a
// fixed 34 X cycles whatever the operands (docs/core.md):
//   cycle 1      start_i: latch a (33 bits, sign- or zero-extended), b's
//                low 32 bits as the shift register lo_q, and b's sign;
//                clear the accumulator;
//   cycles 2..33 step_i: add a to the accumulator where lo_q's low bit is
//                set, shift {acc, lo_q} right one bit (arithmetically);
//   cycle 34     lo_o / hi_o are written back.
// After the 32 steps acc * 2^32 + lo_q = a * (b mod 2^32) exactly, so lo_q
// is the product's low word whatever the signs. A signed b has weight
// -2^32 on its sign bit: the high word is acc - a when that bit is set, the
// one subtraction done in the write-back cycle through the step's adder.
// The accumulator stays within 33 bits signed (|a| <= 2^32 and
// |acc| < 2^32 after every step); the sum needs 34.
// Datapath only: no reset, the core never reads it before a start.
`default_nettype none
`include "rtl/prim/wm_assert.vh"

module wm_core_mul (
    input  wire        clk_i,
    input  wire        start_i,
    input  wire        step_i,
    input  wire        a_signed_i,   // MULH, MULHSU
    input  wire        b_signed_i,   // MULH
    input  wire [31:0] a_i,
    input  wire [31:0] b_i,
    output wire [31:0] lo_o,
    output wire [31:0] hi_o
);
    reg [32:0] a_q;               // the multiplicand, 33 bits signed
    reg [32:0] acc_q;             // the product's high part, 33 bits signed
    reg [31:0] lo_q;              // b's bits shifting out, the product's low word shifting in
    reg        bneg_q;            // b's sign bit, weight -2^32

    // In a step: acc + a where lo_q[0] is set; after the steps: acc - a
    // where b was negative. One adder serves both.
    wire        last_sub = !step_i && bneg_q;
    wire        add_a    = step_i ? lo_q[0] : bneg_q;
    wire [33:0] addend   = add_a ? ({a_q[32], a_q} ^ {34{last_sub}}) : 34'd0;
    wire [33:0] sum      = {acc_q[32], acc_q} + addend + {33'd0, last_sub};

    always @(posedge clk_i) begin
        if (start_i) begin
            a_q    <= {a_signed_i && a_i[31], a_i};
            acc_q  <= 33'd0;
            lo_q   <= b_i;
            bneg_q <= b_signed_i && b_i[31];
        end else if (step_i) begin
            acc_q <= sum[33:1];
            lo_q  <= {sum[0], lo_q[31:1]};
        end
    end

    assign lo_o = lo_q;
    assign hi_o = sum[31:0];

    `WM_ASSERT(start_alone, clk_i, 1'b1, !(start_i && step_i), ("start and step in the same cycle"))
endmodule

`default_nettype wire
