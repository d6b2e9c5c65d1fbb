// tb_mesh_core: rtl/mesh.v with a PE core in every tile (CORES=1) under
// Icarus, running firmware from images loaded by $readmemh.
//
// Compile-time parameters (iverilog -P): W, H and INIT_PREFIX, the RAM
// images INIT_PREFIX_XX_YY.hex of rtl/mesh.v, one per tile, written by
// tests/test_icarus.c. Run-time plusargs (vvp): +run=MASK, hex, bit y*W+x
// set for every tile whose core runs (the others stay in reset, as a host
// leaves a tile without an instance), and +cycles=N, the cycle limit.
//
// One reset edge, then the cores run from cycle 0, exactly as
// csim/run/core_sched.c runs them: before each edge, if every running core
// has halted, the run ends. The bench prints every wavelet in every output
// register after every edge, "cycle x y port data" as tb_mesh.v does, and
// before it every running core's eventful cycle (a retire, a push or a
// pop), "ev cycle x y" with " retire pc insn", " xRD=data", " push data",
// " pop" as they apply; then for every running core "core x y exited
// exit_code fault cause pc insn retired", the cycle the run ended, "end
// cycle", and every running core's PE block (sw/rv32/pe_block.h), "block x
// y index word" for each of its 128 words at 0x5E00.
`timescale 1ns/1ps
`default_nettype none

module tb_mesh_core;
    parameter W = 4;
    parameter H = 2;
    parameter INIT_PREFIX = "tb_mesh_core";
    localparam N = W * H;
    localparam BLOCK_WORD = 32'h5E00 / 4;   // WM_PE_BLOCK_ADDR
    localparam BLOCK_WORDS = 512 / 4;       // WM_PE_BLOCK_BYTES

    reg              clk = 1'b0, rst_n = 1'b0;
    reg  [N-1:0]     run = {N{1'b0}};
    wire [32*N-1:0]  rx_head, err_hdr;
    wire [4*N-1:0]   tx_count, rx_count, status;
    wire [64*N-1:0]  tsc;
    wire [5*N-1:0]   ov;
    wire [160*N-1:0] od;
    wire [N-1:0]     exited, fault, retire, rd_we, push, pop, waiting;
    wire [3*N-1:0]   cause;
    wire [5*N-1:0]   rd;
    wire [32*N-1:0]  exit_code, fault_pc, fault_insn, retire_pc, retire_insn, rd_data, push_data, pc;

    wm_mesh #(.W(W), .H(H), .CORES(1), .INIT_PREFIX(INIT_PREFIX)) dut (
        .clk_i(clk), .rst_ni(rst_n), .enable_i({N{1'b1}}),
        .pe_push_i({N{1'b0}}), .pe_data_i({32*N{1'b0}}), .pe_pop_i({N{1'b0}}),
        .pe_rx_head_o(rx_head), .pe_tx_count_o(tx_count), .pe_rx_count_o(rx_count),
        .pe_status_o(status), .pe_tsc_o(tsc), .err_hdr_o(err_hdr),
        .out_valid_o(ov), .out_data_o(od),
        .core_run_i(run), .core_exited_o(exited), .core_exit_code_o(exit_code),
        .core_fault_o(fault), .core_fault_cause_o(cause), .core_fault_pc_o(fault_pc),
        .core_fault_insn_o(fault_insn), .core_retire_o(retire), .core_retire_pc_o(retire_pc),
        .core_retire_insn_o(retire_insn), .core_rd_we_o(rd_we), .core_rd_o(rd),
        .core_rd_data_o(rd_data), .core_push_o(push), .core_push_data_o(push_data),
        .core_pop_o(pop), .core_pc_o(pc), .core_wait_o(waiting)
    );

    // The register files have no reset; the C models start them at 0
    // (docs/core.md), so does this bench. The block dump reads each RAM.
    reg dump = 1'b0;
    genvar gx, gy;
    generate
        for (gy = 0; gy < H; gy = gy + 1) begin : gen_row
            for (gx = 0; gx < W; gx = gx + 1) begin : gen_col
                integer r;
                initial for (r = 0; r < 32; r = r + 1)
                    dut.gen_row[gy].gen_col[gx].gen_core.u_tile.u_core.u_regfile.regs_q[r] = 32'd0;
                always @(posedge dump)
                    if (run[gy * W + gx])
                        for (r = 0; r < BLOCK_WORDS; r = r + 1)
                            $display("block %0d %0d %0d %08x", gx, gy, r,
                                     dut.gen_row[gy].gen_col[gx].gen_core.u_tile.u_ram.mem_q[BLOCK_WORD + r]);
            end
        end
    endgenerate

    integer t, p, cycle, max_cycles;
    integer retired [0:N-1];
    reg [N-1:0] mask;

    initial begin
        if (!$value$plusargs("run=%h", mask)) mask = {N{1'b1}};
        if (!$value$plusargs("cycles=%d", max_cycles)) max_cycles = 100000;
        for (t = 0; t < N; t = t + 1) retired[t] = 0;
        // one reset edge, as the C side does; the cores start after it
        #1 clk = 1; #1 clk = 0; rst_n = 1; run = mask;
        cycle = 0;
        while (cycle < max_cycles && (run & ~(exited | fault)) != {N{1'b0}}) begin
            // what each core does in this cycle, settled before the edge that ends it
            #1 for (t = 0; t < N; t = t + 1) begin
                retired[t] = retired[t] + retire[t];
                if (run[t] && (retire[t] || push[t] || pop[t])) begin
                    $write("ev %0d %0d %0d", cycle, t % W, t / W);
                    if (retire[t]) $write(" retire %08x %08x", retire_pc[32*t +: 32], retire_insn[32*t +: 32]);
                    if (rd_we[t]) $write(" x%0d=%08x", rd[5*t +: 5], rd_data[32*t +: 32]);
                    if (push[t]) $write(" push %08x", push_data[32*t +: 32]);
                    if (pop[t]) $write(" pop");
                    $write("\n");
                end
            end
            clk = 1;
            #1 clk = 0;
            cycle = cycle + 1;
            for (t = 0; t < N; t = t + 1)
                for (p = 0; p < 5; p = p + 1)
                    if (ov[5*t + p]) $display("%0d %0d %0d %0d %08x", cycle, t % W, t / W, p, od[160*t + 32*p +: 32]);
        end
        for (t = 0; t < N; t = t + 1)
            if (run[t])
                $display("core %0d %0d %0d %08x %0d %0d %08x %08x %0d", t % W, t / W, exited[t], exit_code[32*t +: 32],
                         fault[t], cause[3*t +: 3], fault_pc[32*t +: 32], fault_insn[32*t +: 32], retired[t]);
        $display("end %0d", cycle);
        dump = 1'b1;
        #1 $finish;
    end
endmodule

`default_nettype wire
