# ---------------------------------------------------------------- the figures of docs/
.PHONY: bench bench-wafer pictures
bench: check-tools ## the benchmarks behind docs/benchmarks.md (docs/bench/*.sh)
	@$(MAKE) --no-print-directory $(WAVEMESH)
	@for b in docs/bench/*.sh; do \
	    case $$b in */wafer.sh) continue ;; esac; \
	    echo "== $$b"; WAVEMESH=$(WAVEMESH) sh $$b || exit 1; \
	done

# The tree at the wafer's size, 2^19 leaves on 1024 x 1024 (docs/bench/wafer.sh):
# a quarter of an hour and some 10 GB, so not part of bench.
bench-wafer: check-tools ## the seed's tree at 4 .. 2^19 leaves, natively and on the cores: cycles, wall, peak RSS, exact results
	@$(MAKE) --no-print-directory $(WAVEMESH) firmware
	@WAVEMESH=$(WAVEMESH) sh docs/bench/wafer.sh

# The pictures of docs/pictures.md: link use per phase of the seed's
# placements and of the all-reduce (wavemesh heatmap), per crystal-router
# stage of the 32x32 gslib plan (gs --heatmap), and the latency against
# throughput curves of traffic sweeps (docs/bench/latency.sh); and the
# timeline of the tutorial row on the cores (docs/profiling.md).
pictures: check-tools ## the heatmaps and latency curves of docs/pictures.md, the profile timeline of docs/profiling.md
	@$(MAKE) --no-print-directory $(WAVEMESH)
	@mkdir -p docs/img
	@for s in 0:tutorial 1:tworow 2:compact; do \
	    $(WAVEMESH) heatmap sw/collectives/bench.layout --set SHAPE=$${s%%:*} -o docs/img/heatmap-$${s#*:} || exit 1; \
	done
	@$(WAVEMESH) heatmap sw/collectives/allreduce.layout --split c -o docs/img/heatmap-allreduce
	@$(WAVEMESH) gs --ranks 32x32 --schedule grid --dofs 4 --method plan --pairing gslib --order snake \
	    --heatmap docs/img/heatmap-gs32-plan | grep '^stage\|^heatmap\|^reference'
	@$(WAVEMESH) profile sw/collectives/bench.layout --set SHAPE=0 --pe core \
	    --png docs/img/profile-tutorial-core.png | grep '^critical path: '
	@WAVEMESH=$(WAVEMESH) sh docs/bench/latency.sh > $(BUILD)/latency.md && echo "latency table: $(BUILD)/latency.md"
