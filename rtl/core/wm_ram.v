// wm_ram: the tile's RAM, code, data and stack of its core.
//
// Block RAM as the iCE40 has it: 32-bit words, every read synchronous, one
// read port for instructions and one read/write port with byte enables for
// data. The data port reads and writes at the rising edge (the word is on
// the output the cycle after its address); a read and a write of the same
// word at the same edge read the old word. The instruction port reads at
// the falling edge, half a cycle after the core presents the address: the
// word is there for the second half of the cycle, when the core reads the
// register fields out of it into its block RAM register file at the next
// rising edge (wm_core_regfile), and takes the word at that same edge,
// exactly when a rising-edge read would have delivered it. Writes come at
// rising edges only, so a fetch sees the RAM as it was at the start of its
// cycle, as a rising-edge read at its end would (docs/core.md: a store is
// not seen by the fetch of the instruction right after it).
//
// Two read ports need two copies of a block RAM, and yosys duplicates a
// memory only for read ports on the same edge: so the copies are written
// out, mem_q for the data port and imem_q for the instruction port, every
// write going to both. Only the index bits of an address are used: the
// core presents RAM addresses only on the data port, and ignores a word it
// fetched past the RAM; MEM_BYTES is a power of two.
// Both copies are public: C++ loads the program into both and reads results
// from mem_q (csim/core/core_rtl.cpp). INIT_FILE, when set, loads both with
// $readmemh (Icarus testbenches). No reset: the contents survive it.
`default_nettype none
`include "rtl/prim/wm_assert.vh"

module wm_ram #(
    parameter MEM_BYTES = 16384,
    parameter INIT_FILE = ""
) (
    input  wire        clk_i,
    // instruction port
    input  wire [31:0] iaddr_i,
    output wire [31:0] irdata_o,
    // data port
    input  wire        den_i,
    input  wire [3:0]  dwe_i,        // byte enables; 0 = read
    input  wire [31:0] daddr_i,
    input  wire [31:0] dwdata_i,
    output wire [31:0] drdata_o
);
    localparam WORDS = MEM_BYTES / 4;
    localparam AW    = $clog2(WORDS);

    // public_flat_rd, not _rw: C++ writes it only while the core is in
    // reset, and a writable public signal makes Verilator re-evaluate all
    // logic that reads it at every evaluation, as if it were an input.
    reg [31:0] mem_q [0:WORDS-1] /*verilator public_flat_rd*/;
    reg [31:0] imem_q [0:WORDS-1] /*verilator public_flat_rd*/;
    reg [31:0] irdata_q, drdata_q;

    wire [AW-1:0] iidx = iaddr_i[AW+1:2];
    wire [AW-1:0] didx = daddr_i[AW+1:2];

    always @(negedge clk_i) begin
        irdata_q <= imem_q[iidx];
    end

    always @(posedge clk_i) begin
        if (den_i) begin
            if (dwe_i[0]) imem_q[didx][7:0]   <= dwdata_i[7:0];
            if (dwe_i[1]) imem_q[didx][15:8]  <= dwdata_i[15:8];
            if (dwe_i[2]) imem_q[didx][23:16] <= dwdata_i[23:16];
            if (dwe_i[3]) imem_q[didx][31:24] <= dwdata_i[31:24];
        end
    end

    always @(posedge clk_i) begin
        if (den_i) begin
            drdata_q <= mem_q[didx];
            if (dwe_i[0]) mem_q[didx][7:0]   <= dwdata_i[7:0];
            if (dwe_i[1]) mem_q[didx][15:8]  <= dwdata_i[15:8];
            if (dwe_i[2]) mem_q[didx][23:16] <= dwdata_i[23:16];
            if (dwe_i[3]) mem_q[didx][31:24] <= dwdata_i[31:24];
        end
    end

    generate
        if (INIT_FILE != "") begin : gen_init
            initial begin
                $readmemh(INIT_FILE, mem_q);
                $readmemh(INIT_FILE, imem_q);
            end
        end
    endgenerate

    assign irdata_o = irdata_q;
    assign drdata_o = drdata_q;

    // The bits above the RAM and below the word select no word.
    wire unused_addr = &{1'b0, iaddr_i[31:AW+2], iaddr_i[1:0], daddr_i[31:AW+2], daddr_i[1:0]};

    `WM_ASSERT(data_in_ram, clk_i, 1'b1, !den_i || (daddr_i >> (AW + 2)) == 32'd0,
               ("data access past the RAM at %h", daddr_i))
endmodule

`default_nettype wire
