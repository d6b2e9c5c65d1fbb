// wm_mesh: a W x H mesh of tiles in Verilog, for Icarus and for the
// full-mesh cross-check of the C-wired tiles on small meshes.
//
// The C side normally instantiates the Verilated wm_tile W x H times and
// copies outputs to neighbours between edges; this top does the same wiring
// with Verilog wires, so the two must agree wavelet for wavelet. Tile (x, y)
// is index y*W + x in every flattened port; row 0 is the north row. Edge
// links are tied off: no valid, no credit, neighbour disabled.
`default_nettype none

module wm_mesh #(
    parameter W = 4,
    parameter H = 4
) (
    input  wire                  clk_i,
    input  wire                  rst_ni,
    input  wire [W*H-1:0]        enable_i,
    input  wire [W*H-1:0]        pe_push_i,
    input  wire [32*W*H-1:0]     pe_data_i,
    input  wire [W*H-1:0]        pe_pop_i,
    output wire [32*W*H-1:0]     pe_rx_head_o,
    output wire [4*W*H-1:0]      pe_tx_count_o,
    output wire [4*W*H-1:0]      pe_rx_count_o,
    output wire [4*W*H-1:0]      pe_status_o,
    output wire [64*W*H-1:0]     pe_tsc_o,
    output wire [32*W*H-1:0]     err_hdr_o,
    // every output register of every tile, ports N, E, S, W, L: the link trace
    output wire [5*W*H-1:0]      out_valid_o,
    output wire [160*W*H-1:0]    out_data_o
);
    localparam N = W * H;
    localparam integer LX = W - 1;
    localparam integer LY = H - 1;
    localparam [7:0] LAST_X = LX[7:0];
    localparam [7:0] LAST_Y = LY[7:0];

    // What each tile drives towards each direction.
    wire [N-1:0]    n_valid, e_valid, s_valid, w_valid;
    wire [32*N-1:0] n_data,  e_data,  s_data,  w_data;
    wire [N-1:0]    n_credit, e_credit, s_credit, w_credit;
    wire [N-1:0]    en;

    genvar gx, gy;
    generate
        for (gy = 0; gy < H; gy = gy + 1) begin : gen_row
            for (gx = 0; gx < W; gx = gx + 1) begin : gen_col
                localparam T  = gy * W + gx;
                localparam TN = (gy > 0)     ? T - W : T;
                localparam TS = (gy < H - 1) ? T + W : T;
                localparam TW = (gx > 0)     ? T - 1 : T;
                localparam TE = (gx < W - 1) ? T + 1 : T;
                localparam HAS_N = (gy > 0);
                localparam HAS_S = (gy < H - 1);
                localparam HAS_W = (gx > 0);
                localparam HAS_E = (gx < W - 1);
                localparam integer XI = gx;
                localparam integer YI = gy;
                localparam [7:0] X = XI[7:0];
                localparam [7:0] Y = YI[7:0];

                // occupancy is read per tile from the C-wired model only
                wire [11:0]  unused_in_count;
                wire [159:0] unused_in_head;

                wm_tile u_tile (
                    .clk_i         (clk_i),
                    .rst_ni        (rst_ni),
                    .x_i           (X),
                    .y_i           (Y),
                    .last_x_i      (LAST_X),
                    .last_y_i      (LAST_Y),
                    .enable_i      (enable_i[T]),
                    .en_o          (en[T]),
                    // from the north neighbour: what it drives south
                    .north_valid_i (HAS_N ? s_valid[TN] : 1'b0),
                    .north_data_i  (HAS_N ? s_data[32*TN +: 32] : 32'd0),
                    .north_credit_o(n_credit[T]),
                    .north_en_i    (HAS_N ? en[TN] : 1'b0),
                    .north_valid_o (n_valid[T]),
                    .north_data_o  (n_data[32*T +: 32]),
                    .north_credit_i(HAS_N ? s_credit[TN] : 1'b0),
                    .east_valid_i  (HAS_E ? w_valid[TE] : 1'b0),
                    .east_data_i   (HAS_E ? w_data[32*TE +: 32] : 32'd0),
                    .east_credit_o (e_credit[T]),
                    .east_en_i     (HAS_E ? en[TE] : 1'b0),
                    .east_valid_o  (e_valid[T]),
                    .east_data_o   (e_data[32*T +: 32]),
                    .east_credit_i (HAS_E ? w_credit[TE] : 1'b0),
                    .south_valid_i (HAS_S ? n_valid[TS] : 1'b0),
                    .south_data_i  (HAS_S ? n_data[32*TS +: 32] : 32'd0),
                    .south_credit_o(s_credit[T]),
                    .south_en_i    (HAS_S ? en[TS] : 1'b0),
                    .south_valid_o (s_valid[T]),
                    .south_data_o  (s_data[32*T +: 32]),
                    .south_credit_i(HAS_S ? n_credit[TS] : 1'b0),
                    .west_valid_i  (HAS_W ? e_valid[TW] : 1'b0),
                    .west_data_i   (HAS_W ? e_data[32*TW +: 32] : 32'd0),
                    .west_credit_o (w_credit[T]),
                    .west_en_i     (HAS_W ? en[TW] : 1'b0),
                    .west_valid_o  (w_valid[T]),
                    .west_data_o   (w_data[32*T +: 32]),
                    .west_credit_i (HAS_W ? e_credit[TW] : 1'b0),
                    .pe_push_i     (pe_push_i[T]),
                    .pe_data_i     (pe_data_i[32*T +: 32]),
                    .pe_pop_i      (pe_pop_i[T]),
                    .pe_rx_head_o  (pe_rx_head_o[32*T +: 32]),
                    .pe_tx_count_o (pe_tx_count_o[4*T +: 4]),
                    .pe_rx_count_o (pe_rx_count_o[4*T +: 4]),
                    .pe_tsc_o      (pe_tsc_o[64*T +: 64]),
                    .pe_status_o   (pe_status_o[4*T +: 4]),
                    .err_hdr_o     (err_hdr_o[32*T +: 32]),
                    .ramp_valid_o  (out_valid_o[5*T + 4]),
                    .ramp_data_o   (out_data_o[160*T + 128 +: 32]),
                    .in_count_o    (unused_in_count),
                    .in_head_o     (unused_in_head)
                );
                assign out_valid_o[5*T +: 4]      = {w_valid[T], s_valid[T], e_valid[T], n_valid[T]};
                assign out_data_o[160*T +: 128]   = {w_data[32*T +: 32], s_data[32*T +: 32],
                                                     e_data[32*T +: 32], n_data[32*T +: 32]};
            end
        end
    endgenerate
endmodule

`default_nettype wire
