#pragma once
// What the window benchmarks share (keystroke, heatmap zoom, head view): each event timed in wall
// clock and in this thread's CPU (on a loaded machine the wall time also counts other processes'
// turns), and the summary printed against the 16 ms frame.
#include <algorithm>
#include <ctime>
#include <vector>

namespace attnscope::bench {

inline double threadCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

struct Stats {
    double min = 0, median = 0, p95 = 0, max = 0;
};

inline Stats summarise(std::vector<double> ms) {
    if (ms.empty()) return {};
    std::sort(ms.begin(), ms.end());
    const auto at = [&](double q) {
        return ms[std::min(ms.size() - 1, static_cast<std::size_t>(q * static_cast<double>(ms.size())))];
    };
    return {ms.front(), at(0.5), at(0.95), ms.back()};
}

}  // namespace attnscope::bench
