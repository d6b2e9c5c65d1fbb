/* cmd_waves.c: `wavemesh waves LAYOUT -o FILE.gtkw`, a GTKWave save file
 * that groups a dump of the layout's runs by instance name. */
#include "cli/commands.h"
#include "run/layout.h"
#include "run/run_notes.h"
#include "run/runner.h"
#include "waves/fw_syms.h"
#include "waves/waves_gtkw.h"
#include "waves/waves_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char about[] =
    "Writes a GTKWave save file for dumps of the layout's runs (either backend):\n"
    "one group per instance (l0, p0, root ...) with its kernel's state as a word\n"
    "and its results, then each link port's valid, data (headers decoded), msg\n"
    "(the header of the message on it, held until the next: it reads zoomed out),\n"
    "credit, occupancy and wormhole owner, the PE's queues and error flags; then\n"
    "the tiles without a kernel (tile_X_Y). Translate filter files FILE-state.txt,\n"
    "FILE-owner.txt and FILE-headers.txt are written next to it; the header filter\n"
    "lists the headers found in DUMP, which the save file also opens. `--trace`\n"
    "on run, rows and traffic writes such a save file next to every dump.\n"
    "--overview keeps, per instance, the firmware signals and valid with data and\n"
    "msg of the ramp and of the four links: a few instances to a screen. --compact\n"
    "keeps one line a signal and no group lines: each instance's state, the msg of\n"
    "the ports its tile used and the ramp's data (the tworow row's eight tiles fit\n"
    "a 1080p screen).\n"
    "The layout is run once (sw backend, the same PE mode) to find the ports used\n"
    "and, when it has a `root`, to set marker A at the root's last receive (the\n"
    "up-sweep's end) and marker B at the down-sweep's first wavelet on a link,\n"
    "each explained by a comment line at the top.\n"
    "--pe core: for dumps of runs with --pe core, whose tiles have PE cores: each\n"
    "instance also shows its core's pc (as function+offset), retire, the retiring\n"
    "instruction (disassembled), rd_we, rd, rd_data, push, pop, halted and\n"
    "fault_cause, through FILE-insn.txt and one FILE-pc-KERNEL.txt per kernel,\n"
    "made with riscv64-unknown-elf-objdump from build/firmware/KERNEL.elf.\n";

typedef struct {
    wm_run_notes *notes;
    wm_sched *s;
} survey_ctx;

static void survey_send(void *ctx, size_t pe, uint64_t cycle, uint32_t header)
{
    (void)cycle;
    const survey_ctx *c = ctx;
    wm_run_notes_send(c->notes, c->s, pe, header);
}

/* One run of the layout on the sw backend in PE mode `mode`, feeding the
 * notes its link events (links) and its native sends. */
static void survey_run(const wm_layout *layout, wm_pe_mode mode, bool links, wm_run_notes *notes)
{
    const wm_fabric_ops *ops = wm_fabric_backend("sw");
    wm_runner *r = ops ? wm_runner_create_mode(ops, layout, NULL, mode) : NULL;
    if (!r) return;
    survey_ctx c = {notes, wm_runner_sched(r)};
    if (links) ops->set_link_hook(wm_runner_fabric(r), wm_run_notes_link, notes);
    if (mode == WM_PE_NATIVE) {
        const wm_sched_observer obs = {NULL, NULL, NULL, survey_send};
        wm_sched_set_observer(c.s, &obs, &c);
    }
    wm_runner_run(r, 10000000);
    wm_runner_destroy(r);
}

int wm_cmd_waves(int argc, char **argv)
{
    const char *layout_path = NULL, *out = NULL, *dump = NULL, *pe = "native";
    wm_setting settings[WM_MAX_SETTINGS];
    size_t nsettings = 0;
    bool overview = false, compact = false;
    const wm_option options[] = {
        WM_OPT_POSITIONAL_ROW("LAYOUT", &layout_path, true),
        {"-o", "FILE.gtkw", WM_OPT_STRING, .to.str = &out, .required = true, .path = WM_PATH_OUT,
         .help = "the save file to write"},
        WM_OPT_INPUT_ROW("--dump", "DUMP", &dump, "the dump the save file opens"),
        WM_OPT_FLAG_ROW("--overview", &overview, "a few signals an instance"),
        WM_OPT_FLAG_ROW("--compact", &compact, "one line a signal, no group lines"),
        WM_OPT_CHOICE_ROW("--pe", &pe, wm_pe_words, "the PE mode of the dumped runs (default native)"),
        WM_OPT_SETTINGS_ROW(settings, WM_MAX_SETTINGS, &nsettings, "override a parameter of the layout"),
    };
    const wm_opts opts = WM_OPTS("waves", options, about, NULL);
    int status;
    if (!wm_opts_parse(&opts, argc, argv, &status)) return status;
    const bool cores = wm_pe_mode_of(pe) == WM_PE_CORE;
    wm_layout *layout = wm_layout_load(layout_path, settings, nsettings, stderr);
    if (!layout) return 1;
    /* The dump fills the header filter: one that exists must read as a
     * dump; one not made yet leaves the filter empty, with a note. */
    if (dump && access(dump, F_OK) != 0 && errno == ENOENT) {
        fprintf(stderr, "wavemesh waves: note: --dump %s does not exist yet: its header filter stays empty\n", dump);
    } else if (dump) {
        char err[600];
        wm_dump *d = wm_dump_load(dump, err, sizeof err);
        if (!d) {
            fprintf(stderr, "wavemesh waves: --dump %s: %s\n", dump, err);
            wm_layout_destroy(layout);
            return 1;
        }
        wm_dump_free(d);
    }
    const unsigned w = wm_layout_width(layout), h = wm_layout_height(layout);
    const size_t n = wm_layout_count(layout);
    wm_gtkw_group *groups = calloc((size_t)w * h + n, sizeof *groups);
    char (*names)[32] = calloc((size_t)w * h, sizeof *names);
    bool *placed = calloc((size_t)w * h, sizeof *placed);
    int *group_of = calloc((size_t)w * h, sizeof *group_of);
    if (!groups || !names || !placed || !group_of) {
        fprintf(stderr, "wavemesh waves: out of memory\n");
        return 1;
    }
    wm_fw_set *fw = cores ? wm_fw_set_new() : NULL;
    bool noted = false;
    size_t ng = 0;
    for (size_t i = 0; i < n; i++) {
        const wm_instance *in = wm_layout_instance(layout, i);
        wm_gtkw_group *g = &groups[ng++];
        g->scope = in->name;
        g->has_pe = true;
        g->exports = in->kernel->exports;
        for (const char *const *e = in->kernel->exports; e && *e; e++) g->nexports++;
        g->core = cores;
        char err[1024];
        /* the disassembly names the image's code only from the image's own ELF */
        const int k = fw && wm_fw_elf_matches_image(in->kernel->name, err, sizeof err)
                          ? wm_fw_set_add(fw, in->kernel->name, err, sizeof err)
                          : -1;
        if (k >= 0) {
            g->has_image = true;
            g->image = (size_t)k;
        } else if (fw && !noted) {
            fprintf(stderr, "wavemesh waves: note: the cores' pc and retire_insn go without disassembly: %s\n", err);
            noted = true;
        }
        placed[in->y * w + in->x] = true;
        group_of[in->y * w + in->x] = (int)(ng - 1);
    }
    for (unsigned y = 0; y < h; y++) {
        for (unsigned x = 0; x < w; x++) {
            if (placed[y * w + x]) continue;
            snprintf(names[y * w + x], sizeof names[0], "tile_%u_%u", x, y);
            groups[ng].core = cores;
            group_of[y * w + x] = (int)ng;
            groups[ng++].scope = names[y * w + x];
        }
    }
    if (overview && compact) {
        fprintf(stderr, "wavemesh waves: --overview or --compact, not both\n");
        return 2;
    }
    /* The layout runs once in its PE mode for the ports used and the
     * markers, and natively for the senders (the same messages). */
    wm_run_notes *notes = wm_run_notes_create(layout);
    wm_gtkw_markers marks = {0};
    if (notes) {
        survey_run(layout, cores ? WM_PE_CORE : WM_PE_NATIVE, true, notes);
        if (cores) survey_run(layout, WM_PE_NATIVE, false, notes);
        wm_run_notes_finish(notes, &marks);
        for (unsigned y = 0; y < h; y++)
            for (unsigned x = 0; x < w; x++) groups[group_of[y * w + x]].used_ports = wm_run_notes_used_ports(notes, x, y);
    }
    const wm_gtkw_style style = compact ? WM_GTKW_COMPACT : overview ? WM_GTKW_OVERVIEW : WM_GTKW_FULL;
    const bool ok = wm_gtkw_write_styled(out, dump, groups, ng, fw, style, &marks);
    wm_run_notes_destroy(notes);
    wm_fw_set_free(fw);
    free(groups);
    free(names);
    free(placed);
    free(group_of);
    wm_layout_destroy(layout);
    return ok ? 0 : 1;
}
