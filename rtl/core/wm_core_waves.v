// wm_core_waves: the signals a dump of a tile's PE core shows.
//
// The companion of rtl/wm_waves.v for rtl/wm_tile_core.v: tracing is off in
// the core and its RAM (thousands of nets and a 64 KiB array), and this
// module, instantiated once per core, names what a reader follows: the PC
// of the instruction in X, the retiring instruction and its write-back, the
// wavelets the core pushed and popped, and the halt. No outputs, so it
// costs nothing in a model built without tracing. A field means something
// only when its flag is set, as in csim/core/core_port.h, and shows 0 when
// the flag is clear: the core's raw outputs then hold whatever X decodes,
// which the sw backend's dump (csim/waves/waves_sw.c, from the ISS) cannot
// know, and a dump of either backend must show the same values.
`default_nettype none
/*verilator tracing_off*/

module wm_core_waves (
    input  wire [31:0] pc_i,
    input  wire        retire_i,
    input  wire [31:0] retire_insn_i,
    input  wire        rd_we_i,
    input  wire [4:0]  rd_i,
    input  wire [31:0] rd_data_i,
    input  wire        push_i,
    input  wire        pop_i,
    input  wire        halted_i,
    input  wire [2:0]  fault_cause_i
);
    // Every signal exists to be traced; none is read.
    /* verilator lint_off UNUSEDSIGNAL */
    /*verilator tracing_on*/
    wire [31:0] pc          = pc_i;
    wire        retire      = retire_i;
    wire [31:0] retire_insn = retire_i ? retire_insn_i : 32'd0;
    wire        rd_we       = rd_we_i;
    wire [4:0]  rd          = rd_we_i ? rd_i : 5'd0;
    wire [31:0] rd_data     = rd_we_i ? rd_data_i : 32'd0;
    wire        push        = push_i;
    wire        pop         = pop_i;
    wire        halted      = halted_i;
    wire [2:0]  fault_cause = fault_cause_i;
    /*verilator tracing_off*/
    /* verilator lint_on UNUSEDSIGNAL */
endmodule

`default_nettype wire
