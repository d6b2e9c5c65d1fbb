/* cmd_gs.c: `wavemesh gs` runs one gather-scatter gs_op(sum) on the fabric
 * with one of three methods and prints its cost and a checksum. */
#include "cli/commands.h"
#include "run/heatmap.h"
#include "fabric/fabric.h"
#include "gs/generate.h"
#include "gs/job.h"
#include "gs/rank_layout.h"
#include "mp.h" /* WM_PE_DATA_BYTES */
#include "waves/outfile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: wavemesh gs [--ranks WxH] [--schedule chain|grid|random] [--dofs N]\n"
            "                   [--method pairwise|crystal|plan] [--pairing neko|gslib]\n"
            "                   [--order rowmajor|snake] [--backend rtl|sw] [--pe native|core]\n"
            "                   [--seed S] [--write-layout FILE] [--heatmap PREFIX]\n"
            "Runs one gather-scatter gs_op(sum) over float32 dofs of W*H ranks, one per PE\n"
            "of a WxH mesh, numbered row-major or snake. Every copy of a shared dof ends as\n"
            "the sum of all copies, added in ascending rank order. --dofs is the number of\n"
            "dofs on one shared face (chain: per neighbour; grid: a face, plus its corners).\n"
            "  pairwise  one transfer per peer, directly\n"
            "  crystal   the setup-phase crystal router: records routed in ceil(log2 P)\n"
            "            bisection stages, sizes negotiated over the fabric each stage\n"
            "  plan      the crystal plan: the symbolic pass runs first (its cycles are\n"
            "            printed apart), then the gs_op replays it with known sizes\n"
            "Prints the gs_op's cycles, messages, wavelets, wavelet-hops, active stages and\n"
            "a checksum, and whether the result equals the reference bit for bit (exit 1\n"
            "if not). --write-layout writes the rank-grid layout and exits. --pe core runs\n"
            "the gs kernel's firmware (`make firmware`) on each PE's RV32IM core, the float\n"
            "adds in the compiler's soft float (docs/core.md); native runs it on the host.\n"
            "--heatmap PREFIX draws, for each crystal-router stage of the gs_op, the\n"
            "wavelets each link carried per direction (PREFIX-stageN.png, gnuplot): a\n"
            "message counts in the stage its header's tag names (pairwise: one stage).\n"
            "Defaults: --ranks 4x4 --schedule grid --dofs 4 --method plan --pairing neko\n"
            "          --order rowmajor --backend sw --pe native --seed 1\n");
}

/* The options that take a value. */
static bool takes_value(const char *a)
{
    static const char *const names[] = {"--ranks", "--schedule", "--dofs", "--method", "--pairing",
                                        "--order", "--backend", "--seed", "--write-layout", "--pe",
                                        "--heatmap"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(a, names[i])) return true;
    return false;
}

int wm_cmd_gs(int argc, char **argv)
{
    wm_gs_config cfg = {.w = 4, .h = 4, .order = WM_RANK_ROWMAJOR, .method = WM_GS_PLAN, .pairing = WM_PAIRING_NEKO};
    wm_gs_kind kind = WM_GS_GRID;
    unsigned long long dofs = 4, seed = 1;
    const char *backend = "sw", *layout_out = NULL, *heatmap = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool good = true, reported = false;
        long long gw, gh;
        if (!strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!takes_value(a)) {
            fprintf(stderr, "wavemesh gs: unknown argument '%s' (see --help)\n", a);
            return 2;
        } else if (!v) {
            good = false;
        } else if (!strcmp(a, "--ranks")) {
            good = wm_arg_pair("gs", a, v, 'x', 1, WM_MESH_MAX, &gw, &gh);
            cfg.w = (unsigned)gw;
            cfg.h = (unsigned)gh;
            reported = !good;
        } else if (!strcmp(a, "--schedule")) {
            good = wm_gs_kind_parse(v, &kind);
        } else if (!strcmp(a, "--dofs")) {
            good = wm_arg_u64("gs", a, v, 1, 4096, &dofs);
            reported = !good;
        } else if (!strcmp(a, "--method")) {
            good = wm_gs_method_parse(v, &cfg.method);
        } else if (!strcmp(a, "--pairing")) {
            good = wm_pairing_parse(v, &cfg.pairing);
        } else if (!strcmp(a, "--order")) {
            good = wm_rank_order_parse(v, &cfg.order);
        } else if (!strcmp(a, "--backend")) {
            backend = v;
        } else if (!strcmp(a, "--pe")) {
            good = wm_pe_mode_parse(v, &cfg.pe);
        } else if (!strcmp(a, "--seed")) {
            good = wm_arg_u64("gs", a, v, 0, UINT64_MAX, &seed);
            reported = !good;
        } else if (!strcmp(a, "--write-layout")) {
            layout_out = v;
        } else if (!strcmp(a, "--heatmap")) {
            heatmap = v;
        }
        if (!good) {
            if (!reported) fprintf(stderr, "wavemesh gs: bad or missing value for %s (see --help)\n", a);
            return 2;
        }
        i++;
    }
    if (layout_out) {
        char err[4200];
        wm_outfile *o = wm_outfile_begin(layout_out, true, err, sizeof err);
        if (o && !wm_rank_layout_write(wm_outfile_stream(o), cfg.w, cfg.h, cfg.order)) wm_outfile_fail(o, errno);
        if (!o || !wm_outfile_commit(o, err, sizeof err)) {
            fprintf(stderr, "wavemesh gs: --write-layout: %s\n", err);
            return 1;
        }
        return 0;
    }
    cfg.backend = wm_fabric_backend(backend);
    if (!cfg.backend || !strcmp(backend, "rtl-mesh")) {
        fprintf(stderr, "wavemesh gs: unknown backend '%s' (rtl or sw)\n", backend);
        return 2;
    }
    wm_gs_schedule *s = wm_gs_generate(kind, cfg.w, cfg.h, cfg.order, (unsigned)dofs, seed);
    if (!s) {
        fprintf(stderr, "wavemesh gs: cannot make the %s schedule\n", wm_gs_kind_name(kind));
        return 1;
    }
    /* The setup-phase router tags a stage's messages 2 * stage (+1), the
     * plan's gs_op stage itself. */
    wm_heatmap *m = heatmap ? wm_heatmap_create_staged(cfg.w, cfg.h, cfg.method == WM_GS_CRYSTAL ? 1 : 0) : NULL;
    if (heatmap && !m) {
        fprintf(stderr, "wavemesh gs: out of memory for the heatmap\n");
        return 1;
    }
    cfg.op_hook = m ? wm_heatmap_record : NULL;
    cfg.op_hook_ctx = m;
    wm_gs_job *j = wm_gs_job_create(&cfg, s, stderr);
    int rc = 1;
    wm_gs_result r;
    if (j && wm_gs_job_run(j, &r, stderr)) {
        printf("gs: %u ranks (%ux%u, %s), schedule %s, %llu dofs a face, method %s, pairing %s, backend %s%s\n",
               cfg.w * cfg.h, cfg.w, cfg.h, wm_rank_order_name(cfg.order), wm_gs_kind_name(kind), dofs,
               wm_gs_method_name(cfg.method), wm_pairing_name(cfg.pairing), cfg.backend->name,
               cfg.pe == WM_PE_CORE ? ", pe core" : "");
        printf("setup cycles: %" PRIu64 "\n", r.setup_cycles);
        printf("gs_op cycles: %" PRIu64 "\n", r.op_cycles);
        printf("messages: %" PRIu64 "\n", r.messages);
        printf("wavelets: %" PRIu64 "\n", r.wavelets);
        printf("wavelet-hops: %" PRIu64 "\n", r.wavelet_hops);
        printf("active stages: %u (most on one rank; %u used)\n", r.active_stages, r.stages_used);
        printf("checksum: %016" PRIx64 "\n", r.checksum);
        printf("PE data memory: %u bytes at most on one rank (image and heap), of %d\n",
               4 * wm_gs_job_memory_high(j), WM_PE_DATA_BYTES);
        printf("reference: %s\n", r.matches_reference ? "bit-exact" : "MISMATCH");
        rc = r.matches_reference ? 0 : 1;
        for (size_t p = 0; m && p < wm_heatmap_phases(m); p++) {
            uint64_t dir[4] = {0, 0, 0, 0};
            for (unsigned y = 0; y < cfg.h; y++)
                for (unsigned x = 0; x < cfg.w; x++)
                    for (int d = 0; d < 4; d++) dir[d] += wm_heatmap_count(m, p, x, y, (wm_port)d);
            char png[4096], title[300], err[300];
            snprintf(png, sizeof png, "%s-%s.png", heatmap, wm_heatmap_phase_name(m, p));
            snprintf(title, sizeof title, "gs %s, %s pairing, %ux%u ranks: the gs_op's stage %zu (wavelets per link)",
                     wm_gs_method_name(cfg.method), wm_pairing_name(cfg.pairing), cfg.w, cfg.h, p);
            printf("stage %zu: wavelets north %" PRIu64 ", east %" PRIu64 ", south %" PRIu64 ", west %" PRIu64 "\n", p,
                   dir[0], dir[1], dir[2], dir[3]);
            if (!wm_heatmap_plot(m, p, title, png, err, sizeof err)) {
                fprintf(stderr, "wavemesh gs: %s\n", err);
                rc = 1;
                break;
            }
            printf("heatmap: %s\n", png);
        }
    }
    wm_heatmap_destroy(m);
    wm_gs_job_destroy(j);
    wm_gs_schedule_destroy(s);
    return rc;
}
