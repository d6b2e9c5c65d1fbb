// wm_fifo: synchronous FIFO, the one queue primitive of the fabric.
//
// Every queue in a tile (the router's four link input buffers, the PE's TX
// and RX queues) is this cell. Push and pop may happen in the same cycle; a
// push is accepted against the count *before* the edge, so a full FIFO
// refuses a push even if it is popped in the same cycle. Callers guarantee
// room (credits) or gate with full_o; pushing a full or popping an empty
// FIFO is a design bug, caught by the assertions at the bottom.
`default_nettype none
// Dumps show wm_waves only.
/*verilator tracing_off*/

module wm_fifo #(
    parameter WIDTH = 32,
    parameter DEPTH = 4   // a power of two
) (
    input  wire             clk_i,
    input  wire             rst_ni,
    input  wire             push_i,
    input  wire [WIDTH-1:0] data_i,
    input  wire             pop_i,
    output wire [WIDTH-1:0] data_o,
    output wire [PW:0]      count_o,
    output wire             empty_o,
    output wire             full_o
);
    localparam PW = $clog2(DEPTH);

    reg [WIDTH-1:0] mem_q [0:DEPTH-1];
    reg [PW-1:0]    rd_q, rd_d;
    reg [PW-1:0]    wr_q, wr_d;
    reg [PW:0]      count_q, count_d;

    wire do_push = push_i && (count_q != DEPTH[PW:0]);
    wire do_pop  = pop_i && (count_q != {(PW+1){1'b0}});

    always @* begin
        rd_d    = do_pop  ? rd_q + 1'b1 : rd_q;
        wr_d    = do_push ? wr_q + 1'b1 : wr_q;
        count_d = count_q;
        if (do_push && !do_pop) count_d = count_q + 1'b1;
        if (do_pop && !do_push) count_d = count_q - 1'b1;
    end

    always @(posedge clk_i) begin
        if (!rst_ni) begin
            rd_q    <= {PW{1'b0}};
            wr_q    <= {PW{1'b0}};
            count_q <= {(PW+1){1'b0}};
        end else begin
            rd_q    <= rd_d;
            wr_q    <= wr_d;
            count_q <= count_d;
        end
    end

    // Storage has no reset: only entries below count_q are ever read.
    always @(posedge clk_i) begin
        if (do_push) mem_q[wr_q] <= data_i;
    end

    assign data_o  = mem_q[rd_q];
    assign count_o = count_q;
    assign empty_o = (count_q == {(PW+1){1'b0}});
    assign full_o  = (count_q == DEPTH[PW:0]);

`ifdef WM_ASSERTIONS
    always @(posedge clk_i) begin
        if (rst_ni && push_i && full_o) begin
            $display("ASSERTION FAILED %m: push into a full FIFO");
            $stop;
        end
        if (rst_ni && pop_i && empty_o) begin
            $display("ASSERTION FAILED %m: pop from an empty FIFO");
            $stop;
        end
    end
`endif
endmodule

`default_nettype wire
