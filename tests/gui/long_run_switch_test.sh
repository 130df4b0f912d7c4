#!/usr/bin/env bash
# A long run in the window holds one rebuilt layer, also while it switches: the layer on screen is
# let go before the asked one is rebuilt (app/source/model_trace_source.cpp). The window (the
# first-heat-map benchmark, which drives the layer box) runs example-llama on about 4,200 tokens,
# past the 1 GiB budget of every head's weights (4 layers × 4 heads × T² × 4 bytes), once stopping
# at the first heat map and once switching to layers 2, 3 and 4. A rebuilt layer is 4 heads × T² ×
# 4 bytes ≥ 268 MB (about 190 MB resident: the causal zeros' pages are given back); holding two at
# a switch raised the peak by about 350 MiB. Allowed: 85 MiB, a third of one layer.
# Usage: long_run_switch_test.sh FIRST_HEATMAP_BINARY SOURCE_DIR
set -uo pipefail
bin="$1"; src="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
cp -r "$src/resources/models/example-llama" "$tmp/model"
# RoPE learns no positions: the context length is the config's number alone.
sed -i 's/"max_position_embeddings": 64/"max_position_embeddings": 8192/' "$tmp/model/config.json"
grep -q '"max_position_embeddings": 8192' "$tmp/model/config.json" || { echo "FAIL: config not widened" >&2; exit 1; }
python3 - "$bin" "$tmp/model" <<'PY'
import resource, subprocess, sys
binary, model = sys.argv[1], sys.argv[2]
sentence = " ".join(["the cat sat on the mat"] * 700)
def peak_mib(*extra):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    out = subprocess.run([binary, "--model", model, "--sentence", sentence, *extra], capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        sys.exit(f"FAIL: exit {out.returncode}: {out.stderr[-2000:]}")
    # The largest child so far, in KiB: unchanged when this run stayed under the one before.
    return max(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, before) / 1024, out.stdout
first, printed = peak_mib()
if "first heatmap painted" not in printed:
    sys.exit(f"FAIL: no heat map: {printed}")
switched, printed = peak_mib("--switch-layer", "2,3,4")
for layer in (2, 3, 4):
    if f"layer {layer} shown" not in printed:
        sys.exit(f"FAIL: layer {layer} was not shown: {printed}")
print(f"peak at the first heat map {first:.0f} MiB, with three switches {switched:.0f} MiB (+{switched - first:.0f})")
if first < 300:
    sys.exit("FAIL: the first heat map peaked under 300 MiB: not a long run with a layer rebuilt")
if switched - first > 85:
    sys.exit(f"FAIL: the switches added {switched - first:.0f} MiB: more than a third of a rebuilt layer (two layers held?)")
PY
