/* layout_job.c: a layout read while the MPI job starts (see layout_job.h). */
#include "cli/layout_job.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

typedef struct {
    const char *path;
    const wm_setting *settings;
    size_t nsettings;
    FILE *said; /* the reader's messages, held */
    wm_layout *layout;
} load;

static void *load_layout(void *arg)
{
    load *a = arg;
    a->layout = wm_layout_load(a->path, a->settings, a->nsettings, a->said);
    return NULL;
}

wm_layout *wm_layout_load_opening_job(const char *cmd, const char *path, const wm_setting *settings,
                                      size_t nsettings, wm_mpi_job *job, FILE *err)
{
    char *said = NULL;
    size_t said_len = 0;
    load a = {path, settings, nsettings, open_memstream(&said, &said_len), NULL};
    pthread_t reader;
    const bool beside = a.said && pthread_create(&reader, NULL, load_layout, &a) == 0;
    if (!beside) {
        /* read here, then: it only takes longer */
        if (a.said) fclose(a.said);
        free(said);
        said = NULL;
        a.said = err;
        load_layout(&a);
    }
    char why[600];
    *job = (wm_mpi_job){0};
    const bool opened = wm_mpi_open(job, why, sizeof why);
    if (beside) {
        pthread_join(reader, NULL);
        fclose(a.said);
        if (said_len && (!opened || job->rank == 0)) fwrite(said, 1, said_len, err);
    }
    free(said);
    if (!opened) {
        fprintf(err, "wavemesh %s: %s\n", cmd, why);
        if (a.layout) wm_layout_destroy(a.layout);
        return NULL;
    }
    return a.layout;
}
