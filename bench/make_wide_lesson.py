#!/usr/bin/python3
"""Writes a wide lesson for the eager-work benchmark (bench/README.md, "Wide lessons").

    /usr/bin/python3 bench/make_wide_lesson.py OUT.json [--d 4096] [--tokens 256] [--heads 1]

No projections (Q = K = V = X), sinusoidal positions, one embedding given and every other token
hashed: the largest lesson the format allows for one head (d_model 4096) with the longest
sentence a lesson runs (256 tokens). Plain Python, no packages.
"""
import json
import sys


def option(name, default):
    return int(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("--"):
        sys.exit(__doc__)
    d, tokens, heads = option("--d", 4096), option("--tokens", 256), option("--heads", 1)
    lesson = {"format": "attnscope-lesson", "version": 1, "title": f"Wide: d_model {d}, {tokens} tokens",
              "sentence": " ".join(f"w{i}" for i in range(tokens)), "d_model": d, "heads": heads,
              "projections": False, "scale": True, "positional_encoding": "sinusoidal",
              "embeddings": {"w0": [(i * 7) % 5 - 2 for i in range(d)]}}
    with open(sys.argv[1], "w") as f:
        json.dump(lesson, f)


if __name__ == "__main__":
    main()
