// tb_mesh: a deterministic traffic run of rtl/mesh.v under Icarus.
//
// Every PE t of a 4x3 mesh sends NMSG messages; message k goes to PE
// (7t + 5k + 3) mod 12 with (t + k) mod 4 data wavelets {t, k, i}. A PE
// pushes its next wavelet whenever its TX queue has room and pops its RX
// queue whenever it holds a wavelet. The bench prints every wavelet in
// every output register, one line per wavelet: "cycle x y port data".
// tests/test_icarus.c runs the same traffic through the C-wired
// Verilated tiles and requires the same lines.
`timescale 1ns/1ps
`default_nettype none

module tb_mesh;
    localparam W = 4, H = 3, N = W * H, NMSG = 6, CYCLES = 400;

    reg              clk = 1'b0, rst_n = 1'b0;
    reg  [N-1:0]     push, pop;
    reg  [32*N-1:0]  pdata;
    wire [32*N-1:0]  rx_head, err_hdr;
    wire [4*N-1:0]   tx_count, rx_count, status;
    wire [64*N-1:0]  tsc;
    wire [5*N-1:0]   ov;
    wire [160*N-1:0] od;

    wm_mesh #(.W(W), .H(H)) dut (
        .clk_i(clk), .rst_ni(rst_n), .enable_i({N{1'b1}}),
        .pe_push_i(push), .pe_data_i(pdata), .pe_pop_i(pop),
        .pe_rx_head_o(rx_head), .pe_tx_count_o(tx_count), .pe_rx_count_o(rx_count),
        .pe_status_o(status), .pe_tsc_o(tsc), .err_hdr_o(err_hdr),
        .out_valid_o(ov), .out_data_o(od)
    );

    // Position in each PE's stream: message k, wavelet j (0 = header).
    integer msg [0:N-1];
    integer pos [0:N-1];
    integer t, p, cycle, dst, len;

    function [31:0] wavelet(input integer src, input integer k, input integer j);
        integer d, l;
        begin
            d = (7 * src + 5 * k + 3) % N;
            l = (src + k) % 4;
            if (j == 0) wavelet = {d[9:0] % W[9:0], d[9:0] / W[9:0], l[5:0], k[5:0]};   // COORD_W 10
            else        wavelet = {8'hd0, src[7:0], k[7:0], j[7:0]};
        end
    endfunction

    initial begin
        push = 0; pop = 0; pdata = 0;
        for (t = 0; t < N; t = t + 1) begin msg[t] = 0; pos[t] = 0; end
        // one reset edge, as the C side does
        #1 clk = 1; #1 clk = 0; rst_n = 1;
        for (cycle = 0; cycle < CYCLES; cycle = cycle + 1) begin
            // the accesses of this cycle, from the state of this cycle
            for (t = 0; t < N; t = t + 1) begin
                push[t] = 1'b0;
                pop[t]  = rx_count[4*t +: 4] != 0;
                if (msg[t] < NMSG && tx_count[4*t +: 4] < 8) begin
                    push[t] = 1'b1;
                    pdata[32*t +: 32] = wavelet(t, msg[t], pos[t]);
                    len = (t + msg[t]) % 4;
                    if (pos[t] == len) begin msg[t] = msg[t] + 1; pos[t] = 0; end
                    else pos[t] = pos[t] + 1;
                end
            end
            #1 clk = 1;
            #1 clk = 0;
            for (t = 0; t < N; t = t + 1)
                for (p = 0; p < 5; p = p + 1)
                    if (ov[5*t + p]) $display("%0d %0d %0d %0d %08x", cycle + 1, t % W, t / W, p, od[160*t + 32*p +: 32]);
        end
        $finish;
    end
endmodule

`default_nettype wire
