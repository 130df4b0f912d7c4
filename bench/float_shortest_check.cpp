// Every one of the 2³² float bit patterns through spellFloatShortest and std::to_chars: the same
// bytes, or the first differences printed (exit 1). Also the time of each, in ns a number. Run by
// hand after touching core/text/float_shortest.cpp (about two minutes on two cores):
//   cmake --build build --target attnscope_float_shortest_check && build/bench/attnscope_float_shortest_check
// An optional argument checks every Nth pattern only.
#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <bit>
#include <string>
#include <thread>
#include <vector>

#include "core/text/float_shortest.hpp"

namespace {

std::atomic<std::uint64_t> mismatches{0};

void checkRange(std::uint64_t first, std::uint64_t last, std::uint64_t step) {
    char ours[32], theirs[32];
    for (std::uint64_t b = first; b < last; b += step) {
        const float f = std::bit_cast<float>(static_cast<std::uint32_t>(b));
        char* endOurs = attnscope::spellFloatShortest(ours, f);
        char* endTheirs = std::to_chars(theirs, theirs + sizeof theirs, f).ptr;
        const auto n = static_cast<std::size_t>(endOurs - ours);
        if (n == static_cast<std::size_t>(endTheirs - theirs) && std::memcmp(ours, theirs, n) == 0) continue;
        if (mismatches.fetch_add(1) < 20)
            std::printf("0x%08x: ours %.*s, to_chars %.*s\n", static_cast<unsigned>(b), static_cast<int>(n), ours,
                        static_cast<int>(endTheirs - theirs), theirs);
    }
}

template <class Spell>
double nsPerNumber(Spell spell, std::uint64_t step) {
    char text[32];
    std::uint64_t sink = 0, count = 0;
    const auto start = std::chrono::steady_clock::now();
    for (std::uint64_t b = 0; b < (std::uint64_t{1} << 32); b += step, ++count) {
        const float f = std::bit_cast<float>(static_cast<std::uint32_t>(b));
        sink += static_cast<std::uint64_t>(spell(text, f) - text);
    }
    const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
    if (sink == 0) std::puts("");
    return ns / static_cast<double>(count);
}

}  // namespace

int main(int argc, char** argv) {
    const std::uint64_t step = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1;
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    const std::uint64_t total = std::uint64_t{1} << 32, share = total / threads;
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back(checkRange, t * share, t + 1 == threads ? total : (t + 1) * share, step);
    for (auto& t : pool) t.join();
    const std::uint64_t timingStep = 4099;  // about a million numbers over every exponent
    std::printf("checked every %llu-th of 2^32 patterns: %llu mismatches\n", static_cast<unsigned long long>(step),
                static_cast<unsigned long long>(mismatches.load()));
    std::printf("ns a number (every %llu-th pattern): spellFloatShortest %.1f, std::to_chars %.1f\n",
                static_cast<unsigned long long>(timingStep),
                nsPerNumber([](char* o, float f) { return attnscope::spellFloatShortest(o, f); }, timingStep),
                nsPerNumber([](char* o, float f) { return std::to_chars(o, o + 32, f).ptr; }, timingStep));
    return mismatches.load() == 0 ? 0 : 1;
}
