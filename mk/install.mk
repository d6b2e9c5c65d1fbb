# ---------------------------------------------------------------- make install
# wavemesh and what it reads at run time under PREFIX: bin/wavemesh;
# lib/wavemesh/wavemesh-mpi.so (the MPI plugin, where mpicc is);
# share/wavemesh/firmware (every kernel's KERNEL.bin and KERNEL.elf),
# share/wavemesh/sw (the layouts and rows of sw/, the regression's corpus
# among them), share/wavemesh/waves (the GTKWave save files and their
# filters); the docs under share/doc/wavemesh. The binary finds its data
# from its own location, or $WAVEMESH_DATA (csim/core/datadir.h), so the
# installed copy works from any folder and moved elsewhere too. The paths
# are quoted for the shell: PREFIX may hold spaces (not a single quote).
PREFIX   ?= /usr/local
INSTALL  ?= install
DATA_DIR  = $(DESTDIR)$(PREFIX)/share/wavemesh
DOC_DIR   = $(DESTDIR)$(PREFIX)/share/doc/wavemesh
SW_DATA  := $(shell find sw -name '*.layout' -o -name '*.rows')

.PHONY: install check-install
install: $(WAVEMESH) firmware $(if $(HAVE_MPICC),$(MPI_PLUGIN)) ## install wavemesh, its firmware, sw/'s layouts and rows, the save files and the docs under PREFIX (default /usr/local)
	$(INSTALL) -d '$(DESTDIR)$(PREFIX)/bin' '$(DATA_DIR)/firmware' '$(DATA_DIR)/waves' '$(DOC_DIR)/docs'
	$(INSTALL) -m 755 $(WAVEMESH) '$(DESTDIR)$(PREFIX)/bin/wavemesh'
	$(if $(HAVE_MPICC),$(INSTALL) -D -m 755 $(MPI_PLUGIN) '$(DESTDIR)$(PREFIX)/lib/wavemesh/wavemesh-mpi.so')
	$(INSTALL) -m 644 $(FW_BIN) $(FW_BIN:.bin=.elf) '$(DATA_DIR)/firmware'
	@for f in $(SW_DATA); do $(INSTALL) -D -m 644 $$f '$(DATA_DIR)'/$$f || exit 1; done
	$(INSTALL) -m 644 waves/*.gtkw waves/*.txt '$(DATA_DIR)/waves'
	$(INSTALL) -m 644 README.md '$(DOC_DIR)'
	$(INSTALL) -m 644 docs/*.md '$(DOC_DIR)/docs'

check-install: $(WAVEMESH) firmware $(if $(HAVE_MPICC),$(MPI_PLUGIN)) ## make install into a fresh folder, then the seed's rows on the cores from elsewhere, the checkout out of reach
	@sh tests/check_install.sh
