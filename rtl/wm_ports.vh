// wm_ports.vh: the router's port numbers, one name each, for the modules
// that index a per-port vector (included inside the module body).
//
// A flattened vector of the router holds port p at bit p, or at bits
// [32p +: 32] for a word, in this order; the C side numbers the ports the
// same way (WM_PORT_N..WM_PORT_L in csim/fabric/fabric.h), and an owner
// index (wm_waves, the C side's dumps) is the number of the input. The four
// links come first, so a vector of the links alone is bits [3:0] of the
// same numbering. The modules include it by its path from the top of the
// tree, as rtl/prim/wm_assert.vh says.
// Every module that includes it gets every name and uses the ones it indexes.
/* verilator lint_off UNUSEDPARAM */
localparam integer PORT_N = 0;   // towards row 0
localparam integer PORT_E = 1;   // towards the last column
localparam integer PORT_S = 2;   // towards the last row
localparam integer PORT_W = 3;   // towards column 0
localparam integer PORT_L = 4;   // the ramp: the PE's TX queue in, its RX queue out
localparam integer LINKS  = 4;   // ports N..W
localparam integer PORTS  = 5;   // ports N..L
/* verilator lint_on UNUSEDPARAM */
