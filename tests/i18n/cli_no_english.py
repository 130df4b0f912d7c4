#!/usr/bin/env python3
"""i18n.cli_no_english: with --lang zh_CN, what a user reads on the command line has no English.

Runs every subcommand (lesson print as text / Markdown / JSON, a model run, coref, heads --stats,
heads --corpus --stats, qk) and a bad argument of each with --lang zh_CN, and fails when an English
word remains: an ASCII run of at least 3 letters that is not an option name (--layer), a token of
the sentence, a format name, a file path or an identifier of the allow-list below. Machine formats
(JSON, CSV on stdout) stay English by design (docs/trace-format.md): only their stderr is read.

usage: cli_no_english.py ATTNSCOPE SOURCE_DIR     (exit 1 naming each case and word)
       cli_no_english.py ATTNSCOPE SOURCE_DIR --self-test   (the check catches English)
"""
import os
import re
import subprocess
import sys
import tempfile

# Symbols and names that read the same in Chinese text: formula symbols, model families, file
# formats, metavariables of the help text, the program's own name.
ALLOW = {
    # names and symbols
    "attnscope", "AttnScope", "BERT", "GPT", "RoBERTa", "DistilBERT", "UTF", "FFFD", "NaN", "inf", "softmax",
    "concat", "output", "out", "exp", "max", "PCA", "Transformer", "PNG", "Markdown",
    "AttentionViz", "Lines", "SNE", "CLS", "SEP", "MASK", "PAD", "src", "Hugging", "Face",
    # the subcommands' words, typed as they are
    "qk", "coref", "heads", "compare", "norms", "lens", "dla", "movement",
    # --step names of the block after attention (issue 29 §1) and the lesson file's key, typed as they are
    "residual", "norm", "logits", "block",
    # issue 30 §2: terms and names kept as they are in Chinese texts
    "logit", "GELU", "Kobayashi",
    # issue 29 §5: the cosine's symbol in formulas
    "cos",
    # --stage names of an encoder–decoder lesson's stages (decoder_self: an identifier), typed as they are
    "encoder", "cross",
    # format and layout names as typed after an option
    "text", "json", "csv", "markdown", "npy", "npz", "NumPy", "pca", "tsne", "zh_CN",
    # metavariables of messages and help, in capitals: LAYER:HEAD, FOLDER|ID, NAME|FILE, --sentence TEXT
    "LAYER", "HEAD", "WORD", "FOLDER", "FILE", "NAME", "TEXT", "DIR", "JSON", "CSV",
    # --kernels: the BLAS, its kernel families as typed, the CPU (issue 16)
    "BLAS", "OpenBLAS", "Eigen", "CPU", "auto", "openblas", "avx", "sse",
    # --products: the library and its Debian package, the CPU feature and the number type, as typed (issue 31)
    "oneDNN", "libdnnl", "dev", "AMX", "float",
}
# Metavariables and values of the help text in capitals (LAYER:HEAD, FOLDER|ID, NAME|FILE, TEXT).
STRIP = [
    re.compile(r"--[A-Za-z][\w-]*"),             # option names
    re.compile(r"\S*/\S*"),                      # paths (and a/b alternatives)
    re.compile(r"\S+\.(?:json|jsonl|txt|png|csv|safetensors)\b"),  # file names
    re.compile(r"（syntax error[^）]*）"),        # nlohmann's own detail, kept after the lead as a technical note
    re.compile(r"\b\w*_\w*\b"),                  # identifiers with an underscore: d_model, W_Q, X_src
    re.compile(r"\[[A-Z]+\]"),                   # special tokens [CLS], [SEP], [MASK]
    re.compile(r"\bU\+[0-9A-F]+\b"),
    re.compile(r"<[a-z-]+>"),                    # the help's value names: --lesson <lesson>
]
WORD = re.compile(r"[A-Za-z]{3,}")


def english_words(text, allowed):
    for pattern in STRIP:
        text = pattern.sub(" ", text)
    return sorted({w for w in WORD.findall(text) if w not in allowed and w.lower() not in allowed})


def cases(fix, lessons, work):
    """(name, arguments, words typed by the user (tokens, values), stdout is read) for each invocation."""
    corpus = os.path.join(work, "corpus.txt")
    with open(corpus, "w", encoding="utf-8") as f:
        f.write("the cat sat on the mat\nthe dog barked\n")
    bert = os.path.join(fix, "models", "bert-tiny")
    first = ["--lesson", "first-hand-exercise"]
    coref = "the animal did not cross the street because it was tired"
    return [
        ("lesson_text", first + ["--print", "--explain", "--ablate", "1:1"], "cats chase mice", True),
        ("lesson_markdown", first + ["--print", "--format", "markdown", "--hand-rounding", "2"], "cats chase mice", True),
        ("lesson_json", first + ["--print", "--format", "json", "--ablate", "1:1"], "", False),
        ("lesson_truncated", ["--lesson", "two-layers", "--print", "--sentence", "cats chase mice " * 40],
         "cats chase mice", True),
        ("model_text", ["--model", bert, "--sentence", "the cat sat", "--print"], "the cat sat", True),
        ("model_markdown", ["--model", bert, "--sentence", "the cat sat", "--print", "--format", "markdown"],
         "the cat sat", True),
        ("coref_lesson", ["coref", "--lesson", "coreference"], "the animal didn't cross street because it was too tired",
         True),
        ("coref_heads", ["coref", "--model", bert, "--sentence", coref, "--heads", "1:1,2:2"], coref, True),
        ("coref_one_head", ["coref", "--model", bert, "--sentence", coref, "--heads", "1:1"], coref, True),
        ("coref_layer", ["coref", "--model", bert, "--sentence", coref, "--layer", "2"], coref, True),
        ("coref_no_pronoun", ["coref", "--model", bert, "--sentence", "the cat sat"], "the cat sat", True),
        ("heads_stats", ["heads", "--model", bert, "--stats", "--sentence", coref], coref, True),
        ("heads_corpus", ["heads", "--model", bert, "--stats", "--corpus", corpus, "--max-lines", "1"],
         "the cat sat on mat dog barked", True),
        ("heads_corpus_long", ["heads", "--model", bert, "--stats", "--corpus", corpus, "--max-tokens", "7"],
         "the cat sat on mat dog barked", True),
        ("qk_pca", ["qk", "--lesson", "two-heads", "--layer", "1", "--head", "1"], "", False),
        ("qk_tsne", ["qk", "--lesson", "coreference", "--layer", "1", "--head", "1", "--layout", "tsne"], "", False),
        # --step's values, as typed (Qt wraps the list inside words: "scale|d_scores", "c|oncat")
        ("help", ["--help"], "embedding positional scores scale mask weights oncat bert base uncased", True),
        ("coref_help", ["coref", "--help"], "bert base uncased", True),
        ("qk_help", ["qk", "--help"], "bert base uncased", True),
        # bad arguments of each
        ("bad_format", first + ["--print", "--format", "yaml"], "yaml", True),
        ("bad_step", first + ["--print", "--step", "nonsense"], "nonsense", True),
        ("bad_decimals", first + ["--print", "--decimals", "abc"], "abc", True),
        ("bad_layer", first + ["--print", "--layer", "0"], "", True),
        ("bad_ablate", first + ["--print", "--ablate", "9:9"], "", True),
        ("bad_ablate_text", first + ["--print", "--ablate", "x"], "", True),
        ("bad_top_k", first + ["--print", "--top-k", "3"], "", True),
        ("bad_stray_word", first + ["--print", "extra"], "extra", True),
        ("bad_model_and_lesson", first + ["--model", bert, "--print"], "", True),
        ("bad_model_no_sentence", ["--model", bert, "--print"], "", True),
        ("bad_lesson_missing", ["--lesson", os.path.join(work, "none.json"), "--print"], "", True),
        ("bad_lesson_syntax", ["--lesson", '{"format": "attnscope-lesson", "version": 1,}', "--print"], "", True),
        ("bad_png_layer", first + ["--export-png", os.path.join(work, "a.png"), "--layer", "3"], "", True),
        # streamed exports: --layers / --heads / --steps, --output (app/cli_stream.cpp)
        ("stream_selection", ["--model", bert, "--sentence", "the cat", "--print", "--format", "json", "--layers", "2",
                              "--heads", "1", "--steps", "weights", "--output", os.path.join(work, "s.json")], "", True),
        ("bad_layers_empty", first + ["--print", "--layers", ""], "", True),
        ("bad_layers_range", first + ["--print", "--layers", "2"], "", True),
        ("bad_layer_and_layers", first + ["--print", "--layer", "1", "--layers", "1"], "", True),
        ("bad_steps", first + ["--print", "--steps", "weights,nonsense"], "nonsense", True),
        ("bad_steps_empty", first + ["--print", "--steps", " "], "", True),
        ("bad_output_without_print", first + ["--output", os.path.join(work, "x.json")], "", True),
        ("bad_model_layers_text", ["--model", bert, "--sentence", "the cat", "--print", "--layers", "1"], "", True),
        ("coref_no_source", ["coref", "--sentence", "hi"], "hi", True),
        ("coref_both_sources", ["coref", "--model", bert, "--lesson", "coreference"], "", True),
        ("coref_bad_heads", ["coref", "--model", bert, "--sentence", coref, "--heads", "x"], coref, True),
        ("coref_heads_range", ["coref", "--model", bert, "--sentence", coref, "--heads", "9:1"], coref, True),
        ("coref_two_scorings", ["coref", "--model", bert, "--sentence", coref, "--heads", "1:1", "--rollout"], coref, True),
        ("coref_bad_mention", ["coref", "--model", bert, "--sentence", coref, "--mention", "zebra"], coref + " zebra", True),
        ("coref_bad_mention_n", ["coref", "--model", bert, "--sentence", coref, "--mention", "it#x"], coref, True),
        ("coref_bad_format", ["coref", "--model", bert, "--sentence", coref, "--format", "xml"], "xml", True),
        ("coref_empty_sentence", ["coref", "--lesson", "coreference", "--sentence", ""], "", True),
        ("coref_two_commands", ["coref", "heads", "--lesson", "coreference"], "", True),
        ("heads_nothing", ["heads", "--model", bert, "--sentence", "hi"], "hi", True),
        ("heads_bad_top", ["heads", "--model", bert, "--stats", "--sentence", "hi", "--top", "0"], "hi", True),
        ("heads_corpus_no_stats", ["heads", "--model", bert, "--corpus", corpus], "", True),
        ("heads_corpus_and_sentence", ["heads", "--model", bert, "--stats", "--corpus", corpus, "--sentence", "a"], "", True),
        ("heads_corpus_format", ["heads", "--model", bert, "--stats", "--corpus", corpus, "--format", "xml"], "xml", True),
        ("heads_corpus_out", ["heads", "--model", bert, "--stats", "--corpus", corpus, "--output", ""], "", True),
        ("heads_corpus_missing", ["heads", "--model", bert, "--stats", "--corpus", os.path.join(work, "no.txt")], "", True),
        ("heads_corpus_lines", ["heads", "--model", bert, "--stats", "--corpus", corpus, "--max-lines", "0"], "", True),
        ("qk_no_source", ["qk", "--layer", "1", "--head", "1", "--sentence", "hi"], "hi", True),
        ("qk_both_sources", ["qk", "--model", bert, "--lesson", "two-heads", "--layer", "1", "--head", "1"], "", True),
        ("qk_no_layer", ["qk", "--lesson", "two-heads", "--head", "1"], "", True),
        ("qk_layer_text", ["qk", "--lesson", "two-heads", "--layer", "one", "--head", "1"], "one", True),
        ("qk_bad_format", ["qk", "--lesson", "two-heads", "--layer", "1", "--head", "1", "--format", "xml"], "xml", True),
        ("qk_stray_word", ["qk", "--lesson", "two-heads", "--layer", "1", "--head", "1", "stray"], "stray", True),
        ("qk_sentence_and_corpus", ["qk", "--lesson", "two-heads", "--layer", "1", "--head", "1", "--sentence", "a",
                                    "--corpus", corpus], "", True),
        ("qk_no_sentence", ["qk", "--model", bert, "--layer", "1", "--head", "1"], "", True),
        ("qk_out_empty", ["qk", "--lesson", "two-heads", "--layer", "1", "--head", "1", "--output", ""], "", True),
        ("qk_bad_layout", ["qk", "--lesson", "two-heads", "--layer", "1", "--head", "1", "--layout", "umap"], "umap", True),
        ("qk_perplexity_pca", ["qk", "--lesson", "two-heads", "--layer", "1", "--head", "1", "--perplexity", "2"], "", True),
        ("qk_perplexity_text", ["qk", "--lesson", "coreference", "--layer", "1", "--head", "1", "--layout", "tsne",
                                "--perplexity", "lots"], "lots", True),
        ("qk_layer_too_deep", ["qk", "--lesson", "two-heads", "--layer", "9", "--head", "1"], "", True),
        # attnscope compare: the text, ablated, by word; its help and bad arguments
        ("compare_text", ["compare", "--lesson", "two-layers", "--sentence", "the animal was tired",
                          "--sentence-b", "the animal was very wide", "--ablate", "1:1"],
         "the animal was tired very wide", True),
        ("compare_help", ["compare", "--help"], "bert base uncased", True),
        ("compare_no_source", ["compare", "--sentence-b", "hi"], "hi", True),
        ("compare_both_sources", ["compare", "--model", bert, "--lesson", "two-heads", "--sentence-b", "a"], "", True),
        ("compare_no_b", ["compare", "--lesson", "two-heads"], "", True),
        ("compare_bad_format", ["compare", "--lesson", "two-heads", "--sentence-b", "a", "--format", "xml"], "xml", True),
        ("compare_stray_word", ["compare", "--lesson", "two-heads", "--sentence-b", "a", "stray"], "stray", True),
        ("compare_out_empty", ["compare", "--lesson", "two-heads", "--sentence-b", "a", "--output", ""], "", True),
        ("compare_old_out_spelling", ["compare", "--lesson", "two-heads", "--sentence-b", "a", "--out", "x.json"], "", True),
        ("heads_old_out_spelling", ["heads", "--model", bert, "--stats", "--sentence", "a", "--out", "x.json"], "", True),
        ("compare_layer_text", ["compare", "--lesson", "two-heads", "--sentence-b", "a", "--layer", "one"], "one", True),
        # attnscope norms, lens, dla (the lens and dla tables name vocabulary tokens: their stderr only)
        ("norms_text", ["norms", "--model", bert, "--sentence", "the cat sat"], "the cat sat", True),
        ("lens_text", ["lens", "--model", bert, "--sentence", "the [MASK] sat"], "", False),
        ("dla_text", ["dla", "--model", "example-gpt", "--sentence", "the cat sat"], "", False),
        ("lens_help", ["lens", "--help"], "bert base uncased", True),
        ("lens_no_mask", ["lens", "--model", bert, "--sentence", "the cat sat"], "the cat sat", True),
        ("lens_top_zero", ["lens", "--model", bert, "--sentence", "a [MASK] b", "--top", "0"], "", True),
        ("dla_bert", ["dla", "--model", bert, "--sentence", "the [MASK] sat"], "", False),
        ("dla_bert_no_mask", ["dla", "--model", bert, "--sentence", "the cat sat"], "the cat sat", True),
        ("norms_lesson", ["norms", "--lesson", "two-heads", "--sentence", "a"], "", True),
        # attnscope movement (issue 29 §5; its tables name the sentence's tokens: their stderr only)
        ("movement_help", ["movement", "--help"], "", True),
        ("movement_text", ["movement", "--lesson", "two-heads", "--layer", "1"], "", False),
        ("movement_same_word", ["movement", "--lesson", "two-heads", "--sentence-b", "a", "--token-a", "1", "--token-b", "1"], "", False),
        ("movement_layer_outside", ["movement", "--lesson", "two-heads", "--layer", "5"], "", True),
        ("movement_token_outside", ["movement", "--lesson", "two-heads", "--sentence-b", "a", "--token-a", "1", "--token-b", "9"], "", True),
        ("movement_no_tokens", ["movement", "--lesson", "two-heads", "--sentence-b", "a"], "", True),
        # --stage of an encoder–decoder lesson (issue 29 §4): one stage printed, and each refusal
        ("stage_print_cross", ["--lesson", "translation", "--print", "--stage", "cross", "--ablate", "1:1"], "who am", False),
        ("stage_unknown", ["--lesson", "translation", "--print", "--stage", "decoder"], "decoder", True),
        ("stage_without_decoder", ["--lesson", "two-heads", "--print", "--stage", "cross"], "", True),
        ("stage_with_model", ["--model", bert, "--sentence", "a", "--print", "--stage", "cross"], "", True),
        ("stage_compare_decoder_self", ["compare", "--lesson", "translation", "--stage", "decoder_self", "--sentence-b", "a"], "", True),
        ("stage_movement_layer", ["movement", "--lesson", "translation", "--stage", "cross", "--layer", "2"], "", True),
        ("stage_cross_png", ["--lesson", "translation", "--stage", "cross", "--export-png", os.path.join(work, "c.png")], "weights", True),
    ]


def run_case(binary, arguments, read_stdout, work):
    # --lang after the subcommand word (attnscope coref --lang zh_CN …), as the help shows it.
    command = arguments[:1] + ["--lang", "zh_CN"] + arguments[1:] if arguments[0] in ("coref", "heads", "qk", "compare", "norms", "lens", "dla", "movement") \
        else ["--lang", "zh_CN"] + arguments
    done = subprocess.run([binary, *command], capture_output=True, timeout=120,
                          env=dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_RUNTIME_DIR=work))
    out = done.stdout.decode("utf-8", "replace") if read_stdout else ""
    return out + "\n" + done.stderr.decode("utf-8", "replace")


def lesson_names(binary):
    listed = subprocess.run([binary, "--list-lessons"], capture_output=True, text=True, timeout=60).stdout
    return {word.lower() for line in listed.splitlines() for word in re.findall(r"[A-Za-z]+", line.split("\t")[0])}


def self_test():
    allowed = ALLOW | {"cats"}
    assert english_words("attnscope: --layer 应为 1 到 2 之间的整数", allowed) == []
    assert english_words("词元：cats | chase", allowed) == ["chase"]
    assert english_words("needs --model FOLDER|ID", allowed) == ["needs"]
    assert english_words("l.json：第 3 行 d_model X_src [CLS] /tmp/a/b.txt", allowed) == []
    print("ok: the check finds English words and keeps names")
    return 0


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    if sys.argv[3:] == ["--self-test"]:
        return self_test()
    binary, source = sys.argv[1], sys.argv[2]
    fix = os.path.join(source, "tests", "reference")
    failures = 0
    with tempfile.TemporaryDirectory() as work:
        names = lesson_names(binary)
        for name, arguments, sentence, read_stdout in cases(fix, os.path.join(source, "resources", "lessons"), work):
            allowed = ALLOW | names | {w.lower() for w in re.findall(r"[A-Za-z]+", sentence)}  # tokens: any case
            output = run_case(binary, arguments, read_stdout, work)
            words = english_words(output, allowed)
            if words:
                failures += 1
                print(f"FAIL {name}: English {words}\n  attnscope --lang zh_CN {' '.join(arguments)}")
                for line in output.splitlines():
                    if any(re.search(r"\b" + re.escape(w) + r"\b", line) for w in words):
                        print("    | " + line[:200])
    print(f"{failures} case(s) with English" if failures else "ok: no English in any case")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
