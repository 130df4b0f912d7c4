#pragma once
// Added tokens (tokenizer.json's added_tokens, the special pieces of vocab folders): split off the
// text before anything else runs, as Hugging Face's AddedVocabulary does: the leftmost match, the
// longest at that place; `lstrip` / `rstrip` tokens also take the white space before / after them.
// A byte trie, so a file's thousands of added tokens (Gemma 3 has 6,415) cost one walk per byte.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnscope {

struct AddedToken {
    std::string content;
    int id = -1;
    bool special = false;  // a control token ([CLS], <|im_start|>): marked special in the Token
    bool lstrip = false, rstrip = false;
};

struct AddedTokenMatch {
    std::size_t begin, end;  // bytes taken from the text, stripped white space included
    const AddedToken* token;
};

class AddedTokenMatcher {
public:
    // A second token with the same content replaces the first (the file's last word wins, as in
    // Hugging Face); returns false for empty content, which is ignored.
    bool add(const AddedToken& token);
    bool empty() const { return tokens_.empty(); }
    const std::vector<AddedToken>& tokens() const { return tokens_; }
    // The first match at or after `from`.
    std::optional<AddedTokenMatch> find(std::string_view text, std::size_t from) const;

private:
    struct Node {
        std::vector<std::pair<unsigned char, int>> children;  // sorted by byte
        int token = -1;                                       // index in tokens_, or -1
    };
    int child(int node, unsigned char byte) const;
    std::optional<std::pair<std::size_t, int>> longestAt(std::string_view text, std::size_t at) const;

    std::vector<Node> nodes_{1};
    std::vector<AddedToken> tokens_;
    bool firstByte_[256] = {};
};

}  // namespace attnscope
