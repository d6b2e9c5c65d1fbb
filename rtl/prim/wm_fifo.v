// wm_fifo: synchronous FIFO, the one queue primitive of the fabric.
//
// Every queue in a tile (the router's four link input buffers, the PE's TX
// and RX queues) is this cell. Push and pop may happen in the same cycle; a
// push is accepted against the count *before* the edge, so a full FIFO
// refuses a push even if it is popped in the same cycle. Callers guarantee
// room (credits) or gate with full_o; pushing a full or popping an empty
// FIFO is a design bug, caught by the assertions at the bottom.
//
// The head lives in its own register (head_q), so data_o, empty_o and
// full_o come straight from flops: the router decides on the head without
// a read multiplexer in front of it. The other DEPTH-1 entries are a ring
// behind the head (tail_q), its pointers wrapping explicitly at DEPTH-1,
// so any DEPTH >= 1 holds exactly DEPTH entries (DEPTH = 1 is the head
// alone). The pop arrives late in the cycle (it is the router's switch
// decision), so every next-state value is computed for both outcomes from
// flops and the push, and the pop only selects between them.
//
// Where the ring lives is chosen, not left to synthesis (RAM_STYLE):
// "logic" keeps it in flops; "block" puts it in block RAM. The head is a
// flop either way, so a block RAM's synchronous read only refills the
// head: its read address is the ring's next read pointer, one LUT after
// the pop, and its data goes to the head register's input, not into the
// switch. A push into an empty ring is read back at the next edge, which
// synthesis serves with a bypass (iCE40 block RAMs are not write-through).
// The router's link buffers keep their three ring entries in flops; the
// PE's queues put theirs in block RAM (docs/fpga.md says why).
`default_nettype none
`include "rtl/prim/wm_assert.vh"
// Dumps show wm_waves only.
/*verilator tracing_off*/

module wm_fifo #(
    parameter WIDTH     = 32,
    parameter DEPTH     = 4,        // any depth >= 1
    parameter RAM_STYLE = "logic"   // the ring: "logic" (flops) or "block" (block RAM)
) (
    input  wire             clk_i,
    input  wire             rst_ni,   // active low, synchronous (see wm_router)
    input  wire             push_i,
    input  wire [WIDTH-1:0] data_i,
    input  wire             pop_i,
    output wire [WIDTH-1:0] data_o,   // the head, valid while !empty_o
    output wire [CW-1:0]    count_o,
    output wire             empty_o,
    output wire             full_o,
    // what the head register does at this edge: it loads (load_o) the word
    // next_o, so that a caller can keep its own flops beside the head (the
    // router keeps each head's route)
    output wire             load_o,
    output wire [WIDTH-1:0] next_o
);
    localparam CW = $clog2(DEPTH) + 1;          // holds 0..DEPTH
    localparam TD = DEPTH - 1;                  // entries behind the head
    localparam PW = (TD > 1) ? $clog2(TD) : 1;  // a ring pointer
    localparam integer DI = DEPTH;
    localparam [CW-1:0] FULL = DI[CW-1:0];
    localparam integer TL = (TD > 0) ? TD - 1 : 0;
    localparam [PW-1:0] TLAST = TL[PW-1:0];
    localparam [CW-1:0] ONE = 1;

    // A depth the ring cannot hold is refused at elaboration: this names
    // a module that does not exist.
    generate
        if (DEPTH < 1) begin : gen_bad_depth
            wm_fifo_depth_must_be_at_least_1 u_refuse ();
        end
        if (RAM_STYLE != "logic" && RAM_STYLE != "block") begin : gen_bad_style
            wm_fifo_ram_style_must_be_logic_or_block u_refuse ();
        end
    endgenerate

    // The push is a tile input (link_valid_i, the firmware's push), and a
    // Verilated tile evaluates logic fed by its inputs at every evaluation,
    // twice a cycle, where a clocked block runs once, at the edge
    // (docs/benchmarks.md). So the next state is computed in the clocked
    // blocks, and only what others need before the edge is combinational:
    // the head's load enable and the word it loads (load_o, next_o).
    reg  [WIDTH-1:0] head_q;
    reg              hv_q;                // the head holds an entry
    reg  [CW-1:0]    count_q;
    reg              full_q;

    wire          do_push = push_i && !full_q;
    wire          do_pop  = pop_i && hv_q;
    wire          tail_nz;                // the ring holds an entry
    wire [WIDTH-1:0] tail_head;           // its oldest entry

    // The head loads when the FIFO is empty and pushed, or is popped with
    // a word behind the head or pushed; the word it loads is the oldest
    // ring entry if there is one, else the pushed one. Only the load
    // enable depends on the pop, the latest signal of the cycle.
    wire             head_ld   = (do_push && !hv_q) || (do_pop && (tail_nz || do_push));
    wire [WIDTH-1:0] head_next = tail_nz ? tail_head : data_i;

    always @(posedge clk_i) begin
        if (!rst_ni) begin
            hv_q    <= 1'b0;
            count_q <= {CW{1'b0}};
            full_q  <= 1'b0;
        end else begin
            hv_q <= do_push || (hv_q && (!do_pop || tail_nz));
            if (do_push && !do_pop) begin
                count_q <= count_q + ONE;
                full_q  <= (count_q + ONE == FULL);
            end else if (do_pop && !do_push) begin
                count_q <= count_q - ONE;
                full_q  <= 1'b0;
            end
        end
    end

    // The head register has no reset: hv_q qualifies it.
    always @(posedge clk_i) begin
        if (head_ld) head_q <= head_next;
    end

`ifdef FORMAL
    reg f_reset_q = 1'b0;   // a reset edge has passed: the invariants hold
    always @(posedge clk_i) if (!rst_ni) f_reset_q <= 1'b1;
`endif

    // ---- the ring behind the head ----
    generate
        if (TD > 0) begin : gen_ring
            reg [PW-1:0] rd_q, wr_q;
            reg [CW-1:0] tc_q;            // entries in the ring

            // The ring takes the push unless it goes straight to the head,
            // and gives its oldest entry to the head when popped. (Written
            // in the clocked block: see the top of the module.)
            always @(posedge clk_i) begin : b_ring
                reg tail_push, tail_pop;
                tail_push = do_push && hv_q && !(do_pop && !tail_nz);
                tail_pop  = do_pop && tail_nz;
                if (!rst_ni) begin
                    rd_q <= {PW{1'b0}};
                    wr_q <= {PW{1'b0}};
                    tc_q <= {CW{1'b0}};
                end else begin
                    if (tail_pop)  rd_q <= (rd_q == TLAST) ? {PW{1'b0}} : rd_q + 1'b1;
                    if (tail_push) wr_q <= (wr_q == TLAST) ? {PW{1'b0}} : wr_q + 1'b1;
                    if (tail_push && !tail_pop) tc_q <= tc_q + ONE;
                    if (tail_pop && !tail_push) tc_q <= tc_q - ONE;
                end
            end

            // Entries have no reset: only those the counts cover are read.
            // Every push writes the slot at wr_q, which is free whenever a
            // push is accepted (a full ring means a full FIFO); only the
            // pointer knows whether the word stays there or went to the
            // head, so the write enables do not wait for the pop. The
            // read is asynchronous from rd_q, a flop: synthesis folds rd_q
            // into a block RAM's read address register.
            if (RAM_STYLE == "block") begin : gen_block
                (* ram_style = "block" *)
                reg [WIDTH-1:0] tail_q [0:TD-1];
                always @(posedge clk_i) begin
                    if (do_push) tail_q[wr_q] <= data_i;
                end
                assign tail_head = tail_q[rd_q];
            end else begin : gen_logic
                (* ram_style = "logic" *)
                reg [WIDTH-1:0] tail_q [0:TD-1];
                always @(posedge clk_i) begin
                    if (do_push) tail_q[wr_q] <= data_i;
                end
                assign tail_head = tail_q[rd_q];
            end

            assign tail_nz    = (tc_q != {CW{1'b0}});
`ifdef FORMAL
            // The ring holds the entries behind the head, between its
            // pointers (make formal, rtl/formal/).
            always @* begin
                if (f_reset_q) begin
                    assert (tc_q == count_q - (hv_q ? ONE : {CW{1'b0}}));
                    assert ({{(32-PW){1'b0}}, wr_q} == ({{(32-PW){1'b0}}, rd_q} + {{(32-CW){1'b0}}, tc_q}) % TD);
                    assert (rd_q <= TLAST && wr_q <= TLAST);
                    cover (tc_q == TD[CW-1:0] && rd_q == TLAST);
                end
            end
`endif
        end else begin : gen_no_ring
            assign tail_head  = {WIDTH{1'b0}};
            assign tail_nz    = 1'b0;
        end
    endgenerate

    assign data_o  = head_q;
    assign count_o = count_q;
    assign empty_o = !hv_q;
    assign full_o  = full_q;
    assign load_o  = head_ld;
    assign next_o  = head_next;

`ifdef FORMAL
    // Internal invariants, from the first reset on (make formal: the
    // port-level properties are rtl/formal/wm_fifo_props.v's).
    always @* begin
        if (f_reset_q) begin
            assert (count_q <= FULL);
            assert (full_q == (count_q == FULL));
            assert (hv_q == (count_q != {CW{1'b0}}));
            cover (full_q);
        end
    end
`endif

    // A caller's bugs: the FIFO refuses both (do_push, do_pop), but a caller
    // that relies on it has lost a wavelet or read a stale one.
    `WM_ASSERT(no_push_when_full, clk_i, rst_ni, !(push_i && full_o), ("push into a full FIFO"))
    `WM_ASSERT(no_pop_when_empty, clk_i, rst_ni, !(pop_i && empty_o), ("pop from an empty FIFO"))
endmodule

`default_nettype wire
