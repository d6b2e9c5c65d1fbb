/* datadir.h: the binary's name and where its data lies.
 *
 * wavemesh reads its firmware images (KERNEL.bin, KERNEL.elf) and the
 * regression's corpus (the layouts of sw/) at run time. It finds them
 * relative to its own location (/proc/self/exe), so that the build tree,
 * a copy of it moved elsewhere and an installed copy all work from any
 * folder:
 *   - $WAVEMESH_DATA, when set: DIR/firmware and DIR/sw (the layout of an
 *     installed share/wavemesh);
 *   - installed (`make install`): BIN/../share/wavemesh;
 *   - in a build tree: the nearest folder above the binary's holding
 *     firmware/ (build/firmware), and the nearest holding sw/collectives
 *     (the checkout).
 * $WM_FIRMWARE_DIR still names the images' folder alone. */
#ifndef WM_DATADIR_H
#define WM_DATADIR_H

/* Record argv[0], the name the binary was invoked by (NULL: "wavemesh"). */
void wm_self_init(const char *argv0);
/* The name the binary was invoked by, for the commands it prints. */
const char *wm_self_name(void);

/* The folder of the firmware images. */
const char *wm_data_firmware_dir(void);
/* The folder that holds sw/ (the corpus's layouts name their paths from
 * it) and waves/. */
const char *wm_data_source_dir(void);

#endif
