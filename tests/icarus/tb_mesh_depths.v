// tb_mesh_depths: rtl/mesh.v at any IN_DEPTH, TX_DEPTH and RX_DEPTH,
// every message delivered whole.
//
// The lockstep regression holds the RTL to the sw model at the default
// depths only (the sw model has them as constants); this bench shows that
// other depths work too: every PE t of a 3x2 mesh sends NMSG messages,
// message k to PE (5t + 3k + 1) mod 6 with (t + 2k) mod 5 data wavelets
// {8'hd0, t, k, j}, pushing whenever its TX queue has room; every PE pops
// its RX queue whenever it holds a wavelet and checks each message as it
// comes (wormhole: a message arrives in one piece): the header's tag and
// length, then its data wavelets in order. At the end every message must
// have arrived, nothing else, and the mesh be quiescent; the assertions
// of the RTL (credits, FIFOs, arbiters) run all along. Prints
// "tb_mesh_depths IN=i TX=t RX=r: M messages, W wavelets, PASS" or FAIL.
`timescale 1ns/1ps
`default_nettype none

module tb_mesh_depths;
    parameter IN_DEPTH = 4;
    parameter TX_DEPTH = 8;
    parameter RX_DEPTH = 8;
    localparam W = 3, H = 2, N = W * H, NMSG = 12, CYCLES = 3000;

    reg              clk = 1'b0, rst_n = 1'b0;
    reg  [N-1:0]     push, pop;
    reg  [32*N-1:0]  pdata;
    wire [32*N-1:0]  rx_head, err_hdr;
    wire [4*N-1:0]   tx_count, rx_count, status;
    wire [64*N-1:0]  tsc;
    wire [5*N-1:0]   ov;
    wire [160*N-1:0] od;

    wm_mesh #(.W(W), .H(H), .IN_DEPTH(IN_DEPTH), .TX_DEPTH(TX_DEPTH), .RX_DEPTH(RX_DEPTH)) dut (
        .clk_i(clk), .rst_ni(rst_n), .enable_i({N{1'b1}}),
        .pe_push_i(push), .pe_data_i(pdata), .pe_pop_i(pop),
        .pe_rx_head_o(rx_head), .pe_tx_count_o(tx_count), .pe_rx_count_o(rx_count),
        .pe_status_o(status), .pe_tsc_o(tsc), .err_hdr_o(err_hdr),
        .out_valid_o(ov), .out_data_o(od), .core_run_i({N{1'b0}})
    );

    // sender state: message k, wavelet j (0 = header)
    integer msg [0:N-1];
    integer pos [0:N-1];
    // receiver state: data wavelets still expected of the current message
    integer rleft [0:N-1];
    integer rtag [0:N-1];
    integer rj [0:N-1];
    integer got [0:N-1];
    integer want [0:N-1];
    integer t, k, cycle, errors, wavelets, messages;
    reg [31:0] w;

    function integer dest(input integer src, input integer kk);
        dest = (5 * src + 3 * kk + 1) % N;
    endfunction
    function integer mlen(input integer src, input integer kk);
        mlen = (src + 2 * kk) % 5;
    endfunction
    function [31:0] wavelet(input integer src, input integer kk, input integer j);
        integer d, l;
        begin
            d = dest(src, kk);
            l = mlen(src, kk);
            if (j == 0) wavelet = {d[9:0] % W[9:0], d[9:0] / W[9:0], l[5:0], kk[5:0]};   // COORD_W 10
            else        wavelet = {8'hd0, src[7:0], kk[7:0], j[7:0]};
        end
    endfunction

    initial begin
        push = 0; pop = 0; pdata = 0; errors = 0; wavelets = 0; messages = 0;
        for (t = 0; t < N; t = t + 1) begin
            msg[t] = 0; pos[t] = 0; rleft[t] = -1; got[t] = 0; want[t] = 0;
        end
        for (t = 0; t < N; t = t + 1)
            for (k = 0; k < NMSG; k = k + 1) want[dest(t, k)] = want[dest(t, k)] + 1;
        #1 clk = 1; #1 clk = 0; rst_n = 1;
        for (cycle = 0; cycle < CYCLES; cycle = cycle + 1) begin
            for (t = 0; t < N; t = t + 1) begin
                // receive: the head of RX, checked against the message it belongs to
                pop[t] = rx_count[4*t +: 4] != 0;
                if (pop[t]) begin
                    w = rx_head[32*t +: 32];
                    wavelets = wavelets + 1;
                    if (rleft[t] <= 0) begin
                        if (w[31:22] != t % W || w[21:12] != t / W) begin
                            $display("tb_mesh_depths: PE %0d got header %h for another PE", t, w);
                            errors = errors + 1;
                        end
                        rleft[t] = w[11:6];
                        rtag[t]  = w[5:0];
                        rj[t]    = 1;
                        got[t]   = got[t] + 1;
                        messages = messages + 1;
                        if (rleft[t] == 0) rleft[t] = -1;
                    end else begin
                        if (w[31:24] != 8'hd0 || w[15:8] != rtag[t] || w[7:0] != rj[t]
                            || mlen(w[23:16], w[15:8]) != rj[t] + rleft[t] - 1) begin
                            $display("tb_mesh_depths: PE %0d got %h as data %0d of message %0d", t, w, rj[t], rtag[t]);
                            errors = errors + 1;
                        end
                        rj[t]    = rj[t] + 1;
                        rleft[t] = rleft[t] - 1;
                    end
                end
                // send: the next wavelet whenever TX has room
                push[t] = 1'b0;
                if (msg[t] < NMSG && tx_count[4*t +: 4] < TX_DEPTH) begin
                    push[t] = 1'b1;
                    pdata[32*t +: 32] = wavelet(t, msg[t], pos[t]);
                    if (pos[t] == mlen(t, msg[t])) begin msg[t] = msg[t] + 1; pos[t] = 0; end
                    else pos[t] = pos[t] + 1;
                end
            end
            #1 clk = 1;
            #1 clk = 0;
        end
        for (t = 0; t < N; t = t + 1) begin
            if (got[t] != want[t] || rleft[t] > 0) begin
                $display("tb_mesh_depths: PE %0d got %0d messages of %0d", t, got[t], want[t]);
                errors = errors + 1;
            end
            if (status[4*t +: 4] != 4'd0) begin
                $display("tb_mesh_depths: PE %0d status %b at the end", t, status[4*t +: 4]);
                errors = errors + 1;
            end
        end
        if (errors == 0)
            $display("tb_mesh_depths IN=%0d TX=%0d RX=%0d: %0d messages, %0d wavelets, PASS",
                     IN_DEPTH, TX_DEPTH, RX_DEPTH, messages, wavelets);
        else
            $display("tb_mesh_depths IN=%0d TX=%0d RX=%0d: FAIL", IN_DEPTH, TX_DEPTH, RX_DEPTH);
        $finish;
    end
endmodule

`default_nettype wire
