/* fabric_backend.c: backends by name, for the command line and the tests. */
#include "fabric/fabric.h"

#include <string.h>

static const wm_fabric_ops *const backends[] = {&wm_fabric_rtl, &wm_fabric_rtl_mesh, &wm_fabric_sw};

const wm_fabric_ops *wm_fabric_backend(const char *name)
{
    for (size_t i = 0; i < sizeof backends / sizeof backends[0]; i++)
        if (!strcmp(backends[i]->name, name)) return backends[i];
    return NULL;
}
