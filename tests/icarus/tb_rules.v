// tb_rules: the priority and simultaneity rules that the RTL's comments
// state, each driven directly at its module, simultaneous cases included
// (docs/fabric.md, "Priorities and simultaneity", lists them with this
// bench). In a correctly wired mesh some of these cases cannot arise (an
// off-mesh header arrives only from the PE, one a cycle; a router never
// pushes a full FIFO), so no fabric-level test sees them; the modules'
// contracts state them all the same.
//
// Every rule prints "rule NAME: ok" or "rule NAME: FAIL ..." and the bench
// ends with "tb_rules: N rules, PASS" or "tb_rules: FAIL". Compiled without
// WM_ASSERTIONS: the FIFO's refusals are the design bugs its assertions
// report, and here they are the rule under test. tests/rules.sh runs it
// (make test-rules).
`timescale 1ns/1ps
`default_nettype none

module tb_rules;
    reg clk = 1'b0;
    always #5 clk = !clk;
    integer errors = 0, rules = 0;

    task rule;
        input [8*64-1:0] name;
        input            ok;
        begin
            rules = rules + 1;
            if (ok) $display("rule %0s: ok", name);
            else begin
                $display("rule %0s: FAIL", name);
                errors = errors + 1;
            end
        end
    endtask

    // Inputs change at the falling edge, outputs are read before the next
    // falling edge: one call, one cycle.
    task tick;
        begin
            @(posedge clk);
            #1;
        end
    endtask

    // ------------------------------------------------------------ wm_fifo
    reg        f_rst_n = 1'b0, f_push = 1'b0, f_pop = 1'b0;
    reg  [7:0] f_din = 8'd0;
    wire [7:0] f_dout;
    wire [2:0] f_count;
    wire       f_empty, f_full;
    wm_fifo #(.WIDTH(8), .DEPTH(4)) u_fifo (
        .clk_i(clk), .rst_ni(f_rst_n), .push_i(f_push), .data_i(f_din), .pop_i(f_pop),
        .data_o(f_dout), .count_o(f_count), .empty_o(f_empty), .full_o(f_full),
        .load_o(), .next_o()
    );
    task f_op;   // one cycle: push (with its word) and pop as given
        input       push, pop;
        input [7:0] w;
        begin
            f_push = push; f_pop = pop; f_din = w;
            tick;
            f_push = 1'b0; f_pop = 1'b0;
        end
    endtask

    // ------------------------------------------------------------ wm_rr_arbiter
    reg        a_rst_n = 1'b0, a_take = 1'b0;
    reg  [4:0] a_req = 5'd0;
    wire [4:0] a_gnt;
    wire       a_valid;
    wm_rr_arbiter #(.N(5)) u_arb (
        .clk_i(clk), .rst_ni(a_rst_n), .req_i(a_req), .take_i(a_take), .gnt_o(a_gnt), .valid_o(a_valid)
    );
    reg [4:0] a_seen;
    task a_op;   // one cycle: the grant to req with take, seen before the edge
        input [4:0] req;
        input       take;
        begin
            a_req = req; a_take = take;
            #1 a_seen = a_gnt;
            tick;
            a_req = 5'd0; a_take = 1'b0;
        end
    endtask

    // ------------------------------------------------------------ wm_router
    // The centre of a 3x3 mesh, every neighbour enabled, every output with
    // its credits; only the link inputs are driven.
    reg         r_rst_n = 1'b0;
    reg  [3:0]  r_valid = 4'd0;
    // the ramp input, as wm_pe's TX queue drives it: the head's route
    // loads at the edge that loads the head (r_load, r_next), the head is
    // then valid until the router pops it
    reg         r_rvalid = 1'b0, r_load = 1'b0;
    reg  [31:0] r_rdata = 32'd0;
    wire        r_rpop;
    always @(posedge clk) if (r_rpop) r_rvalid <= 1'b0;
    reg  [31:0] r_data [0:3];
    wire [31:0] r_err_hdr;
    wire        r_err, r_ramp_valid;
    wire [31:0] r_ramp_data;
    wm_router #(.IN_DEPTH(4), .RX_DEPTH(8)) u_router (
        .clk_i(clk), .rst_ni(r_rst_n), .x_i(10'd1), .y_i(10'd1), .last_x_i(10'd2), .last_y_i(10'd2),
        .enable_i(1'b1),
        .north_valid_i(r_valid[0]), .north_data_i(r_data[0]), .north_credit_o(), .north_en_i(1'b1),
        .north_valid_o(), .north_data_o(), .north_credit_i(1'b0),
        .east_valid_i(r_valid[1]), .east_data_i(r_data[1]), .east_credit_o(), .east_en_i(1'b1),
        .east_valid_o(), .east_data_o(), .east_credit_i(1'b0),
        .south_valid_i(r_valid[2]), .south_data_i(r_data[2]), .south_credit_o(), .south_en_i(1'b1),
        .south_valid_o(), .south_data_o(), .south_credit_i(1'b0),
        .west_valid_i(r_valid[3]), .west_data_i(r_data[3]), .west_credit_o(), .west_en_i(1'b1),
        .west_valid_o(), .west_data_o(), .west_credit_i(1'b0),
        .ramp_valid_o(r_ramp_valid), .ramp_data_o(r_ramp_data), .ramp_credit_i(1'b0),
        .ramp_valid_i(r_rvalid), .ramp_data_i(r_rdata), .ramp_load_i(r_load), .ramp_next_i(r_rdata[31:12]),
        .ramp_pop_o(r_rpop),
        .in_count_o(), .in_head_o(), .err_offmesh_o(r_err), .err_hdr_o(r_err_hdr), .owner_o()
    );
    // a header {col, row, len, tag}
    function [31:0] hdr(input [7:0] col, input [7:0] row, input [7:0] len, input [7:0] tag);
        hdr = {2'b0, col, 2'b0, row, len[5:0], tag[5:0]};   // wm_router's COORD_W 10
    endfunction
    task r_send;   // one cycle: the wavelets on the link inputs of mask
        input [3:0]  mask;
        input [31:0] n, e, s, w;
        begin
            r_valid = mask; r_data[0] = n; r_data[1] = e; r_data[2] = s; r_data[3] = w;
            tick;
            r_valid = 4'd0;
        end
    endtask
    task r_reset;
        begin
            r_rst_n = 1'b0; tick; tick; r_rst_n = 1'b1;
        end
    endtask

    // ------------------------------------------------------------ wm_pe
    reg         p_rst_n = 1'b0, p_push = 1'b0, p_pop = 1'b0, p_ramp_pop = 1'b0, p_rx_push = 1'b0;
    reg  [63:0] p_tsc_init = 64'd0;
    wire [31:0] p_rx_head, p_ramp_data;
    wire [1:0]  p_tx_count, p_rx_count;
    wire [63:0] p_tsc;
    wire        p_err_tx, p_err_rx, p_credit, p_ramp_valid;
    wm_pe #(.TX_DEPTH(2), .RX_DEPTH(2)) u_pe (
        .clk_i(clk), .rst_ni(p_rst_n), .tsc_init_i(p_tsc_init),
        .fw_push_i(p_push), .fw_data_i(32'h0000_00a0 + {24'd0, p_tx_count, 6'd0}), .fw_pop_i(p_pop),
        .rx_head_o(p_rx_head), .tx_count_o(p_tx_count), .rx_count_o(p_rx_count), .tsc_o(p_tsc),
        .err_tx_full_o(p_err_tx), .err_rx_empty_o(p_err_rx),
        .ramp_valid_o(p_ramp_valid), .ramp_data_o(p_ramp_data), .ramp_load_o(), .ramp_next_o(),
        .ramp_pop_i(p_ramp_pop), .rx_push_i(p_rx_push), .rx_data_i(32'h0000_0777), .rx_credit_o(p_credit)
    );
    task p_reset;
        begin
            p_rst_n = 1'b0; tick; p_rst_n = 1'b1;
        end
    endtask

    // ------------------------------------------------------------ wm_mesh
    // TSC_INIT reaches the PE of every tile
    reg          m_rst_n = 1'b0;
    wire [127:0] m_tsc;
    wm_mesh #(.W(2), .H(1), .TSC_INIT(64'h0000_0001_ffff_fffe)) u_mesh (
        .clk_i(clk), .rst_ni(m_rst_n), .enable_i(2'b11), .pe_push_i(2'b00), .pe_data_i(64'd0),
        .pe_pop_i(2'b00), .pe_rx_head_o(), .pe_tx_count_o(), .pe_rx_count_o(), .pe_status_o(),
        .pe_tsc_o(m_tsc), .err_hdr_o(), .out_valid_o(), .out_data_o(), .core_run_i(2'b00),
        .core_exited_o(), .core_exit_code_o(), .core_fault_o(), .core_fault_cause_o(), .core_fault_pc_o(),
        .core_fault_insn_o(), .core_retire_o(), .core_retire_pc_o(), .core_retire_insn_o(), .core_rd_we_o(),
        .core_rd_o(), .core_rd_data_o(), .core_push_o(), .core_push_data_o(), .core_pop_o(), .core_pc_o(),
        .core_wait_o()
    );

    integer k;
    reg     ok;
    reg [63:0] t0;
    initial begin
        @(negedge clk);
        // ---- wm_fifo: push and pop in one cycle ----
        tick; f_rst_n = 1'b1;
        f_op(1, 0, 8'd1); f_op(1, 0, 8'd2); f_op(1, 0, 8'd3); f_op(1, 0, 8'd4);
        ok = f_full && f_count == 3'd4;
        f_op(1, 1, 8'd5);   // full: the pop is taken, the push refused
        ok = ok && f_count == 3'd3 && f_dout == 8'd2 && !f_full;
        f_op(0, 1, 0); ok = ok && f_dout == 8'd3;
        f_op(0, 1, 0); ok = ok && f_dout == 8'd4;
        f_op(0, 1, 0); ok = ok && f_empty && f_count == 3'd0;
        rule("fifo-full-push-pop-refuses-the-push", ok);
        f_op(1, 1, 8'd9);   // empty: the push is taken, the pop refused
        rule("fifo-empty-push-pop-refuses-the-pop", f_count == 3'd1 && f_dout == 8'd9 && !f_empty);
        f_op(1, 1, 8'd10);  // the head alone: the pushed word becomes the head
        rule("fifo-head-alone-push-pop", f_count == 3'd1 && f_dout == 8'd10);
        f_op(1, 0, 8'd11);
        f_op(1, 1, 8'd12);  // words behind the head: the order is kept
        ok = f_count == 3'd2 && f_dout == 8'd11;
        f_op(0, 1, 0); ok = ok && f_dout == 8'd12 && f_count == 3'd1;
        rule("fifo-push-pop-keeps-the-order", ok);

        // ---- wm_rr_arbiter: simultaneous requests ----
        tick; a_rst_n = 1'b1;
        a_op(5'b11111, 1); ok = a_seen == 5'b00001;            // after reset: the lowest
        a_op(5'b11111, 1); ok = ok && a_seen == 5'b00010;      // then the one after the winner
        rule("arb-all-request-lowest-then-next", ok);
        a_op(5'b10001, 1);                                     // pointer at 2: 4 before 0
        rule("arb-first-at-or-after-the-pointer", a_seen == 5'b10000);
        a_op(5'b10010, 1);                                     // a grant to N-1 wraps the pointer to 0
        rule("arb-wraps-after-the-last", a_seen == 5'b00010);
        a_op(5'b11111, 0); ok = a_seen == 5'b00000 && !a_valid;   // no take: no grant
        a_op(5'b00000, 1); ok = ok && a_seen == 5'b00000;         // no request: no grant
        a_op(5'b11111, 1); ok = ok && a_seen == 5'b00100;         // and the pointer stayed at 2
        rule("arb-no-take-or-request-keeps-the-pointer", ok);

        // ---- wm_router: several off-mesh headers in one cycle ----
        r_reset;
        r_send(4'b1111, hdr(8'd5, 8'd0, 8'd0, 8'h10), hdr(8'd6, 8'd0, 8'd0, 8'h11),
               hdr(8'd0, 8'd7, 8'd0, 8'h12), hdr(8'd9, 8'd1, 8'd0, 8'h13));
        tick; tick;
        rule("router-offmesh-same-cycle-keeps-the-lowest-input", r_err && r_err_hdr == hdr(8'd5, 8'd0, 8'd0, 8'h10));
        r_reset;
        r_send(4'b1010, 32'd0, hdr(8'd6, 8'd0, 8'd0, 8'h21), 32'd0, hdr(8'd9, 8'd1, 8'd0, 8'h23));
        tick; tick;
        ok = r_err && r_err_hdr == hdr(8'd6, 8'd0, 8'd0, 8'h21);
        r_send(4'b0001, hdr(8'd3, 8'd0, 8'd0, 8'h30), 32'd0, 32'd0, 32'd0);   // a later one is not kept
        tick; tick;
        ok = ok && r_err && r_err_hdr == hdr(8'd6, 8'd0, 8'd0, 8'h21);
        rule("router-offmesh-east-west-keeps-east-then-the-first", ok);
        // the ramp (input L, the last) and input S off the mesh in one cycle
        r_reset;
        r_rdata = hdr(8'd4, 8'd0, 8'd0, 8'h54); r_load = 1'b1;
        r_send(4'b0100, 32'd0, 32'd0, hdr(8'd0, 8'd8, 8'd0, 8'h52), 32'd0);
        r_load = 1'b0; r_rvalid = 1'b1;
        tick; tick; tick;
        rule("router-offmesh-south-and-ramp-keeps-south", r_err && r_err_hdr == hdr(8'd0, 8'd8, 8'd0, 8'h52) && !r_rvalid);
        // two headers for the free ramp output in one cycle: E (input 1)
        // before W (input 3), each alone on the output in consecutive cycles
        r_reset;
        r_send(4'b1010, 32'd0, hdr(8'd1, 8'd1, 8'd0, 8'h41), 32'd0, hdr(8'd1, 8'd1, 8'd0, 8'h43));
        ok = 1'b1;
        for (k = 0; k < 6; k = k + 1) begin
            if (r_ramp_valid && r_ramp_data == hdr(8'd1, 8'd1, 8'd0, 8'h41)) ok = ok && k == 1;
            if (r_ramp_valid && r_ramp_data == hdr(8'd1, 8'd1, 8'd0, 8'h43)) ok = ok && k == 2;
            if (r_ramp_valid && k != 1 && k != 2) ok = 1'b0;
            if (!r_ramp_valid && (k == 1 || k == 2)) ok = 1'b0;
            tick;
        end
        rule("router-same-cycle-headers-lowest-input-first", ok);

        // ---- wm_pe: the firmware port's refusals in a busy cycle ----
        p_reset;
        p_push = 1'b1; tick; tick;                 // TX full (depth 2)
        ok = p_tx_count == 2'd2 && !p_err_tx;
        p_ramp_pop = 1'b1; tick;                   // push and drain in one cycle: the push is refused
        p_push = 1'b0; p_ramp_pop = 1'b0;
        ok = ok && p_tx_count == 2'd1 && p_err_tx;
        rule("pe-push-full-tx-refused-while-drained", ok);
        p_pop = 1'b1; p_rx_push = 1'b1; tick;      // pop an empty RX as a wavelet arrives
        p_pop = 1'b0; p_rx_push = 1'b0;
        ok = p_rx_count == 2'd1 && p_err_rx && !p_credit && p_rx_head == 32'h777;
        p_pop = 1'b1; tick; p_pop = 1'b0;          // a taken pop returns its credit the cycle after
        ok = ok && p_rx_count == 2'd0 && p_credit;
        rule("pe-pop-empty-rx-refused-no-credit", ok);
        p_rx_push = 1'b1; tick; p_rx_push = 1'b0;  // TX 1, RX 1
        p_push = 1'b1; p_pop = 1'b1; tick;         // one push and one pop in one cycle: both taken
        p_push = 1'b0; p_pop = 1'b0;
        ok = p_tx_count == 2'd2 && p_rx_count == 2'd0 && p_credit;
        rule("pe-push-and-pop-in-one-cycle", ok);

        // ---- wm_pe: the tsc from its preload, across the carries ----
        p_tsc_init = 64'h0000_0000_ffff_fffd; p_reset;
        ok = 1'b1; t0 = 64'h0000_0000_ffff_fffd;
        for (k = 0; k < 6; k = k + 1) begin
            ok = ok && p_tsc == t0 + k;
            tick;
        end
        rule("pe-tsc-across-2^32", ok);
        p_tsc_init = 64'hffff_ffff_ffff_fffe; p_reset;
        ok = p_tsc == 64'hffff_ffff_ffff_fffe;
        tick; ok = ok && p_tsc == 64'hffff_ffff_ffff_ffff;
        tick; ok = ok && p_tsc == 64'd0;
        tick; ok = ok && p_tsc == 64'd1;
        rule("pe-tsc-wraps-at-2^64", ok);
        m_rst_n = 1'b0; tick; m_rst_n = 1'b1;
        ok = m_tsc == {64'h0000_0001_ffff_fffe, 64'h0000_0001_ffff_fffe};
        tick; ok = ok && m_tsc == {64'h0000_0001_ffff_ffff, 64'h0000_0001_ffff_ffff};
        tick; ok = ok && m_tsc == {64'h0000_0002_0000_0000, 64'h0000_0002_0000_0000};
        rule("mesh-tsc-init-reaches-every-tile", ok);

        if (errors == 0) $display("tb_rules: %0d rules, PASS", rules);
        else $display("tb_rules: %0d of %0d rules FAIL", errors, rules);
        $finish;
    end
endmodule

`default_nettype wire
