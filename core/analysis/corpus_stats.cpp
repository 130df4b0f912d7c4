#include "core/analysis/corpus_stats.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>

#include "core/analysis/coreference.hpp"
#include "core/analysis/head_stats.hpp"
#include "core/io/text_file.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/messages.hpp"
#include "core/text/utf8.hpp"

namespace attnscope {

namespace {

std::vector<bool> punctuationTokens(const Trace& trace) {
    std::vector<bool> out;
    for (const Token& t : trace.tokens) out.push_back(!t.special && isPunctuationToken(t));
    return out;
}

double mean(double sum, std::int64_t count) { return count > 0 ? sum / static_cast<double>(count) : 0; }

}  // namespace

CorpusAccumulator::CorpusAccumulator(int maxOffset)
    : maxOffset_(maxOffset), offsetQueries_(static_cast<std::size_t>(2 * maxOffset + 1), 0) {}

Result<void> CorpusAccumulator::checkShape(const Trace& trace) const {
    const ErrorId where = ErrorId::WhereCorpusStatistics;
    if (trace.isCrossAttention())
        return Error{where, errorText(ErrorId::ExpectedFound, ErrorId::SelfAttention, ErrorId::CrossAttention)};
    const int L = static_cast<int>(trace.layers.size()), H = trace.headCount();
    if (L == 0 || H == 0)
        return Error{where, errorText(ErrorId::ExpectedFound, ErrorId::AttentionHeads, ErrorId::ATraceWithoutHeads)};
    if (sentences_ > 0 && (L != layers_ || H != heads_))
        return Error{where, errorText(ErrorId::LayersHeadsLikeFirst, layers_, heads_, L, H)};
    const Eigen::Index T = trace.tokenCount();
    for (const HeadRef& ref : allHeads(trace)) {
        const GridRef w = trace.layers[static_cast<std::size_t>(ref.layer)].heads[static_cast<std::size_t>(ref.head)].weights;
        if (w.rows() != T || w.cols() != T)
            return Error{errorText(ErrorId::WhereCorpusStatisticsHead, ref.layer + 1, ref.head + 1),
                         errorText(ErrorId::ExpectedFound, errorText(ErrorId::TxTWeights, T, T),
                                   std::to_string(w.rows()) + "×" + std::to_string(w.cols()))};
    }
    return {};
}

void CorpusAccumulator::addHead(const Trace& trace, GridRef w, const std::vector<bool>& punctuation,
                                Sums& s) const {
    const Eigen::Index T = w.rows();
    for (Eigen::Index i = 0; i < T; ++i) {
        s.first += w(i, 0);
        s.last += w(i, T - 1);
        s.entropy += rowEntropyBits(w, i);
        s.uniform += std::log2(static_cast<double>(tokensSeen(trace, i, T)));
        const std::string& text = trace.tokens[static_cast<std::size_t>(i)].text;
        for (Eigen::Index j = 0; j < T; ++j) {
            if (punctuation[static_cast<std::size_t>(j)]) s.punctuation += w(i, j);
            if (j != i && trace.tokens[static_cast<std::size_t>(j)].text == text) s.sameToken += w(i, j);
        }
        for (int o = -maxOffset_; o <= maxOffset_; ++o)
            if (i + o >= 0 && i + o < T) s.offsets[static_cast<std::size_t>(o + maxOffset_)] += w(i, i + o);
    }
}

Result<void> CorpusAccumulator::add(const Trace& trace) {
    if (auto shape = checkShape(trace); !shape) return shape.error();
    if (sentences_ == 0) {
        layers_ = static_cast<int>(trace.layers.size());
        heads_ = trace.headCount();
        sums_.assign(static_cast<std::size_t>(layers_ * heads_),
                     Sums{0, 0, 0, 0, 0, 0, std::vector<double>(offsetQueries_.size(), 0.0)});
        causal_ = trace.causal;
        const auto special = [](const Token& t) { return t.special ? t.text : std::string(); };
        if (!trace.tokens.empty()) firstSpecial_ = special(trace.tokens.front()), lastSpecial_ = special(trace.tokens.back());
    }
    const std::vector<bool> punctuation = punctuationTokens(trace);
    for (const HeadRef& ref : allHeads(trace))
        addHead(trace, trace.layers[static_cast<std::size_t>(ref.layer)].heads[static_cast<std::size_t>(ref.head)].weights,
                punctuation, sums_[static_cast<std::size_t>(ref.layer * heads_ + ref.head)]);
    const int T = trace.tokenCount();
    queries_ += T;
    for (int o = -maxOffset_; o <= maxOffset_; ++o)
        offsetQueries_[static_cast<std::size_t>(o + maxOffset_)] += std::max(0, T - std::abs(o));
    ++sentences_;
    return {};
}

CorpusStats CorpusAccumulator::result() const {
    CorpusStats out;
    out.layers = layers_, out.headsPerLayer = heads_, out.maxOffset = maxOffset_;
    out.sentences = sentences_, out.queries = queries_, out.offsetQueries = offsetQueries_;
    out.firstSpecial = firstSpecial_, out.lastSpecial = lastSpecial_, out.causal = causal_;
    for (int n = 0; n < layers_ * heads_; ++n) {
        const Sums& s = sums_[static_cast<std::size_t>(n)];
        CorpusHeadStats h;
        h.head = HeadRef{n / heads_, n % heads_};
        h.first = mean(s.first, queries_), h.last = mean(s.last, queries_);
        h.punctuation = mean(s.punctuation, queries_), h.sameToken = mean(s.sameToken, queries_);
        h.entropy = mean(s.entropy, queries_), h.uniformEntropy = mean(s.uniform, queries_);
        for (std::size_t o = 0; o < s.offsets.size(); ++o) h.offsets.push_back(mean(s.offsets[o], offsetQueries_[o]));
        h.previous = h.offsets[static_cast<std::size_t>(maxOffset_ - 1)];
        h.self = h.offsets[static_cast<std::size_t>(maxOffset_)];
        h.next = h.offsets[static_cast<std::size_t>(maxOffset_ + 1)];
        out.heads.push_back(std::move(h));
    }
    return out;
}

// ---------------------------------------------------------------- the file

Result<CorpusText> parseCorpus(std::string_view text, const std::string& source, const CorpusLimits& limits) {
    CorpusText corpus;
    corpus.source = source;
    int lineNumber = 0;
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        std::string_view line = text.substr(start, end - start);
        start = end + 1, ++lineNumber;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
        if (auto long_ = checkSentenceLine(line, errorText(ErrorId::WhereLine, source, lineNumber)); !long_.ok())
            return long_.error();
        if (const auto bad = utf8::decode(line).invalidAt)
            return Error{errorText(ErrorId::WhereLine, source, lineNumber), errorText(ErrorId::InvalidUtf8At, *bad + 1)};
        if (static_cast<int>(corpus.lines.size()) >= limits.maxLines) {
            ++corpus.linesLeftOut;
            continue;
        }
        corpus.lines.emplace_back(line);
        corpus.lineNumbers.push_back(lineNumber);
    }
    if (corpus.lines.empty())
        return Error{source, errorText(ErrorId::ExpectedFound, ErrorId::AtLeastOneNonBlankSentence, ErrorId::NoneFound)};
    return corpus;
}

Result<CorpusText> readCorpus(const std::filesystem::path& path, const CorpusLimits& limits) {
    auto text = readTextFile(path, kMaxCorpusBytes);
    if (!text) return text.error();
    return parseCorpus(text.value(), path.filename().string(), limits);
}

// ---------------------------------------------------------------- the run

namespace {

CorpusProgress progressAfter(int done, int total, std::chrono::steady_clock::time_point started) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    CorpusProgress p{done, total, 0, 0};
    p.secondsPerSentence = done > 0 ? elapsed / done : 0;
    p.etaSeconds = p.secondsPerSentence * (total - done);
    return p;
}

std::vector<CorpusNotice> capNotices(const CorpusText& corpus, int skippedLong, const CorpusLimits& limits) {
    std::vector<CorpusNotice> notices;
    if (corpus.linesLeftOut > 0)
        notices.push_back({corpus.source, 0, Notice{MessageId::NoticeCorpusCapped,
                                                    {std::to_string(limits.maxLines), std::to_string(corpus.linesLeftOut)}}});
    if (skippedLong > 0)
        notices.push_back({corpus.source, 0, Notice{MessageId::NoticeCorpusSkippedLong,
                                                    {std::to_string(skippedLong), std::to_string(limits.maxTokens)}}});
    return notices;
}

// A run's own notices (a sentence cut to the model's positions, …), named by line: the first
// few as they are, then how many more sentences had any, so a long corpus cannot flood the output.
void keepRunNotices(const Trace& trace, const std::string& source, int line, int& sentencesWithNotices,
                    std::vector<CorpusNotice>& notices) {
    if (trace.notices.empty()) return;
    if (++sentencesWithNotices <= kCorpusNoticesShown)
        for (const Notice& n : trace.notices) notices.push_back({source, line, n});
}

// `error` of one sentence, named by its line: "c.txt: line 3: <its where>: <its message>", in any language.
Error atLine(const Error& error, const std::string& source, int lineNumber) {
    const ErrorText line = errorText(ErrorId::WhereLine, source, lineNumber);
    if (error.where.empty()) return Error{line, error.messageForm()};
    return Error{errorText(ErrorId::WhereMessage, line, error.whereForm()), error.messageForm()};
}

}  // namespace

Result<CorpusStats> runCorpus(const CorpusText& corpus, const SentenceRunner& run, const CorpusControl& control) {
    CorpusAccumulator sums(control.maxOffset);
    const int total = static_cast<int>(corpus.lines.size());
    const auto started = std::chrono::steady_clock::now();
    int skippedLong = 0, sentencesWithNotices = 0;
    std::vector<CorpusNotice> runNotices;
    for (int n = 0; n < total; ++n) {
        if (control.cancel && control.cancel->load()) return Error{corpus.source, ErrorId::CorpusStatisticsCancelled};
        const int lineNumber = corpus.lineNumbers[static_cast<std::size_t>(n)];
        auto trace = run(corpus.lines[static_cast<std::size_t>(n)]);
        if (!trace) return atLine(trace.error(), corpus.source, lineNumber);
        keepRunNotices(trace.value(), corpus.source, lineNumber, sentencesWithNotices, runNotices);
        if (trace.value().tokenCount() > control.limits.maxTokens) {
            ++skippedLong;
        } else if (auto added = sums.add(trace.value()); !added) {
            return atLine(added.error(), corpus.source, lineNumber);
        }
        if (control.progress) control.progress(progressAfter(n + 1, total, started));
    }
    if (sums.sentences() == 0)
        return Error{corpus.source,
                     errorText(ErrorId::ExpectedFound, errorText(ErrorId::ASentenceOfAtMost, control.limits.maxTokens), ErrorId::NoneFound)};
    CorpusStats stats = sums.result();
    stats.notices = capNotices(corpus, skippedLong, control.limits);
    stats.notices.insert(stats.notices.end(), runNotices.begin(), runNotices.end());
    if (sentencesWithNotices > kCorpusNoticesShown)
        stats.notices.push_back({corpus.source, 0, Notice{MessageId::NoticeCorpusMoreNotices,
                                                          {std::to_string(sentencesWithNotices - kCorpusNoticesShown)}}});
    return stats;
}

std::string corpusNoticeText(const CorpusNotice& n, Language language) {
    const std::string where = n.line > 0 ? fillMessage(message(MessageId::CorpusAtLine, language), {n.source, std::to_string(n.line)})
                                         : fillMessage(message(MessageId::CorpusAt, language), {n.source});
    return where + noticeText(n.notice, language);
}

std::vector<std::string> corpusNoticeTexts(const std::vector<CorpusNotice>& notices, Language language) {
    std::vector<std::string> texts;
    for (const CorpusNotice& n : notices) texts.push_back(corpusNoticeText(n, language));
    return texts;
}

}  // namespace attnscope
