# ---------------------------------------------------------------- the native cost model
# The native mode's charges, measured on the cores: `calibrate` rewrites
# sw/cost_model.h; `make test` checks that it is up to date.
.PHONY: calibrate check-calibration
# The methods' own charges are what the cores take beyond the native
# mode's other charges, measured with the table built in: a new table is
# built and measured again until it measures itself (two or three rounds).
calibrate: $(WAVEMESH) firmware ## measure the native cost model on the cores, rewrite sw/cost_model.h
	@for round in 1 2 3 4; do \
	    $(WAVEMESH) calibrate --write sw/cost_model.h >/dev/null || exit 1; \
	    $(MAKE) --no-print-directory $(WAVEMESH) >/dev/null || exit 1; \
	    if $(WAVEMESH) calibrate --check >/dev/null 2>&1; then \
	        echo "calibrate: sw/cost_model.h measures itself after $$round round(s)"; exit 0; fi; \
	done; echo "calibrate: sw/cost_model.h did not settle in 4 rounds" >&2; exit 1
check-calibration: $(WAVEMESH) firmware ## sw/cost_model.h is what the cores measure
	@$(WAVEMESH) calibrate --check >/dev/null
