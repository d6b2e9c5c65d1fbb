// wm_waves: the signals a dump of a tile shows, named for the people who read it.
//
// A tile has hundreds of internal nets; a dump of all of them is ten times
// larger and slower to write than one of the links (docs/waves.md). Tracing
// is off in every other module, and this one, instantiated once per tile,
// spells out what a reader looks at: per port the output register (valid,
// data), the credit returned for the input buffer and its occupancy, the
// wormhole owner of each output, the PE's queues and the error flags. It has
// no outputs, so it costs nothing in a model built without tracing (nothing
// reads its signals, and Verilator drops them). The sw backend writes these
// same names (csim/waves/waves_sw.c), so one GTKWave save file shows either
// dump.
//
// An owner is the input holding the output: 0..3 = N, E, S, W, 4 = the PE's
// TX queue, 7 = free.
//
// <port>_msg is the header of the message on that output register: the
// header itself in the cycle it stands there, then held through the
// message's data wavelets and after them, until the next header. A message
// of one data wavelet is two cycles on a link, too short for a viewer to
// print a value when zoomed out; its header held this way spans the gap to
// the next message, wide enough to read. It follows each output's framing
// (a header, then len data wavelets, len from bits 11:6), the one piece of
// state here; 0 until the first header.
`default_nettype none
/*verilator tracing_off*/

module wm_waves #(
    parameter CW  = 3,  // width of one input buffer's occupancy
    parameter TCW = 4,  // width of the TX queue's occupancy
    parameter RCW = 4   // width of the RX queue's occupancy
) (
    input  wire [4:0]      out_valid_i,
    input  wire [159:0]    out_data_i,
    input  wire [3:0]      credit_i,
    input  wire [14:0]     owner_i,
    input  wire [4*CW-1:0] in_count_i,
    input  wire [TCW-1:0]  tx_count_i,
    input  wire [RCW-1:0]  rx_count_i,
    input  wire [3:0]      status_i,
    input  wire [31:0]     err_hdr_i,
    input  wire            en_i,
    input  wire            clk_i,
    input  wire            rst_ni
);
`include "rtl/wm_ports.vh"
    // Per output register, N, E, S, W, L: data wavelets still to come of
    // the message on it, and the header it carries.
    reg  [39:0]  rem_q, rem_d;
    reg  [159:0] msg_q;
    reg  [159:0] msg_d;
    integer o;
    always @(*) begin
        rem_d = rem_q;
        msg_d = msg_q;
        for (o = 0; o < PORTS; o = o + 1) begin
            if (out_valid_i[o]) begin
                if (rem_q[8*o +: 8] == 8'd0) begin
                    msg_d[32*o +: 32] = out_data_i[32*o +: 32];
                    rem_d[8*o +: 8]   = {2'b0, out_data_i[32*o + 6 +: 6]};   // len: wm_router's COORD_W 10
                end else begin
                    rem_d[8*o +: 8]   = rem_q[8*o +: 8] - 8'd1;
                end
            end
        end
    end
    always @(posedge clk_i) begin
        if (!rst_ni) begin
            rem_q <= 40'd0;
            msg_q <= 160'd0;
        end else begin
            rem_q <= rem_d;
            msg_q <= msg_d;
        end
    end

    /*verilator tracing_on*/
    wire          north_valid  = out_valid_i[PORT_N];
    wire [31:0]   north_data   = out_data_i[32*PORT_N +: 32];
    wire [31:0]   north_msg    = msg_d[32*PORT_N +: 32];
    wire          north_credit = credit_i[PORT_N];
    wire [2:0]    north_owner  = owner_i[3*PORT_N +: 3];
    wire [CW-1:0] north_count  = in_count_i[CW*PORT_N +: CW];
    wire          east_valid   = out_valid_i[PORT_E];
    wire [31:0]   east_data    = out_data_i[32*PORT_E +: 32];
    wire [31:0]   east_msg     = msg_d[32*PORT_E +: 32];
    wire          east_credit  = credit_i[PORT_E];
    wire [2:0]    east_owner   = owner_i[3*PORT_E +: 3];
    wire [CW-1:0] east_count   = in_count_i[CW*PORT_E +: CW];
    wire          south_valid  = out_valid_i[PORT_S];
    wire [31:0]   south_data   = out_data_i[32*PORT_S +: 32];
    wire [31:0]   south_msg    = msg_d[32*PORT_S +: 32];
    wire          south_credit = credit_i[PORT_S];
    wire [2:0]    south_owner  = owner_i[3*PORT_S +: 3];
    wire [CW-1:0] south_count  = in_count_i[CW*PORT_S +: CW];
    wire          west_valid   = out_valid_i[PORT_W];
    wire [31:0]   west_data    = out_data_i[32*PORT_W +: 32];
    wire [31:0]   west_msg     = msg_d[32*PORT_W +: 32];
    wire          west_credit  = credit_i[PORT_W];
    wire [2:0]    west_owner   = owner_i[3*PORT_W +: 3];
    wire [CW-1:0] west_count   = in_count_i[CW*PORT_W +: CW];
    wire          ramp_valid   = out_valid_i[PORT_L];
    wire [31:0]   ramp_data    = out_data_i[32*PORT_L +: 32];
    wire [31:0]   ramp_msg     = msg_d[32*PORT_L +: 32];
    wire [2:0]    ramp_owner   = owner_i[3*PORT_L +: 3];
    wire [TCW-1:0] tx_count    = tx_count_i;
    wire [RCW-1:0] rx_count    = rx_count_i;
    wire          busy         = status_i[0];
    wire          err_tx_full  = status_i[1];
    wire          err_rx_empty = status_i[2];
    wire          err_offmesh  = status_i[3];
    wire [31:0]   err_hdr      = err_hdr_i;
    wire          en           = en_i;
    /*verilator tracing_off*/
endmodule

`default_nettype wire
