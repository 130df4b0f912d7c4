#include "core/analysis/coref_eval.hpp"

#include <algorithm>
#include "core/io/json_reader.hpp"
#include "core/io/text_file.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/message_id.hpp"

namespace attnscope {

namespace {

using json::Json;
using json::describeText;

constexpr const char* kKnownFields[] = {"sentence",   "mention", "mention_occurrence", "antecedent",
                                        "antecedent_occurrence", "id", "pair", "language", "note"};

std::string fieldList() {
    std::string list;
    for (const char* f : kKnownFields) list += (list.empty() ? "" : ", ") + std::string(f);
    return list;
}

bool isAsciiAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// Whole-word occurrences of `needle` in `text` (ASCII case-insensitive). Latin words must not
// continue into letters or digits; CJK has no such boundary.
int occurrencesIn(std::string_view text, std::string_view needle) {
    const std::string hay = lowercaseAscii(text), target = lowercaseAscii(needle);
    int count = 0;
    for (std::size_t at = hay.find(target); at != std::string::npos; at = hay.find(target, at + 1)) {
        const bool startsWord = !isAsciiAlnum(target.front()) || at == 0 || !isAsciiAlnum(hay[at - 1]);
        const std::size_t end = at + target.size();
        const bool endsWord = !isAsciiAlnum(target.back()) || end == hay.size() || !isAsciiAlnum(hay[end]);
        if (startsWord && endsWord) ++count;
    }
    return count;
}

// Errors inside one line carry "source: line N: field".
struct LineReader {
    const Json& object;
    ErrorText where;  // "source: line N"

    Error error(const std::string& field, ErrorText message) const {
        return Error{errorText(ErrorId::WhereMessage, where, field), std::move(message)};
    }
    Result<std::string> text(const char* field, bool required) const {
        if (!object.contains(field)) {
            if (required)
                return error(field, errorText(ErrorId::ExpectedFoundNote, ErrorId::AText, ErrorId::Nothing, ErrorId::TheFieldIsMissing));
            return std::string();
        }
        const Json& value = object.at(field);
        if (!value.is_string()) return error(field, errorText(ErrorId::ExpectedFound, ErrorId::AText, describeText(value)));
        std::string s = value.get<std::string>();
        if (required && s.find_first_not_of(' ') == std::string::npos)
            return error(field, errorText(ErrorId::ExpectedFound, ErrorId::AText, ErrorId::AnEmptyString));
        return s;
    }
    Result<int> occurrence(const char* field) const {
        if (!object.contains(field)) return 1;
        const Json& value = object.at(field);
        if (!value.is_number_integer() || value.get<long long>() < 1 || value.get<long long>() > 1000)
            return error(field, errorText(ErrorId::ExpectedFound, errorText(ErrorId::AWholeNumberFrom, 1, 1000), describeText(value)));
        return static_cast<int>(value.get<long long>());
    }
};

Result<void> checkFields(const LineReader& line) {
    for (auto it = line.object.begin(); it != line.object.end(); ++it) {
        // Not a structured binding: clang 14 cannot capture one in a lambda (the fuzz build).
        const std::string& key = it.key();
        const bool known = std::any_of(std::begin(kKnownFields), std::end(kKnownFields),
                                       [&key](const char* f) { return key == f; });
        if (!known) return line.error(key, errorText(ErrorId::UnknownField, fieldList()));
    }
    return {};
}

Result<void> checkOccurs(const LineReader& line, const std::string& sentence, const char* field,
                                 const std::string& text, int occurrence) {
    const int found = occurrencesIn(sentence, text);
    if (found >= occurrence) return {};
    return line.error(field, errorText(occurrence == 1 ? ErrorId::OccursOnce : ErrorId::OccursTimes, text, occurrence, found));
}

Result<CorefExample> readExample(const LineReader& line) {
    if (auto bad = checkFields(line); !bad.ok()) return bad.error();
    auto sentence = line.text("sentence", true);
    if (!sentence) return sentence.error();
    auto mention = line.text("mention", true);
    if (!mention) return mention.error();
    auto mentionOcc = line.occurrence("mention_occurrence");
    if (!mentionOcc) return mentionOcc.error();
    auto antecedent = line.text("antecedent", true);
    if (!antecedent) return antecedent.error();
    auto goldOcc = line.occurrence("antecedent_occurrence");
    if (!goldOcc) return goldOcc.error();
    auto id = line.text("id", false);
    if (!id) return id.error();
    auto pair = line.text("pair", false);
    if (!pair) return pair.error();
    for (const char* informative : {"language", "note"})
        if (auto e = line.text(informative, false); !e) return e.error();
    CorefExample ex{sentence.value(), mention.value(), mentionOcc.value(), antecedent.value(),
                    goldOcc.value(), id.value(), pair.value(), 0};
    if (auto bad = checkOccurs(line, ex.sentence, "mention", ex.mention, ex.mentionOccurrence); !bad.ok()) return bad.error();
    if (auto bad = checkOccurs(line, ex.sentence, "antecedent", ex.antecedent, ex.antecedentOccurrence); !bad.ok()) return bad.error();
    if (lowercaseAscii(ex.mention) == lowercaseAscii(ex.antecedent) && ex.mentionOccurrence == ex.antecedentOccurrence)
        return line.error("antecedent", errorText(ErrorId::ExpectedFound, ErrorId::AWordOtherThanMention, ErrorId::TheMentionItself));
    return ex;
}

Result<CorefExample> parseLine(std::string_view text, const ErrorText& where) {
    json::JsonSyntaxError syntax;
    auto parsed = json::parse(text, where.in(Language::English), &syntax);
    if (!parsed) {
        // A syntax error at "line 1, column N" of the one-line text: the file's line is in `where`.
        const Error& e = parsed.error();
        const std::string line = where.in(Language::English);
        if (syntax.line > 0) return Error{where, errorText(ErrorId::NotJsonLine, syntax.column, syntax.reason)};
        if (e.where.rfind(line + ": ", 0) == 0)  // a place inside the line: a duplicated key's object
            return Error{errorText(ErrorId::WhereMessage, where, e.where.substr(line.size() + 2)), e.messageForm()};
        return Error{where, e.messageForm()};
    }
    const Json& doc = parsed.value();
    if (!doc.is_object()) return Error{where, errorText(ErrorId::ExpectedFound, ErrorId::AJsonObject, describeText(doc))};
    return readExample(LineReader{doc, where});
}

bool skippedLine(std::string_view line) {
    const auto start = line.find_first_not_of(" \t\r");
    return start == std::string_view::npos || line[start] == '#';
}

// ---------------------------------------------------------------- evaluation

bool insideSpan(int word, int first, int last) { return word >= first && word <= last; }

bool chosenIsGold(const Resolution& r, int choice, const ExampleOutcome& o) {
    return choice >= 0 && insideSpan(r.candidates[static_cast<std::size_t>(choice)], o.goldFirst, o.goldLast);
}

// Why an example is skipped: `plain` names the word, `counted` also its occurrence (when not the first).
Notice skipBecause(MessageId plain, MessageId counted, const std::string& text, int occurrence) {
    if (occurrence > 1) return Notice{counted, {text, std::to_string(occurrence)}};
    return Notice{plain, {text}};
}

// Finds mention, gold and candidates; a reason to skip when one is missing.
std::optional<Notice> locate(const CorefExample& ex, const std::vector<Word>& words, bool cataphora,
                             Mention& mention, ExampleOutcome& o) {
    const auto m = findWordSpan(words, ex.mention, ex.mentionOccurrence);
    if (!m) return skipBecause(MessageId::SkipMentionNotWords, MessageId::SkipMentionNotWordsAt, ex.mention, ex.mentionOccurrence);
    const auto g = findWordSpan(words, ex.antecedent, ex.antecedentOccurrence);
    if (!g)
        return skipBecause(MessageId::SkipAntecedentNotWords, MessageId::SkipAntecedentNotWordsAt, ex.antecedent,
                           ex.antecedentOccurrence);
    std::string text;
    for (int w = m->first; w <= m->second; ++w) text += words[static_cast<std::size_t>(w)].text;
    mention = Mention{m->first, m->second, text, pronounOf(text)};
    o.goldFirst = g->first, o.goldLast = g->second;
    const std::vector<int> candidates = candidatesFor(words, mention, cataphora);
    const bool goldIsCandidate = std::any_of(candidates.begin(), candidates.end(),
                                             [&](int w) { return insideSpan(w, o.goldFirst, o.goldLast); });
    if (!goldIsCandidate)
        return skipBecause(MessageId::SkipNotCandidate, MessageId::SkipNotCandidateAt, ex.antecedent, ex.antecedentOccurrence);
    o.candidateCount = static_cast<int>(candidates.size());
    o.goldCandidates = static_cast<int>(std::count_if(candidates.begin(), candidates.end(),
                                                      [&](int w) { return insideSpan(w, o.goldFirst, o.goldLast); }));
    return std::nullopt;
}

Result<void> checkShape(CorefEvaluation& eval, const Trace& trace, const ErrorText& where) {
    const int layers = static_cast<int>(trace.layers.size()), heads = trace.headCount();
    if (layers == 0 || heads == 0) return Error{where, errorText(ErrorId::ExpectedFound, ErrorId::ARunWithHeads, ErrorId::NoneFound)};
    if (eval.layers == 0) {
        eval.layers = layers, eval.headsPerLayer = heads;
        eval.correct = Mat::Zero(layers, heads);
    }
    if (layers != eval.layers || heads != eval.headsPerLayer)
        return Error{where, errorText(ErrorId::LayersHeadsLikeFirst, eval.layers, eval.headsPerLayer, layers, heads)};
    return {};
}

// Scores one located example under every head and under rollout.
Result<void> scoreExample(const Trace& trace, const std::vector<Word>& words, const Mention& mention,
                                  bool cataphora, const ErrorText& where, ExampleOutcome& o) {
    auto perHead = resolveMention(trace, words, mention, Scoring::headSet(allHeads(trace)), cataphora);
    if (!perHead) return Error{errorText(ErrorId::WhereMessage, where, perHead.error().whereForm()), perHead.error().messageForm()};
    auto rollout = resolveMention(trace, words, mention, Scoring::rollout(), cataphora);
    if (!rollout) return Error{errorText(ErrorId::WhereMessage, where, rollout.error().whereForm()), rollout.error().messageForm()};
    const Resolution& r = perHead.value();
    for (Eigen::Index k = 0; k < r.headScores.rows(); ++k) {
        const int choice = chooseCandidate(r.headScores.row(k), r.candidates, mention);
        o.headChoice.push_back(choice >= 0 ? r.candidates[static_cast<std::size_t>(choice)] : -1);
    }
    o.nearestCorrect = chosenIsGold(r, r.baselines.nearest, o);
    o.ruleCorrect = chosenIsGold(r, r.baselines.rule, o);
    o.rolloutCorrect = chosenIsGold(rollout.value(), rollout.value().chosen, o);
    o.firstCorrect = chosenIsGold(r, 0, o);  // candidates are in sentence order; the gold is one of them
    return {};
}

void tally(CorefEvaluation& eval, const ExampleOutcome& o) {
    if (!o.evaluated) return;
    ++eval.evaluated;
    eval.nearestCorrect += o.nearestCorrect;
    eval.ruleCorrect += o.ruleCorrect;
    eval.rolloutCorrect += o.rolloutCorrect;
    eval.firstCorrect += o.firstCorrect;
    eval.randomCorrect += static_cast<double>(o.goldCandidates) / o.candidateCount;
    for (std::size_t k = 0; k < o.headChoice.size(); ++k) {
        const int layer = static_cast<int>(k) / eval.headsPerLayer, head = static_cast<int>(k) % eval.headsPerLayer;
        if (insideSpan(o.headChoice[k], o.goldFirst, o.goldLast)) eval.correct(layer, head) += 1;
    }
}

// n×(L·H + 5): per evaluated example, 1/0 for every head (layer-major), then nearest, rule,
// first, random (its expected score) and rollout: what the bootstrap resamples.
constexpr Eigen::Index kBaselineColumns = 5;

Mat perExampleScores(const CorefEvaluation& eval) {
    const Eigen::Index heads = static_cast<Eigen::Index>(eval.layers) * eval.headsPerLayer;
    Mat scores(eval.evaluated, heads + kBaselineColumns);
    Eigen::Index row = 0;
    for (const ExampleOutcome& o : eval.outcomes) {
        if (!o.evaluated) continue;
        for (Eigen::Index k = 0; k < heads; ++k)
            scores(row, k) = insideSpan(o.headChoice[static_cast<std::size_t>(k)], o.goldFirst, o.goldLast);
        scores.row(row).tail(kBaselineColumns) << o.nearestCorrect, o.ruleCorrect, o.firstCorrect,
            static_cast<double>(o.goldCandidates) / o.candidateCount, o.rolloutCorrect;
        ++row;
    }
    return scores;
}

BaselineScore baselineScore(double correct, const CorefEvaluation& eval, const Mat& means, Eigen::Index column) {
    return {correct, correct / eval.evaluated, columnInterval(means, column, eval.bootstrap.level)};
}

void rank(CorefEvaluation& eval) {
    eval.accuracy = eval.correct / static_cast<double>(eval.evaluated);
    const Mat means = resampledMeans(perExampleScores(eval), eval.bootstrap);
    const Eigen::Index heads = static_cast<Eigen::Index>(eval.layers) * eval.headsPerLayer, rule = heads + 1;
    const double level = eval.bootstrap.level;
    for (int l = 0; l < eval.layers; ++l)
        for (int h = 0; h < eval.headsPerLayer; ++h) {
            const Eigen::Index k = static_cast<Eigen::Index>(l) * eval.headsPerLayer + h;
            eval.ranking.push_back({{l, h}, static_cast<int>(eval.correct(l, h)), eval.accuracy(l, h),
                                    columnInterval(means, k, level), differenceInterval(means, k, rule, level)});
        }
    std::stable_sort(eval.ranking.begin(), eval.ranking.end(),
                     [](const HeadAccuracy& a, const HeadAccuracy& b) { return a.correct > b.correct; });
    eval.nearest = baselineScore(eval.nearestCorrect, eval, means, heads);
    eval.rule = baselineScore(eval.ruleCorrect, eval, means, rule);
    eval.first = baselineScore(eval.firstCorrect, eval, means, heads + 2);
    eval.random = baselineScore(eval.randomCorrect, eval, means, heads + 3);
    eval.rollout = baselineScore(eval.rolloutCorrect, eval, means, heads + 4);
}

}  // namespace

Result<CorefSet> parseCorefSet(std::string_view text, const std::string& source) {
    CorefSet set{source, {}};
    int lineNumber = 0;
    for (std::size_t start = 0; start <= text.size();) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view line = text.substr(start, end - start);
        ++lineNumber;
        start = end + 1;
        if (skippedLine(line)) continue;
        if (auto long_ = checkSentenceLine(line, errorText(ErrorId::WhereLine, source, lineNumber)); !long_.ok())
            return long_.error();
        auto example = parseLine(line, errorText(ErrorId::WhereLine, source, lineNumber));
        if (!example) return example.error();
        example.value().line = lineNumber;
        set.examples.push_back(std::move(example).value());
    }
    if (set.examples.empty()) return Error{source, errorText(ErrorId::ExpectedFound, ErrorId::AtLeastOneExampleLine, ErrorId::NoneFound)};
    return set;
}

Result<CorefSet> readCorefSet(const std::filesystem::path& path) {
    auto text = readTextFile(path, kMaxCorefSetBytes);
    if (!text)
        return Error{path.string(), errorText(ErrorId::WithNote, text.error().messageForm(), errorText(ErrorId::ExpectedWhat, ErrorId::ACorefSetJsonLines))};
    return parseCorefSet(text.value(), path.string());
}

std::vector<HeadRef> bestHeads(const CorefEvaluation& evaluation, int count) {
    std::vector<HeadRef> heads;
    for (const HeadAccuracy& h : evaluation.ranking)
        if (static_cast<int>(heads.size()) < count) heads.push_back(h.head);
    return heads;
}

ControlComparison compareWithControl(const CorefEvaluation& trained, const CorefEvaluation& control,
                                     std::uint32_t seed) {
    ControlComparison c{seed, control.ranking.front(), 0};
    for (const HeadAccuracy& h : trained.ranking) c.trainedAbove += h.accuracy > c.best.accuracy;
    return c;
}

std::string exampleLabel(const CorefSet& set, const CorefExample& example) {
    const std::string line = set.source + ": line " + std::to_string(example.line);
    return example.id.empty() ? line : line + " (" + example.id + ")";
}

namespace {

// exampleLabel for an error: "source: line N (id)" in any language.
ErrorText exampleWhere(const CorefSet& set, const CorefExample& example) {
    const ErrorText line = errorText(ErrorId::WhereLine, set.source, example.line);
    return example.id.empty() ? line : errorText(ErrorId::WithNote, line, example.id);
}

}  // namespace

Result<CorefEvaluation> evaluateCorefSet(const CorefSet& set, const SentenceRunner& run,
                                         const EvaluationControl& control) {
    CorefEvaluation eval;
    eval.source = set.source;
    eval.bootstrap = control.bootstrap;
    const int total = static_cast<int>(set.examples.size());
    for (int i = 0; i < total; ++i) {
        if (control.cancel && control.cancel->load()) return Error{set.source, ErrorId::EvaluationCancelled};
        const CorefExample& ex = set.examples[static_cast<std::size_t>(i)];
        const ErrorText where = exampleWhere(set, ex);
        auto trace = run(ex.sentence);
        if (!trace) return Error{errorText(ErrorId::WhereMessage, where, trace.error().whereForm()), trace.error().messageForm()};
        if (auto bad = checkShape(eval, trace.value(), where); !bad.ok()) return bad.error();
        ExampleOutcome o;
        o.index = i;
        const std::vector<Word> words = wordsOf(trace.value().tokens);
        Mention mention;
        if (auto reason = locate(ex, words, control.cataphora, mention, o)) {
            o.skipReason = std::move(reason);
        } else {
            if (auto bad = scoreExample(trace.value(), words, mention, control.cataphora, where, o); !bad.ok()) return bad.error();
            o.evaluated = true;
        }
        tally(eval, o);
        eval.outcomes.push_back(std::move(o));
        if (control.progress) control.progress(i + 1, total);
    }
    if (eval.evaluated == 0)
        return Error{set.source, errorText(ErrorId::NoEvaluableExamples, total,
                                           exampleWhere(set, set.examples.front()))};
    rank(eval);
    return eval;
}

}  // namespace attnscope
