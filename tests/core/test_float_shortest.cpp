// spellFloatShortest (core/text/float_shortest.hpp): byte for byte what std::to_chars writes for a
// float, checked on every 4,099th bit pattern (about a million, every exponent) and on the edges;
// bench/float_shortest_check.cpp checks all 2³² by hand.
#include <catch2/catch.hpp>
#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <string>

#include "core/text/float_shortest.hpp"

using namespace attnscope;

namespace {

std::string ours(float f) {
    char text[kFloatShortestRoom];
    return std::string(text, spellFloatShortest(text, f));
}

std::string theirs(float f) {
    char text[64];
    return std::string(text, std::to_chars(text, text + sizeof text, f).ptr);
}

}  // namespace

TEST_CASE("floats are spelled as to_chars spells them, shortest and exact", "[float_shortest]") {
    // Worked by hand: the fewest digits that read back as the float, fixed unless scientific is
    // shorter (a tie stays fixed); a whole number in fixed notation is printed exactly.
    CHECK(ours(0.1f) == "0.1");
    CHECK(ours(0.3f) == "0.3");
    CHECK(ours(2.5f) == "2.5");
    CHECK(ours(-0.0f) == "-0");
    CHECK(ours(0.0f) == "0");
    CHECK(ours(0.001f) == "0.001");             // 5 characters either way: fixed
    CHECK(ours(0.0001f) == "1e-04");            // "0.0001" is one longer
    CHECK(ours(0.00012f) == "0.00012");         // 7 = "1.2e-04": fixed
    CHECK(ours(0.000012f) == "1.2e-05");
    CHECK(ours(10000.0f) == "10000");
    CHECK(ours(100000.0f) == "1e+05");
    CHECK(ours(1200000.0f) == "1200000");       // 7 = "1.2e+06": fixed
    CHECK(ours(33565872.0f) == "33565872");     // shortest digits are 3356587e1; printf prints it exactly
    CHECK(ours(16777216.0f) == "16777216");
    CHECK(ours(123456.78f) == "123456.78");
    CHECK(ours(std::numeric_limits<float>::max()) == "3.4028235e+38");
    CHECK(ours(std::numeric_limits<float>::min()) == "1.1754944e-38");
    CHECK(ours(std::numeric_limits<float>::denorm_min()) == "1e-45");
    CHECK(ours(-std::numeric_limits<float>::infinity()) == "-inf");
}

TEST_CASE("every 4099th float bit pattern is spelled as std::to_chars spells it", "[float_shortest]") {
    std::uint64_t compared = 0, differing = 0;
    for (std::uint64_t bits = 0; bits < (std::uint64_t{1} << 32); bits += 4099) {
        const float f = std::bit_cast<float>(static_cast<std::uint32_t>(bits));
        if (f != f) continue;  // NaN's sign and payload: to_chars' own business
        ++compared;
        if (ours(f) == theirs(f)) continue;
        if (++differing <= 5) FAIL_CHECK("bits " << bits << ": ours " << ours(f) << ", to_chars " << theirs(f));
    }
    INFO(compared << " compared");
    CHECK(differing == 0);
}

TEST_CASE("powers of two and ten and their neighbours are spelled as std::to_chars spells them", "[float_shortest]") {
    int differing = 0;
    const auto check = [&](float f) {
        for (float g : {f, std::nextafter(f, 0.0f), std::nextafter(f, 1e39f), -f})
            if (ours(g) != theirs(g) && ++differing <= 5) FAIL_CHECK("ours " << ours(g) << ", to_chars " << theirs(g));
    };
    for (int e = -149; e <= 127; ++e) check(std::ldexp(1.0f, e));
    for (int e = -45; e <= 38; ++e) check(std::strtof(("1e" + std::to_string(e)).c_str(), nullptr));
    for (std::uint32_t subnormal = 1; subnormal < 5000; ++subnormal) check(std::bit_cast<float>(subnormal));
    CHECK(differing == 0);
}

TEST_CASE("the spelling writes nothing past its room, and its text is at most 16 characters", "[float_shortest]") {
    // The digits are placed with 16-byte copies that run past the text; kFloatShortestRoom bounds
    // them. Sentinels after the room must survive every 4,099th pattern and the longest cases.
    constexpr char kSentinel = '#';
    std::uint64_t touched = 0, tooLong = 0;
    const auto check = [&](float f) {
        char text[kFloatShortestRoom + 16];
        std::fill(std::begin(text), std::end(text), kSentinel);
        const char* end = spellFloatShortest(text, f);
        if (end - text > kFloatShortestMaxChars) ++tooLong;
        for (int i = kFloatShortestRoom; i < kFloatShortestRoom + 16; ++i)
            if (text[i] != kSentinel) ++touched;
    };
    for (std::uint64_t bits = 0; bits < (std::uint64_t{1} << 32); bits += 4099)
        check(std::bit_cast<float>(static_cast<std::uint32_t>(bits)));
    for (float f : {-1.17549435e-38f, -123456.78f, -0.00012345678f, -9.8765432e-5f, -12345678.0f})
        check(f);
    CHECK(touched == 0);
    CHECK(tooLong == 0);
}
