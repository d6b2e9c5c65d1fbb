// wm_rr_arbiter_props: the round-robin arbiter's port-level properties,
// proved by make formal.
// - one grant: gnt_o is one-hot or zero, and valid_o says which;
// - only to a requester, and only when taken (take_i) with some request;
// - fairness: while requester i keeps asking, the others receive at most
//   N-1 grants before i is granted (a per-requester count of the grants it
//   watched go elsewhere never passes N-1).
// Requests and take_i are free in every cycle; the first cycle resets.
`default_nettype none

module wm_rr_arbiter_props #(
    parameter N = 5
) (
    input  wire         clk_i,
    input  wire         rst_ni,
    input  wire [N-1:0] req_i,
    input  wire         take_i
);
    wire [N-1:0] gnt_o;
    wire         valid_o;

    wm_rr_arbiter #(.N(N)) dut (
        .clk_i(clk_i), .rst_ni(rst_ni), .req_i(req_i), .take_i(take_i),
        .gnt_o(gnt_o), .valid_o(valid_o)
    );

    reg f_init = 1'b1;
    always @(posedge clk_i) f_init <= 1'b0;
    always @* if (f_init) assume (!rst_ni);

    // wait_q[i]: grants to others since requester i began its current wait
    localparam WW = $clog2(N + 1) + 1;
    reg [WW*N-1:0] wait_q = {(WW*N){1'b0}};
    reg [N-1:0]    held_q = {N{1'b0}};   // i asked in the previous cycle, ungranted
    integer i;
    always @(posedge clk_i) begin
        for (i = 0; i < N; i = i + 1) begin
            if (!rst_ni || !req_i[i] || gnt_o[i]) begin
                wait_q[WW*i +: WW] <= {WW{1'b0}};
                held_q[i]          <= 1'b0;
            end else begin
                held_q[i] <= 1'b1;
                if (valid_o) wait_q[WW*i +: WW] <= wait_q[WW*i +: WW] + 1'b1;
            end
        end
    end

    always @* begin
        if (!f_init) begin
            // one grant
            assert ((gnt_o & (gnt_o - 1'b1)) == {N{1'b0}});
            assert (valid_o == (gnt_o != {N{1'b0}}));
            // only to a requester, only when taken
            assert ((gnt_o & ~req_i) == {N{1'b0}});
            assert (valid_o == (take_i && req_i != {N{1'b0}}));
            // every requester served within N-1 grants to others
            for (i = 0; i < N; i = i + 1)
                assert (wait_q[WW*i +: WW] <= N - 1);
        end
    end

    // Not vacuous: a grant against the order of the indices, and a
    // requester that waited the whole N-1 grants and then won.
    always @* begin
        if (!f_init) begin
            cover (gnt_o[0] && req_i[N-1]);
            cover (valid_o && gnt_o[N-1] && req_i[0]);
            cover (rst_ni && held_q[0] && gnt_o[0] && wait_q[0 +: WW] == N - 1);
            cover (rst_ni && take_i && req_i == {N{1'b1}});
        end
    end
endmodule

`default_nettype wire
