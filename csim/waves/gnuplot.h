/* gnuplot.h: a PNG drawn by gnuplot, the one way the tools start it
 * (profile --png, heatmap, gs --heatmap).
 *
 * The script goes to gnuplot on a pipe; gnuplot writes the PNG's temporary
 * (waves/outfile.h), renamed onto the path once gnuplot has succeeded, so a
 * failure leaves no file. A gnuplot that ends before reading its script (it
 * is not installed, or it stopped at an error) does not end the command: the
 * pipe is written with SIGPIPE ignored, and what happened is said from its
 * exit status: not installed, its message (shown on stderr), or its status
 * or signal when it printed nothing. */
#ifndef WM_GNUPLOT_H
#define WM_GNUPLOT_H

#include "core/must_use.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Writes the gnuplot script that draws into the PNG file png onto g. */
typedef void wm_gnuplot_script(const void *ctx, const char *png, FILE *g);

/* Draws the PNG path by script(ctx, ...); false with the reason in err. */
WM_MUST_USE bool wm_gnuplot_draw(const char *path, wm_gnuplot_script *script, const void *ctx, char *err,
                                 size_t err_size);

#endif
