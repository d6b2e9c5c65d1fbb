// wm_rr_arbiter: round-robin arbiter over N requesters.
//
// Fairness: the pointer names the requester with the highest priority; after
// a grant is taken it moves to the requester just after the winner, so a
// requester that keeps asking waits for at most N-1 other grants. The
// pointer wraps at N explicitly (N need not be a power of two: a bare
// increment of a 3-bit pointer for N=5 would walk into 5, 6, 7 and starve
// everyone it skips).
//
// The pointer is kept as a mask, mask_q[i] = (i >= ptr), with ptr = 0 kept
// as the empty mask (bit 0 is always 0). The winner is then the lowest
// requester under the mask if there is one, else the lowest requester of
// all: the search ptr, ptr+1, .., N-1, 0, .., ptr-1 of the pointer form,
// written with constant indices only, two priority encoders and a select
// (4 LUT levels for N = 5 on an iCE40, the requests included, where a loop
// walking a variable index from the pointer is 7). After a grant the mask becomes "above the winner",
// which is ptr = winner + 1 mod N: a grant to N-1 leaves the empty mask.
`default_nettype none
`include "rtl/prim/wm_assert.vh"
// Dumps show wm_waves only.
/*verilator tracing_off*/

module wm_rr_arbiter #(
    parameter N = 5
) (
    input  wire         clk_i,
    input  wire         rst_ni,   // active low, synchronous (see wm_router)
    input  wire [N-1:0] req_i,
    input  wire         take_i,   // grant this cycle, if anyone requests
    output wire [N-1:0] gnt_o,    // one-hot winner; 0 without take_i or requests
    output wire         valid_o   // some requester is granted
);
    reg  [N-1:0] mask_q;

    // prefix(r)[i]: some bit of r at or below i, by doubling shifts (by
    // constants: wires to synthesis, few operations to a simulator)
    function [N-1:0] prefix(input [N-1:0] r);
        integer k;
        begin
            prefix = r;
            for (k = 1; k < N; k = 2 * k) prefix = prefix | (prefix << k);
        end
    endfunction

    // Word-wide, so that a Verilated tile pays a few operations for it,
    // not a few per bit; to synthesis the same two priority encoders.
    wire [N-1:0] req_hi = req_i & mask_q;
    wire [N-1:0] gnt_hi = req_hi & ~(prefix(req_hi) << 1);   // the lowest requester under the mask
    wire [N-1:0] gnt_lo = req_i & ~(prefix(req_i) << 1);     // the lowest of all
    wire         any    = (req_i != {N{1'b0}});
    wire [N-1:0] gnt    = !take_i ? {N{1'b0}} : (req_hi != {N{1'b0}}) ? gnt_hi : gnt_lo;
    // after a grant: the requesters above the winner
    wire [N-1:0] mask_d = (take_i && any) ? prefix(gnt) << 1 : mask_q;

    always @(posedge clk_i) begin
        if (!rst_ni) mask_q <= {N{1'b0}};
        else         mask_q <= mask_d;
    end

    assign gnt_o   = gnt;
    assign valid_o = take_i && any;

`ifdef FORMAL
    // The mask is a pointer (bit 0 clear, once set every higher bit set),
    // from the first reset on (make formal; the port-level properties are
    // rtl/formal/wm_rr_arbiter_props.v's).
    reg f_reset_q = 1'b0;
    always @(posedge clk_i) if (!rst_ni) f_reset_q <= 1'b1;
    always @* begin
        if (f_reset_q) begin
            assert (!mask_q[0] && ((mask_q << 1) & ~mask_q) == {N{1'b0}});
            cover (mask_q[N-1]);
        end
    end
`endif

    // The mask is a pointer: bit 0 clear, and once set every higher bit set.
    `WM_ASSERT(mask_is_pointer, clk_i, rst_ni, !mask_q[0] && ((mask_q << 1) & ~mask_q) == {N{1'b0}},
               ("round-robin mask %b is not a pointer", mask_q))
endmodule

`default_nettype wire
