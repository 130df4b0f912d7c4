#pragma once
// The shortest decimal spelling of a float that reads back as the same float, byte for byte what
// std::to_chars(first, last, float) writes (fixed or scientific, whichever is shorter, fixed on a
// tie, a whole number in fixed notation printed exactly). A model export spells a few hundred
// million of them, and libstdc++'s to_chars was half of its time; this one is 1.1–1.5× faster on
// attention-like data (bench/README.md, "Exports").
//
// The digits come from Raffaello Giulietti's Schubfach algorithm ("The Schubfach way to render
// doubles", 2020) for binary32: one 64×32-bit product per bound with a 64-bit power of ten.
// tests/core/test_float_shortest.cpp compares it with std::to_chars on every 4,099th bit pattern
// and the edge cases; bench/float_shortest_check.cpp on all 2³² of them.
namespace attnscope {

inline constexpr int kFloatShortestMaxChars = 16;  // the longest text: "-1.17549435e-38" is 15
inline constexpr int kFloatShortestRoom = 32;      // the bytes at `out` it may write: see below

// Writes `value` at `out` and returns the end of the text. The digits are placed with fixed-size
// 16-byte copies, so bytes after the end (up to out + kFloatShortestRoom) may be written too and
// are to be overwritten or ignored. NaN and ±∞ are written "nan", "inf", "-inf", as std::to_chars does.
char* spellFloatShortest(char* out, float value);

}  // namespace attnscope
