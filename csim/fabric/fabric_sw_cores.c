/* fabric_sw_cores.c: the PE cores of the sw backend; see fabric_sw_cores.h.
 * How a core drives its tile, cycle by cycle, is in fabric_sw.c. */
#include "fabric/fabric_sw_cores.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

sw_cores *wm_sw_cores_new(size_t ntiles)
{
    sw_cores *cs = malloc(sizeof *cs);
    if (!cs) return NULL;
    cs->ntiles = ntiles;
    cs->made = 0;
    cs->tile = calloc(ntiles, sizeof *cs->tile);
    if (!cs->tile) {
        free(cs);
        return NULL;
    }
    cs->pages = wm_page_store_create();
    return cs;
}

void wm_sw_cores_free(sw_cores *cs)
{
    if (!cs) return;
    for (size_t k = 0; k < cs->ntiles; k++) free(cs->tile[k]);
    free(cs->tile);
    /* the RAMs' pages go with their store */
    wm_page_store_destroy(cs->pages);
    free(cs);
}

sw_core *wm_sw_cores_get(sw_cores *cs, size_t idx)
{
    if (cs->tile[idx]) return cs->tile[idx];
    sw_core *c = calloc(1, sizeof *c);
    if (!c) {
        fprintf(stderr, "wavemesh: out of memory for the core of tile %zu\n", idx);
        return NULL;
    }
    /* the RAM reads zero, as create_cores promises */
    wm_page_store_map(cs->pages, &c->iss.ram, WM_TILE_MEM_BYTES);
    wm_iss_reset(&c->iss);
    c->last_cycle = UINT64_MAX;
    cs->tile[idx] = c;
    cs->made++;
    return c;
}

void wm_sw_core_load(sw_cores *cs, sw_core *c, uint32_t addr, const void *bytes, size_t n)
{
    wm_page_store_write(cs->pages, &c->iss.ram, addr, bytes, n);
}

void wm_sw_core_read(const sw_core *c, uint32_t addr, void *bytes, size_t n)
{
    wm_page_store_read(&c->iss.ram, addr, bytes, n);
}

void wm_sw_cores_usage(const sw_cores *cs, wm_sw_cores_use *out)
{
    out->cores = cs->made;
    out->core_bytes = cs->made * sizeof(sw_core) + cs->ntiles * sizeof *cs->tile + sizeof *cs;
    wm_page_store_usage(cs->pages, &out->pages);
}

bool wm_sw_core_range_ok(uint32_t addr, size_t n, const char *what, unsigned x, unsigned y)
{
    if (addr <= WM_TILE_MEM_BYTES && n <= WM_TILE_MEM_BYTES - addr) return true;
    fprintf(stderr, "wavemesh: %s of %zu bytes at 0x%x on PE (%u,%u) is outside its %u-byte RAM\n", what, n,
            (unsigned)addr, x, y, (unsigned)WM_TILE_MEM_BYTES);
    return false;
}

void wm_sw_core_start(sw_cores *cs, sw_core *c, uint64_t cycle)
{
    wm_page_store_share(cs->pages, &c->iss.ram);
    wm_iss_reset(&c->iss);
    c->start = cycle;
    c->started = true;
    c->last_cycle = UINT64_MAX;
}

wm_core_status wm_sw_core_status(const sw_core *c, uint64_t cycle)
{
    wm_core_status st;
    memset(&st, 0, sizeof st);
    st.halt.state = WM_CORE_RUNNING;
    if (!c || !c->started) return st;
    /* A core is reported started once it has spent its cycle 0. */
    st.started = cycle > c->start;
    st.waiting = wm_iss_waiting(&c->iss) != WM_ISS_WAIT_NONE;
    st.pc = wm_iss_pc(&c->iss);
    st.retired = wm_iss_retired(&c->iss);
    st.halt = wm_iss_halt(&c->iss);
    return st;
}

void wm_sw_core_fill_view(const sw_core *c, uint64_t cycle, wm_sw_core_view *out)
{
    memset(out, 0, sizeof *out);
    if (!c || !c->started || cycle <= c->start) return;
    out->started = true;
    out->pc = wm_iss_pc(&c->iss);
    const wm_core_halt halt = wm_iss_halt(&c->iss);
    out->halted = halt.state != WM_CORE_RUNNING;
    out->fault_cause = (uint8_t)(halt.state == WM_CORE_FAULTED ? halt.cause : WM_CORE_OK);
    /* A core asleep or halted in the last cycle was not stepped: it did nothing. */
    if (c->last_cycle != cycle - 1) return;
    const wm_core_cycle *w = &c->last;
    out->retire = w->retire;
    out->retire_pc = w->retire ? w->retire_pc : 0;
    out->retire_insn = w->retire ? w->retire_insn : 0;
    out->rd_we = w->rd_we;
    out->rd = w->rd_we ? w->rd : 0;
    out->rd_data = w->rd_we ? w->rd_data : 0;
    out->push = w->push;
    out->push_data = w->push ? w->push_data : 0;
    out->pop = w->pop;
}
