#!/usr/bin/env python3
"""Writes a lesson that declares big sizes in a few hundred bytes (hostile-case setup).

    big_lesson.py FILE D_MODEL HEADS TOKENS LAYERS

No projections (each head is an identity of D_MODEL), no embeddings (every word is hashed), a
sentence of TOKENS different words and LAYERS empty layers (more than one: version 2 with the
residual, so HEADS must be 1 there): what the run costs comes from the declared sizes alone.
"""
import json
import sys

path, d_model, heads, tokens, layers = sys.argv[1], *map(int, sys.argv[2:6])
lesson = {"format": "attnscope-lesson", "version": 1, "d_model": d_model, "heads": heads, "projections": False,
          "sentence": " ".join(f"w{i}" for i in range(tokens)), "embeddings": {}}
if layers > 1:
    lesson.update(version=2, layers=[{}] * layers)
with open(path, "w") as f:
    json.dump(lesson, f)
