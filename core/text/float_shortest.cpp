// Schubfach for binary32 (see float_shortest.hpp). Names follow the paper: a float is c·2^q, its
// rounding interval [cbl, cbr]·2^(q-2); the decimal found is s·10^k.
#include "core/text/float_shortest.hpp"

#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace attnscope {

namespace {

// ------------------------------------------------ powers of ten, computed exactly at compile time

constexpr int kMinPow10 = -31;  // 10^-31 … 10^45: -k for every float's q (floor(log10 2^q))
constexpr int kMaxPow10 = 45;

constexpr int floorLog2Pow10(int e) { return (e * 1741647) >> 19; }           // |e| ≤ 1233
constexpr int floorLog10Pow2(int e) { return (e * 1262611) >> 22; }           // |e| ≤ 2620
constexpr int floorLog10ThreeQuartersPow2(int e) { return (e * 1262611 - 524031) >> 22; }

// A 256-bit unsigned integer, enough for 10^45 (150 bits) and 2^166 (the largest numerator).
struct Wide {
    std::array<std::uint32_t, 8> word{};  // least significant first
};

constexpr void multiplyBy(Wide& x, std::uint32_t m) {
    std::uint64_t carry = 0;
    for (auto& w : x.word) {
        const std::uint64_t t = std::uint64_t{w} * m + carry;
        w = static_cast<std::uint32_t>(t);
        carry = t >> 32;
    }
}

constexpr void divideBy(Wide& x, std::uint32_t d) {  // floor(floor(x/a)/b) = floor(x/(a·b))
    std::uint64_t rest = 0;
    for (int i = 7; i >= 0; --i) {
        const std::uint64_t cur = (rest << 32) | x.word[static_cast<std::size_t>(i)];
        x.word[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(cur / d);
        rest = cur % d;
    }
}

constexpr bool bitAt(const Wide& x, int i) {
    return i >= 0 && i < 256 && ((x.word[static_cast<std::size_t>(i / 32)] >> (i % 32)) & 1u);
}

// The 64 bits of x·2^shift starting at bit 0 (shift may be negative: bits below 0 are dropped).
constexpr std::uint64_t low64Shifted(const Wide& x, int shift) {
    std::uint64_t out = 0;
    for (int i = 0; i < 64; ++i)
        if (bitAt(x, i - shift)) out |= std::uint64_t{1} << i;
    return out;
}

// g = floor(10^e · 2^(63 - floorLog2(10^e))) + 1: 10^e normalised to 64 bits, just above it.
constexpr std::uint64_t pow10Above(int e) {
    const int r = floorLog2Pow10(e);
    Wide x;
    if (e >= 0) {
        x.word[0] = 1;
        for (int i = 0; i < e; ++i) multiplyBy(x, 10);
        return low64Shifted(x, 63 - r) + 1;
    }
    const int bits = 63 - r;  // 2^bits / 10^-e
    x.word[static_cast<std::size_t>(bits / 32)] = std::uint32_t{1} << (bits % 32);
    for (int i = 0; i < -e; ++i) divideBy(x, 10);
    return low64Shifted(x, 0) + 1;
}

constexpr auto kPow10 = [] {
    std::array<std::uint64_t, kMaxPow10 - kMinPow10 + 1> table{};
    for (int e = kMinPow10; e <= kMaxPow10; ++e) table[static_cast<std::size_t>(e - kMinPow10)] = pow10Above(e);
    return table;
}();
static_assert(kPow10[31] == 0x8000000000000001u, "10^0");
static_assert(kPow10[32] == 0xA000000000000001u, "10^1");

// ------------------------------------------------ the digits

struct Decimal {
    std::uint32_t digits;  // s, without the trailing zeros stripped
    int exponent;          // k: the float is s·10^k
};

// The upper 32 bits of g·cp (a 96-bit product), made odd when anything below them is set.
std::uint32_t roundToOdd(std::uint64_t g, std::uint32_t cp) {
    const unsigned __int128 p = static_cast<unsigned __int128>(g) * cp;
    const auto y1 = static_cast<std::uint32_t>(p >> 64);
    const auto y0 = static_cast<std::uint32_t>(p >> 32);
    return y1 | (y0 > 1 ? 1u : 0u);
}

Decimal toDecimal(std::uint32_t fraction, std::uint32_t biased) {
    constexpr int kBias = 127 + 23;
    std::uint32_t c;
    int q;
    if (biased != 0) {
        c = (1u << 23) | fraction;
        q = static_cast<int>(biased) - kBias;
        if (q <= 0 && -q < 24 && (c & ((1u << -q) - 1)) == 0) return {c >> -q, 0};  // a small integer
    } else {
        c = fraction;
        q = 1 - kBias;
    }
    const bool even = c % 2 == 0;  // the bounds belong to the interval (round half to even)
    const bool lowerCloser = fraction == 0 && biased > 1;
    const std::uint32_t cbl = 4 * c - 2 + (lowerCloser ? 1 : 0), cb = 4 * c, cbr = 4 * c + 2;
    const int k = lowerCloser ? floorLog10ThreeQuartersPow2(q) : floorLog10Pow2(q);
    const int h = q + floorLog2Pow10(-k) + 1;
    const std::uint64_t g = kPow10[static_cast<std::size_t>(-k - kMinPow10)];
    const std::uint32_t vbl = roundToOdd(g, cbl << h), vb = roundToOdd(g, cb << h), vbr = roundToOdd(g, cbr << h);
    const std::uint32_t lower = vbl + (even ? 0 : 1), upper = vbr - (even ? 0 : 1);
    const std::uint32_t s = vb / 4;
    if (s >= 10) {  // one digit fewer, if exactly one of its two neighbours is inside
        const std::uint32_t sp = s / 10;
        const bool upInside = lower <= 40 * sp, wpInside = 40 * sp + 40 <= upper;
        if (upInside != wpInside) return {sp + (wpInside ? 1u : 0u), k + 1};
    }
    const bool uInside = lower <= 4 * s, wInside = 4 * s + 4 <= upper;
    if (uInside != wInside) return {s + (wInside ? 1u : 0u), k};
    const std::uint32_t mid = 4 * s + 2;
    const bool roundUp = vb > mid || (vb == mid && (s & 1) != 0);
    return {s + (roundUp ? 1u : 0u), k};
}

// The value of a float known to be a whole number below 2^64: c·2^q.
std::uint64_t exactInteger(std::uint32_t fraction, std::uint32_t biased) {
    const std::uint64_t c = (1u << 23) | fraction;  // a whole number ≥ 1 is normal
    const int q = static_cast<int>(biased) - (127 + 23);
    return q >= 0 ? c << q : c >> -q;
}

// ------------------------------------------------ the spelling, as std::to_chars lays it out

constexpr auto kTwoDigits = [] {
    std::array<char, 200> t{};
    for (int i = 0; i < 100; ++i) {
        t[static_cast<std::size_t>(2 * i)] = static_cast<char>('0' + i / 10);
        t[static_cast<std::size_t>(2 * i + 1)] = static_cast<char>('0' + i % 10);
    }
    return t;
}();

constexpr std::array<std::uint32_t, 10> kPow10Int = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
                                                     100000000, 1000000000};

int digitCount(std::uint32_t s) {  // log10 from the bit length (1233/4096 ≈ log10 2), then one compare
    const int guess = ((32 - std::countl_zero(s | 1u)) * 1233) >> 12;
    return guess + 1 - (s < kPow10Int[static_cast<std::size_t>(guess)] ? 1 : 0);
}

// The n digits of s at out[0…n), two at a time.
void writeDigits(char* out, std::uint32_t s, int n) {
    char* p = out + n;
    while (s >= 100) {
        const std::uint32_t pair = s % 100;
        s /= 100;
        p -= 2;
        std::memcpy(p, &kTwoDigits[2 * pair], 2);
    }
    if (s >= 10) {
        p -= 2;
        std::memcpy(p, &kTwoDigits[2 * s], 2);
    } else {
        *--p = static_cast<char>('0' + s);
    }
}

// An integer-valued float in fixed notation: printf's exact digits ("33565872", not the shortest
// "33565870"). Fixed is chosen only below 10^15, so it fits 64 bits.
char* writeExactInteger(char* out, std::uint64_t value) {
    if (value <= 0xFFFFFFFFu) {
        const auto small = static_cast<std::uint32_t>(value);
        const int n = digitCount(small);
        writeDigits(out, small, n);
        return out + n;
    }
    char digits[20];
    char* p = digits + sizeof digits;
    do {
        *--p = static_cast<char>('0' + value % 10);
        value /= 10;
    } while (value != 0);
    const auto n = static_cast<std::size_t>(digits + sizeof digits - p);
    std::memcpy(out, p, n);
    return out + n;
}

// The nine digits of s (1 ≤ s < 10^9, leading zeros kept) written at out[0…9), and where its
// significant digits are: where they start, how many there are once the trailing zeros are
// dropped, and how many those were (added to the exponent). Two digits at a time into a 64-bit
// word and counted there ('0' XOR 0x30 is a zero byte): no loop and no branch, which attention
// data's mixed lengths mispredicted, and nothing read back that was just stored in pieces.
struct Significant {
    int lead, count, trailingZeros;
};
Significant writeNineDigits(char* out, std::uint32_t s) {
    const std::uint32_t high = s / 100000000, rest = s % 100000000;
    const std::uint32_t upper = rest / 10000, lower = rest % 10000;
    const auto pair = [](std::uint32_t v) {
        std::uint16_t two;
        std::memcpy(&two, &kTwoDigits[2 * v], 2);
        return std::uint64_t{two};
    };
    // Digits 1…8, the last in the highest byte; then digits 0…7, the first in the lowest.
    const std::uint64_t last = pair(upper / 100) | pair(upper % 100) << 16 | pair(lower / 100) << 32 |
                               pair(lower % 100) << 48;
    const std::uint64_t first = last << 8 | static_cast<std::uint64_t>('0' + high);
    std::memcpy(out, &first, 8);
    out[8] = static_cast<char>(last >> 56);
    constexpr std::uint64_t kZeros = 0x3030303030303030u;
    const int lead = std::countr_zero(first ^ kZeros) / 8;  // s ≥ 1: some digit is not 0
    const int trailing = std::countl_zero(last ^ kZeros) / 8;
    return {lead, 9 - lead - trailing, trailing};
}

// The n digits at `d` (16 bytes readable) as d.ddde±XX, the exponent k + n - 1 (|e| ≤ 45); one
// digit: de±XX. Fixed-size copies: bytes past the end are written and left (the caller's room).
char* writeScientific(char* out, const char* d, int n, int k) {
    out[0] = d[0];
    out[1] = '.';  // overwritten by the 'e' when there is one digit
    std::memcpy(out + 2, d + 1, 16);
    out += n > 1 ? n + 1 : 1;
    const int e = k + n - 1;
    *out++ = 'e';
    *out++ = e < 0 ? '-' : '+';
    std::memcpy(out, &kTwoDigits[2 * static_cast<std::size_t>(e < 0 ? -e : e)], 2);
    return out + 2;
}

// The n digits at `d` times 10^k, -(n + 3) ≤ k < 0: dd.ddd, or 0.ddd with at most three zeros
// after the point; the common case of attention data. Fixed-size copies, as above.
char* writeFixedFraction(char* out, const char* d, int n, int k) {
    const int whole = n + k;
    if (whole > 0) {
        std::memcpy(out, d, 16);
        out[whole] = '.';
        std::memcpy(out + whole + 1, d + whole, 16);
        return out + n + 1;
    }
    std::memcpy(out, "0.000", 5);
    std::memcpy(out + 2 - whole, d, 16);
    return out + 2 - whole + n;
}

}  // namespace

char* spellFloatShortest(char* out, float value) {
    const auto bits = std::bit_cast<std::uint32_t>(value);
    const std::uint32_t fraction = bits & 0x7FFFFFu, biased = (bits >> 23) & 0xFFu;
    if (biased == 0xFF) return std::to_chars(out, out + kFloatShortestMaxChars, value).ptr;  // nan, ±inf
    if (bits >> 31) *out++ = '-';
    if (biased == 0 && fraction == 0) {
        *out = '0';
        return out + 1;
    }
    const Decimal d = toDecimal(fraction, biased);
    char nine[32] = {};  // the nine digits, then room for the 16-byte copies that read past them
    const Significant sig = writeNineDigits(nine, d.digits);
    const int n = sig.count, k = d.exponent + sig.trailingZeros;
    const char* digits = nine + sig.lead;
    // The shorter of the two (fixed on a tie), as lengths: scientific n (+1 for the point) + 4;
    // fixed n + k, n + 1, or 2 - k.
    const bool fixed = n == 1 ? (k >= -3 && k <= 4) : (k >= -(n + 3) && k <= 5);
    if (!fixed) return writeScientific(out, digits, n, k);
    return k < 0 ? writeFixedFraction(out, digits, n, k) : writeExactInteger(out, exactInteger(fraction, biased));
}

}  // namespace attnscope
