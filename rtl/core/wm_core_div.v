// wm_core_div: the iterative divider of wm_core (DIV, DIVU, REM, REMU).
//
// A restoring divider on magnitudes, one quotient bit per cycle, so that
// no 32-bit divide array sits on the clock path. The core drives it for a
// fixed 34 X cycles whatever the operands (docs/core.md):
//   cycle 1      start_i: latch |dividend| as the quotient shift register,
//                |divisor|, a zero remainder and the result signs;
//   cycles 2..33 step_i: shift {rem, quo} left one bit and subtract the
//                divisor from the remainder where it fits (quotient bit 1);
//   cycle 34     quot_o / rem_o, sign-corrected from the flops, are written
//                back.
// RISC-V's corner cases fall out of the algorithm: dividing by zero fits
// every time (quotient all ones, remainder the dividend's magnitude), the
// quotient is then left positive and the remainder takes the dividend's
// sign, so DIV gives -1 and REM the dividend; -2^31 / -1 gives a magnitude
// of 2^31 with equal signs, which is -2^31, remainder 0.
// Datapath only: no reset, the core never reads it before a start.
`default_nettype none
`include "rtl/prim/wm_assert.vh"

module wm_core_div (
    input  wire        clk_i,
    input  wire        start_i,
    input  wire        step_i,
    input  wire        signed_i,     // DIV, REM (else DIVU, REMU)
    input  wire [31:0] dividend_i,
    input  wire [31:0] divisor_i,
    output wire [31:0] quot_o,
    output wire [31:0] rem_o
);
    reg [31:0] quo_q, quo_d;      // dividend magnitude shifting out, quotient shifting in
    reg [31:0] rem_q, rem_d;
    reg [31:0] dvs_q, dvs_d;      // divisor magnitude
    reg        negq_q, negq_d;    // negate the quotient at the end
    reg        negr_q, negr_d;    // negate the remainder at the end

    reg [32:0] shifted, diff;

    always @* begin
        quo_d   = quo_q;
        rem_d   = rem_q;
        dvs_d   = dvs_q;
        negq_d  = negq_q;
        negr_d  = negr_q;
        shifted = {rem_q, quo_q[31]};
        diff    = shifted - {1'b0, dvs_q};
        if (start_i) begin
            quo_d  = (signed_i && dividend_i[31]) ? 32'd0 - dividend_i : dividend_i;
            rem_d  = 32'd0;
            dvs_d  = (signed_i && divisor_i[31]) ? 32'd0 - divisor_i : divisor_i;
            negq_d = signed_i && (dividend_i[31] ^ divisor_i[31]) && (divisor_i != 32'd0);
            negr_d = signed_i && dividend_i[31];
        end else if (step_i) begin
            if (!diff[32]) begin
                rem_d = diff[31:0];
                quo_d = {quo_q[30:0], 1'b1};
            end else begin
                rem_d = shifted[31:0];
                quo_d = {quo_q[30:0], 1'b0};
            end
        end
    end

    always @(posedge clk_i) begin
        quo_q  <= quo_d;
        rem_q  <= rem_d;
        dvs_q  <= dvs_d;
        negq_q <= negq_d;
        negr_q <= negr_d;
    end

    assign quot_o = negq_q ? 32'd0 - quo_q : quo_q;
    assign rem_o  = negr_q ? 32'd0 - rem_q : rem_q;

    `WM_ASSERT(start_alone, clk_i, 1'b1, !(start_i && step_i), ("start and step in the same cycle"))
endmodule

`default_nettype wire
