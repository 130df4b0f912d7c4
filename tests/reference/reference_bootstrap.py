#!/usr/bin/python3
"""Independent reference for the bootstrap intervals of coreference rankings (issue 30 §1).

Written from the definition in core/analysis/bootstrap.hpp and docs/coreference.md ("Uncertainty"),
not from the C++: per-example scores n×K (1 correct / 0 wrong, or an expected score) are
resampled B times; resample b draws n example indices, each (next 32-bit Mersenne Twister output)
mod n, the generator being MT19937 seeded with `seed` (NumPy's legacy RandomState, which
seeds like std::mt19937 and whose randint(0, 2**32, dtype=uint32) returns the raw outputs).
The interval of a column is NumPy's linear percentile at (1 − level)/2 and (1 + level)/2 of the
B resampled means; a paired difference uses the same resamples.

Output: tests/reference/fixtures/bootstrap.json, which tests/core/test_bootstrap.cpp reads (no
Python at test time). Run with /usr/bin/python3 (needs python3-numpy).
"""
import json
import os

import numpy as np

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")

# Columns: two heads (0/1), a rule baseline (0/1), a random pick's expected score (1/C).
CASES = [
    {"name": "seven examples", "seed": 7, "resamples": 200, "level": 0.95,
     "scores": [[1, 0, 1, 1 / 3], [1, 1, 0, 1 / 3], [0, 0, 1, 1 / 2], [1, 0, 0, 1 / 4],
                [1, 1, 1, 1 / 3], [0, 1, 0, 1 / 5], [1, 0, 0, 1 / 2]]},
    {"name": "forty examples, default settings", "seed": 1, "resamples": 1000, "level": 0.95,
     "scores": [[(i * 7) % 3 == 0, (i * 5) % 4 != 1, i % 2 == 0, 1 / (2 + i % 5)] for i in range(40)]},
    {"name": "ninety per cent", "seed": 12345, "resamples": 333, "level": 0.9,
     "scores": [[i % 3 != 0, (i // 2) % 2, i % 5 == 0, 1 / (3 + i % 2)] for i in range(25)]},
]


def resampled_means(scores, seed, resamples):
    n = scores.shape[0]
    draws = np.random.RandomState(seed).randint(0, 2**32, size=resamples * n, dtype=np.uint32)
    indices = (draws.astype(np.uint64) % n).reshape(resamples, n)
    counts = np.zeros((resamples, n))
    for b in range(resamples):
        np.add.at(counts[b], indices[b], 1)
    return counts @ scores / n


def interval(values, level):
    low, high = np.percentile(values, [100 * (1 - level) / 2, 100 * (1 + level) / 2])
    return [float(low), float(high)]


def main():
    out = []
    for case in CASES:
        scores = np.array(case["scores"], dtype=float)
        means = resampled_means(scores, case["seed"], case["resamples"])
        out.append({
            **case,
            "scores": scores.tolist(),
            "first_means": means[0].tolist(),
            "intervals": [interval(means[:, k], case["level"]) for k in range(scores.shape[1])],
            # head 0 minus the rule column (2), paired
            "head0_minus_rule": interval(means[:, 0] - means[:, 2], case["level"]),
        })
    with open(os.path.join(FIXTURES, "bootstrap.json"), "w") as f:
        json.dump({"generator": "tests/reference/reference_bootstrap.py", "cases": out}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
