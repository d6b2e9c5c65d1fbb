// wm_core: the PE core, RV32IM in machine mode (docs/core.md).
//
// Firmware runs on every tile on this core, and its cycle counts are a
// contract: the C instruction-set simulator (csim/core/iss.c) reproduces
// them exactly, so the pipeline is kept as simple as the contract allows.
//
// Two stages. F presents pc_f_q to the RAM's instruction port, which reads
// at the falling edge; at the rising edge that ends the cycle the word
// enters X (insn_q) and its operands are read out of the block RAM register
// file (wm_core_regfile), so X starts from flops. X decodes, computes,
// accesses the RAM or the PE datapath, writes the register file at the end
// of its last cycle and resolves jumps. One execute stage means no hazards;
// the register file bypasses the one write that coincides with its read.
//
// X counts the cycles of its instruction in cnt_q and ends it (retires)
// when cnt_q reaches the class's last cycle: 0 for ALU, untaken branches,
// stores and FENCE; 1 for taken branches, JAL, JALR and loads; 33 for
// MUL*, DIV* and REM*. A TX store to a full queue and an RX load from an
// empty one repeat the first cycle (cnt_q stays 0) until the access can
// happen. F keeps presenting the address after the one in X while X is
// busy, and advances when X ends its instruction, so the next word is on
// the instruction port exactly when X takes it. A taken jump loads its
// target into pc_f_q in its first X cycle (the word F fetched is dropped)
// and ends in the second, while F fetches the target.
// Faults are detected in an instruction's first X cycle; the core halts at
// the end of that cycle (or of an EXIT store) and freezes: halted_q gates
// everything, so no later instruction retires or touches memory.
// hold_i freezes it the same way for one cycle, from outside: a debugger's
// hold (docs/debugging.md). Every flop keeps its value, nothing retires,
// fetches anew, reads the register file, accesses the RAM or the PE, so
// the core goes on after the hold exactly as it would have before it, that
// many cycles later; the RAM, the tile and the fabric run on.
//
// The register window (0x8000_0000..0x23) is decoded here, not in a bus:
// a register access samples the datapath inputs in its first X cycle and
// drives pe_push_o / pe_pop_o combinationally in that cycle, only when the
// access can happen (the datapath's sticky error flags never fire).
`default_nettype none
`include "rtl/prim/wm_assert.vh"

module wm_core #(
    parameter MEM_BYTES = 16384,   // a power of two (wm_ram indexes with the low bits)
    parameter TX_DEPTH  = 8        // for QUEUES' tx_room and the TX stall
) (
    input  wire        clk_i,
    input  wire        rst_ni,
    input  wire        hold_i,        // a debugger's hold: this cycle changes nothing in the core
    // instruction port: synchronous RAM read
    output wire [31:0] imem_addr_o,
    input  wire [31:0] imem_rdata_i,
    // data port: synchronous RAM read, byte-enabled write; RAM addresses only
    output wire        dmem_en_o,
    output wire [3:0]  dmem_we_o,
    output wire [31:0] dmem_addr_o,
    output wire [31:0] dmem_wdata_o,
    input  wire [31:0] dmem_rdata_i,
    // PE datapath
    output wire        pe_push_o,
    output wire [31:0] pe_push_data_o,
    output wire        pe_pop_o,
    input  wire [3:0]  pe_tx_count_i,
    input  wire [3:0]  pe_rx_count_i,
    input  wire [31:0] pe_rx_head_i,
    input  wire [63:0] pe_tsc_i,
    input  wire [7:0]  pe_status_i,
    input  wire [31:0] pe_err_hdr_i,
    input  wire [9:0]  pe_col_i,
    input  wire [9:0]  pe_row_i,
    // halt, from flops: valid from the cycle after the EXIT store or fault;
    // fault_pc_o / fault_insn_o name the halting instruction (the EXIT store too)
    output wire        halted_o,
    output wire        exited_o,
    output wire [31:0] exit_code_o,
    output wire        fault_o,
    output wire [2:0]  fault_cause_o,
    output wire [31:0] fault_pc_o,
    output wire [31:0] fault_insn_o,
    // retire: in the instruction's last X cycle
    output wire        retire_o,
    output wire [31:0] retire_pc_o,
    output wire [31:0] retire_insn_o,
    output wire        rd_we_o,
    output wire [4:0]  rd_o,
    output wire [31:0] rd_data_o,
    output wire [31:0] pc_o,           // the PC of the instruction in X
    // observation, from a flop: in the cycle that just ended, X held a TX
    // store to a full queue or an RX load from an empty one, and so repeats
    // its first cycle now (docs/core.md: stall, not poll); the ISS's
    // wm_iss_waiting after a step says the same
    output wire        wait_o
);
    localparam [6:0] OPC_LOAD   = 7'b0000011;
    localparam [6:0] OPC_FENCE  = 7'b0001111;
    localparam [6:0] OPC_OPIMM  = 7'b0010011;
    localparam [6:0] OPC_AUIPC  = 7'b0010111;
    localparam [6:0] OPC_STORE  = 7'b0100011;
    localparam [6:0] OPC_OP     = 7'b0110011;
    localparam [6:0] OPC_LUI    = 7'b0110111;
    localparam [6:0] OPC_BRANCH = 7'b1100011;
    localparam [6:0] OPC_JALR   = 7'b1100111;
    localparam [6:0] OPC_JAL    = 7'b1101111;

    // register window, word offsets
    localparam [3:0] R_TX = 4'd0, R_RX = 4'd1, R_QUEUES = 4'd2, R_TSC_LO = 4'd3,
                     R_TSC_HI = 4'd4, R_STATUS = 4'd5, R_ERR_HDR = 4'd6, R_COORD = 4'd7,
                     R_EXIT = 4'd8;

    // fault causes (csim/core/core_port.h)
    localparam [2:0] F_NONE = 3'd0, F_ILLEGAL = 3'd1, F_JUMP = 3'd2, F_FETCH = 3'd3,
                     F_ALIGN = 3'd4, F_ACCESS = 3'd5, F_UNMAPPED = 3'd6;

    localparam [31:0] MEM_TOP  = MEM_BYTES;
    localparam [19:0] RAM_HI   = (MEM_BYTES >= 4096) ? MEM_BYTES / 4096 : 1;   // MEM_TOP >> 12
    localparam integer TXD     = TX_DEPTH;
    localparam [3:0]  TX_FULL  = TXD[3:0];
    localparam [7:0]  TX_SLOTS = TXD[7:0];
    localparam [5:0]  CNT_LONG_LAST = 6'd33;   // MUL*, DIV*, REM*: setup, 32 steps, write-back

    // ---- state ----
    reg [31:0] pc_f_q, pc_f_d;         // the address F presents
    reg        x_valid_q, x_valid_d;   // X holds an instruction (not in cycle 0)
    reg        x_new_d;                // X takes the next word at this edge
    reg        x_fbad_q, x_fbad_d;     // X's instruction was fetched past the RAM
    reg [31:0] x_pc_q, x_pc_d;
    reg [31:0] insn_q;                 // X's word (0 when fetched past the RAM)
    reg [5:0]  cnt_q, cnt_d;           // X cycles of this instruction, stalls not counted
    reg        ld_reg_q, ld_reg_d;     // the load in X read a register
    reg [1:0]  ld_off_q, ld_off_d;     // its byte offset
    reg [31:0] ld_val_q, ld_val_d;     // the register's value
    reg [31:0] tsc_hi_q, tsc_hi_d;     // TSC_HI, latched by a TSC_LO read
    reg        halted_q, halted_d;
    reg        exited_q, exited_d;
    reg [31:0] exit_code_q, exit_code_d;
    reg        fault_q, fault_d;
    reg [2:0]  cause_q, cause_d;
    reg [31:0] fault_pc_q, fault_pc_d;
    reg [31:0] fault_insn_q, fault_insn_d;

    wire frozen   = halted_q || hold_i;
    wire x_active = x_valid_q && !frozen;
    wire first    = (cnt_q == 6'd0);

    // ---- decode ----
    wire [31:0] insn = insn_q;
    wire [6:0]  opc  = insn[6:0];
    wire [4:0]  rd   = insn[11:7];
    wire [2:0]  f3   = insn[14:12];
    wire [6:0]  f7   = insn[31:25];

    wire [31:0] imm_i = {{20{insn[31]}}, insn[31:20]};
    wire [31:0] imm_s = {{20{insn[31]}}, insn[31:25], insn[11:7]};
    wire [31:0] imm_b = {{19{insn[31]}}, insn[31], insn[7], insn[30:25], insn[11:8], 1'b0};
    wire [31:0] imm_u = {insn[31:12], 12'd0};
    wire [31:0] imm_j = {{11{insn[31]}}, insn[31], insn[19:12], insn[20], insn[30:21], 1'b0};

    wire f7_zero = (f7 == 7'b0000000);
    wire f7_alt  = (f7 == 7'b0100000);
    wire f7_mext = (f7 == 7'b0000001);

    wire is_lui    = (opc == OPC_LUI);
    wire is_auipc  = (opc == OPC_AUIPC);
    wire is_jal    = (opc == OPC_JAL);
    wire is_jalr   = (opc == OPC_JALR) && (f3 == 3'b000);
    wire is_branch = (opc == OPC_BRANCH) && (f3[2:1] != 2'b01);
    wire is_load   = (opc == OPC_LOAD) && (f3[1:0] != 2'b11) && (f3[2:1] != 2'b11);
    wire is_store  = (opc == OPC_STORE) && !f3[2] && (f3[1:0] != 2'b11);
    wire is_opimm  = (opc == OPC_OPIMM) &&
                     ((f3 == 3'b001) ? f7_zero : (f3 == 3'b101) ? (f7_zero || f7_alt) : 1'b1);
    wire is_aluop  = (opc == OPC_OP) && (f7_zero || (f7_alt && (f3 == 3'b000 || f3 == 3'b101)));
    wire is_mul    = (opc == OPC_OP) && f7_mext && !f3[2];
    wire is_div    = (opc == OPC_OP) && f7_mext && f3[2];
    wire is_fence  = (opc == OPC_FENCE) && (f3 == 3'b000);
    wire legal     = is_lui || is_auipc || is_jal || is_jalr || is_branch || is_load ||
                     is_store || is_opimm || is_aluop || is_mul || is_div || is_fence;
    wire writes_rd = is_lui || is_auipc || is_jal || is_jalr || is_load || is_opimm ||
                     is_aluop || is_mul || is_div;

    // ---- register file ----
    wire [31:0] rs1v, rs2v;
    wire        rf_we;
    wire [31:0] wb_data;

    wm_core_regfile u_regfile (
        .clk_i      (clk_i),
        .re_i       (x_new_d),
        .rs1_i      (imem_rdata_i[19:15]),   // the next instruction's rs1, rs2
        .rs2_i      (imem_rdata_i[24:20]),
        .rs1_data_o (rs1v),
        .rs2_data_o (rs2v),
        .we_i       (rf_we),
        .rd_i       (rd),
        .rd_data_i  (wb_data)
    );

    // ---- ALU: OP, OP-IMM, and LUI / AUIPC as an ADD ----
    wire        upper   = is_lui || is_auipc;
    wire [31:0] alu_a   = is_auipc ? x_pc_q : is_lui ? 32'd0 : rs1v;
    wire [31:0] alu_b   = (opc == OPC_OP) ? rs2v : upper ? imm_u : imm_i;
    wire [2:0]  alu_op  = upper ? 3'b000 : f3;
    wire        alu_alt = f7[5] && ((opc == OPC_OP) || (opc == OPC_OPIMM && f3 == 3'b101));
    wire [31:0] alu_y;

    wm_core_alu u_alu (
        .a_i   (alu_a),
        .b_i   (alu_b),
        .op_i  (alu_op),
        .alt_i (alu_alt),
        .y_o   (alu_y)
    );

    // ---- branches and jumps ----
    reg br_cond;
    always @* begin
        case (f3[2:1])
            2'b00:   br_cond = (rs1v == rs2v);
            2'b10:   br_cond = ($signed(rs1v) < $signed(rs2v));
            default: br_cond = (rs1v < rs2v);
        endcase
        br_cond = br_cond ^ f3[0];
    end
    wire        jump     = is_jal || is_jalr || (is_branch && br_cond);
    wire [31:0] tgt_base = is_jalr ? rs1v : x_pc_q;
    wire [31:0] tgt_off  = is_jal ? imm_j : is_jalr ? imm_i : imm_b;
    wire [31:0] tgt_sum  = tgt_base + tgt_off;
    wire [31:0] tgt      = {tgt_sum[31:1], tgt_sum[0] && !is_jalr};
    wire [31:0] link     = x_pc_q + 32'd4;

    // ---- loads and stores: the effective address and where it lands ----
    wire        mem_op  = is_load || is_store;
    wire [31:0] imm_ls  = is_store ? imm_s : imm_i;
    wire [31:0] ea      = rs1v + imm_ls;
    wire        sz_half = (f3[1:0] == 2'b01);
    wire        sz_word = (f3[1:0] == 2'b10);
    wire        misal   = (sz_half && ea[0]) || (sz_word && ea[1:0] != 2'b00);
    // Where ea lands (the RAM, the register window 0x8000_0000..0x23, or
    // nowhere) decides a push, a pop, a RAM access and the faults, all in
    // this cycle: so it is decided beside the adder, not after its 32-bit
    // carry chain. The low bits come out of a 12-bit add; above them ea is
    // rs1's high part minus one, itself or plus one (the immediate's sign
    // and the 12-bit carry say which), and the comparisons of rs1's high
    // part for each of the three run in parallel with the add.
    wire [12:0] ea_lo   = {1'b0, rs1v[11:0]} + {1'b0, imm_ls[11:0]};
    wire [19:0] rs1_hi  = rs1v[31:12];
    wire        hi_dec  = imm_ls[11] && !ea_lo[12];   // ea's high part is rs1's - 1
    wire        hi_inc  = !imm_ls[11] && ea_lo[12];   // ... + 1
    wire        win_hi  = hi_dec ? (rs1_hi == 20'h80001) : hi_inc ? (rs1_hi == 20'h7FFFF)
                                 : (rs1_hi == 20'h80000);
    wire        in_win  = win_hi && (ea_lo[11:6] == 6'd0) && (ea_lo[5:0] < 6'h24);
    // The RAM, ea < MEM_TOP: ea's high part below RAM_HI (MEM_TOP is a power
    // of two; below 4 KiB the plain comparison).
    wire        ram_hi  = hi_dec ? (rs1_hi != 20'd0 && rs1_hi <= RAM_HI)
                        : hi_inc ? ((rs1_hi < RAM_HI && rs1_hi != RAM_HI - 20'd1) || rs1_hi == 20'hFFFFF)
                        : (rs1_hi < RAM_HI);
    wire        in_ram  = (MEM_BYTES >= 4096) ? ram_hi : (ea < MEM_TOP);
    wire [3:0]  woff    = ea_lo[5:2];
    wire        win_ok  = sz_word && (is_load ? (woff >= R_RX && woff <= R_COORD)
                                              : (woff == R_TX || woff == R_EXIT));

    // ---- faults, all raised in an instruction's first X cycle ----
    reg [2:0] cause;
    always @* begin
        if (x_fbad_q)                       cause = F_FETCH;
        else if (!legal)                    cause = F_ILLEGAL;
        else if (jump && tgt[1:0] != 2'b00) cause = F_JUMP;
        else if (mem_op && misal)           cause = F_ALIGN;
        else if (mem_op && !in_ram && !in_win) cause = F_ACCESS;
        else if (mem_op && in_win && !win_ok)  cause = F_UNMAPPED;
        else                                cause = F_NONE;
    end
    wire fault = x_active && first && (cause != F_NONE);

    // ---- the register window ----
    // A word access to the window at a mapped offset, one that does not
    // fault, written out: a load or a store is legal and no jump, so of the
    // causes only the alignment remains, and the window is not the RAM.
    // Spelt so, the push and the pop wait for the window's decode, not for
    // the whole fault priority (and its other adders).
    wire win_word = x_active && first && !x_fbad_q && sz_word && (ea_lo[1:0] == 2'b00) && in_win;
    wire tx_st    = win_word && is_store && (woff == R_TX);
    wire exit_st  = win_word && is_store && (woff == R_EXIT);
    wire rx_ld    = win_word && is_load && (woff == R_RX);
    wire tx_full  = (pe_tx_count_i == TX_FULL);
    wire rx_empty = (pe_rx_count_i == 4'd0);
    wire stall    = (tx_st && tx_full) || (rx_ld && rx_empty);

    reg wait_q;
    always @(posedge clk_i) begin
        if (!rst_ni)      wait_q <= 1'b0;
        else if (!hold_i) wait_q <= stall;
    end

    reg [31:0] win_val;
    always @* begin
        case (woff)
            R_RX:      win_val = pe_rx_head_i;
            R_QUEUES:  win_val = {16'd0, 4'd0, pe_rx_count_i, TX_SLOTS - {4'd0, pe_tx_count_i}};
            R_TSC_LO:  win_val = pe_tsc_i[31:0];
            R_TSC_HI:  win_val = tsc_hi_q;
            R_STATUS:  win_val = {24'd0, pe_status_i};
            R_ERR_HDR: win_val = pe_err_hdr_i;
            R_COORD:   win_val = {6'd0, pe_row_i, 6'd0, pe_col_i};
            default:   win_val = 32'd0;
        endcase
    end

    // ---- multiply and divide: setup, 32 steps, write-back ----
    wire        long_step = x_active && !first && cnt_q != CNT_LONG_LAST;
    wire [31:0] mul_lo, mul_hi, div_q, div_r;

    wm_core_mul u_mul (
        .clk_i    (clk_i),
        .start_i  (x_active && first && is_mul),   // a MUL never faults
        .step_i   (long_step && is_mul),
        .a_signed_i ((f3[1:0] == 2'b01) || (f3[1:0] == 2'b10)),   // MULH, MULHSU
        .b_signed_i (f3[1:0] == 2'b01),                           // MULH
        .a_i      (rs1v),
        .b_i      (rs2v),
        .lo_o     (mul_lo),
        .hi_o     (mul_hi)
    );
    wire [31:0] mul_y = (f3[1:0] == 2'b00) ? mul_lo : mul_hi;

    wm_core_div u_div (
        .clk_i      (clk_i),
        .start_i    (x_active && first && is_div),
        .step_i     (long_step && is_div),
        .signed_i   (!f3[0]),
        .dividend_i (rs1v),
        .divisor_i  (rs2v),
        .quot_o     (div_q),
        .rem_o      (div_r)
    );
    wire [31:0] div_y = f3[1] ? div_r : div_q;

    // ---- load data, in the load's second cycle ----
    wire [31:0] ld_word = ld_reg_q ? ld_val_q : dmem_rdata_i;
    wire [15:0] ld_half = ld_off_q[1] ? ld_word[31:16] : ld_word[15:0];
    wire [7:0]  ld_byte = ld_off_q[0] ? ld_half[15:8] : ld_half[7:0];
    reg  [31:0] ld_y;
    always @* begin
        case (f3)
            3'b000:  ld_y = {{24{ld_byte[7]}}, ld_byte};
            3'b001:  ld_y = {{16{ld_half[15]}}, ld_half};
            3'b100:  ld_y = {24'd0, ld_byte};
            3'b101:  ld_y = {16'd0, ld_half};
            default: ld_y = ld_word;
        endcase
    end

    // ---- end of the instruction, write-back ----
    // The class's last cycle (cnt_q): 0, 1 for taken branches, JAL, JALR
    // and loads, CNT_LONG_LAST for MUL* and DIV*, spelt per cycle so that a
    // branch's comparison is one LUT from the end of its first cycle (a
    // later cycle is reached only by an instruction whose last it can be).
    wire long_op   = is_mul || is_div;
    wire end_first = !long_op && !is_load && !is_jal && !is_jalr && !(is_branch && br_cond);
    wire end_later = long_op ? (cnt_q == CNT_LONG_LAST) : (cnt_q == 6'd1);
    // An instruction ends (retires) in its last cycle unless it faults.
    // ends is the same without the fault: every instruction that can fault
    // does so in its first cycle, and none that writes a register ends in
    // it (an illegal word writes none; a faulting jump or load ends in its
    // second cycle, which a fault never reaches), so the register write and
    // an EXIT store need not wait for the fault priority. What F and X do
    // next is also decided from ends: in a faulting cycle they move on, and
    // since the core halts at that edge (halted_q gates X) and the halt
    // record and pc_o come from flops captured until it, nothing sees them.
    // Only the halt itself, and the retire port, wait for the faults.
    wire ends    = x_active && !stall && (first ? end_first : end_later);
    wire done    = ends && !fault;
    wire exiting = ends && exit_st;
    assign rf_we = ends && writes_rd && (rd != 5'd0);
    // The ALU's result is selected last: it is the late one (a carry chain
    // from the register file's read), the others come from flops or early.
    wire        wb_alu  = !(is_load || is_jal || is_jalr || is_mul || is_div);
    wire [31:0] wb_rest = is_load ? ld_y
                        : (is_jal || is_jalr) ? link
                        : is_mul ? mul_y
                        : div_y;
    assign wb_data = wb_alu ? alu_y : wb_rest;

    // ---- next state ----
    always @* begin
        pc_f_d       = pc_f_q;
        x_valid_d    = x_valid_q;
        x_new_d      = 1'b0;
        x_fbad_d     = x_fbad_q;
        x_pc_d       = x_pc_q;
        cnt_d        = cnt_q;
        ld_reg_d     = ld_reg_q;
        ld_off_d     = ld_off_q;
        ld_val_d     = ld_val_q;
        tsc_hi_d     = tsc_hi_q;
        halted_d     = halted_q || fault || exiting;
        exited_d     = exited_q || exiting;
        fault_d      = fault_q || fault;
        // The halt record: captured in every cycle until the halt, so the
        // edge that halts keeps the halting instruction's; the ports show
        // it only once halted_q, exited_q, fault_q say so (0 before).
        exit_code_d  = halted_q ? exit_code_q : rs2v;
        cause_d      = halted_q ? cause_q : cause;
        fault_pc_d   = halted_q ? fault_pc_q : x_pc_q;
        fault_insn_d = halted_q ? fault_insn_q : insn;

        if (x_active && !stall)
            cnt_d = ends ? 6'd0 : cnt_q + 6'd1;

        // F: advance when X takes the next word, redirect on a taken jump
        if (!frozen && (!x_valid_q || ends)) begin
            x_valid_d = 1'b1;
            x_new_d   = 1'b1;
            x_pc_d    = pc_f_q;
            x_fbad_d  = (pc_f_q >= MEM_TOP);
            pc_f_d    = pc_f_q + 32'd4;
        end else if (x_active && first && jump) begin
            pc_f_d = tgt;
        end

        // (no fault check: the registers of a faulting load are never read)
        if (x_active && first && is_load && !stall) begin
            ld_reg_d = in_win;
            ld_off_d = ea[1:0];
            ld_val_d = win_val;
            if (in_win && woff == R_TSC_LO) tsc_hi_d = pe_tsc_i[63:32];
        end

    end

    always @(posedge clk_i) begin
        if (!rst_ni) begin
            pc_f_q       <= 32'd0;
            x_valid_q    <= 1'b0;
            x_fbad_q     <= 1'b0;
            cnt_q        <= 6'd0;
            tsc_hi_q     <= 32'd0;
            halted_q     <= 1'b0;
            exited_q     <= 1'b0;
            exit_code_q  <= 32'd0;
            fault_q      <= 1'b0;
            cause_q      <= F_NONE;
            fault_pc_q   <= 32'd0;
            fault_insn_q <= 32'd0;
        end else begin
            pc_f_q       <= pc_f_d;
            x_valid_q    <= x_valid_d;
            x_fbad_q     <= x_fbad_d;
            cnt_q        <= cnt_d;
            tsc_hi_q     <= tsc_hi_d;
            halted_q     <= halted_d;
            exited_q     <= exited_d;
            exit_code_q  <= exit_code_d;
            fault_q      <= fault_d;
            cause_q      <= cause_d;
            fault_pc_q   <= fault_pc_d;
            fault_insn_q <= fault_insn_d;
        end
    end

    // Datapath registers: no reset, read only after the cycle that loads them.
    always @(posedge clk_i) begin
        if (x_new_d) insn_q <= x_fbad_d ? 32'd0 : imem_rdata_i;
        x_pc_q   <= x_pc_d;   // read only while x_valid_q (pc_o says 0 before)
        ld_reg_q <= ld_reg_d;
        ld_off_q <= ld_off_d;
        ld_val_q <= ld_val_d;
    end

    // ---- ports ----
    assign imem_addr_o    = pc_f_q;
    // A RAM access that does not fault, written out as the window's are
    assign dmem_en_o      = x_active && first && !x_fbad_q && mem_op && !misal && in_ram;
    assign dmem_we_o      = !(dmem_en_o && is_store) ? 4'b0000
                          : sz_word ? 4'b1111
                          : sz_half ? (ea[1] ? 4'b1100 : 4'b0011)
                          : (4'b0001 << ea[1:0]);
    assign dmem_addr_o    = ea;
    assign dmem_wdata_o   = sz_word ? rs2v : sz_half ? {2{rs2v[15:0]}} : {4{rs2v[7:0]}};
    assign pe_push_o      = tx_st && !tx_full;
    assign pe_push_data_o = rs2v;
    assign pe_pop_o       = rx_ld && !rx_empty;

    assign halted_o       = halted_q;
    assign exited_o       = exited_q;
    assign exit_code_o    = exited_q ? exit_code_q : 32'd0;
    assign fault_o        = fault_q;
    assign fault_cause_o  = fault_q ? cause_q : F_NONE;
    assign fault_pc_o     = halted_q ? fault_pc_q : 32'd0;
    assign fault_insn_o   = halted_q ? fault_insn_q : 32'd0;

    assign retire_o       = done;
    assign retire_pc_o    = x_pc_q;
    assign retire_insn_o  = insn;
    assign rd_we_o        = rf_we;
    assign rd_o           = rd;
    assign rd_data_o      = wb_data;
    assign pc_o           = halted_q ? fault_pc_q        // X moved on at the halting edge
                          : x_valid_q ? x_pc_q : 32'd0;
    assign wait_o         = wait_q;


    `WM_ASSERT(no_push_when_tx_full, clk_i, rst_ni, !(pe_push_o && pe_tx_count_i >= TX_FULL),
               ("push into a full TX queue"))
    `WM_ASSERT(no_pop_when_rx_empty, clk_i, rst_ni, !(pe_pop_o && pe_rx_count_i == 4'd0),
               ("pop from an empty RX queue"))
    `WM_ASSERT(data_in_ram, clk_i, rst_ni, !(dmem_en_o && dmem_addr_o >= MEM_TOP),
               ("data access past the RAM at %h", dmem_addr_o))
    `WM_ASSERT(cnt_in_range, clk_i, rst_ni, cnt_q <= CNT_LONG_LAST, ("X cycle count %0d out of range", cnt_q))
    `WM_ASSERT(quiet_after_halt, clk_i, rst_ni, !(halted_q && (retire_o || dmem_en_o || pe_push_o || pe_pop_o)),
               ("activity after the halt"))
endmodule

`default_nettype wire
