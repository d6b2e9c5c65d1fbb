// wm_router_inv.vh: the strengthening invariants that make the message
// properties of wm_router_props inductive (included by it; active with
// INV = 1; docs/verification.md, "Formal").
//
// A bounded check follows the router from reset; a proof for all time
// needs an inductive invariant, a description of every state the router
// can reach, which pdr does not find alone in this design. These tie
// what the router stores (each input buffer's words, its per-input
// message state, each output's owner, the output registers) to the
// harness's counters (each input's sender, each output's monitor, the
// message numbers seen per input). Each is an assertion of its own and is
// proved with the rest: a property the induction needs but that does not
// hold fails like any other.
//
// The invariants read state inside the router and the harness's generate
// blocks, which Verilog-2005 in yosys cannot name across the hierarchy:
// each "probe:" line below connects a wire of this file to the flattened
// signal it names (rtl/formal/run.sh reads them in jobs with INV=1, and
// yosys' rename and connect do it right after flattening).
//
// Written for buffers of two entries (IN_DEPTH = TX_DEPTH = 2: a head and
// one ring entry) and the message group (GROUPS bit 1); a job with INV = 1
// and other depths is refused at elaboration.

// probe: f_busy dut.busy_q
// probe: f_drop dut.drop_q
// probe: f_rem dut.rem_q
// probe: f_own dut.own_q
// probe: f_own_sel dut.own_sel_q
// probe: f_want dut.want_q
// probe: f_off dut.off_q
// probe: f_cfg[39:30] dut.x_q
// probe: f_cfg[29:20] dut.y_q
// probe: f_cfg[19:10] dut.last_x_q
// probe: f_cfg[9:0] dut.last_y_q
// probe: f_rst[0] dut.gen_in[0].u_buf.f_reset_q
// probe: f_rst[1] dut.gen_in[1].u_buf.f_reset_q
// probe: f_rst[2] dut.gen_in[2].u_buf.f_reset_q
// probe: f_rst[3] dut.gen_in[3].u_buf.f_reset_q
// probe: f_rst[4] u_tx.f_reset_q
// probe: f_rst[5] dut.f_reset_q
// probe: f_tail[31:0] dut.gen_in[0].u_buf.gen_ring.gen_logic.tail_q[0]
// probe: f_tail[63:32] dut.gen_in[1].u_buf.gen_ring.gen_logic.tail_q[0]
// probe: f_tail[95:64] dut.gen_in[2].u_buf.gen_ring.gen_logic.tail_q[0]
// probe: f_tail[127:96] dut.gen_in[3].u_buf.gen_ring.gen_logic.tail_q[0]
// probe: f_tail[159:128] u_tx.gen_ring.gen_logic.tail_q[0]
// probe: f_s_rem[1:0] gen_port[0].s_rem_q
// probe: f_s_rem[3:2] gen_port[1].s_rem_q
// probe: f_s_rem[5:4] gen_port[2].s_rem_q
// probe: f_s_rem[7:6] gen_port[3].s_rem_q
// probe: f_s_rem[9:8] gen_port[4].s_rem_q
// probe: f_s_seq[7:0] gen_port[0].s_seq_q
// probe: f_s_seq[15:8] gen_port[1].s_seq_q
// probe: f_s_seq[23:16] gen_port[2].s_seq_q
// probe: f_s_seq[31:24] gen_port[3].s_seq_q
// probe: f_s_seq[39:32] gen_port[4].s_seq_q
// probe: f_s_mid[3:0] gen_port[0].s_mid_q
// probe: f_s_mid[7:4] gen_port[1].s_mid_q
// probe: f_s_mid[11:8] gen_port[2].s_mid_q
// probe: f_s_mid[15:12] gen_port[3].s_mid_q
// probe: f_s_mid[19:16] gen_port[4].s_mid_q
// probe: f_s_off[0] gen_port[0].s_off_q
// probe: f_s_off[1] gen_port[1].s_off_q
// probe: f_s_off[2] gen_port[2].s_off_q
// probe: f_s_off[3] gen_port[3].s_off_q
// probe: f_s_off[4] gen_port[4].s_off_q
// probe: f_m_rem[7:0] gen_port[0].m_rem_q
// probe: f_m_rem[15:8] gen_port[1].m_rem_q
// probe: f_m_rem[23:16] gen_port[2].m_rem_q
// probe: f_m_rem[31:24] gen_port[3].m_rem_q
// probe: f_m_rem[39:32] gen_port[4].m_rem_q
// probe: f_m_seq[7:0] gen_port[0].m_seq_q
// probe: f_m_seq[15:8] gen_port[1].m_seq_q
// probe: f_m_seq[23:16] gen_port[2].m_seq_q
// probe: f_m_seq[31:24] gen_port[3].m_seq_q
// probe: f_m_seq[39:32] gen_port[4].m_seq_q
// probe: f_m_src[2:0] gen_port[0].m_src_q
// probe: f_m_src[5:3] gen_port[1].m_src_q
// probe: f_m_src[8:6] gen_port[2].m_src_q
// probe: f_m_src[11:9] gen_port[3].m_src_q
// probe: f_m_src[14:12] gen_port[4].m_src_q
// probe: f_m_mid[3:0] gen_port[0].m_mid_q
// probe: f_m_mid[7:4] gen_port[1].m_mid_q
// probe: f_m_mid[11:8] gen_port[2].m_mid_q
// probe: f_m_mid[15:12] gen_port[3].m_mid_q
// probe: f_m_mid[19:16] gen_port[4].m_mid_q
    wire [4:0]   f_busy, f_drop, f_own, f_off, f_s_off;
    wire [29:0]  f_rem;               // wm_router's LEN_W (6) a port
    wire [39:0]  f_s_seq, f_m_rem, f_m_seq;
    wire [24:0]  f_own_sel, f_want;
    wire [39:0]  f_cfg;
    wire [5:0]   f_rst;
    wire [159:0] f_tail;
    wire [9:0]   f_s_rem;             // LEN_BITS = 2
    wire [19:0]  f_s_mid, f_m_mid;
    wire [14:0]  f_m_src;

    // One step of an input's stream, as its sender produced it: the state
    // before a word (data wavelets still due, the next data index, off the
    // mesh, the current message's number, the next message's number) and
    // the word; returns {the word fits, the state after it}.
    function [25:0] f_step(input [24:0] st, input [31:0] w, input [2:0] src);
        reg [7:0] rem, seq;
        reg       off, ok;
        reg [3:0] mc, mn;
        begin
            {rem, seq, off, mc, mn} = st;
            if (rem == 8'd0) begin
                ok  = src_of(w) == src && w[0] == off_mesh(w) && (w[0] || mid_of(w) == (mn & MMASK));
                rem = len_of(w);
                seq = 8'd1;
                off = w[0];
                mc  = mid_of(w);
                if (!w[0]) mn = mn + 1'b1;
            end else begin
                ok  = src_of(w) == src && w[0] == off && (off || (mid_of(w) == (mc & MMASK) && len_of(w) == seq));
                rem = rem - 1'b1;
                seq = seq + 1'b1;
            end
            f_step = {ok, rem, seq, off, mc, mn};
        end
    endfunction

    generate
        if (INV) begin : gen_inv
            if (IN_DEPTH != 2 || TX_DEPTH != 2 || LEN_BITS != 2 || !GROUPS[1]) begin : gen_bad
                wm_router_inv_needs_depth_2_len_bits_2_and_the_message_group u_refuse ();
            end
            // each output's monitor after the wavelet its register shows now
            wire [7:0] pm_rem [0:4];
            wire [7:0] pm_seq [0:4];
            wire [2:0] pm_src [0:4];
            wire [3:0] pm_mid [0:4];
            // input s's next message number once the headers shown now count
            wire [3:0] pexp [0:4];
            genvar k;
            for (k = 0; k < 5; k = k + 1) begin : gen_out
                wire [31:0] ow  = out_w[k];
                wire        hdr = f_m_rem[8*k +: 8] == 8'd0;
                assign pm_rem[k] = !out_valid_o[k] ? f_m_rem[8*k +: 8] : hdr ? len_of(ow) : f_m_rem[8*k +: 8] - 1'b1;
                assign pm_seq[k] = !out_valid_o[k] ? f_m_seq[8*k +: 8] : hdr ? 8'd1 : f_m_seq[8*k +: 8] + 1'b1;
                assign pm_src[k] = (out_valid_o[k] && hdr) ? src_of(ow) : f_m_src[3*k +: 3];
                assign pm_mid[k] = (out_valid_o[k] && hdr) ? mid_of(ow) : f_m_mid[4*k +: 4];
                assign pexp[k]   = exp_mid_q[k] + (hdr_from[5*k +: 5] != 5'b0 ? 4'd1 : 4'd0);
            end
            for (k = 0; k < 5; k = k + 1) begin : gen_in
                localparam [2:0] SRC = k;
                // this input's buffer: count, head, the ring entry; a
                // link's credit pulse and its sender's credits
                wire [1:0]  cnt;
                wire [31:0] e0;
                wire        lcr;
                wire [1:0]  ucr;
                if (k == 4) begin : gen_ramp
                    assign cnt = tx_count;
                    assign e0  = tx_head;
                    assign lcr = 1'b0;
                    assign ucr = 2'd2;
                end else begin : gen_link
                    assign cnt = in_count_o[IC*k +: IC];
                    assign e0  = in_head_o[32*k +: 32];
                    assign lcr = link_credit_o[k];
                    assign ucr = u_cr_q[k];
                end
                wire        hv   = cnt != 2'd0;
                wire [31:0] e1   = f_tail[32*k +: 32];
                // the output it holds, and that output's monitor
                wire [4:0]  sel  = {f_own_sel[20 + k], f_own_sel[15 + k], f_own_sel[10 + k], f_own_sel[5 + k], f_own_sel[k]};
                wire [7:0]  oseq = ({8{sel[0]}} & pm_seq[0]) | ({8{sel[1]}} & pm_seq[1]) | ({8{sel[2]}} & pm_seq[2])
                                 | ({8{sel[3]}} & pm_seq[3]) | ({8{sel[4]}} & pm_seq[4]);
                wire [3:0]  omid = ({4{sel[0]}} & pm_mid[0]) | ({4{sel[1]}} & pm_mid[1]) | ({4{sel[2]}} & pm_mid[2])
                                 | ({4{sel[3]}} & pm_mid[3]) | ({4{sel[4]}} & pm_mid[4]);
                wire [7:0]  rq   = {2'b0, f_rem[6*k +: 6]};
                // the stream from the router's side: what it has taken of
                // the current message, then the buffered words in order
                wire [24:0] st0  = {f_busy[k] ? rq : 8'd0, oseq, f_drop[k], omid, pexp[k]};
                wire [25:0] r1   = f_step(st0, e0, SRC);
                wire [25:0] r2   = f_step(r1[24:0], e1, SRC);
                wire [24:0] fin  = cnt == 2'd0 ? st0 : cnt == 2'd1 ? r1[24:0] : r2[24:0];
                wire [7:0]  frem = fin[24:17];
                wire [7:0]  fseq = fin[16:9];
                wire        foff = fin[8];
                wire [3:0]  fmc  = fin[7:4];
                wire [3:0]  fmn  = fin[3:0];
                wire [1:0]  srem = f_s_rem[2*k +: 2];
                // the head's route, kept beside it
                wire [5:0]  rt   = {off_mesh(e0), !off_mesh(e0) && routed_to(e0, 4), !off_mesh(e0) && routed_to(e0, 3),
                                    !off_mesh(e0) && routed_to(e0, 2), !off_mesh(e0) && routed_to(e0, 1),
                                    !off_mesh(e0) && routed_to(e0, 0)};
                always @* begin
                    if (!f_init) begin
                        if (ACTIVE[k]) begin
                            // the buffered words are the sender's, in order,
                            // from where the router is in the stream
                            if (cnt >= 2'd1) `WM_PROP_ASSERT(r1[25]);
                            if (cnt == 2'd2) `WM_PROP_ASSERT(r2[25]);
                            `WM_PROP_ASSERT(cnt <= 2'd2);
                            // ... and end where the sender is
                            `WM_PROP_ASSERT({6'd0, srem} == frem);
                            `WM_PROP_ASSERT((f_s_mid[4*k +: 4] & MMASK) == (fmn & MMASK));
                            if (frem != 8'd0) `WM_PROP_ASSERT(f_s_off[k] == foff);
                            if (frem != 8'd0 && !foff) `WM_PROP_ASSERT(f_s_seq[8*k +: 8] == fseq);
                            if (frem != 8'd0 && !foff) `WM_PROP_ASSERT(((fmn - 1'b1) & MMASK) == (fmc & MMASK));
                            // a message in progress: its count, owner or discard
                            if (f_busy[k]) `WM_PROP_ASSERT(rq != 8'd0 && rq <= {6'd0, LMASK[1:0]});
                            // the head's route
                            if (hv) `WM_PROP_ASSERT({f_off[k], f_want[20 + k], f_want[15 + k], f_want[10 + k],
                                                     f_want[5 + k], f_want[k]} == rt);
                            // a link's credits: the sender's, the buffer's and the one on its way
                            if (k < 4) `WM_PROP_ASSERT({1'b0, ucr} + {1'b0, cnt} + (lcr ? 3'd1 : 3'd0) == 3'd2);
                        end else begin
                            `WM_PROP_ASSERT(cnt == 2'd0 && !f_busy[k] && !lcr);
                        end
                    end
                end
            end
            for (k = 0; k < 5; k = k + 1) begin : gen_own
                wire [4:0] sel = f_own_sel[5*k +: 5];
                always @* begin
                    if (!f_init) begin
                        // an output is held exactly while its monitor awaits
                        // data, by the input whose message it is, at the
                        // same count; the message's number is the one
                        // before its input's next
                        `WM_PROP_ASSERT(f_own[k] == (pm_rem[k] != 8'd0));
                        `WM_PROP_ASSERT(pm_rem[k] <= {6'd0, LMASK[1:0]});
                        if (f_own[k]) begin
                            `WM_PROP_ASSERT(pm_src[k] <= 3'd4 && sel == (5'd1 << pm_src[k]) && ACTIVE[pm_src[k]]);
                            `WM_PROP_ASSERT({2'b0, f_rem[6*pm_src[k] +: 6]} == pm_rem[k] && !f_drop[pm_src[k]]);
                            `WM_PROP_ASSERT((pm_mid[k] & MMASK) == ((pexp[pm_src[k]] - 1'b1) & MMASK));
                        end
                    end
                end
            end
            always @* begin
                if (!f_init) begin
                    // every module has seen its reset; the configuration is latched
                    `WM_PROP_ASSERT(f_rst == 6'b111111);
                    `WM_PROP_ASSERT(f_cfg == {x, y, last_x, last_y});
                end
            end
        end
    endgenerate
