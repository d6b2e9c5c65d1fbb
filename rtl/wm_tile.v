// wm_tile: one tile of the fabric, a router and the PE datapath behind it.
//
// This is the unit the C side instantiates W x H times. Every output of the
// tile comes straight from a flop (the router's output registers and credit
// flops, the PE's queues and counters): no combinational path crosses a
// tile, so wiring tiles together between clock edges in C is exactly what
// the wires of rtl/mesh.v do. Coordinates and mesh size are ports, not
// parameters, so one Verilated model serves every tile of every mesh.
// rst_ni is active low and synchronous, here and in every module below
// (wm_router's header says why).
`default_nettype none
// Dumps show wm_waves only.
/*verilator tracing_off*/

module wm_tile #(
    parameter IN_DEPTH = 4,
    parameter TX_DEPTH = 8,
    parameter RX_DEPTH = 8,
    parameter COORD_W  = 10    // wm_router's: the header's col and row
) (
    input  wire        clk_i,
    input  wire        rst_ni,
    input  wire [COORD_W-1:0] x_i,
    input  wire [COORD_W-1:0] y_i,
    input  wire [COORD_W-1:0] last_x_i,      // mesh width - 1
    input  wire [COORD_W-1:0] last_y_i,      // mesh height - 1
    input  wire        enable_i,      // the message-passing region
    input  wire [63:0] tsc_init_i,    // the PE's tsc after reset: 0, or a test's start (wm_pe)
    output wire        en_o,          // registered enable, seen by the neighbours
    // link to the north
    input  wire        north_valid_i,
    input  wire [31:0] north_data_i,
    output wire        north_credit_o,
    input  wire        north_en_i,      // the north neighbour is enabled
    output wire        north_valid_o,
    output wire [31:0] north_data_o,
    input  wire        north_credit_i,
    // link to the east
    input  wire        east_valid_i,
    input  wire [31:0] east_data_i,
    output wire        east_credit_o,
    input  wire        east_en_i,      // the east neighbour is enabled
    output wire        east_valid_o,
    output wire [31:0] east_data_o,
    input  wire        east_credit_i,
    // link to the south
    input  wire        south_valid_i,
    input  wire [31:0] south_data_i,
    output wire        south_credit_o,
    input  wire        south_en_i,      // the south neighbour is enabled
    output wire        south_valid_o,
    output wire [31:0] south_data_o,
    input  wire        south_credit_i,
    // link to the west
    input  wire        west_valid_i,
    input  wire [31:0] west_data_i,
    output wire        west_credit_o,
    input  wire        west_en_i,      // the west neighbour is enabled
    output wire        west_valid_o,
    output wire [31:0] west_data_o,
    input  wire        west_credit_i,
    // firmware port of the PE
    input  wire        pe_push_i,
    input  wire [31:0] pe_data_i,
    input  wire        pe_pop_i,
    output wire [31:0] pe_rx_head_o,
    output wire [$clog2(TX_DEPTH):0] pe_tx_count_o,
    output wire [$clog2(RX_DEPTH):0] pe_rx_count_o,
    output wire [63:0] pe_tsc_o,
    output wire [3:0]  pe_status_o,   // {err_offmesh, err_rx_empty, err_tx_full, busy}
    output wire [31:0] err_hdr_o,     // first off-mesh header discarded here
    // observation: the wavelet in the ramp output register, bound for the RX queue
    output wire        ramp_valid_o,
    output wire [31:0] ramp_data_o,
    output wire [4*$clog2(IN_DEPTH)+3:0] in_count_o,  // link buffer occupancy, N..W
    output wire [159:0] in_head_o     // oldest wavelet of the TX queue and of each link buffer
);
`include "rtl/wm_ports.vh"
    wire         ramp_in_valid, ramp_in_pop, rx_credit;
    wire [31:0]  ramp_in_data;
    wire         ramp_in_load;
    wire [31:0]  ramp_in_next;          // the router routes on its col and row
    wire         unused_next = &{1'b0, ramp_in_next[31-2*COORD_W:0]};
    wire         err_offmesh, err_tx_full, err_rx_empty;
    wire [14:0]  owner;
    reg          en_q;

    // The enable is configuration: it is latched in reset too, so a router
    // is enabled from the first cycle after reset.
    always @(posedge clk_i) en_q <= enable_i;

    wm_router #(.IN_DEPTH(IN_DEPTH), .RX_DEPTH(RX_DEPTH), .COORD_W(COORD_W)) u_router (
        .clk_i          (clk_i),
        .rst_ni         (rst_ni),
        .x_i            (x_i),
        .y_i            (y_i),
        .last_x_i       (last_x_i),
        .last_y_i       (last_y_i),
        .enable_i       (en_q),
        .north_valid_i  (north_valid_i),
        .north_data_i   (north_data_i),
        .north_credit_o (north_credit_o),
        .north_en_i     (north_en_i),
        .north_valid_o  (north_valid_o),
        .north_data_o   (north_data_o),
        .north_credit_i (north_credit_i),
        .east_valid_i   (east_valid_i),
        .east_data_i    (east_data_i),
        .east_credit_o  (east_credit_o),
        .east_en_i      (east_en_i),
        .east_valid_o   (east_valid_o),
        .east_data_o    (east_data_o),
        .east_credit_i  (east_credit_i),
        .south_valid_i  (south_valid_i),
        .south_data_i   (south_data_i),
        .south_credit_o (south_credit_o),
        .south_en_i     (south_en_i),
        .south_valid_o  (south_valid_o),
        .south_data_o   (south_data_o),
        .south_credit_i (south_credit_i),
        .west_valid_i   (west_valid_i),
        .west_data_i    (west_data_i),
        .west_credit_o  (west_credit_o),
        .west_en_i      (west_en_i),
        .west_valid_o   (west_valid_o),
        .west_data_o    (west_data_o),
        .west_credit_i  (west_credit_i),
        .ramp_valid_o   (ramp_valid_o),
        .ramp_data_o    (ramp_data_o),
        .ramp_credit_i  (rx_credit),
        .ramp_valid_i   (ramp_in_valid),
        .ramp_data_i    (ramp_in_data),
        .ramp_load_i    (ramp_in_load),
        .ramp_next_i    (ramp_in_next[31 -: 2*COORD_W]),
        .ramp_pop_o     (ramp_in_pop),
        .in_count_o     (in_count_o),
        .in_head_o      (in_head_o[32*LINKS-1:0]),
        .err_offmesh_o  (err_offmesh),
        .err_hdr_o      (err_hdr_o),
        .owner_o        (owner)
    );

    wm_pe #(.TX_DEPTH(TX_DEPTH), .RX_DEPTH(RX_DEPTH)) u_pe (
        .clk_i          (clk_i),
        .rst_ni         (rst_ni),
        .tsc_init_i     (tsc_init_i),
        .fw_push_i      (pe_push_i),
        .fw_data_i      (pe_data_i),
        .fw_pop_i       (pe_pop_i),
        .rx_head_o      (pe_rx_head_o),
        .tx_count_o     (pe_tx_count_o),
        .rx_count_o     (pe_rx_count_o),
        .tsc_o          (pe_tsc_o),
        .err_tx_full_o  (err_tx_full),
        .err_rx_empty_o (err_rx_empty),
        .ramp_valid_o   (ramp_in_valid),
        .ramp_data_o    (ramp_in_data),
        .ramp_load_o    (ramp_in_load),
        .ramp_next_o    (ramp_in_next),
        .ramp_pop_i     (ramp_in_pop),
        .rx_push_i      (ramp_valid_o),
        .rx_data_i      (ramp_data_o),
        .rx_credit_o    (rx_credit)
    );

    // Wavelets in flight in this tile: in a link buffer, in the TX queue or
    // in an output register. Wavelets in the RX queue have arrived.
    wire busy = (in_count_o != {(4*$clog2(IN_DEPTH)+4){1'b0}}) || ramp_in_valid
              || north_valid_o || east_valid_o || south_valid_o || west_valid_o || ramp_valid_o;

    assign en_o = en_q;
    assign in_head_o[32*PORT_L +: 32] = ramp_in_data;
    assign pe_status_o  = {err_offmesh, err_rx_empty, err_tx_full, busy};

    // The one traced instance: tracing_off above also hides the cells below.
    // Per-port vectors for wm_waves, port p at bit p and word p.
    wire [PORTS-1:0]    out_valid;
    wire [32*PORTS-1:0] out_data;
    wire [LINKS-1:0]    link_credit;
    assign out_valid[PORT_N]          = north_valid_o;
    assign out_valid[PORT_E]          = east_valid_o;
    assign out_valid[PORT_S]          = south_valid_o;
    assign out_valid[PORT_W]          = west_valid_o;
    assign out_valid[PORT_L]          = ramp_valid_o;
    assign out_data[32*PORT_N +: 32]  = north_data_o;
    assign out_data[32*PORT_E +: 32]  = east_data_o;
    assign out_data[32*PORT_S +: 32]  = south_data_o;
    assign out_data[32*PORT_W +: 32]  = west_data_o;
    assign out_data[32*PORT_L +: 32]  = ramp_data_o;
    assign link_credit[PORT_N]        = north_credit_o;
    assign link_credit[PORT_E]        = east_credit_o;
    assign link_credit[PORT_S]        = south_credit_o;
    assign link_credit[PORT_W]        = west_credit_o;

    /*verilator tracing_on*/
    wm_waves #(.CW($clog2(IN_DEPTH) + 1), .TCW($clog2(TX_DEPTH) + 1), .RCW($clog2(RX_DEPTH) + 1)) u_waves (
        .out_valid_i (out_valid),
        .out_data_i  (out_data),
        .credit_i    (link_credit),
        .owner_i     (owner),
        .in_count_i  (in_count_o),
        .tx_count_i  (pe_tx_count_o),
        .rx_count_i  (pe_rx_count_o),
        .status_i    (pe_status_o),
        .err_hdr_i   (err_hdr_o),
        .en_i        (en_q),
        .clk_i       (clk_i),
        .rst_ni      (rst_ni)
    );
    /*verilator tracing_off*/
endmodule

`default_nettype wire
