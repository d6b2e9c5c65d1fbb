/* vl_coverage.h: the counts of the coverage build's Verilated models.
 *
 * `make coverage` builds the tile, the tile with its core and the core
 * with Verilator's --coverage and compiles the shims with WM_COVERAGE.
 * Each fabric (and each core) has a VerilatedContext of its own, whose
 * coverage points live as long as its models: before they go, the shim
 * hands the context to wm_vl_coverage_collect, which adds its counts to
 * the process's, and the process writes the sum once, at exit, as
 * WM_COVERAGE_DIR/PID.dat (default build/coverage/dat), which
 * verilator_coverage merges. A process that ends without exit (a forked
 * campaign worker's _exit) writes nothing: coverage runs use --jobs 1.
 * Without WM_COVERAGE, collecting is nothing at all.
 */
#ifndef WM_VL_COVERAGE_H
#define WM_VL_COVERAGE_H

#ifdef WM_COVERAGE
#include "verilated.h"
#include "verilated_cov.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

// One map for the process, whichever shim collects (inline: one instance).
inline std::map<std::string, uint64_t> &wm_vl_coverage_counts()
{
    static std::map<std::string, uint64_t> counts;
    return counts;
}

inline void wm_vl_coverage_write()
{
    const char *dir = std::getenv("WM_COVERAGE_DIR");
    const std::string d = dir && *dir ? dir : BUILD_DIR "/coverage/dat";
    mkdir(d.c_str(), 0777);
    const std::string path = d + "/" + std::to_string(getpid()) + ".dat";
    std::ofstream out(path);
    out << "# SystemC::Coverage-3\n";
    for (const auto &kv : wm_vl_coverage_counts()) out << "C '" << kv.first << "' " << kv.second << "\n";
    if (!out) std::fprintf(stderr, "wavemesh: coverage: cannot write %s\n", path.c_str());
}

// Adds ctx's counts (file lines "C '<key>' <count>") to the process's.
inline void wm_vl_coverage_collect(VerilatedContext &ctx)
{
    static bool registered = false;
    if (!registered) {
        // the map first: it is then destroyed after the writer has run
        (void)wm_vl_coverage_counts();
        std::atexit(wm_vl_coverage_write);
        registered = true;
    }
    char tmp[] = "/tmp/wm-coverage-XXXXXX";
    const int fd = mkstemp(tmp);
    if (fd < 0) return;
    close(fd);
    ctx.coveragep()->write(tmp);
    std::ifstream in(tmp);
    std::string line;
    while (std::getline(in, line)) {
        if (line.compare(0, 3, "C '") != 0) continue;
        const size_t end = line.rfind("' ");
        if (end == std::string::npos || end < 3) continue;
        wm_vl_coverage_counts()[line.substr(3, end - 3)] += std::strtoull(line.c_str() + end + 2, nullptr, 10);
    }
    std::remove(tmp);
}
#define WM_VL_COVERAGE_COLLECT(ctx) wm_vl_coverage_collect(ctx)
#else
#define WM_VL_COVERAGE_COLLECT(ctx) ((void)0)
#endif

#endif
