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

wm_fabric *wm_fabric_create(const wm_fabric_ops *ops, unsigned w, unsigned h, bool cores, const wm_fabric_config *cfg)
{
    return ops->create_with(w, h, cores, cfg ? cfg : ops->config);
}

bool wm_fabric_is(const wm_fabric_ops *ops, const char *name) { return !strcmp(ops->name, name); }
