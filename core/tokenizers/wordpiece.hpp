#pragma once
// BERT's tokenizer as Hugging Face's BertTokenizer runs it: the BasicTokenizer (clean the text,
// isolate CJK ideographs, lower-case and strip accents, split on white space and punctuation),
// then greedy longest-match-first WordPiece with a continuation prefix ("un", "##aff", "##able").
//
// vocab.txt: one piece per line, id = line number (0-based); options from tokenizer_config.json.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "core/tokenizers/tokenizer.hpp"

namespace attnscope {

struct WordPieceOptions {
    bool lowercase = true;               // do_lower_case
    std::optional<bool> stripAccents;    // strip_accents; unset: strip when lower-casing
    bool handleChineseChars = true;      // tokenize_chinese_chars
    bool cleanText = true;               // drop control characters, NUL and U+FFFD
    std::string unkToken = "[UNK]";
    std::string continuingPrefix = "##";
    int maxInputCharsPerWord = 100;      // longer words become one unk token
};

class WordPieceTokenizer : public Tokenizer {
public:
    // Special tokens default to the pieces [CLS] [SEP] [MASK] [PAD] [UNK] found in the vocabulary.
    WordPieceTokenizer(Vocabulary vocab, WordPieceOptions options);
    std::string_view kind() const override { return "WordPiece"; }
    const WordPieceOptions& options() const { return options_; }

protected:
    Result<void> encodeText(std::string_view text, bool atStart, int& nextWord, std::vector<Token>& out,
                            std::size_t maxTokens) const override;

private:
    std::vector<std::u32string> basicTokenize(std::string_view text) const;
    void appendWordPieces(const std::u32string& word, int wordIndex, std::vector<Token>& out) const;

    WordPieceOptions options_;
    std::optional<int> unkId_;
};

// Reads vocab.txt; the error names the file.
Result<Vocabulary> readWordPieceVocab(const std::filesystem::path& vocabTxt);

}  // namespace attnscope
