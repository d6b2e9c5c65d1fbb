// wm_core_cover: the core's events that `make coverage` must see hit:
// every RV32IM instruction retired, every fault, and every case where one
// instruction depends on the one before or waits (bound by wm_core_bind.sv
// in the coverage build only; drives nothing).
//
// The core has one execute stage, so none of these is a pipeline hazard
// it must resolve (docs/core.md); they are the cases a pipelined core
// would get wrong, and the ones its cycle contract with the ISS names: a
// register read right after its write, a load's value used at once, a
// taken jump dropping the word fetched behind it, the TX and RX stalls,
// the multi-cycle MUL and DIV.
`default_nettype none

module wm_core_cover (
    input wire        clk_i,
    input wire        rst_ni,
    input wire        done,
    input wire [31:0] insn,
    input wire        x_active,
    input wire        first,
    input wire        jump,
    input wire        stall,
    input wire        tx_st,
    input wire        rx_ld,
    input wire        fault,
    input wire [2:0]  cause,
    input wire        rf_we
);
    // an instruction's first cycle, and it does not fault
    wire go = x_active && first && !fault;
    wire [6:0] opc = insn[6:0];
    wire [2:0] f3  = insn[14:12];
    wire [6:0] f7  = insn[31:25];
    wire [4:0] rd  = insn[11:7];
    wire [4:0] rs1 = insn[19:15];
    wire [4:0] rs2 = insn[24:20];
    wire op_lui = opc == 7'b0110111, op_auipc = opc == 7'b0010111, op_jal = opc == 7'b1101111;
    wire op_jalr = opc == 7'b1100111, op_branch = opc == 7'b1100011, op_load = opc == 7'b0000011;
    wire op_store = opc == 7'b0100011, op_imm = opc == 7'b0010011, op_reg = opc == 7'b0110011;
    wire op_fence = opc == 7'b0001111;
    wire base = f7 == 7'b0000000, alt = f7 == 7'b0100000, mext = f7 == 7'b0000001;
    wire uses_rs1 = op_jalr || op_branch || op_load || op_store || op_imm || op_reg;
    wire uses_rs2 = op_branch || op_store || op_reg;

    // what the instruction retired before this one wrote
    reg       prev_we_q, prev_load_q;
    reg [4:0] prev_rd_q;
    always @(posedge clk_i) begin
        if (!rst_ni) begin
            prev_we_q   <= 1'b0;
            prev_load_q <= 1'b0;
            prev_rd_q   <= 5'd0;
        end else if (done) begin
            prev_we_q   <= rf_we;
            prev_load_q <= op_load;
            prev_rd_q   <= rd;
        end
    end
    wire raw1 = prev_we_q && uses_rs1 && rs1 == prev_rd_q;
    wire raw2 = prev_we_q && uses_rs2 && rs2 == prev_rd_q;

`define WM_COVER(name, cond) name: cover property (@(posedge clk_i) rst_ni && (cond));
`define WM_RETIRED(name, cond) `WM_COVER(name, done && (cond))
    `WM_RETIRED(lui, op_lui)
    `WM_RETIRED(auipc, op_auipc)
    `WM_RETIRED(jal, op_jal)
    `WM_RETIRED(jalr, op_jalr)
    `WM_RETIRED(beq, op_branch && f3 == 3'b000)
    `WM_RETIRED(bne, op_branch && f3 == 3'b001)
    `WM_RETIRED(blt, op_branch && f3 == 3'b100)
    `WM_RETIRED(bge, op_branch && f3 == 3'b101)
    `WM_RETIRED(bltu, op_branch && f3 == 3'b110)
    `WM_RETIRED(bgeu, op_branch && f3 == 3'b111)
    `WM_RETIRED(lb, op_load && f3 == 3'b000)
    `WM_RETIRED(lh, op_load && f3 == 3'b001)
    `WM_RETIRED(lw, op_load && f3 == 3'b010)
    `WM_RETIRED(lbu, op_load && f3 == 3'b100)
    `WM_RETIRED(lhu, op_load && f3 == 3'b101)
    `WM_RETIRED(sb, op_store && f3 == 3'b000)
    `WM_RETIRED(sh, op_store && f3 == 3'b001)
    `WM_RETIRED(sw, op_store && f3 == 3'b010)
    `WM_RETIRED(addi, op_imm && f3 == 3'b000)
    `WM_RETIRED(slti, op_imm && f3 == 3'b010)
    `WM_RETIRED(sltiu, op_imm && f3 == 3'b011)
    `WM_RETIRED(xori, op_imm && f3 == 3'b100)
    `WM_RETIRED(ori, op_imm && f3 == 3'b110)
    `WM_RETIRED(andi, op_imm && f3 == 3'b111)
    `WM_RETIRED(slli, op_imm && f3 == 3'b001)
    `WM_RETIRED(srli, op_imm && f3 == 3'b101 && base)
    `WM_RETIRED(srai, op_imm && f3 == 3'b101 && alt)
    `WM_RETIRED(add, op_reg && base && f3 == 3'b000)
    `WM_RETIRED(sub, op_reg && alt && f3 == 3'b000)
    `WM_RETIRED(sll, op_reg && base && f3 == 3'b001)
    `WM_RETIRED(slt, op_reg && base && f3 == 3'b010)
    `WM_RETIRED(sltu, op_reg && base && f3 == 3'b011)
    `WM_RETIRED(xor_, op_reg && base && f3 == 3'b100)
    `WM_RETIRED(srl, op_reg && base && f3 == 3'b101)
    `WM_RETIRED(sra, op_reg && alt && f3 == 3'b101)
    `WM_RETIRED(or_, op_reg && base && f3 == 3'b110)
    `WM_RETIRED(and_, op_reg && base && f3 == 3'b111)
    `WM_RETIRED(fence, op_fence)
    `WM_RETIRED(mul, op_reg && mext && f3 == 3'b000)
    `WM_RETIRED(mulh, op_reg && mext && f3 == 3'b001)
    `WM_RETIRED(mulhsu, op_reg && mext && f3 == 3'b010)
    `WM_RETIRED(mulhu, op_reg && mext && f3 == 3'b011)
    `WM_RETIRED(div, op_reg && mext && f3 == 3'b100)
    `WM_RETIRED(divu, op_reg && mext && f3 == 3'b101)
    `WM_RETIRED(rem, op_reg && mext && f3 == 3'b110)
    `WM_RETIRED(remu, op_reg && mext && f3 == 3'b111)
    // every fault cause (csim/core/core_port.h)
    `WM_COVER(fault_illegal, fault && cause == 3'd1)
    `WM_COVER(fault_jump_misaligned, fault && cause == 3'd2)
    `WM_COVER(fault_fetch_past_ram, fault && cause == 3'd3)
    `WM_COVER(fault_misaligned_access, fault && cause == 3'd4)
    `WM_COVER(fault_access_outside, fault && cause == 3'd5)
    `WM_COVER(fault_unmapped_register, fault && cause == 3'd6)
    // dependences and waits
    `WM_RETIRED(reads_rs1_just_written, raw1 && rs1 != 5'd0)
    `WM_RETIRED(reads_rs2_just_written, raw2 && rs2 != 5'd0)
    `WM_RETIRED(uses_load_at_once, prev_load_q && (raw1 || raw2))
    `WM_COVER(taken_jump_drops_fetch, go && jump)
    `WM_COVER(stall_tx_full, stall && tx_st)
    `WM_COVER(stall_rx_empty, stall && rx_ld)
`undef WM_RETIRED
`undef WM_COVER
endmodule

`default_nettype wire
