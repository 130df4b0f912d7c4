// core's error catalogue (issue 12, core/text/error_messages.hpp): every entry in English and Chinese
// with the same arguments, no English word left in a Chinese text, and real failures of core (a
// lesson, a checkpoint, a tokenizer) that read exactly as before in English and in Chinese by textIn.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>

#include "core/analysis/coref_eval.hpp"
#include "core/analysis/corpus_stats.hpp"
#include "core/analysis/qk_space.hpp"
#include "core/analysis/tsne.hpp"
#include "core/lesson/lesson.hpp"
#include "core/model/checkpoint_files.hpp"
#include "core/model/tensor_store.hpp"
#include "core/text/error_messages.hpp"
#include "core/tokenizers/tokenizer_json.hpp"
#include "model_fixtures.hpp"
#include "catalogue_placeholders.hpp"

using namespace attnscope;

namespace {

bool hasChinese(std::string_view text) {  // a UTF-8 lead byte of U+4E00…U+9FFF (E4–E9)
    for (const unsigned char c : text)
        if (c >= 0xE4 && c <= 0xE9) return true;
    return false;
}

// Words a Chinese text may keep: symbols and names of formats, programs and syntax (what a user
// types or reads in a file), never an English sentence word.
const std::set<std::string> kAllowedWords{
    "JSON", "UTF",  "BERT", "GPT",       "BPE",   "WordPiece", "NaN",    "FIFO", "PyTorch", "Pickle", "pickle",
    "Python", "AttnScope", "Hugging", "Face", "HOME", "ORG",  "NAME",    "LAYER", "HEAD",  "NUL",    "BOOL",
    "null", "true", "false", "safetensors", "traceLayerInDetail", "softmax", "CLS", "SEP", "PCA",
    "dtype", "shape",  // keys of a safetensors header
    "FFFD",           // U+FFFD
    "RoPE",           // rotary position embedding: the name Chinese texts use too (docs/glossary.md)
    "logit", "GELU", "MASK",  // issue 30 §2: terms Chinese texts keep as they are, and the [MASK] token
    // tokenizer.json's own type and option names, spelled as the file spells them
    "NFC", "NFD", "NFKC", "NFKD", "Lowercase", "Prepend", "Replace", "Strip", "Sequence", "Split", "ByteLevel",
    "Metaspace", "Digits", "Punctuation", "TemplateProcessing", "BertProcessing", "RobertaProcessing", "Removed",
    "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous", "dropout", "xFF",
    "encoder", "cross"};  // --stage's values, typed as they are (decoder_self: an identifier)

// ASCII words of 3+ letters outside quotes and option names (--stage), apart from identifiers (with
// _ . - or a digit: d_model, config.json, GPT-2) and the allowed words.
std::vector<std::string> englishWords(const std::string& chinese) {
    const std::string unquoted = std::regex_replace(chinese, std::regex(R"("[^"]*"|“[^”]*”|--[A-Za-z][A-Za-z_\-]*)"), " ");
    std::vector<std::string> words;
    const std::regex token(R"([A-Za-z][A-Za-z0-9_.\-]*)");
    for (auto it = std::sregex_iterator(unquoted.begin(), unquoted.end(), token); it != std::sregex_iterator(); ++it) {
        const std::string word = it->str();
        const bool identifier = word.find_first_of("_.-0123456789") != std::string::npos;
        if (word.size() >= 3 && !identifier && !kAllowedWords.count(word)) words.push_back(word);
    }
    return words;
}

// Entries made of symbols only, the same in both languages.
const std::set<ErrorId> kSymbolOnly{ErrorId::WhereMessage, ErrorId::JsonNull};

}  // namespace

TEST_CASE("every entry of the error catalogue has an English and a Chinese text with the same arguments") {
    int checked = 0;
    for (int i = 0; i < static_cast<int>(ErrorId::Count); ++i) {
        const auto id = static_cast<ErrorId>(i);
        const std::string english(errorTemplate(id, Language::English)), chinese(errorTemplate(id, Language::Chinese));
        INFO("error " << i << ": " << english << " / " << chinese);
        CHECK_FALSE(english.empty());
        CHECK_FALSE(chinese.empty());
        CHECK(placeholders(english) == placeholders(chinese));
        if (!kSymbolOnly.count(id)) CHECK((hasChinese(chinese) || chinese != english));  // “{1}”, {1}（{2}）
        CHECK(englishWords(chinese).empty());
        ++checked;
    }
    CHECK(checked == static_cast<int>(ErrorId::Count));
    CHECK(checked > 250);  // the whole of core/ is on the catalogue
}

TEST_CASE("the English-word check finds an English word in a Chinese text") {
    CHECK(englishWords("应为文本，实际为 nothing") == std::vector<std::string>{"nothing"});
    CHECK(englishWords("含 \"weight_map\" 的 JSON 对象，d_model 与 config.json") .empty());
}

TEST_CASE("an error text renders nested entries and verbatim arguments in the reader's language") {
    const ErrorText text = errorText(ErrorId::ExpectedFound, errorText(ErrorId::AWholeNumberFrom, 1, 64), "\"x\"");
    CHECK(text.in(Language::English) == "expected a whole number from 1 to 64, found \"x\"");
    CHECK(text.in(Language::Chinese) == "应为 1 到 64 之间的整数，实际为\"x\"");
    const Error error{"lesson.json: heads", text};
    CHECK(error.message == "expected a whole number from 1 to 64, found \"x\"");
    CHECK(error.text() == "lesson.json: heads: expected a whole number from 1 to 64, found \"x\"");
    CHECK(error.textIn(Language::Chinese) == "lesson.json: heads: 应为 1 到 64 之间的整数，实际为\"x\"");
    CHECK(error.textIn(Language::English) == error.text());
}

TEST_CASE("an error built from strings, or changed after construction, keeps its English in every language") {
    const Error plain{"download", "the server said no"};
    CHECK(plain.textIn(Language::Chinese) == "download: the server said no");
    Error changed{"model.bin", ErrorId::IsMissing};
    changed.message += " (gave up)";  // as app/hub does
    CHECK(changed.textIn(Language::Chinese) == "model.bin: is missing (gave up)");
    changed.message = "is missing";
    CHECK(changed.textIn(Language::Chinese) == "model.bin: 缺失");
}

TEST_CASE("a lesson field of the wrong type: the same English as before, and Chinese by textIn") {
    const auto lesson = parseLesson(R"({"format": "attnscope-lesson", "version": 1, "d_model": "four"})", "lesson.json");
    REQUIRE_FALSE(lesson.ok());
    CHECK(lesson.error().text() == "lesson.json: d_model: expected a whole number from 1 to 4096, found the text \"four\"");
    CHECK(lesson.error().textIn(Language::Chinese) == "lesson.json: d_model: 应为 1 到 4096 之间的整数，实际为文本“four”");

    const auto shape = parseLesson(R"({"format": "attnscope-lesson", "version": 1, "d_model": 2, "projections": false,
        "embeddings": {"a": [1, 0]}, "positional_encoding": {"table": [[1, 2, 3]]}})", "l.json");
    REQUIRE_FALSE(shape.ok());
    CHECK(shape.error().text() == "l.json: positional_encoding.table: expected n×2, found 1×3 (the table is positions×d_model)");
    CHECK(shape.error().textIn(Language::Chinese) ==
          "l.json: positional_encoding.table: 应为 n×2，实际为 1×3（表为 位置数×d_model）");
}

TEST_CASE("a tensor missing from a checkpoint: the same English as before, and Chinese by textIn") {
    auto store = TensorStore::open(fixture_io::sourceDir() / "tests/reference/models/bert-tiny/model.safetensors");
    REQUIRE(store.ok());
    const auto missing = store.value().matrix("bert.pooler.nothing", 2, 2);
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().message == "tensor \"bert.pooler.nothing\" is missing");
    CHECK(missing.error().textIn(Language::Chinese) == missing.error().where + ": 缺少张量 \"bert.pooler.nothing\"");
    const auto shape = store.value().matrix("bert.embeddings.word_embeddings.weight", 2, 2);
    REQUIRE_FALSE(shape.ok());
    CHECK(shape.error().where == "model.safetensors: tensor \"bert.embeddings.word_embeddings.weight\"");
    CHECK(shape.error().textIn(Language::Chinese).rfind("model.safetensors: 张量 \"bert.embeddings.word_embeddings.weight\": 形状应为 [2, 2]，实际为 [", 0) == 0);
}

TEST_CASE("a bad tokenizer file: the same English as before, and Chinese by textIn") {
    const auto unigram = parseTokenizerJson(R"({"model": {"type": "Unigram", "vocab": {"a": 0}}})", "tokenizer.json");
    REQUIRE_FALSE(unigram.ok());
    CHECK(unigram.error().text() == "tokenizer.json: model.type: expected \"WordPiece\" or \"BPE\", found \"Unigram\"");
    CHECK(unigram.error().textIn(Language::Chinese) == "tokenizer.json: model.type: 应为\"WordPiece\" 或 \"BPE\"，实际为“Unigram”");

    const auto normalizer = parseTokenizerJson(R"({"model": {"type": "WordPiece", "vocab": {"a": 0}}, "normalizer": [1, 2, 3]})",
                                               "tokenizer.json");
    REQUIRE_FALSE(normalizer.ok());
    CHECK(normalizer.error().text() == "tokenizer.json: normalizer: expected an object or null, found a list of 3");
    CHECK(normalizer.error().textIn(Language::Chinese) == "tokenizer.json: normalizer: 应为对象或 null，实际为含 3 项的列表");
}

TEST_CASE("a coreference set line: its JSON errors keep their place and read in Chinese") {
    const auto duplicated = parseCorefSet("{\"sentence\": \"a b\", \"sentence\": \"c\"}\n", "set.jsonl");
    REQUIRE_FALSE(duplicated.ok());
    CHECK(duplicated.error().text() == "set.jsonl: line 1: has the key \"sentence\" twice at the top level (each key may appear only once)");
    CHECK(duplicated.error().textIn(Language::Chinese) == "set.jsonl: 第 1 行: 在顶层两次出现键“sentence”（每个键只能出现一次）");
    const auto nested = parseCorefSet("{\"note\": {\"a\": 1, \"a\": 2}}\n", "set.jsonl");
    REQUIRE_FALSE(nested.ok());
    CHECK(nested.error().where == "set.jsonl: line 1: note");
    CHECK(nested.error().textIn(Language::Chinese) == "set.jsonl: 第 1 行: note: 两次出现键“a”（每个键只能出现一次）");
    const auto broken = parseCorefSet("{\"sentence\": }\n", "set.jsonl");
    REQUIRE_FALSE(broken.ok());
    CHECK(broken.error().text().rfind("set.jsonl: line 1: expected a JSON object on one line, found text that is not valid JSON at column 15: ", 0) == 0);
    CHECK(broken.error().textIn(Language::Chinese).rfind("set.jsonl: 第 1 行: 应为写在一行上的 JSON 对象，实际是第 15 列处无效的 JSON 文本：", 0) == 0);
}

TEST_CASE("a pickle-only model folder: the refusal keeps its line break before the command, in both languages") {
    const auto folder = std::filesystem::temp_directory_path() / ("attnscope-pickle-" + std::to_string(::getpid()));
    std::filesystem::create_directories(folder);
    std::ofstream(folder / "pytorch_model.bin") << "x";
    const auto files = findCheckpointFiles(folder);
    std::filesystem::remove_all(folder);
    REQUIRE_FALSE(files.ok());
    const std::string command = "python -c \"import torch; from safetensors.torch import save_file; "
                                "sd = torch.load('pytorch_model.bin', map_location='cpu', weights_only=True); "
                                "save_file({k: v.clone().contiguous() for k, v in sd.items()}, 'model.safetensors')\"";
    CHECK(files.error().message ==
          "is a PyTorch pickle checkpoint. Pickle files can execute code when loaded, so AttnScope never opens them; "
          "nothing was read from it. Download the model's .safetensors version, or convert it once in Python:\n  " + command);
    CHECK(files.error().textIn(Language::Chinese) ==
          (folder / "pytorch_model.bin").string() +
              ": 是 PyTorch pickle 检查点。Pickle 文件加载时可能执行代码，所以 AttnScope 从不打开它；没有从中读取任何内容。"
              "请下载该模型的 .safetensors 版本，或用 Python 转换一次：\n  " + command);
}

TEST_CASE("corpus statistics, queries and keys, t-SNE: the same English as before, and Chinese by textIn") {
    const auto blank = parseCorpus("\n \n", "c.txt");
    REQUIRE_FALSE(blank.ok());
    CHECK(blank.error().textIn(Language::Chinese) == "c.txt: 应为至少一个句子（非空行），实际为无");
    const auto corpus = parseCorpus("one\n\ntwo\n", "c.txt");
    REQUIRE(corpus.ok());
    // runCorpus names the failing line around the sentence's own error, which stays translatable.
    const SentenceRunner failing = [](const std::string& s) -> Result<Trace> {
        if (s == "one") return Trace{};  // no heads: the accumulator refuses it
        return Error{ErrorId::WhereModelRun, ErrorId::Cancelled};
    };
    const auto noHeads = runCorpus(corpus.value(), failing);
    REQUIRE_FALSE(noHeads.ok());
    CHECK(noHeads.error().text() == "c.txt: line 1: corpus statistics: expected attention heads, found a trace without any");
    CHECK(noHeads.error().textIn(Language::Chinese) == "c.txt: 第 1 行: 语料统计: 应为注意力头，实际为没有任何注意力头的运行结果");
    const SentenceRunner nowhere = [](const std::string&) -> Result<Trace> { return Error{std::string(), ErrorId::NothingToRun}; };
    const auto empty = runCorpus(corpus.value(), nowhere);
    REQUIRE_FALSE(empty.ok());
    CHECK(empty.error().text() == "c.txt: line 1: nothing to run: the sentence has no tokens");
    CHECK(empty.error().textIn(Language::Chinese) == "c.txt: 第 1 行: 没有可运行的内容：句子没有词元");

    const auto layer = qkSentenceOf(Trace{}, 0, 0);
    REQUIRE_FALSE(layer.ok());
    CHECK(layer.error().textIn(Language::Chinese) == "layer: 应为 1 到 0 之间的层，实际为 1");
    const auto few = tsne(Mat::Zero(3, 2), TsneOptions{1.0});
    REQUIRE_FALSE(few.ok());
    CHECK(few.error().textIn(Language::Chinese) == "t-SNE: 应为至少 4 个点，实际为 3");
}

TEST_CASE("Chinese errors set numbers and Latin words apart from Han characters by a space", "[errors][zh]") {
    // "应为5 个数" read as one run; a space on each side of a number or a Latin word next to a Han
    // character, none next to Chinese punctuation or another argument's own spacing.
    const ErrorText text = errorText(ErrorId::ExpectedFound, errorText(ErrorId::CountNumbers, 5), 3);
    CHECK(text.in(Language::Chinese) == "应为 5 个数，实际为 3");
    CHECK(text.in(Language::English) == "expected 5 numbers, found 3");
    CHECK(errorText(ErrorId::ExpectedWhat, "UTF-8").in(Language::Chinese) == "应为 UTF-8");
    CHECK(errorText(ErrorId::ExpectedWhat, "文本").in(Language::Chinese) == "应为文本");
    CHECK(errorText(ErrorId::LayerDoesNotExist, 4).in(Language::Chinese) == "第 4 层不存在");
}
