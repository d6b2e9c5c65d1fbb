// wm_router_bind: wm_router_cover in every wm_router, for `make coverage`
// only (docs/verification.md): it reads the router's signals, drives nothing.
bind wm_router wm_router_cover #(.IN_DEPTH(IN_DEPTH), .CW(CW)) u_cover (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .enable_i   (enable_i),
    .gnt        (gnt),
    .req        (req),
    .take       (take),
    .own_q      (own_q),
    .cont       (cont),
    .hv         (hv),
    .off_pop    (off_pop),
    .len_nz     (len_nz),
    .nbr_en_q   (nbr_en_q),
    .credit_q   (credit_q),
    .in_count_o (in_count_o)
);
