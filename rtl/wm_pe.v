// wm_pe: the PE datapath, the hardware a PE's firmware talks to.
//
// The firmware side is a narrow port: in one cycle it may push one wavelet
// into the TX queue (fw_push_i) and pop one from the RX queue (fw_pop_i),
// reading the RX head (rx_head_o) in the cycle it pops. A push into a full
// TX queue or a pop from an empty RX queue is refused and leaves a sticky
// error flag: firmware must wait on the counts, as a core stalls on a queue.
// The router drains the TX queue through the ramp and fills the RX queue
// from its ramp output register, returning a credit for each RX pop.
// tsc_o counts cycles since reset, from tsc_init_i: 0 in use, and a
// test's start near a carry of the 64-bit count (tied off by the tops,
// driven by the C side's wm_fabric_config.tsc_start). Coordinates come
// from the tile.
//
// Both queues keep their heads in flops (the router and the firmware read
// them) and the entries behind in block RAM (QUEUE_RAM): on an iCE40,
// whose logic cells are what limits how many tiles a part holds, the 14
// entries behind the heads in flops cost about 500 cells, a third of a
// bare tile; in block RAM they cost 5 of 32 RAMs and stay off the switch's
// path, since the RAM only refills a head (wm_fifo).
//
// The TX queue tells the router what its head loads at each edge
// (ramp_load_o, ramp_next_o), so that the router keeps the head's route in
// flops beside it, as it does for its link buffers.
//
// Every tile keeps its own 64-bit tsc, all of them holding the same value:
// 64 flops and a 64-bit carry chain a tile (on iCE40, 64 logic cells of a
// tile's ~1,900, docs/fpga.md), kept on purpose. The tile is the unit the
// C side instantiates and its contract includes pe_tsc_o; in hardware one
// shared counter would be a 64-bit bus to every tile, whose wires grow
// with the mesh and whose skew, once pipelined, every tile would have to
// make up for, where a local counter reset with the tile needs no wire at
// all. The carry chain is far off the critical path.
`default_nettype none
// Dumps show wm_waves only.
/*verilator tracing_off*/

module wm_pe #(
    parameter TX_DEPTH  = 8,
    parameter RX_DEPTH  = 8,
    parameter QUEUE_RAM = "block"   // where the queues keep all but their heads (wm_fifo's RAM_STYLE)
) (
    input  wire        clk_i,
    input  wire        rst_ni,
    input  wire [63:0] tsc_init_i,      // tsc_o after reset (configuration)
    // firmware port
    input  wire        fw_push_i,
    input  wire [31:0] fw_data_i,
    input  wire        fw_pop_i,
    output wire [31:0] rx_head_o,
    output wire [$clog2(TX_DEPTH):0] tx_count_o,
    output wire [$clog2(RX_DEPTH):0] rx_count_o,
    output wire [63:0] tsc_o,
    output wire        err_tx_full_o,   // sticky: a push was refused
    output wire        err_rx_empty_o,  // sticky: a pop was refused
    // router side
    output wire        ramp_valid_o,
    output wire [31:0] ramp_data_o,
    output wire        ramp_load_o,     // the TX head loads at this edge...
    output wire [31:0] ramp_next_o,     // ... this word (the router routes it)
    input  wire        ramp_pop_i,
    input  wire        rx_push_i,
    input  wire [31:0] rx_data_i,
    output wire        rx_credit_o
);
    wire tx_empty, tx_full, rx_empty, rx_full;
    wire        unused_rx_load;
    wire [31:0] unused_rx_next;
    reg  [63:0] tsc_q;
    reg         err_tx_full_q, err_rx_empty_q, rx_credit_q;

    wm_fifo #(.WIDTH(32), .DEPTH(TX_DEPTH), .RAM_STYLE(QUEUE_RAM)) u_tx (
        .clk_i   (clk_i),
        .rst_ni  (rst_ni),
        .push_i  (fw_push_i && !tx_full),
        .data_i  (fw_data_i),
        .pop_i   (ramp_pop_i),
        .data_o  (ramp_data_o),
        .count_o (tx_count_o),
        .empty_o (tx_empty),
        .full_o  (tx_full),
        .load_o  (ramp_load_o),
        .next_o  (ramp_next_o)
    );
    assign ramp_valid_o = !tx_empty;

    wm_fifo #(.WIDTH(32), .DEPTH(RX_DEPTH), .RAM_STYLE(QUEUE_RAM)) u_rx (
        .clk_i   (clk_i),
        .rst_ni  (rst_ni),
        .push_i  (rx_push_i),
        .data_i  (rx_data_i),
        .pop_i   (fw_pop_i && !rx_empty),
        .data_o  (rx_head_o),
        .count_o (rx_count_o),
        .empty_o (rx_empty),
        .full_o  (rx_full),
        .load_o  (unused_rx_load),
        .next_o  (unused_rx_next)
    );

    always @(posedge clk_i) begin
        if (!rst_ni) begin
            tsc_q          <= tsc_init_i;
            err_tx_full_q  <= 1'b0;
            err_rx_empty_q <= 1'b0;
            rx_credit_q    <= 1'b0;
        end else begin
            tsc_q          <= tsc_q + 64'd1;
            err_tx_full_q  <= err_tx_full_q || (fw_push_i && tx_full);
            err_rx_empty_q <= err_rx_empty_q || (fw_pop_i && rx_empty);
            rx_credit_q    <= fw_pop_i && !rx_empty;
        end
    end

    assign tsc_o          = tsc_q;
    assign err_tx_full_o  = err_tx_full_q;
    assign err_rx_empty_o = err_rx_empty_q;
    assign rx_credit_o    = rx_credit_q;

    // rx_full is only observed: the router's credits keep it from overflowing,
    // and the FIFO's own assertion checks that they do.
    wire unused_rx = &{1'b0, rx_full, unused_rx_load, unused_rx_next};
endmodule

`default_nettype wire
