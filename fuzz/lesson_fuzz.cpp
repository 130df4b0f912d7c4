// libFuzzer target: arbitrary bytes as a lesson file into parseLesson. A lesson it accepts must
// survive a round trip (serializeLesson → parseLesson accepts it again) and, when small, run on a
// fixed sentence and on its own sentence. Errors (Result) are fine; crashes, sanitizer reports,
// exceptions escaping the API and a failed round trip are findings. See fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/lesson/lesson.hpp"
#include "core/lesson/run_lesson.hpp"

using namespace attnscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto lesson = parseLesson(text, "fuzz.json");
    if (!lesson) return 0;
    const Lesson& parsed = lesson.value();
    if (!parseLesson(serializeLesson(parsed), "round trip")) __builtin_trap();
    // Runs cost d_model² per layer and token; keep each input fast so the fuzzer explores.
    if (parsed.dModel > 32 || parsed.dK > 32 || parsed.dV > 32 || parsed.layers.size() > 4) return 0;
    (void)runLesson(parsed, "the cat sat on the mat");
    if (parsed.sentence.size() <= 200) (void)runLesson(parsed, parsed.sentence);
    return 0;
}
