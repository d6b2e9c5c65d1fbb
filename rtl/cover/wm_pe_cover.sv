// wm_pe_cover: the PE datapath's events that `make coverage` must see hit
// (bound by wm_pe_bind.sv in the coverage build only; drives nothing).
`default_nettype none

module wm_pe_cover (
    input wire clk_i,
    input wire rst_ni,
    input wire fw_push_i,
    input wire fw_pop_i,
    input wire tx_full,
    input wire tx_empty,
    input wire rx_full,
    input wire rx_empty,
    input wire ramp_pop_i,
    input wire rx_push_i
);
`define WM_COVER(name, cond) name: cover property (@(posedge clk_i) rst_ni && (cond));
    `WM_COVER(tx_queue_full, tx_full)
    `WM_COVER(rx_queue_full, rx_full)
    `WM_COVER(push_refused_tx_full, fw_push_i && tx_full)
    `WM_COVER(pop_refused_rx_empty, fw_pop_i && rx_empty)
    `WM_COVER(tx_push_and_pop, fw_push_i && !tx_full && ramp_pop_i)
    `WM_COVER(rx_push_and_pop, rx_push_i && fw_pop_i && !rx_empty)
    `WM_COVER(tx_drained, tx_empty && !fw_push_i)
`undef WM_COVER
endmodule

`default_nettype wire
