#include "core/tokenizers/token_reading.hpp"

#include "core/text/utf8.hpp"

namespace attnscope {

namespace {

constexpr const char* kReplacement = "\xEF\xBF\xBD";  // U+FFFD

struct OwnedByte {
    unsigned char byte;
    std::size_t owner;  // the token it came from
};

// Bytes of the UTF-8 sequence a lead byte starts, or 0 for a byte that cannot start one.
std::size_t sequenceLength(unsigned char lead) {
    if (lead < 0x80) return 1;
    if (lead >= 0xC2 && lead <= 0xDF) return 2;
    if (lead >= 0xE0 && lead <= 0xEF) return 3;
    if (lead >= 0xF0 && lead <= 0xF4) return 4;
    return 0;
}

bool isContinuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

void appendVisible(std::string_view ch, std::string& out) {
    if (ch == " ") out += "␣";
    else if (ch == "\n") out += "↵";
    else if (ch == "\t") out += "⇥";
    else if (ch == "\r") out += "␍";
    else out += ch;
}

class Reader {
public:
    explicit Reader(std::size_t count) : out_(count) {}

    void opaque(std::size_t token, const std::string& text) {
        abandonPending();
        out_[token].text = text;
    }

    void bytes(std::size_t token, const std::string& bytes) {
        for (unsigned char b : bytes) pending_.push_back({b, token});
        consume(token);
    }

    std::vector<TokenReading> finish() {
        abandonPending();
        return std::move(out_);
    }

private:
    // Completes every character the pending bytes hold; leading bytes of an unfinished one wait.
    void consume(std::size_t token) {
        std::size_t at = 0;
        while (at < pending_.size()) {
            const std::size_t length = sequenceLength(pending_[at].byte);
            if (length == 0) {
                invalid(pending_[at].owner);
                ++at;
                continue;
            }
            std::size_t have = 1;
            while (have < length && at + have < pending_.size() && isContinuation(pending_[at + have].byte)) ++have;
            if (have < length && at + have == pending_.size()) break;  // waits for the next token's bytes
            if (have < length) {  // a lead byte not followed by its continuation bytes
                invalid(pending_[at].owner);
                ++at;
                continue;
            }
            character(at, length, token);
            at += length;
        }
        pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(at));
    }

    void character(std::size_t at, std::size_t length, std::size_t token) {
        std::string ch;
        for (std::size_t i = 0; i < length; ++i) ch += static_cast<char>(pending_[at + i].byte);
        if (utf8::decode(ch).invalidAt) {  // overlong form or surrogate
            for (std::size_t i = 0; i < length; ++i) invalid(pending_[at + i].owner);
            return;
        }
        appendVisible(ch, out_[token].text);
        for (std::size_t i = 0; i < length; ++i) {
            const std::size_t owner = pending_[at + i].owner;
            if (owner != token) out_[owner].completedAhead = static_cast<int>(token - owner);
        }
    }

    void invalid(std::size_t owner) {
        if (!out_[owner].invalid) out_[owner].text += kReplacement;
        out_[owner].invalid = true;
    }

    // Leading bytes whose character never came (before an opaque token, or at the end): a part
    // of a character that is not there, not valid text alone.
    void abandonPending() {
        for (const OwnedByte& b : pending_) {
            TokenReading& reading = out_[b.owner];
            if (!reading.invalid || reading.text.find(kPartMark) == std::string::npos) reading.text += kPartMark;
            reading.invalid = true;
        }
        pending_.clear();
    }

    std::vector<TokenReading> out_;
    std::vector<OwnedByte> pending_;
};

}  // namespace

std::vector<TokenReading> readTokens(const std::vector<TokenBytes>& tokens) {
    Reader reader(tokens.size());
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (tokens[i].opaque) reader.opaque(i, tokens[i].bytes);
        else reader.bytes(i, tokens[i].bytes);
    }
    return reader.finish();
}

std::string readingLabel(const TokenReading& reading) {
    return reading.completedAhead > 0 ? reading.text + kPartMark : reading.text;
}

}  // namespace attnscope
