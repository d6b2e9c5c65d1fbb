// tb_fifo_depths: wm_fifo at one DEPTH and RAM_STYLE against a model queue.
//
// Random pushes and pops, each only when the FIFO's own outputs allow it
// (as every caller does), for CYCLES cycles; every cycle the head, the
// count, empty and full must be the model's, and the model's queue the
// words pushed, in order. A DEPTH the ring could not hold, or one that
// loses a word (as DEPTH = 3 did when the pointers wrapped at 4), fails
// here. Prints "tb_fifo_depths DEPTH=d RAM_STYLE=s: N words, PASS", or
// the first mismatch and "FAIL". tests/depths.sh runs it at depths 1 to 9
// in both styles; tests/icarus/tb_fifo.v (tests/test_fifo.c) holds the
// FIFO to the rest of its contract.
`timescale 1ns/1ps
`default_nettype none

module tb_fifo_depths;
    parameter DEPTH     = 4;
    parameter RAM_STYLE = "logic";
    localparam CYCLES = 4000;
    localparam CW     = $clog2(DEPTH) + 1;

    reg           clk = 1'b0, rst_n = 1'b0;
    reg           push = 1'b0, pop = 1'b0;
    reg  [31:0]   din = 32'd0;
    wire [31:0]   dout;
    wire [CW-1:0] count;
    wire          empty, full;

    wm_fifo #(.WIDTH(32), .DEPTH(DEPTH), .RAM_STYLE(RAM_STYLE)) dut (
        .clk_i(clk), .rst_ni(rst_n), .push_i(push), .data_i(din), .pop_i(pop),
        .data_o(dout), .count_o(count), .empty_o(empty), .full_o(full)
    );

    // the model: a queue of the words pushed and not yet popped
    reg [31:0] q [0:DEPTH-1];
    integer    n, cycle, k, words, errors, seed;
    reg [31:0] next_word;

    task check;
        begin
            if (count !== n[CW-1:0] || empty !== (n == 0) || full !== (n == DEPTH)
                || (n > 0 && dout !== q[0])) begin
                $display("tb_fifo_depths DEPTH=%0d RAM_STYLE=%0s: cycle %0d: count %0d empty %b full %b head %h, model %0d words head %h",
                         DEPTH, RAM_STYLE, cycle, count, empty, full, dout, n, q[0]);
                errors = errors + 1;
            end
        end
    endtask

    initial begin
        n = 0; words = 0; errors = 0; seed = DEPTH * 7 + 1; next_word = 32'h1000_0000;
        #1 clk = 1; #1 clk = 0; rst_n = 1;
        for (cycle = 0; cycle < CYCLES && errors == 0; cycle = cycle + 1) begin
            check;
            // long runs of pushing and of popping as well as mixed cycles
            // (the phases fill and drain the FIFO)
            push = !full && ($random(seed) % 4 != 0) == ((cycle / 64) % 2 == 0);
            pop  = !empty && ($random(seed) % 4 != 0) == ((cycle / 64) % 2 == 1);
            din  = next_word;
            #1 clk = 1;
            // the model, as the RTL: pop the head, then append the push
            if (pop) begin
                for (k = 0; k < DEPTH - 1; k = k + 1) q[k] = q[k + 1];
                n = n - 1;
            end
            if (push) begin
                q[n] = din;
                n = n + 1;
                words = words + 1;
                next_word = next_word + 32'h0001_0003;
            end
            #1 clk = 0;
        end
        if (errors == 0)
            $display("tb_fifo_depths DEPTH=%0d RAM_STYLE=%0s: %0d words, PASS", DEPTH, RAM_STYLE, words);
        else
            $display("tb_fifo_depths DEPTH=%0d RAM_STYLE=%0s: FAIL", DEPTH, RAM_STYLE);
        $finish;
    end
endmodule

`default_nettype wire
