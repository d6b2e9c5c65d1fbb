// tb_fifo: rtl/prim/wm_fifo.v on its own, against its contract.
//
// The contract (wm_fifo.v's header, docs/fabric.md "At the clock edge"):
// a push is taken when the count before the edge is below DEPTH, a pop of
// a FIFO that holds an entry is taken, both in one cycle when both are;
// data_o is the oldest entry while the FIFO is not empty; count_o, empty_o
// and full_o say how many entries it holds. A push into a full FIFO is
// refused, even when the FIFO is popped in the same cycle: the FIFO's own
// guard, since a caller that pushes without room (a router that ignores
// credits) is a design bug the rest of the tile would not see. A pop of
// an empty FIFO is the caller's bug too; the FIFO may take it as it
// likes, and its assertion reports it.
//
// The bench drives directed cases and then random pushes and pops, checks
// every cycle against a model, and prints a "FAIL ..." line for each
// disagreement and "DONE <checks>, <fails> failed" at the end. Built with
// -DWM_ASSERTIONS it stops at the push into the full FIFO instead, through
// the FIFO's assertion ("ASSERTION FAILED ... push into a full FIFO"),
// which is what makes a missing guard visible in every simulation of the
// tile; with +pop_empty it pops the empty FIFO right after reset, for the
// other assertion. tests/test_fifo.c builds and runs them at several
// depths.
`timescale 1ns/1ps
`default_nettype none

module tb_fifo;
    parameter DEPTH = 4;
    localparam CW = $clog2(DEPTH) + 1;

    reg         clk = 1'b0, rst_n = 1'b0;
    reg         push = 1'b0, pop = 1'b0;
    reg  [31:0] din = 32'd0;
    wire [31:0] dout;
    wire [CW-1:0] count;
    wire        empty, full;

    wm_fifo #(.WIDTH(32), .DEPTH(DEPTH)) dut (
        .clk_i(clk), .rst_ni(rst_n), .push_i(push), .data_i(din), .pop_i(pop),
        .data_o(dout), .count_o(count), .empty_o(empty), .full_o(full)
    );

    // The model: a queue of at most DEPTH words.
    reg  [31:0] model [0:DEPTH-1];
    integer n = 0, checks = 0, fails = 0, i, cycle, seed = 12345;
    reg  [31:0] next_value = 32'h1000_0000;

    task check_state(input [255:0] what);
        begin
            checks = checks + 1;
            if (count !== n[CW-1:0] || empty !== (n == 0) || full !== (n == DEPTH) ||
                (n > 0 && dout !== model[0])) begin
                fails = fails + 1;
                $display("FAIL %0s: count %0d empty %0d full %0d head %08x; expected count %0d head %08x",
                         what, count, empty, full, dout, n, n > 0 ? model[0] : 32'hx);
            end
        end
    endtask

    // One cycle: drive push/pop (and a fresh value), clock, update the
    // model as the contract says, compare.
    task cycle_with(input do_push, input do_pop, input [255:0] what);
        reg took_push, took_pop;
        begin
            push = do_push;
            pop = do_pop;
            din = next_value;
            took_push = do_push && n < DEPTH;
            took_pop = do_pop && n > 0;
            #1 clk = 1'b1;
            #1 clk = 1'b0;
            if (took_pop) begin
                for (i = 0; i + 1 < DEPTH; i = i + 1) model[i] = model[i + 1];
                n = n - 1;
            end
            if (took_push) begin
                model[n] = next_value;
                n = n + 1;
            end
            if (do_push) next_value = next_value + 1;
            push = 1'b0;
            pop = 1'b0;
            check_state(what);
        end
    endtask

    initial begin
        // Reset: two edges with rst_n low.
        #1 clk = 1'b1; #1 clk = 1'b0;
        #1 clk = 1'b1; #1 clk = 1'b0;
        rst_n = 1'b1;
        check_state("after reset");
        if ($test$plusargs("pop_empty")) begin
            pop = 1'b1;
            #1 clk = 1'b1;
            #1 clk = 1'b0;
            $display("DONE popping the empty FIFO");
            $finish;
        end
        // Fill it, one push a cycle.
        for (cycle = 0; cycle < DEPTH; cycle = cycle + 1) cycle_with(1'b1, 1'b0, "fill");
        // A push into the full FIFO: refused, nothing it holds changes.
        cycle_with(1'b1, 1'b0, "push when full");
        // Push and pop in one cycle, full: the pop is taken, the push is not.
        cycle_with(1'b1, 1'b1, "push and pop when full");
        // Push and pop in one cycle, neither full nor empty: both taken
        // (at depth 1 the FIFO is empty here, and a pop would be a bug).
        if (n > 0) cycle_with(1'b1, 1'b1, "push and pop");
        // Drain it.
        while (n > 0) cycle_with(1'b0, 1'b1, "drain");
        // Random traffic, every pointer wrapping many times; pushes only
        // with room and pops only with data.
        for (cycle = 0; cycle < 2000; cycle = cycle + 1)
            cycle_with(($random(seed) & 1) && n < DEPTH, ($random(seed) & 1) && n > 0, "random");
        $display("DONE %0d checks, %0d failed", checks, fails);
        $finish;
    end
endmodule

`default_nettype wire
