// wm_rr_arbiter: round-robin arbiter over N requesters.
//
// Fairness: the pointer names the requester with the highest priority; after
// a grant is taken (take_i) it moves to the requester just after the winner,
// so a requester that keeps asking waits for at most N-1 other grants. The
// pointer wraps explicitly at N (N need not be a power of two: a bare
// increment of a 3-bit pointer for N=5 would walk into 5, 6, 7 and starve
// everyone it skips).
`default_nettype none
// Dumps show wm_waves only.
/*verilator tracing_off*/

module wm_rr_arbiter #(
    parameter N = 5
) (
    input  wire          clk_i,
    input  wire          rst_ni,
    input  wire [N-1:0]  req_i,
    input  wire          take_i,   // the grant is used this cycle
    output reg           valid_o,  // some requester is granted
    output reg  [IW-1:0] idx_o     // the granted requester
);
    localparam IW = (N > 1) ? $clog2(N) : 1;
    localparam [IW-1:0] LAST = N - 1;

    reg [IW-1:0] ptr_q, ptr_d;
    reg [IW-1:0] cand;
    integer k;

    always @* begin
        valid_o = 1'b0;
        idx_o   = {IW{1'b0}};
        cand    = ptr_q;
        for (k = 0; k < N; k = k + 1) begin
            if (!valid_o && req_i[cand]) begin
                valid_o = 1'b1;
                idx_o   = cand;
            end
            cand = (cand == LAST) ? {IW{1'b0}} : cand + 1'b1;
        end
        ptr_d = ptr_q;
        if (take_i && valid_o)
            ptr_d = (idx_o == LAST) ? {IW{1'b0}} : idx_o + 1'b1;
    end

    always @(posedge clk_i) begin
        if (!rst_ni) ptr_q <= {IW{1'b0}};
        else         ptr_q <= ptr_d;
    end

`ifdef WM_ASSERTIONS
    always @(posedge clk_i) begin
        if (rst_ni && ptr_q > LAST) begin
            $display("ASSERTION FAILED %m: round-robin pointer out of range");
            $stop;
        end
    end
`endif
endmodule

`default_nettype wire
