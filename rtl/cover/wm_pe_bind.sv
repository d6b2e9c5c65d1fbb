// wm_pe_bind: wm_pe_cover in every wm_pe, for `make coverage` only: it
// reads the PE datapath's signals and drives nothing.
bind wm_pe wm_pe_cover u_cover (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .fw_push_i  (fw_push_i),
    .fw_pop_i   (fw_pop_i),
    .tx_full    (tx_full),
    .tx_empty   (tx_empty),
    .rx_full    (rx_full),
    .rx_empty   (rx_empty),
    .ramp_pop_i (ramp_pop_i),
    .rx_push_i  (rx_push_i)
);
