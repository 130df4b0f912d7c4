// Tokenizer speed (issue 27): load time of a tokenizer folder and the time to encode each text
// file given, its first run (cold word cache) and the best of N, as one JSON line. Run by bench/run_tokenizer_bench.sh, which times
// the JS reference on the same texts in the same run.
//   attnscope_tokenizer_bench FOLDER RUNS TEXT...
#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

#include "core/tokenizers/load.hpp"

using namespace attnscope;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

std::string readAll(const char* file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::cerr << "usage: attnscope_tokenizer_bench FOLDER RUNS TEXT...\n";
        return 2;
    }
    const auto loadStart = Clock::now();
    auto tokenizer = loadTokenizerFromFolder(argv[1]);
    const double loadMs = msSince(loadStart);
    if (!tokenizer) {
        std::cerr << tokenizer.error().text() << "\n";
        return 1;
    }
    const int runs = std::max(1, std::atoi(argv[2]));
    std::cout << "{\"load_ms\": " << loadMs << ", \"texts\": [";
    for (int t = 3; t < argc; ++t) {
        const std::string text = readAll(argv[t]);
        double best = 1e300, first = 0;
        std::size_t tokens = 0;
        for (int r = 0; r < runs; ++r) {
            // The first encode of a text fills the tokenizer's word cache; later runs are warm.
            // The reference keeps a cache too: both are timed the same way, first and best.
            const auto start = Clock::now();
            auto encoded = tokenizer.value()->encode(text);
            const double ms = msSince(start);
            if (r == 0) first = ms;
            best = std::min(best, ms);
            if (!encoded) return std::cerr << encoded.error().text() << "\n", 1;
            tokens = encoded.value().size();
        }
        std::cout << (t > 3 ? ", " : "") << "{\"tokens\": " << tokens << ", \"first_ms\": " << first
                  << ", \"best_ms\": " << best << "}";
    }
    std::cout << "]}\n";
    return 0;
}
