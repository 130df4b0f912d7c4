#!/usr/bin/env python3
"""Independent reference for the 1/sqrt(d_k) experiment (core/lab/scaling.cpp), stdlib only.

Re-implements, from the documented rules and not from the C++ code: SplitMix64, the top 53 bits
as a uniform double, Box-Muller (u1 = 1 - u), q then the keys row by row, scores q.k (divided
by sqrt(d) when scaled), a max-shifted softmax, the largest |entry| of diag(y) - y^T y.

    /usr/bin/python3 tests/reference/reference_scaling.py > tests/reference/fixtures/scaling.json
"""
import json
import math

MASK = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK

    def bits(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def uniform(self):
        return (self.bits() >> 11) * 2.0 ** -53

    def normal(self):
        u1 = 1.0 - self.uniform()
        u2 = self.uniform()
        return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)


def largest_gradient(d, keys, scaled, seed):
    rng = SplitMix64(seed)
    q = [rng.normal() for _ in range(d)]
    k = [[rng.normal() for _ in range(d)] for _ in range(keys)]
    s = [math.fsum(a * b for a, b in zip(q, row)) for row in k]
    if scaled:
        s = [x / math.sqrt(d) for x in s]
    top = max(s)
    e = [math.exp(x - top) for x in s]
    total = math.fsum(e)
    y = [x / total for x in e]
    return max(abs((y[i] if i == j else 0.0) - y[i] * y[j]) for i in range(keys) for j in range(keys))


def main():
    first = SplitMix64(0)
    cases = []
    for d, scaled, seed in [(2, False, 7), (16, True, 7), (100, False, 42), (100, True, 42),
                            (1000, False, 1234), (1000, True, 1234)]:
        cases.append({"dimension": d, "keys": 50, "scaled": scaled, "seed": seed,
                      "largest_gradient": largest_gradient(d, 50, scaled, seed)})
    print(json.dumps({"splitmix64_seed0_first_two": [hex(first.bits()), hex(first.bits())],
                      "box_muller_seed0_first_normal": SplitMix64(0).normal(),
                      "runs": cases}, indent=1))


if __name__ == "__main__":
    main()
