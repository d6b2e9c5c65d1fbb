// wm_fifo_props: the FIFO's port-level properties, proved by make formal.
//
// A reference count and one tracked word stand for a FIFO of any contents:
// - count: count_o, empty_o and full_o follow a counter that takes a push
//   only below DEPTH and a pop only above 0, whatever the caller does;
// - never pushed when full, never popped when empty: a refused push or pop
//   leaves the count (and, with order, the contents) as they were;
// - order: a word chosen by a free input (mark_i) when it is pushed leaves
//   the head exactly after the words that were in front of it, unchanged;
//   one arbitrary word proved so is every word proved so;
// - the head's load contract the router relies on (load_o, next_o): the
//   head after an edge is next_o if load_o was high, else what it was.
// The caller is free: any push, pop and data in every cycle, and a reset
// in any cycle (the first cycle is a reset: the flops start arbitrary).
`default_nettype none

module wm_fifo_props #(
    parameter WIDTH     = 32,
    parameter DEPTH     = 4,
    parameter RAM_STYLE = "logic"
) (
    input  wire             clk_i,
    input  wire             rst_ni,
    input  wire             push_i,
    input  wire [WIDTH-1:0] data_i,
    input  wire             pop_i,
    input  wire             mark_i     // track the word pushed in this cycle
);
    localparam CW = $clog2(DEPTH) + 1;
    localparam integer DI = DEPTH;
    localparam [CW-1:0] FULL = DI[CW-1:0];

    wire [WIDTH-1:0] data_o, next_o;
    wire [CW-1:0]    count_o;
    wire             empty_o, full_o, load_o;

    wm_fifo #(.WIDTH(WIDTH), .DEPTH(DEPTH), .RAM_STYLE(RAM_STYLE)) dut (
        .clk_i(clk_i), .rst_ni(rst_ni), .push_i(push_i), .data_i(data_i), .pop_i(pop_i),
        .data_o(data_o), .count_o(count_o), .empty_o(empty_o), .full_o(full_o),
        .load_o(load_o), .next_o(next_o)
    );

    // The first cycle resets; properties hold from the first edge on.
    reg f_init = 1'b1;
    always @(posedge clk_i) f_init <= 1'b0;
    always @* if (f_init) assume (!rst_ni);

    // ---- the reference ----
    reg  [CW-1:0]    ref_q = {CW{1'b0}};
    wire             acc_push = push_i && ref_q != FULL;
    wire             acc_pop  = pop_i && ref_q != {CW{1'b0}};
    reg              trk_q = 1'b0;      // a word is tracked
    reg  [WIDTH-1:0] trk_word_q;
    reg  [CW-1:0]    trk_pos_q;         // words in front of it
    reg              p_load_q = 1'b0, p_empty_q = 1'b1;
    reg  [WIDTH-1:0] p_next_q, p_data_q;
    reg              p_full_push_q = 1'b0, p_empty_pop_q = 1'b0;
    reg  [CW-1:0]    p_count_q;
    reg              trk_deep_q = 1'b0; // the tracked word entered behind DEPTH-1 others

    always @(posedge clk_i) begin
        p_load_q      <= load_o;
        p_next_q      <= next_o;
        p_data_q      <= data_o;
        p_empty_q     <= empty_o;
        p_count_q     <= count_o;
        p_full_push_q <= rst_ni && push_i && full_o && !pop_i;
        p_empty_pop_q <= rst_ni && pop_i && empty_o && !push_i;
        if (!rst_ni) begin
            ref_q <= {CW{1'b0}};
            trk_q <= 1'b0;
        end else begin
            ref_q <= ref_q + (acc_push ? 1'b1 : 1'b0) - (acc_pop ? 1'b1 : 1'b0);
            if (trk_q && acc_pop) begin
                if (trk_pos_q == {CW{1'b0}}) trk_q <= 1'b0;
                else                         trk_pos_q <= trk_pos_q - 1'b1;
            end
            if (!trk_q && acc_push && mark_i) begin
                trk_q      <= 1'b1;
                trk_word_q <= data_i;
                trk_pos_q  <= ref_q - (acc_pop ? 1'b1 : 1'b0);
                trk_deep_q <= (ref_q == FULL - 1'b1) && !acc_pop;
            end
        end
    end

    always @* begin
        if (!f_init) begin
            // count
            assert (count_o == ref_q);
            assert (empty_o == (ref_q == {CW{1'b0}}));
            assert (full_o == (ref_q == FULL));
            // never pushed when full, never popped when empty
            if (p_full_push_q) assert (count_o == FULL);
            if (p_empty_pop_q) assert (empty_o);
            // order
            if (trk_q) assert (trk_pos_q < count_o);
            if (trk_q && trk_pos_q == {CW{1'b0}}) assert (data_o == trk_word_q);
            // the head's load contract
            if (!empty_o) assert (data_o == (p_load_q ? p_next_q : p_data_q));
            if (!empty_o && !p_load_q) assert (!p_empty_q);
        end
    end

    // Not vacuous: each property's situation is reached.
    always @* begin
        if (!f_init) begin
            cover (full_o);
            cover (p_full_push_q);
            cover (p_empty_pop_q);
            cover (trk_q && trk_deep_q && trk_pos_q == {CW{1'b0}});
            if (DEPTH > 1) cover (!empty_o && p_load_q && p_count_q != {CW{1'b0}});   // refilled from the ring
            cover (!empty_o && !p_load_q && p_count_q != {CW{1'b0}});
            cover (rst_ni && push_i && pop_i && full_o);
        end
    end
endmodule

`default_nettype wire
