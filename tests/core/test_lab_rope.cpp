// Lab ▸ Positional encoding, the RoPE page (core/lab/rope_lab): the score is the same at (m, n)
// and (m + s, n + s) with RoPE, and moves with the positions when sinusoids are added; the
// frequency bands and Llama 3's scaling of the long wavelengths.
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>
#include <string>

#include "core/lab/rope_lab.hpp"
#include "core/lab/worksheet.hpp"

using namespace attnscope;

TEST_CASE("RoPE keeps q·k when both positions shift, added sinusoids do not (by hand)", "[lab][rope]") {
    // d_k = 2, θ_0 = 1: q = k = [1, 0] turn to [cos m, sin m] and [cos n, sin n], so
    // q·k = cos m cos n + sin m sin n = cos(m − n) = cos 2 = −0.416147 for (3, 1), (4, 2), (5, 3).
    // Sinusoids (d = 2: PE(pos) = [sin pos, cos pos]) give (1 + sin m)(1 + sin n) + cos m cos n:
    //   (3, 1): 1.141120 × 1.841471 + (−0.989992)(0.540302) = 1.566444
    //   (4, 2): 0.243198 × 1.909297 + (−0.653644)(−0.416147) = 0.736348
    //   (5, 3): 0.041076 × 1.141120 + 0.283662 × (−0.989992) = −0.233951
    RowVec q(2), k(2);
    q << 1, 0;
    k << 1, 0;
    const auto demo = ropeShiftDemo(q, k, 3, 1, 2, 10000);
    REQUIRE(demo.ok());
    const RopeShiftDemo& d = demo.value();
    REQUIRE(d.rows.size() == 3);
    for (const RopeShiftRow& row : d.rows) CHECK(row.ropeScore == Approx(std::cos(2.0)).margin(1e-12));
    CHECK(d.rows[0].sinusoidScore == Approx(1.566444).margin(1e-6));
    CHECK(d.rows[1].sinusoidScore == Approx(0.736348).margin(1e-6));
    CHECK(d.rows[2].sinusoidScore == Approx(-0.233951).margin(1e-6));
    CHECK(d.ropeSpread < 1e-12);
    CHECK(d.sinusoidSpread == Approx(1.566444 + 0.233951).margin(1e-6));
    const Mat table = ropeShiftTable(d);  // what the card exports: s, m + s, n + s, RoPE, sinusoids
    REQUIRE(table.rows() == 3);
    CHECK(table(2, 0) == 2);
    CHECK(table(2, 1) == 5);
    CHECK(table(2, 2) == 3);
    CHECK(table(2, 3) == d.rows[2].ropeScore);
    CHECK(table(2, 4) == d.rows[2].sinusoidScore);
}

TEST_CASE("RoPE's shift invariance holds for any vectors, widths and many shifts", "[lab][rope]") {
    RowVec q(8), k(8);
    q << 0.3, -1.2, 2.0, 0.5, -0.7, 1.1, 0.0, 0.9;
    k << -0.4, 0.8, 1.5, -2.2, 0.6, 0.1, -1.0, 0.2;
    const auto demo = ropeShiftDemo(q, k, 7, 2, 200, 10000);
    REQUIRE(demo.ok());
    CHECK(demo.value().ropeSpread < 1e-9);
    CHECK(demo.value().sinusoidSpread > 1.0);  // the added encoding moves the score by more than 1
}

TEST_CASE("the RoPE demo refuses what it cannot turn", "[lab][rope]") {
    RowVec three(3), two(2);
    three << 1, 2, 3;
    two << 1, 2;
    CHECK(ropeShiftDemo(three, three, 0, 0, 1, 10000).error().text() ==
          "q: rotary position encoding turns pairs of columns: d_k must be even, found 3");
    CHECK(ropeShiftDemo(two, three, 0, 0, 1, 10000).error().text() == "k: expected 2 numbers, found 3");
    CHECK(ropeShiftDemo(two, two, -1, 0, 1, 10000).error().text() == "m: expected 0 to 8192, found -1");
}

TEST_CASE("frequency bands and the Llama 3 scaling of long wavelengths", "[lab][rope]") {
    // d_k = 4, base 10000: θ = (1, 10000^(−2/4) = 0.01), wavelengths 2π = 6.283185 and 200π = 628.3185.
    const auto plain = ropeBands(4, 10000, RopeScaling{});
    REQUIRE(plain.size() == 2);
    CHECK(plain[1].theta == Approx(0.01));
    CHECK(plain[1].wavelength == Approx(200 * std::numbers::pi));
    CHECK(plain[1].scaledTheta == plain[1].theta);

    // Llama 3.1: d_k = 128, base 500000, factor 8, original context 8192, low 1, high 4. Wavelengths
    // above 8192 / 1 are stretched 8 times, below 8192 / 4 = 2048 kept, between blended.
    const auto bands = ropeBands(128, 500000, llama3Scaling());
    REQUIRE(bands.size() == 64);
    CHECK(bands[0].scaledTheta == bands[0].theta);  // wavelength 2π: kept
    const RopeBand& last = bands.back();             // 2π · 500000^(126/128) ≈ 2.5 million positions
    CHECK(last.wavelength > 8192);
    CHECK(last.scaledTheta == Approx(last.theta / 8));
    CHECK(last.scaledWavelength == Approx(8 * last.wavelength));
    int blended = 0;
    for (const RopeBand& b : bands) {
        if (b.wavelength < 2048 || b.wavelength > 8192) continue;
        // smooth = (8192 / λ − 1) / 3; θ' = (1 − smooth)·θ/8 + smooth·θ
        const double smooth = (8192 / b.wavelength - 1) / 3;
        CHECK(b.scaledTheta == Approx((1 - smooth) * b.theta / 8 + smooth * b.theta));
        ++blended;
    }
    CHECK(blended == 6);  // bands 29 … 34: 500000^(i/64)·2π crosses 2048 after i = 28 and 8192 after i = 34
    const Mat table = ropeBandsTable(bands);
    REQUIRE(table.rows() == 64);
    CHECK(table(63, 0) == 64);  // the 64th pair, counted from 1 as the page shows it
    CHECK(table(63, 4) == last.scaledWavelength);
}

namespace {

RopeSheetPhrases testPhrases() {
    return RopeSheetPhrases{"RoPE by hand", "q = {1}, k = {2}, d_k = {3}, base {4}", "q at m = {1}", "k at n = {1}",
                            "score at ({1}, {2})", "moved by {1}: ({2}, {3})", "Why equal?", "Only m − n counts.",
                            "pair {1}", worksheetPhrases(Language::English)};
}

}  // namespace

TEST_CASE("the RoPE page's worksheet, worked by hand", "[lab][rope][worksheet]") {
    // q = [1, 2, 0, 0] at m = 1, k = [0, 1, 1, 0] at n = 0, base 100, d_k = 4: θ = [1, 100^(−2/4)] = [1, 0.1].
    // Pair 1 of q, (q[0], q[2]) = (1, 0), by 1 rad: (cos 1, sin 1) = (0.540, 0.841).
    // Pair 2 of q, (q[1], q[3]) = (2, 0), by 0.1: (2·cos 0.1, 2·sin 0.1) = (1.990, 0.200); cos 0.1 = 0.995, sin 0.1 = 0.100.
    // k at n = 0 is not turned: pair 1 (0, 1), pair 2 (1, 0).
    // q′·k′ = 0.540·0 + 1.990·1 + 0.841·1 + 0.200·0 = 2·cos 0.1 + sin 1 = 1.990017 + 0.841471 = 2.831488;
    // moved by s = 2 to (3, 2) the same 2.831: each pair sees only (m − n)·θ_i.
    RowVec q(4), k(4);
    q << 1, 2, 0, 0;
    k << 0, 1, 1, 0;
    const auto sheet = ropeWorksheet(RopeSheetInput{q, k, 1, 0, 2, 100, 3}, WorksheetFormat::Markdown, testPhrases());
    REQUIRE(sheet.ok());
    const std::string& questions = sheet.value().questions;
    const std::string& answers = sheet.value().answers;
    INFO(questions << "\n----\n" << answers);
    // Paragraphs are Markdown-escaped: d\_k and \_\_\_\_ render as d_k and ____.
    CHECK(questions.find("q = [1.000, 2.000, 0.000, 0.000], k = [0.000, 1.000, 1.000, 0.000], d\\_k = 4, base 100") !=
          std::string::npos);
    CHECK(questions.find("| **pair 1** | 1.000 | ____ | ____ | ____ | ____ | ____ |") != std::string::npos);
    CHECK(questions.find("score at (1, 0) = \\_\\_\\_\\_") != std::string::npos);
    CHECK(questions.find("moved by 2: (3, 2) = \\_\\_\\_\\_") != std::string::npos);
    CHECK(answers.find("| **pair 1** | 1.000 | 1.000 | 0.540 | 0.841 | 0.540 | 0.841 |") != std::string::npos);
    CHECK(answers.find("| **pair 2** | 0.100 | 0.100 | 0.995 | 0.100 | 1.990 | 0.200 |") != std::string::npos);
    CHECK(answers.find("| **pair 1** | 1.000 | 0.000 | 1.000 | 0.000 | 0.000 | 1.000 |") != std::string::npos);
    CHECK(answers.find("| **pair 2** | 0.100 | 0.000 | 1.000 | 0.000 | 1.000 | 0.000 |") != std::string::npos);
    CHECK(answers.find("score at (1, 0) = 2.831") != std::string::npos);
    CHECK(answers.find("moved by 2: (3, 2) = 2.831") != std::string::npos);
    CHECK(answers.find("Only m − n counts.") != std::string::npos);
    RowVec odd(3);
    odd << 1, 2, 3;
    CHECK_FALSE(ropeWorksheet(RopeSheetInput{odd, odd, 1, 0, 2, 100, 3}, WorksheetFormat::Latex, testPhrases()).ok());
}
