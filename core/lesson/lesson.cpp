// Lesson files: parsing, validation and writing. Format: docs/lesson-format.md.
// Shape legend: T tokens, d model width, H heads, d_k query/key width, d_v value width, L layers.
#include "core/lesson/lesson.hpp"

#include <cmath>
#include <tuple>

#include "core/lesson/lesson_block.hpp"
#include "core/lesson/lesson_encoder_decoder.hpp"
#include "core/lesson/lesson_fields.hpp"
#include "core/io/json_rows.hpp"
#include "core/text/error_messages.hpp"
#include "core/text/utf8.hpp"

namespace attnscope {

namespace lesson_fields {

using json::fail;
using json::need;

double readNumber(const Field& f) { return need(f.number()); }

int readInt(const Field& f, int lo, int hi) { return static_cast<int>(need(f.integer(lo, hi))); }

bool readBool(const Field& obj, const std::string& key, bool fallback) {
    return need(obj.optionalBoolean(key)).value_or(fallback);
}

// Lesson text is shown and tokenized as UTF-8 (docs/lesson-format.md: invalid UTF-8 is an error).
// The JSON parser already refuses ill-formed bytes in a file; this also covers a lesson handed
// over by other means and keeps the rule in one visible place.
std::string checkedText(const Field& f, std::string text) {
    if (const auto bad = utf8::decode(text).invalidAt)
        fail(f.error(errorText(ErrorId::InvalidUtf8At, *bad)));
    return text;
}

std::string readString(const Field& obj, const std::string& key, const std::string& fallback) {
    const auto found = need(obj.optionalMember(key));
    return found ? checkedText(*found, need(found->text())) : fallback;
}

// Version 3: a text may be {"en": "…", "zh_CN": "…"}; a plain string is one text for every language.
LocalizedText readLocalized(const Field& f, int version) {
    if (f.json().is_string()) return LocalizedText(checkedText(f, need(f.text())));
    if (!f.json().is_object()) fail(f.expected(ErrorId::LocalizedTextExpected));
    if (version < 3) fail(f.error(ErrorId::SeveralLanguagesNeedV3));
    const auto entries = need(f.members(ErrorId::LocalizedTextExpected));
    if (entries.empty()) fail(f.error(errorText(ErrorId::ExpectedFound, ErrorId::AtLeastOneLanguage, ErrorId::AnEmptyObject)));
    LocalizedText text;
    for (const auto& [language, value] : entries) {
        if (!isLanguageCode(language))
            fail(value.error(errorText(ErrorId::ExpectedLanguageCode, language)));
        text.set(language, checkedText(value, need(value.text())));
    }
    return text;
}

LocalizedText readLocalizedMember(const Field& obj, const std::string& key, int version, const char* fallback) {
    const auto found = need(obj.optionalMember(key));
    return found ? readLocalized(*found, version) : LocalizedText(fallback);
}

RowVec readVector(const Field& f, Eigen::Index expected) {
    const auto items = need(f.elements(ErrorId::AListOfNumbers));
    if (expected >= 0 && static_cast<Eigen::Index>(items.size()) != expected)
        fail(f.error(errorText(ErrorId::ExpectedFound, errorText(ErrorId::CountNumbers, expected), items.size())));
    RowVec v(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) v[i] = readNumber(items[i]);
    return v;
}

std::string shapeText(Eigen::Index rows, Eigen::Index cols) {
    return (rows >= 0 ? std::to_string(rows) : std::string("n")) + "×" + std::to_string(cols);
}

// The shape of a list of equally long lists, e.g. "4×6"; empty when the rows differ in length.
std::string foundShape(const Json& j) {
    for (const Json& row : j)
        if (!row.is_array() || row.size() != j[0].size()) return "";
    return std::to_string(j.size()) + "×" + std::to_string(j[0].size());
}

// rows/cols of -1 mean "any". A wrong shape is reported whole ("expected 4×8, found 4×6"), with
// what the shape stands for (`shapeName`, e.g. "(heads·d_v)×d_model").
Mat readMatrix(const Field& f, Eigen::Index rows, Eigen::Index cols, const ErrorText& shapeName) {
    const auto rowFields = need(f.elements(errorText(ErrorId::AMatrixOf, shapeName)));
    const Json& j = f.json();
    if (rowFields.empty()) fail(f.error(errorText(ErrorId::ExpectedFound, errorText(ErrorId::AMatrixOf, shapeName), ErrorId::NoRows)));
    const Eigen::Index firstWidth = j[0].is_array() ? static_cast<Eigen::Index>(j[0].size()) : 0;
    const Eigen::Index width = cols >= 0 ? cols : firstWidth;
    const std::string found = foundShape(j);
    const bool rowsDiffer = rows >= 0 && static_cast<Eigen::Index>(j.size()) != rows;
    const bool colsDiffer = !found.empty() && firstWidth != width;
    if (rowsDiffer || colsDiffer)
        fail(f.error(errorText(ErrorId::ExpectedFoundNote, shapeText(rows, width),
                               found.empty() ? errorText(ErrorId::CountRows, j.size()) : ErrorText::verbatim(found),
                               shapeName)));
    Mat m(j.size(), width);
    for (std::size_t r = 0; r < rowFields.size(); ++r) m.row(r) = readVector(rowFields[r], width);
    return m;
}

Json matrixJson(const Mat& m) { return json::matrixRows(m); }

Json vectorJson(const RowVec& v) { return matrixJson(v)[0]; }

Result<void> checkShape(const Mat& m, Eigen::Index rows, Eigen::Index cols,
                                const std::string& where) {
    if (m.rows() == rows && m.cols() == cols) return {};
    return Error{where, errorText(ErrorId::ExpectedFound, shapeText(rows, cols), shapeText(m.rows(), m.cols()))};
}

Result<void> checkFinite(const Mat& m, const std::string& where) {
    if (m.allFinite()) return {};
    return Error{where, ErrorId::NanOrInfinity};
}

}  // namespace lesson_fields

namespace {

using namespace lesson_fields;
using json::fail;
using json::need;

// {"rope": {"base": 10000, "pairing": "half"}}, both optional; "rope" alone takes the defaults.
void readRope(const Field& rope, Lesson& lesson) {
    need(rope.requireObject());
    if (const auto base = need(rope.optionalMember("base"))) {
        lesson.ropeBase = readNumber(*base);
        if (!(lesson.ropeBase > 0)) fail(base->expected(ErrorId::APositiveNumber));
    }
    const std::string pairing = readString(rope, "pairing", "half");
    if (pairing != "half" && pairing != "interleaved")
        fail(need(rope.member("pairing")).error(errorText(ErrorId::ExpectedFound, ErrorId::RopePairings, errorText(ErrorId::Quoted, pairing))));
    lesson.ropeInterleaved = pairing == "interleaved";
}

void readPositional(const Field& doc, int version, Lesson& lesson) {
    const auto pe = need(doc.optionalMember("positional_encoding"));
    if (!pe) return;
    const bool rope = pe->json().is_string() ? pe->json() == "rope" : pe->has("rope");
    if (rope && version < 5) fail(pe->error(ErrorId::RopeNeedsV5));
    if (pe->json().is_string()) {
        const auto kind = need(pe->text());
        if (kind == "none") lesson.positional = PositionalKind::None;
        else if (kind == "sinusoidal") lesson.positional = PositionalKind::Sinusoidal;
        else if (kind == "rope") lesson.positional = PositionalKind::Rotary;
        else fail(pe->error(errorText(ErrorId::ExpectedFound, ErrorId::PositionalKinds, errorText(ErrorId::Quoted, kind))));
        return;
    }
    if (rope) {
        lesson.positional = PositionalKind::Rotary;
        readRope(need(pe->member("rope")), lesson);
        return;
    }
    if (!pe->has("table")) fail(pe->expected(ErrorId::PositionalKinds));
    lesson.positional = PositionalKind::Table;
    lesson.positionalTable = readMatrix(need(pe->member("table")), -1, lesson.dModel, ErrorId::ShapeTable);
}

// "unknown_words": "hash" (the default), "zeros" or "ask"; new in version 4.
void readUnknownWords(const Field& doc, int version, Lesson& lesson) {
    const auto rule = need(doc.optionalMember("unknown_words"));
    if (!rule) return;
    if (version < 4) fail(rule->error(ErrorId::UnknownWordsNeedV4));
    const std::string kind = need(rule->text());
    if (kind == "hash") lesson.unknownWords = UnknownWords::Hash;
    else if (kind == "zeros") lesson.unknownWords = UnknownWords::Zeros;
    else if (kind == "ask") lesson.unknownWords = UnknownWords::Ask;
    else fail(rule->error(errorText(ErrorId::ExpectedFound, ErrorId::UnknownWordsKinds, errorText(ErrorId::Quoted, kind))));
}

const char* unknownWordsName(UnknownWords rule) {
    switch (rule) {
        case UnknownWords::Zeros: return "zeros";
        case UnknownWords::Ask: return "ask";
        default: return "hash";
    }
}

void readEmbeddings(const Field& doc, Lesson& lesson) {
    const Field table = need(doc.member("embeddings"));
    for (const auto& [token, vec] : need(table.members(ErrorId::AnObjectTokenNumbers)))
        lesson.embeddings.emplace_back(checkedText(vec, token), readVector(vec, lesson.dModel));
}

RowVec readOptionalBias(const Field& head, const std::string& key, int width) {
    const auto bias = need(head.optionalMember(key));
    return bias ? readVector(*bias, width) : RowVec();
}

// One head's W_Q (b_Q); with `keysAndValues` its W_K, W_V (b_K, b_V) too.
HeadWeights readHeadWeights(const Field& head, const Lesson& lesson, bool query, bool keysAndValues) {
    need(head.requireObject(!keysAndValues ? ErrorId::AnObjectWithWQ : query ? ErrorId::AnObjectWithWQKV : ErrorId::AnObjectWithWKV));
    const int d = lesson.dModel;
    HeadWeights w;
    if (query) {
        w.wq = readMatrix(need(head.member("W_Q")), d, lesson.dK, errorText(ErrorId::ShapeIs, "W_Q", "d_model×d_k"));
        w.bq = readOptionalBias(head, "b_Q", lesson.dK);
    }
    if (keysAndValues) {
        w.wk = readMatrix(need(head.member("W_K")), d, lesson.dK, errorText(ErrorId::ShapeIs, "W_K", "d_model×d_k"));
        w.wv = readMatrix(need(head.member("W_V")), d, lesson.dV, errorText(ErrorId::ShapeIs, "W_V", "d_model×d_v"));
        w.bk = readOptionalBias(head, "b_K", lesson.dK);
        w.bv = readOptionalBias(head, "b_V", lesson.dV);
    }
    return w;
}

// A query head of a lesson with shared key/value heads: keys and values belong in kv_heads_weights,
// so a W_K there is refused rather than silently ignored.
void refuseOwnKeyValues(const Field& head, const Lesson& lesson) {
    for (const char* key : {"W_K", "W_V", "b_K", "b_V"})
        if (head.has(key))
            fail(Error{head.whereOf(key), errorText(ErrorId::KeyValueInKvHeads, lesson.kvHeadCount(), lesson.numHeads)});
}

// The heads_weights list of one layer (at the top level for version 1, in layers[l] else) and,
// with shared key/value heads (version 7), its kv_heads_weights.
void readHeads(const Field& obj, const Lesson& lesson, LessonLayer& layer) {
    if (!lesson.projections) return;
    const bool shared = lesson.sharesKeyValues();
    const Field heads = need(obj.member("heads_weights"));
    const auto list = need(heads.elements(errorText(ErrorId::AListOfHeads, lesson.numHeads)));
    if (static_cast<int>(list.size()) != lesson.numHeads) fail(heads.expected(errorText(ErrorId::AListOfHeads, lesson.numHeads)));
    for (const Field& head : list) {
        if (shared) refuseOwnKeyValues(head, lesson);
        layer.heads.push_back(readHeadWeights(head, lesson, true, !shared));
    }
    const auto kv = need(obj.optionalMember("kv_heads_weights"));
    if (!shared) {
        if (kv) fail(kv->error(errorText(ErrorId::KvWeightsWithoutSharing, lesson.numHeads)));
        return;
    }
    const ErrorText expected = errorText(ErrorId::AListOfKvHeads, lesson.kvHeadCount());
    const auto kvList = need(need(obj.member("kv_heads_weights")).elements(expected));
    if (static_cast<int>(kvList.size()) != lesson.kvHeadCount()) fail(kv->expected(expected));
    for (const Field& head : kvList) layer.kvHeads.push_back(readHeadWeights(head, lesson, false, true));
}

// heads_weights, W_O and b_O of one layer, from the top level (version 1) or from layers[l].
LessonLayer readLayer(const Field& obj, const Lesson& lesson) {
    LessonLayer layer;
    readHeads(obj, lesson, layer);
    const int concatWidth = lesson.numHeads * lesson.dV;
    if (const auto wo = need(obj.optionalMember("W_O")))
        layer.wo = readMatrix(*wo, concatWidth, lesson.dModel, ErrorId::ShapeWO);
    layer.bo = readOptionalBias(obj, "b_O", lesson.dModel);
    return layer;
}

// Version 2: "layers" replaces the top-level heads_weights, W_O and b_O.
void readLayers(const Field& doc, int version, Lesson& lesson) {
    const auto layers = need(doc.optionalMember("layers"));
    if (!layers) {
        lesson.layers = {readLayer(doc, lesson)};
        return;
    }
    if (version < 2) fail(layers->error(ErrorId::LayersNeedV2));
    for (const char* key : {"heads_weights", "kv_heads_weights", "W_O", "b_O"})
        if (doc.has(key))
            fail(Error{doc.whereOf(key), errorText(ErrorId::KeyInsideEachLayer, key)});
    const auto list = need(layers->elements(ErrorId::AListOfLayers));
    if (list.empty() || list.size() > 64) fail(layers->expected(ErrorId::AListOfLayers));
    lesson.residual = true;
    lesson.layers.clear();
    for (const Field& layer : list) {
        need(layer.requireObject(ErrorId::AnObjectWithHeadsWO));
        lesson.layers.push_back(readLayer(layer, lesson));
    }
}

int readOptionalInt(const Field& doc, const std::string& key, int lo, int hi, int fallback) {
    return static_cast<int>(need(doc.optionalInteger(key, lo, hi)).value_or(fallback));
}

void readDimensions(const Field& doc, Lesson& lesson) {
    lesson.dModel = readInt(need(doc.member("d_model")), 1, 4096);
    lesson.numHeads = readOptionalInt(doc, "heads", 1, 64, 1);
    lesson.projections = readBool(doc, "projections", true);
    lesson.dK = readOptionalInt(doc, "d_k", 1, 4096, lesson.dModel);
    lesson.dV = readOptionalInt(doc, "d_v", 1, 4096, lesson.dK);
    if (!lesson.projections && (lesson.dK != lesson.dModel || lesson.dV != lesson.dModel))
        fail(Error{doc.whereOf("d_k"), errorText(ErrorId::NoProjectionsDims, lesson.dModel)});
}

// Version 7: H_kv key/value heads shared by the H query heads; H_kv divides H. Kept as 0 when the
// file says kv_heads = heads, which is what leaving it out means.
void readKvHeads(const Field& doc, int version, Lesson& lesson) {
    const auto found = need(doc.optionalMember("kv_heads"));
    if (!found) return;
    if (version < 7) fail(found->error(ErrorId::KvHeadsNeedV7));
    const int kv = readInt(*found, 1, 64);
    if (lesson.numHeads % kv != 0) fail(found->expected(errorText(ErrorId::ADivisorOfHeads, lesson.numHeads)));
    lesson.numKvHeads = kv == lesson.numHeads ? 0 : kv;
}

void readDisplay(const Field& doc, Lesson& lesson) {
    const auto display = need(doc.optionalMember("display"));
    if (!display) return;
    need(display->requireObject());
    lesson.decimals = readOptionalInt(*display, "decimals", 0, 12, lesson.decimals);
    if (const auto rounding = need(display->optionalInteger("hand_rounding", 0, 12)))
        lesson.handRounding = static_cast<int>(*rounding);
}

void readFeatureNames(const Field& doc, int version, Lesson& lesson) {
    const auto names = need(doc.optionalMember("features"));
    if (!names) return;
    const ErrorText expected = errorText(ErrorId::AListOfNames, lesson.dModel);
    const auto list = need(names->elements(expected));
    if (static_cast<int>(list.size()) != lesson.dModel) fail(names->expected(expected));
    for (const Field& name : list) lesson.featureNames.push_back(readLocalized(name, version));
}

int checkHeader(const Field& doc) {
    need(doc.requireObject(ErrorId::AJsonObject));
    const std::string format = readString(doc, "format", "");
    if (format != "attnscope-lesson")
        fail(Error{doc.whereOf("format"),
                   errorText(ErrorId::ExpectedFound, errorText(ErrorId::Quoted, "attnscope-lesson"),
                             doc.has("format") ? json::describeText(doc.json()["format"]) : ErrorText(ErrorId::Nothing))});
    const Field versionField = need(doc.member("version"));
    const int version = readInt(versionField, 1, 1000);
    if (version > kLessonFormatVersion)
        fail(versionField.error(errorText(ErrorId::LessonFormatVersions, kLessonFormatVersion, version)));
    return version;
}

Lesson readLesson(const Field& doc) {
    const int version = checkHeader(doc);
    Lesson lesson;
    lesson.title = readLocalizedMember(doc, "title", version, "Untitled lesson");
    lesson.description = readLocalizedMember(doc, "description", version, "");
    lesson.sentence = readString(doc, "sentence", "");
    readDimensions(doc, lesson);
    readKvHeads(doc, version, lesson);
    lesson.lowercase = readBool(doc, "lowercase", true);
    lesson.scale = readBool(doc, "scale", true);
    lesson.causalMask = readBool(doc, "causal_mask", false);
    readFeatureNames(doc, version, lesson);
    readEmbeddings(doc, lesson);
    readUnknownWords(doc, version, lesson);
    readLayers(doc, version, lesson);
    readPositional(doc, version, lesson);
    readLessonBlock(doc, version, lesson);
    readEncoderDecoder(doc, version, lesson);
    readDisplay(doc, lesson);
    return lesson;
}

Json localizedJson(const LocalizedText& text) {
    if (text.isPlain()) return text.in("");
    Json languages = Json::object();
    for (const auto& [language, value] : text.entries()) languages[language] = value;
    return languages;
}

// The oldest format version that holds the lesson: 8 for an encoder and a decoder, 7 for shared key/value heads, 6 for a block after attention, 5 for RoPE, 4 for a rule for unknown words
// other than the hash rule, 3 for texts in several languages, 2 for layers.
int versionNeeded(const Lesson& lesson) {
    if (lesson.encoderDecoder.present) return 8;
    if (lesson.sharesKeyValues()) return 7;
    if (lesson.block.present()) return 6;
    if (lesson.positional == PositionalKind::Rotary) return 5;
    if (lesson.unknownWords != UnknownWords::Hash) return 4;
    bool localized = !lesson.title.isPlain() || !lesson.description.isPlain();
    for (const LocalizedText& name : lesson.featureNames) localized = localized || !name.isPlain();
    return localized ? 3 : lesson.residual ? 2 : 1;
}


// A head's weights as the file gives them: W_Q (b_Q), W_K, W_V (b_K, b_V), whichever it holds.
Json headJson(const HeadWeights& w) {
    Json head = Json::object();
    for (const auto& [m, name] : {std::pair{&w.wq, "W_Q"}, std::pair{&w.wk, "W_K"}, std::pair{&w.wv, "W_V"}})
        if (m->size()) head[name] = matrixJson(*m);
    for (const auto& [b, name] : {std::pair{&w.bq, "b_Q"}, std::pair{&w.bk, "b_K"}, std::pair{&w.bv, "b_V"}})
        if (b->size()) head[name] = vectorJson(*b);
    return head;
}

Json headsJson(const std::vector<HeadWeights>& heads) {
    Json list = Json::array();
    for (const HeadWeights& w : heads) list.push_back(headJson(w));
    return list;
}

// heads_weights (kv_heads_weights), W_O and b_O of one layer, added to `into` (the top level, or a layers[l] object).
Json layerJson(const Lesson& lesson, const LessonLayer& layer, Json into) {
    if (lesson.projections) {
        into["heads_weights"] = headsJson(layer.heads);
        if (lesson.sharesKeyValues()) into["kv_heads_weights"] = headsJson(layer.kvHeads);
    }
    if (layer.wo.size()) into["W_O"] = matrixJson(layer.wo);
    if (layer.bo.size()) into["b_O"] = vectorJson(layer.bo);
    return into;
}

Json positionalJson(const Lesson& lesson) {
    switch (lesson.positional) {
        case PositionalKind::Sinusoidal: return "sinusoidal";
        case PositionalKind::Table: return Json{{"table", matrixJson(lesson.positionalTable)}};
        case PositionalKind::Rotary:
            return Json{{"rope", Json{{"base", lesson.ropeBase}, {"pairing", lesson.ropeInterleaved ? "interleaved" : "half"}}}};
        default: return "none";
    }
}

}  // namespace

const RowVec* Lesson::findEmbedding(std::string_view token) const {
    for (const auto& [name, vec] : embeddings)
        if (name == token) return &vec;
    return nullptr;
}

RowVec* Lesson::findEmbedding(std::string_view token) {
    for (auto& [name, vec] : embeddings)
        if (name == token) return &vec;
    return nullptr;
}

std::vector<HeadWeights> repeatKeyValues(const Lesson& lesson, const LessonLayer& layer) {
    std::vector<HeadWeights> heads = layer.heads;
    if (!lesson.sharesKeyValues()) return heads;
    for (std::size_t h = 0; h < heads.size(); ++h) {
        const HeadWeights& kv = layer.kvHeads.at(static_cast<std::size_t>(lesson.kvHeadOf(static_cast<int>(h))));
        std::tie(heads[h].wk, heads[h].wv, heads[h].bk, heads[h].bv) = std::tie(kv.wk, kv.wv, kv.bk, kv.bv);
    }
    return heads;
}

std::uint32_t fnv1a32(std::string_view bytes) {
    std::uint32_t hash = 2166136261u;
    for (const char ch : bytes) {
        hash ^= static_cast<unsigned char>(ch);
        hash *= 16777619u;
    }
    return hash;
}

RowVec hashedEmbedding(std::string_view token, int dModel) {
    RowVec v(dModel);
    std::string bytes(token);
    bytes.push_back('\0');
    for (int c = 0; c < dModel; ++c) {
        bytes.back() = static_cast<char>(c);
        v[c] = static_cast<double>(fnv1a32(bytes) % 5) - 2.0;
    }
    return v;
}

namespace {

// The matrices of `list` (heads_weights or kv_heads_weights) that its entries hold: W_Q with
// `query`, W_K and W_V with `keysAndValues`; each d_model wide, finite.
Result<void> validateHeadList(const Lesson& lesson, const std::vector<HeadWeights>& list, const std::string& path,
                              bool query, bool keysAndValues) {
    for (std::size_t h = 0; h < list.size(); ++h) {
        const std::string at = path + "[" + std::to_string(h) + "].";
        const HeadWeights& w = list[h];
        for (const auto& [m, name, cols, wanted] : {std::tuple{&w.wq, "W_Q", lesson.dK, query},
                                                    std::tuple{&w.wk, "W_K", lesson.dK, keysAndValues},
                                                    std::tuple{&w.wv, "W_V", lesson.dV, keysAndValues}}) {
            if (!wanted) continue;
            if (auto e = checkShape(*m, lesson.dModel, cols, at + name); !e.ok()) return e;
            if (auto e = checkFinite(*m, at + name); !e.ok()) return e;
        }
    }
    return {};
}

// H_kv divides H (format version 7; kv_heads names it as the file does).
Result<void> validateKvHeads(const Lesson& lesson, const std::string& source) {
    const int kv = lesson.kvHeadCount();
    if (kv < 1 || kv > lesson.numHeads || lesson.numHeads % kv != 0)
        return Error{source + ": kv_heads",
                     errorText(ErrorId::ExpectedFound, errorText(ErrorId::ADivisorOfHeads, lesson.numHeads), kv)};
    return {};
}

Result<void> validateHeads(const Lesson& lesson, const LessonLayer& layer, const std::string& path) {
    if (!lesson.projections) return {};
    if (static_cast<int>(layer.heads.size()) != lesson.numHeads)
        return Error{path + "heads_weights",
                     errorText(ErrorId::ExpectedFound, errorText(ErrorId::CountHeads, lesson.numHeads), layer.heads.size())};
    const bool shared = lesson.sharesKeyValues();
    if (shared && static_cast<int>(layer.kvHeads.size()) != lesson.kvHeadCount())
        return Error{path + "kv_heads_weights",
                     errorText(ErrorId::ExpectedFound, errorText(ErrorId::CountKvHeads, lesson.kvHeadCount()), layer.kvHeads.size())};
    if (auto e = validateHeadList(lesson, layer.heads, path + "heads_weights", true, !shared); !e.ok()) return e;
    return shared ? validateHeadList(lesson, layer.kvHeads, path + "kv_heads_weights", false, true) : Result<void>{};
}

// W_O and b_O. With residual connections (`addedToX`) the output is added to X, so it must be d wide.
Result<void> validateOutput(const Lesson& lesson, const LessonLayer& layer, const std::string& path, bool addedToX) {
    const int d = lesson.dModel;
    const int concatWidth = lesson.numHeads * lesson.dV;
    if (layer.wo.size()) {
        if (auto e = checkShape(layer.wo, concatWidth, d, path + "W_O"); !e.ok()) return e;
        return checkFinite(layer.wo, path + "W_O");
    }
    if (addedToX && concatWidth != d)
        return Error{path + "W_O", errorText(ErrorId::WOMissingResidual, d, concatWidth)};
    if (layer.bo.size() && concatWidth != d)
        return Error{path + "b_O", errorText(ErrorId::BOWithoutWO, concatWidth, d)};
    return {};
}

// Every token carries H·d_k query (and key) and H·d_v value numbers through each layer; beyond
// this the run would take gigabytes (64 heads × 4096 without projections: 262144 per token).
constexpr long long kMaxHeadColumns = 16384;

Result<void> validateHeadColumns(const Lesson& lesson, const std::string& source) {
    for (const auto& [width, name] : {std::pair{lesson.dK, "d_k"}, std::pair{lesson.dV, "d_v"}}) {
        const long long columns = static_cast<long long>(lesson.numHeads) * width;
        if (columns > kMaxHeadColumns)
            return Error{source + ": heads", errorText(ErrorId::HeadColumns, lesson.numHeads, name, width, columns, kMaxHeadColumns)};
    }
    return {};
}

}  // namespace

namespace lesson_fields {

LessonLayer readLayerWeights(const Field& obj, const Lesson& lesson) { return readLayer(obj, lesson); }

Json layerWeightsJson(const Lesson& lesson, const LessonLayer& layer) { return layerJson(lesson, layer, Json::object()); }

Result<void> validateLayerWeights(const Lesson& lesson, const LessonLayer& layer, const std::string& path, bool addedToX) {
    if (auto e = validateHeads(lesson, layer, path); !e.ok()) return e;
    return validateOutput(lesson, layer, path, addedToX);
}

}  // namespace lesson_fields

Result<void> validateLesson(const Lesson& lesson, const std::string& source) {
    if (auto e = validateHeadColumns(lesson, source); !e.ok()) return e;
    if (auto e = validateKvHeads(lesson, source); !e.ok()) return e;
    const int d = lesson.dModel;
    for (const auto& [token, vec] : lesson.embeddings) {
        if (auto e = checkShape(vec, 1, d, source + ": embeddings." + token); !e.ok()) return e;
        if (auto e = checkFinite(vec, source + ": embeddings." + token); !e.ok()) return e;
    }
    if (lesson.layers.empty() || (!lesson.residual && lesson.layers.size() != 1))
        return Error{source + ": layers", errorText(ErrorId::OneLayerOrList, lesson.layers.size())};
    for (std::size_t l = 0; l < lesson.layers.size(); ++l) {
        // Error paths as in the file: top-level fields for version 1, "layers[l]." otherwise.
        const std::string path = source + ": " + (lesson.residual ? "layers[" + std::to_string(l) + "]." : "");
        if (auto e = validateHeads(lesson, lesson.layers[l], path); !e.ok()) return e;
        if (auto e = validateOutput(lesson, lesson.layers[l], path, lesson.residual); !e.ok()) return e;
    }
    if (lesson.positional == PositionalKind::Rotary && lesson.dK % 2 != 0)
        return Error{source + ": positional_encoding", errorText(ErrorId::RopeOddWidth, lesson.dK)};
    if (lesson.positional == PositionalKind::Rotary && !(lesson.ropeBase > 0 && std::isfinite(lesson.ropeBase)))
        return Error{source + ": positional_encoding.rope.base", errorText(ErrorId::ExpectedFound, ErrorId::APositiveNumber, Json(lesson.ropeBase).dump())};
    if (lesson.positional == PositionalKind::Table) {
        if (auto e = checkShape(lesson.positionalTable, lesson.positionalTable.rows(), d,
                                source + ": positional_encoding.table");
            !e.ok())
            return e;
        if (auto e = checkFinite(lesson.positionalTable, source + ": positional_encoding.table"); !e.ok()) return e;
    }
    if (auto e = validateLessonBlock(lesson, source); !e.ok()) return e;
    return validateEncoderDecoder(lesson, source);
}

Result<Lesson> parseLesson(std::string_view text, const std::string& source) {
    auto doc = json::parse<Json>(text, source);
    if (!doc) return doc.error();
    return json::catching([&]() -> Result<Lesson> {
        Lesson lesson = readLesson(Field(doc.value(), source));
        if (auto e = validateLesson(lesson, source); !e.ok()) return e.error();
        return lesson;
    });
}

std::string serializeLesson(const Lesson& lesson) {
    Json doc = Json::object();
    doc["format"] = "attnscope-lesson";
    doc["version"] = versionNeeded(lesson);
    doc["title"] = localizedJson(lesson.title);
    doc["description"] = localizedJson(lesson.description);
    doc["sentence"] = lesson.sentence;
    doc["d_model"] = lesson.dModel;
    doc["heads"] = lesson.numHeads;
    if (lesson.sharesKeyValues()) doc["kv_heads"] = lesson.kvHeadCount();
    doc["d_k"] = lesson.dK;
    doc["d_v"] = lesson.dV;
    doc["lowercase"] = lesson.lowercase;
    doc["projections"] = lesson.projections;
    doc["scale"] = lesson.scale;
    doc["causal_mask"] = lesson.causalMask;
    doc["positional_encoding"] = positionalJson(lesson);
    if (!lesson.featureNames.empty()) {
        Json names = Json::array();
        for (const LocalizedText& name : lesson.featureNames) names.push_back(localizedJson(name));
        doc["features"] = std::move(names);
    }
    Json table = Json::object();
    for (const auto& [token, vec] : lesson.embeddings) table[token] = vectorJson(vec);
    doc["embeddings"] = std::move(table);
    if (lesson.unknownWords != UnknownWords::Hash) doc["unknown_words"] = unknownWordsName(lesson.unknownWords);
    if (lesson.residual) {
        Json layers = Json::array();
        for (const LessonLayer& layer : lesson.layers) layers.push_back(layerJson(lesson, layer, Json::object()));
        doc["layers"] = std::move(layers);
    } else if (!lesson.layers.empty()) {
        doc = layerJson(lesson, lesson.layers[0], std::move(doc));
    }
    if (lesson.block.present()) doc["block"] = lessonBlockJson(lesson.block);
    if (lesson.encoderDecoder.present) doc["encoder_decoder"] = encoderDecoderJson(lesson);
    Json display = {{"decimals", lesson.decimals}};
    display["hand_rounding"] = lesson.handRounding ? Json(*lesson.handRounding) : Json(nullptr);
    doc["display"] = std::move(display);
    return doc.dump(2) + "\n";
}

}  // namespace attnscope
