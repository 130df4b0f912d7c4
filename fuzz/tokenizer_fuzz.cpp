// libFuzzer target: the pretrained-model tokenizer loaders and encoders on untrusted bytes.
//
// The first byte picks what the rest of the input is fed to (so every crash input replays one
// path; the fuzzer learns the selector quickly):
//   0  parseTokenizerJson(json)      — a whole tokenizer.json, then a NUL byte and the text to
//                                      encode() with it (no NUL: a fixed sentence); the Token
//                                      invariants are checked on the generated text as well
//   1  parseVocabJsonText(text)      — a GPT-2 vocab.json
//   2  encode(text) with a small fixed WordPiece tokenizer (BertNormalizer, max 8 chars/word)
//   3  encode(text) with a small fixed byte-level BPE tokenizer (all 256 byte symbols + merges)
//   4  the same vocabulary behind Qwen's NFC normalizer and Split regular expression (Oniguruma)
//   5  encode(text) with a small SentencePiece-style tokenizer (Prepend/Replace, byte_fallback)
// Cases 3-5 also read the tokens as text (readTokens) and check one reading per token.
// Any other selector value is taken modulo 6. Errors (Result) are fine; crashes, sanitizer
// reports, exceptions escaping the API and broken invariants (an id outside the vocabulary) are
// findings. See fuzz/README.md.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "core/tokenizers/byte_level_bpe.hpp"
#include "core/tokenizers/token_reading.hpp"
#include "core/tokenizers/tokenizer.hpp"
#include "core/tokenizers/tokenizer_json.hpp"

using namespace attnscope;

namespace {

// GPT-2's bytes_to_unicode(): printable bytes stand for themselves, the others for 256 + n.
std::string byteSymbol(int b) {
    static int table[256];
    static bool ready = false;
    if (!ready) {
        int n = 0;
        for (int i = 0; i < 256; ++i) {
            const bool printable = (i >= 33 && i <= 126) || (i >= 161 && i <= 172) || (i >= 174 && i <= 255);
            table[i] = printable ? i : 256 + n++;
        }
        ready = true;
    }
    const int cp = table[b];  // < 0x800: one or two UTF-8 bytes
    std::string s;
    if (cp < 0x80) {
        s += static_cast<char>(cp);
    } else {
        s += static_cast<char>(0xC0 | (cp >> 6));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return s;
}

std::string jsonString(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

const char* kWordPieceJson = R"({
  "version": "1.0",
  "added_tokens": [{"id": 0, "content": "[UNK]", "special": true}, {"id": 1, "content": "[CLS]", "special": true},
                   {"id": 2, "content": "[SEP]", "special": true}, {"id": 9, "content": "[MASK]", "special": true}],
  "normalizer": {"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true,
                 "strip_accents": null, "lowercase": true},
  "pre_tokenizer": {"type": "BertPreTokenizer"},
  "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
            "max_input_chars_per_word": 8,
            "vocab": {"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "play": 3, "##ing": 4, "cafe": 5, "!": 6, "笔": 7,
                      "a": 8, "[MASK]": 9, "##a": 10, "##s": 11, "e": 12, "##e": 13}}
})";

std::string bpeJson() {
    std::string vocab;
    int id = 0;
    for (int b = 0; b < 256; ++b) vocab += (b ? ", " : "") + jsonString(byteSymbol(b)) + ": " + std::to_string(id++);
    for (const char* piece : {"he", "ll", "hell", "hello", "Ġh", "Ġt", "th", "Ġth", "Ġthe"})
        vocab += ", " + jsonString(piece) + ": " + std::to_string(id++);
    vocab += ", \"<|endoftext|>\": " + std::to_string(id);
    return R"({"added_tokens": [{"id": )" + std::to_string(id) +
           R"(, "content": "<|endoftext|>", "special": true}],
      "normalizer": null, "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "use_regex": true},
      "model": {"type": "BPE", "vocab": {)" +
           vocab + R"(}, "merges": ["h e", "l l", "he ll", "hell o", "Ġ h", "Ġ t", "t h", "Ġ th", "Ġth e"]}})";
}

// bpeJson() with Qwen's normalizer and pre-tokenizer.
std::string qwenJson() {
    std::string json = bpeJson();
    const std::string from = R"("normalizer": null, "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "use_regex": true})";
    const std::string to = R"("normalizer": {"type": "NFC"}, "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"},
         "behavior": "Isolated", "invert": false},
        {"type": "ByteLevel", "add_prefix_space": false, "use_regex": false}]})";
    return json.replace(json.find(from), from.size(), to);
}

// Llama 2's pipeline on a tiny vocabulary: <unk> <s> </s>, the 256 byte pieces, a few words.
std::string sentencePieceJson() {
    std::string vocab = R"("<unk>": 0, "<s>": 1, "</s>": 2)";
    char name[32];
    for (int b = 0; b < 256; ++b) {
        std::snprintf(name, sizeof name, ", \"<0x%02X>\": %d", b, 3 + b);
        vocab += name;
    }
    vocab += R"(, "▁": 259, "h": 260, "i": 261, "hi": 262, "▁hi": 263, "你": 264)";
    return R"({"added_tokens": [{"id": 1, "content": "<s>", "special": true}],
      "normalizer": {"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": "▁"},
                     {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]},
      "pre_tokenizer": null,
      "model": {"type": "BPE", "unk_token": "<unk>", "fuse_unk": true, "byte_fallback": true, "vocab": {)" +
           vocab + R"(}, "merges": [["h", "i"], ["▁", "hi"]]}})";
}

std::unique_ptr<Tokenizer> fixed(const std::string& json) {
    auto t = parseTokenizerJson(json, "fuzz fixed tokenizer");
    if (!t) {
        std::fprintf(stderr, "tokenizer_fuzz: fixed tokenizer does not load: %s\n", t.error().text().c_str());
        std::abort();
    }
    return std::move(t).value();
}

void encodeAndCheck(const Tokenizer& tokenizer, std::string_view text, bool read = false) {
    auto tokens = tokenizer.encode(text);
    if (!tokens) return;
    std::vector<TokenBytes> bytes;
    for (const Token& token : tokens.value()) {
        if (token.id < 0 || token.id >= tokenizer.vocabSize()) std::abort();  // an id no embedding row has
        bytes.push_back({token.special ? token.text : tokenizer.bytesOf(token), token.special});
    }
    if (read && readTokens(bytes).size() != bytes.size()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::unique_ptr<Tokenizer> wordPiece = fixed(kWordPieceJson);
    static const std::unique_ptr<Tokenizer> bpe = fixed(bpeJson());
    static const std::unique_ptr<Tokenizer> qwen = fixed(qwenJson());
    static const std::unique_ptr<Tokenizer> sentencePiece = fixed(sentencePieceJson());
    if (size == 0) return 0;
    const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    switch (data[0] % 6) {
        case 0: {
            const std::size_t split = text.find('\0');
            const std::string json = text.substr(0, split);
            if (auto t = parseTokenizerJson(json, "fuzz/tokenizer.json"))
                encodeAndCheck(*t.value(), split == std::string::npos
                                               ? std::string("Hello, wörld! [MASK] playing café 笔 <|endoftext|> the\t\n  end")
                                               : text.substr(split + 1));
            break;
        }
        case 1: {
            auto vocab = parseVocabJsonText(text, "fuzz/vocab.json");
            (void)vocab;
            break;
        }
        case 2: encodeAndCheck(*wordPiece, text); break;
        case 3: encodeAndCheck(*bpe, text, true); break;
        case 4: encodeAndCheck(*qwen, text, true); break;
        case 5: encodeAndCheck(*sentencePiece, text, true); break;
    }
    return 0;
}
