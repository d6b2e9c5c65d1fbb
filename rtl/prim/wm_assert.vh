// wm_assert.vh: the simulation assertions of the RTL, one macro for every
// module and every simulator.
//
//   `WM_ASSERT(name, clk, en, cond, (fmt, args...))
//
// checks cond at every rising edge of clk while en is high (a module's
// rst_ni, or 1'b1 for a check that holds through reset too), and when it
// fails prints "ASSERTION FAILED <scope>: <fmt>" on stdout and stops the
// simulation with $stop. The message is a parenthesised $display argument
// list, so that it may carry values; name is the assertion's label.
//
// The assertions are compiled only with WM_ASSERTIONS defined (every
// simulation of the build: the Verilated models, lint and the Icarus
// benches); synthesis and the formal runs never see them. Under Verilator
// the macro is a labelled immediate assertion, which `--assert` enables
// (without it Verilator drops the check) and whose %m ends in the label;
// the C side catches the $stop (csim/fabric/fabric_rtl.cpp). Verilog-2005
// has no assert statement, so every other simulator (Icarus -g2005) gets
// the same check as an if, its %m the module instance. The assertion is
// the instrument, not the design: Verilator's line coverage counts no
// point in it.
//
// The formal invariants (under `ifdef FORMAL` in the modules, and the
// harnesses of rtl/formal/) are yosys's assert and cover, not this macro:
// a simulation assertion states what the caller must never do (push into a
// full FIFO), which a proof takes as an assumption, not as a goal.
//
// The files include it by its path from the top of the tree, where every
// tool of the build runs (Icarus and Verilator search the working folder
// for an `include, yosys too), so no command needs an -I for it.
`ifndef WM_ASSERT_VH
`define WM_ASSERT_VH

`ifdef WM_ASSERTIONS
`ifdef VERILATOR
`define WM_ASSERT(name, clk, en, cond, msg) \
    always @(posedge clk) begin \
        name: assert (!(en) || (cond)) else begin \
            $write("ASSERTION FAILED %m: "); \
            $display msg; \
            $stop; \
        end \
    end
`else
`define WM_ASSERT(name, clk, en, cond, msg) \
    always @(posedge clk) begin \
        if ((en) && !(cond)) begin \
            $write("ASSERTION FAILED %m: "); \
            $display msg; \
            $stop; \
        end \
    end
`endif
`else
`define WM_ASSERT(name, clk, en, cond, msg)
`endif

`endif
