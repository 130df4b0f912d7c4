#!/usr/bin/python3
"""The NumPy .npz export (attnscope --format npy, core/export/trace_npz.hpp) against numpy itself.

1. Writes tests/reference/fixtures/npz/numpy-savez.npz with numpy's own np.savez (a float32 2x3 and a
   float64 1x2 holding -inf): tests/core/test_npz.cpp reads it with its own ZIP/.npy reader and
   compares our writer's .npy bytes with numpy's, so ctest needs no Python.
2. With a built attnscope (argument 1, default build/app/attnscope): exports the tiny BERT and GPT-2
   fixtures as --format npy and --format json, loads the .npz with numpy.load and checks every
   matrix of the JSON against it (names, shapes, float32, the same numbers), and trace.json.
3. With ATTNSCOPE_ZIP64_SAMPLE=FILE given to core_tests "[npz]" first (argument 2: that FILE):
   zipfile/numpy read the archive whose entries sit past a lowered ZIP64 threshold.
Run: /usr/bin/python3 tests/reference/reference_npz.py [build/app/attnscope] [zip64-sample.zip]
"""
import io
import json
import os
import subprocess
import sys
import tempfile
import zipfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "models")


def write_fixture():
    path = os.path.join(HERE, "fixtures", "npz", "numpy-savez.npz")
    np.savez(path, a=np.array([[1, 2, 3], [4, 5, -0.5]], np.float32), b=np.array([[0.25, -np.inf]], np.float64))
    print("wrote", path)


def matrices(doc):
    """(name, rows) of every matrix in the JSON trace, named as the .npz names them."""
    for key in ("embedding", "positional"):
        if key in doc:
            yield key, doc[key]
    for l, layer in enumerate(doc["layers"]):
        for key in ("input", "concat", "output", "key_input"):
            if key in layer:
                yield "layer%02d/%s" % (l, key), layer[key]
        for h, head in enumerate(layer.get("heads", [])):
            for key, value in head.items():
                if key != "ablated":
                    yield "layer%02d/head%02d/%s" % (l, h, key), value


def as_array(rows):
    cell = {"-inf": -np.inf, "inf": np.inf, "nan": np.nan}
    return np.array([[cell[v] if isinstance(v, str) else v for v in row] for row in rows], np.float64)


def check_model(binary, model, sentence):
    with tempfile.TemporaryDirectory() as tmp:
        npz, js = os.path.join(tmp, "run.npz"), os.path.join(tmp, "run.json")
        base = [binary, "--model", os.path.join(MODELS, model), "--sentence", sentence, "--print"]
        subprocess.run(base + ["--format", "npy", "--output", npz], check=True)
        subprocess.run(base + ["--format", "json", "--output", js], check=True)
        doc = json.load(open(js))
        archive = np.load(npz)
        names = set(archive.files)
        count = 0
        for name, rows in matrices(doc):
            got = archive[name]
            want = as_array(rows)
            assert got.dtype == np.float32, (name, got.dtype)
            assert got.shape == want.shape, (name, got.shape, want.shape)
            # the JSON spells each float32 shortest: it reads back as the very same float
            assert np.array_equal(got.astype(np.float64), want.astype(np.float32).astype(np.float64)), name
            names.discard(name)
            count += 1
        meta = json.loads(archive["trace.json"])
        assert meta["tokens"] == doc["tokens"] and meta["predictions"] == doc["predictions"]
        assert names == {"trace.json"}, names
        print("%s: %d matrices equal to the JSON export, trace.json agrees" % (model, count))


def check_zip64(path):
    with zipfile.ZipFile(path) as z:
        assert z.read("near.npy") == b"x" * 20 and z.read("far/one.txt") == b"second entry"
        assert z.testzip() is None
    print("ZIP64 sample: zipfile reads both entries, CRCs good")


if __name__ == "__main__":
    write_fixture()
    binary = sys.argv[1] if len(sys.argv) > 1 else "build/app/attnscope"
    if os.path.exists(binary):
        check_model(binary, "bert-tiny", "the [MASK] sat on the mat")
        check_model(binary, "gpt2-tiny", "the cat sat on")
    if len(sys.argv) > 2:
        check_zip64(sys.argv[2])
