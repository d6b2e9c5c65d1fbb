// wm_core_bind: wm_core_cover in every wm_core, for `make coverage` only:
// it reads the core's signals and drives nothing.
bind wm_core wm_core_cover u_cover (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .done   (done),
    .insn   (insn),
    .x_active (x_active),
    .first  (first),
    .jump   (jump),
    .stall  (stall),
    .tx_st  (tx_st),
    .rx_ld  (rx_ld),
    .fault  (fault),
    .cause  (cause),
    .rf_we  (rf_we)
);
