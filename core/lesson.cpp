// Lesson files: parsing, validation and writing. Format: docs/lesson-format.md.
// Shape legend: T tokens, d model width, H heads, d_k query/key width, d_v value width, L layers.
#include "core/lesson.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/json_text.hpp"

namespace attnscope {

using Json = nlohmann::ordered_json;

namespace {

// A parse failure carrying the JSON path of the field at fault; caught inside this file only.
struct FieldError {
    std::string field;
    std::string message;
};

std::string describe(const Json& j) { return describeJson(j); }

const Json& require(const Json& obj, const std::string& key, const std::string& path) {
    if (!obj.contains(key)) throw FieldError{path + key, "is missing"};
    return obj.at(key);
}

double readNumber(const Json& j, const std::string& field) {
    if (!j.is_number()) throw FieldError{field, "expected a number, found " + describe(j)};
    const double v = j.get<double>();
    if (!std::isfinite(v)) throw FieldError{field, "expected a finite number"};
    return v;
}

int readInt(const Json& j, const std::string& field, int lo, int hi) {
    if (!j.is_number_integer())
        throw FieldError{field, "expected a whole number, found " + describe(j)};
    const auto v = j.get<long long>();
    if (v < lo || v > hi)
        throw FieldError{field, "expected " + std::to_string(lo) + " to " + std::to_string(hi) +
                                    ", found " + std::to_string(v)};
    return static_cast<int>(v);
}

bool readBool(const Json& obj, const std::string& key, bool fallback) {
    if (!obj.contains(key)) return fallback;
    if (!obj[key].is_boolean())
        throw FieldError{key, "expected true or false, found " + describe(obj[key])};
    return obj[key].get<bool>();
}

std::string readString(const Json& obj, const std::string& key, const std::string& fallback) {
    if (!obj.contains(key)) return fallback;
    if (!obj[key].is_string()) throw FieldError{key, "expected text, found " + describe(obj[key])};
    return obj[key].get<std::string>();
}

RowVec readVector(const Json& j, const std::string& field, Eigen::Index expected) {
    if (!j.is_array()) throw FieldError{field, "expected a list of numbers, found " + describe(j)};
    if (expected >= 0 && static_cast<Eigen::Index>(j.size()) != expected)
        throw FieldError{field, "expected " + std::to_string(expected) + " numbers, found " +
                                    std::to_string(j.size())};
    RowVec v(j.size());
    for (std::size_t i = 0; i < j.size(); ++i)
        v[i] = readNumber(j[i], field + "[" + std::to_string(i) + "]");
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
Mat readMatrix(const Json& j, const std::string& field, Eigen::Index rows, Eigen::Index cols,
               const std::string& shapeName) {
    if (!j.is_array()) throw FieldError{field, "expected a matrix (" + shapeName + "), found " + describe(j)};
    if (j.empty()) throw FieldError{field, "expected a matrix (" + shapeName + "), found no rows"};
    const Eigen::Index width = cols >= 0 ? cols : static_cast<Eigen::Index>(j[0].size());
    const std::string found = foundShape(j);
    const bool rowsDiffer = rows >= 0 && static_cast<Eigen::Index>(j.size()) != rows;
    const bool colsDiffer = !found.empty() && static_cast<Eigen::Index>(j[0].size()) != width;
    if (rowsDiffer || colsDiffer)
        throw FieldError{field, "expected " + shapeText(rows, width) + ", found " +
                                    (found.empty() ? std::to_string(j.size()) + " rows" : found) + " (" +
                                    shapeName + ")"};
    Mat m(j.size(), width);
    for (std::size_t r = 0; r < j.size(); ++r)
        m.row(r) = readVector(j[r], field + "[" + std::to_string(r) + "]", width);
    return m;
}

void readPositional(const Json& doc, Lesson& lesson) {
    if (!doc.contains("positional_encoding")) return;
    const Json& pe = doc["positional_encoding"];
    if (pe.is_string()) {
        const auto kind = pe.get<std::string>();
        if (kind == "none") lesson.positional = PositionalKind::None;
        else if (kind == "sinusoidal") lesson.positional = PositionalKind::Sinusoidal;
        else throw FieldError{"positional_encoding", "expected \"none\", \"sinusoidal\" or {\"table\": …}, found \"" + kind + "\""};
        return;
    }
    if (!pe.is_object() || !pe.contains("table"))
        throw FieldError{"positional_encoding", "expected \"none\", \"sinusoidal\" or {\"table\": …}, found " + describe(pe)};
    lesson.positional = PositionalKind::Table;
    lesson.positionalTable = readMatrix(pe["table"], "positional_encoding.table", -1, lesson.dModel,
                                        "the table is positions×d_model");
}

void readEmbeddings(const Json& doc, Lesson& lesson) {
    const Json& table = require(doc, "embeddings", "");
    if (!table.is_object())
        throw FieldError{"embeddings", "expected an object {token: [numbers]}, found " + describe(table)};
    for (const auto& [token, vec] : table.items())
        lesson.embeddings.emplace_back(token, readVector(vec, "embeddings." + token, lesson.dModel));
}

RowVec readOptionalBias(const Json& head, const std::string& key, const std::string& path, int width) {
    return head.contains(key) ? readVector(head[key], path + key, width) : RowVec();
}

// The heads_weights list of one layer; `path` is "" for a version 1 file, "layers[l]." else.
std::vector<HeadWeights> readHeads(const Json& obj, const Lesson& lesson, const std::string& path) {
    if (!lesson.projections) return {};
    const std::string field = path + "heads_weights";
    const Json& heads = require(obj, "heads_weights", path);
    if (!heads.is_array() || static_cast<int>(heads.size()) != lesson.numHeads)
        throw FieldError{field, "expected a list of " + std::to_string(lesson.numHeads) + " heads, found " +
                                    describe(heads)};
    const int d = lesson.dModel;
    std::vector<HeadWeights> out;
    for (std::size_t h = 0; h < heads.size(); ++h) {
        const std::string at = field + "[" + std::to_string(h) + "].";
        const Json& head = heads[h];
        if (!head.is_object()) throw FieldError{at, "expected an object with W_Q, W_K, W_V"};
        HeadWeights w;
        w.wq = readMatrix(require(head, "W_Q", at), at + "W_Q", d, lesson.dK, "W_Q is d_model×d_k");
        w.wk = readMatrix(require(head, "W_K", at), at + "W_K", d, lesson.dK, "W_K is d_model×d_k");
        w.wv = readMatrix(require(head, "W_V", at), at + "W_V", d, lesson.dV, "W_V is d_model×d_v");
        w.bq = readOptionalBias(head, "b_Q", at, lesson.dK);
        w.bk = readOptionalBias(head, "b_K", at, lesson.dK);
        w.bv = readOptionalBias(head, "b_V", at, lesson.dV);
        out.push_back(std::move(w));
    }
    return out;
}

// heads_weights, W_O and b_O of one layer, from the top level (version 1) or from layers[l].
LessonLayer readLayer(const Json& obj, const Lesson& lesson, const std::string& path) {
    LessonLayer layer;
    layer.heads = readHeads(obj, lesson, path);
    const int concatWidth = lesson.numHeads * lesson.dV;
    if (obj.contains("W_O"))
        layer.wo = readMatrix(obj["W_O"], path + "W_O", concatWidth, lesson.dModel, "W_O is (heads·d_v)×d_model");
    if (obj.contains("b_O")) layer.bo = readVector(obj["b_O"], path + "b_O", lesson.dModel);
    return layer;
}

// Version 2: "layers" replaces the top-level heads_weights, W_O and b_O.
void readLayers(const Json& doc, int version, Lesson& lesson) {
    if (!doc.contains("layers")) {
        lesson.layers = {readLayer(doc, lesson, "")};
        return;
    }
    if (version < 2)
        throw FieldError{"layers", "needs \"version\": 2 (a version 1 lesson has one layer, given at the top level)"};
    for (const char* key : {"heads_weights", "W_O", "b_O"})
        if (doc.contains(key))
            throw FieldError{key, "with \"layers\", give " + std::string(key) + " inside each layer, not at the top level"};
    const Json& layers = doc["layers"];
    if (!layers.is_array() || layers.empty() || layers.size() > 64)
        throw FieldError{"layers", "expected a list of 1 to 64 layers, found " + describe(layers)};
    lesson.residual = true;
    lesson.layers.clear();
    for (std::size_t l = 0; l < layers.size(); ++l) {
        const std::string path = "layers[" + std::to_string(l) + "].";
        if (!layers[l].is_object())
            throw FieldError{"layers[" + std::to_string(l) + "]", "expected an object with heads_weights and W_O, found " +
                                                               describe(layers[l])};
        lesson.layers.push_back(readLayer(layers[l], lesson, path));
    }
}

void readDimensions(const Json& doc, Lesson& lesson) {
    lesson.dModel = readInt(require(doc, "d_model", ""), "d_model", 1, 4096);
    lesson.numHeads = doc.contains("heads") ? readInt(doc["heads"], "heads", 1, 64) : 1;
    lesson.projections = readBool(doc, "projections", true);
    lesson.dK = doc.contains("d_k") ? readInt(doc["d_k"], "d_k", 1, 4096) : lesson.dModel;
    lesson.dV = doc.contains("d_v") ? readInt(doc["d_v"], "d_v", 1, 4096) : lesson.dK;
    if (!lesson.projections && (lesson.dK != lesson.dModel || lesson.dV != lesson.dModel))
        throw FieldError{"d_k", "without projections Q = K = V = X, so d_k and d_v must equal d_model (" +
                                    std::to_string(lesson.dModel) + ")"};
}

void readDisplay(const Json& doc, Lesson& lesson) {
    if (!doc.contains("display")) return;
    const Json& display = doc["display"];
    if (!display.is_object()) throw FieldError{"display", "expected an object, found " + describe(display)};
    if (display.contains("decimals"))
        lesson.decimals = readInt(display["decimals"], "display.decimals", 0, 12);
    if (display.contains("hand_rounding") && !display["hand_rounding"].is_null())
        lesson.handRounding = readInt(display["hand_rounding"], "display.hand_rounding", 0, 12);
}

void readFeatureNames(const Json& doc, Lesson& lesson) {
    if (!doc.contains("features")) return;
    const Json& names = doc["features"];
    if (!names.is_array() || static_cast<int>(names.size()) != lesson.dModel)
        throw FieldError{"features", "expected a list of " + std::to_string(lesson.dModel) +
                                         " names (d_model), found " + describe(names)};
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (!names[i].is_string())
            throw FieldError{"features[" + std::to_string(i) + "]", "expected text, found " + describe(names[i])};
        lesson.featureNames.push_back(names[i].get<std::string>());
    }
}

int checkHeader(const Json& doc) {
    if (!doc.is_object()) throw FieldError{"(top level)", "expected a JSON object, found " + describe(doc)};
    const std::string format = readString(doc, "format", "");
    if (format != "attnscope-lesson")
        throw FieldError{"format", "expected \"attnscope-lesson\", found " +
                                       (doc.contains("format") ? describe(doc["format"]) : "nothing")};
    const int version = readInt(require(doc, "version", ""), "version", 1, 1000);
    if (version > kLessonFormatVersion)
        throw FieldError{"version", "this AttnScope reads lesson format versions 1 to " +
                                        std::to_string(kLessonFormatVersion) + ", the file has version " +
                                        std::to_string(version)};
    return version;
}

Lesson readLesson(const Json& doc) {
    const int version = checkHeader(doc);
    Lesson lesson;
    lesson.title = readString(doc, "title", "Untitled lesson");
    lesson.description = readString(doc, "description", "");
    lesson.sentence = readString(doc, "sentence", "");
    readDimensions(doc, lesson);
    lesson.lowercase = readBool(doc, "lowercase", true);
    lesson.scale = readBool(doc, "scale", true);
    lesson.causalMask = readBool(doc, "causal_mask", false);
    readFeatureNames(doc, lesson);
    readEmbeddings(doc, lesson);
    readLayers(doc, version, lesson);
    readPositional(doc, lesson);
    readDisplay(doc, lesson);
    return lesson;
}

Json matrixJson(const Mat& m) {
    Json rows = Json::array();
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        Json row = Json::array();
        for (Eigen::Index c = 0; c < m.cols(); ++c) row.push_back(m(r, c));
        rows.push_back(std::move(row));
    }
    return rows;
}

Json vectorJson(const RowVec& v) { return matrixJson(v)[0]; }

Json headJson(const HeadWeights& w) {
    Json head = Json::object();
    head["W_Q"] = matrixJson(w.wq);
    head["W_K"] = matrixJson(w.wk);
    head["W_V"] = matrixJson(w.wv);
    if (w.bq.size()) head["b_Q"] = vectorJson(w.bq);
    if (w.bk.size()) head["b_K"] = vectorJson(w.bk);
    if (w.bv.size()) head["b_V"] = vectorJson(w.bv);
    return head;
}

// heads_weights, W_O and b_O of one layer, added to `into` (the top level, or a layers[l] object).
Json layerJson(const Lesson& lesson, const LessonLayer& layer, Json into) {
    if (lesson.projections) {
        Json heads = Json::array();
        for (const HeadWeights& w : layer.heads) heads.push_back(headJson(w));
        into["heads_weights"] = std::move(heads);
    }
    if (layer.wo.size()) into["W_O"] = matrixJson(layer.wo);
    if (layer.bo.size()) into["b_O"] = vectorJson(layer.bo);
    return into;
}

Json positionalJson(const Lesson& lesson) {
    switch (lesson.positional) {
        case PositionalKind::Sinusoidal: return "sinusoidal";
        case PositionalKind::Table: return Json{{"table", matrixJson(lesson.positionalTable)}};
        default: return "none";
    }
}

std::optional<Error> checkShape(const Mat& m, Eigen::Index rows, Eigen::Index cols,
                                const std::string& where) {
    if (m.rows() == rows && m.cols() == cols) return std::nullopt;
    return Error{where, "expected " + std::to_string(rows) + "×" + std::to_string(cols) +
                            ", found " + std::to_string(m.rows()) + "×" + std::to_string(m.cols())};
}

std::optional<Error> checkFinite(const Mat& m, const std::string& where) {
    if (m.allFinite()) return std::nullopt;
    return Error{where, "contains NaN or infinity; every weight must be a finite number"};
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

std::optional<Error> validateHeads(const Lesson& lesson, const LessonLayer& layer, const std::string& path) {
    if (!lesson.projections) return std::nullopt;
    if (static_cast<int>(layer.heads.size()) != lesson.numHeads)
        return Error{path + "heads_weights", "expected " + std::to_string(lesson.numHeads) + " heads, found " +
                                                 std::to_string(layer.heads.size())};
    for (std::size_t h = 0; h < layer.heads.size(); ++h) {
        const std::string at = path + "heads_weights[" + std::to_string(h) + "].";
        const HeadWeights& w = layer.heads[h];
        for (const auto& [m, name, cols] : {std::tuple{&w.wq, "W_Q", lesson.dK},
                                            std::tuple{&w.wk, "W_K", lesson.dK},
                                            std::tuple{&w.wv, "W_V", lesson.dV}}) {
            if (auto e = checkShape(*m, lesson.dModel, cols, at + name)) return e;
            if (auto e = checkFinite(*m, at + name)) return e;
        }
    }
    return std::nullopt;
}

// W_O and b_O. With residual connections the output is added to X, so it must be d wide.
std::optional<Error> validateOutput(const Lesson& lesson, const LessonLayer& layer, const std::string& path) {
    const int d = lesson.dModel;
    const int concatWidth = lesson.numHeads * lesson.dV;
    if (layer.wo.size()) {
        if (auto e = checkShape(layer.wo, concatWidth, d, path + "W_O")) return e;
        return checkFinite(layer.wo, path + "W_O");
    }
    if (lesson.residual && concatWidth != d)
        return Error{path + "W_O", "is missing: the residual connection adds the output to X, which is d_model = " +
                                       std::to_string(d) + " wide, but without W_O the output is the concatenation, "
                                       "heads·d_v = " + std::to_string(concatWidth) + " wide; give a " +
                                       std::to_string(concatWidth) + "×" + std::to_string(d) + " W_O"};
    if (layer.bo.size() && concatWidth != d)
        return Error{path + "b_O", "without W_O the output is the concatenation, " + std::to_string(concatWidth) +
                                       " wide (heads·d_v), but b_O has " + std::to_string(d) + " numbers"};
    return std::nullopt;
}

// Every token carries H·d_k query (and key) and H·d_v value numbers through each layer; beyond
// this the run would take gigabytes (64 heads × 4096 without projections: 262144 per token).
constexpr long long kMaxHeadColumns = 16384;

std::optional<Error> validateHeadColumns(const Lesson& lesson, const std::string& source) {
    for (const auto& [width, name] : {std::pair{lesson.dK, "d_k"}, std::pair{lesson.dV, "d_v"}}) {
        const long long columns = static_cast<long long>(lesson.numHeads) * width;
        if (columns > kMaxHeadColumns)
            return Error{source + ": heads", std::to_string(lesson.numHeads) + " heads × " + name + " " +
                                                 std::to_string(width) + " = " + std::to_string(columns) +
                                                 " columns per token; at most " + std::to_string(kMaxHeadColumns) +
                                                 " (heads × d_k and heads × d_v)"};
    }
    return std::nullopt;
}

}  // namespace

std::optional<Error> validateLesson(const Lesson& lesson, const std::string& source) {
    if (auto e = validateHeadColumns(lesson, source)) return e;
    const int d = lesson.dModel;
    for (const auto& [token, vec] : lesson.embeddings) {
        if (auto e = checkShape(vec, 1, d, source + ": embeddings." + token)) return e;
        if (auto e = checkFinite(vec, source + ": embeddings." + token)) return e;
    }
    if (lesson.layers.empty() || (!lesson.residual && lesson.layers.size() != 1))
        return Error{source + ": layers", "expected one layer, or a list of layers joined by residual connections; "
                                          "found " + std::to_string(lesson.layers.size()) + " layers"};
    for (std::size_t l = 0; l < lesson.layers.size(); ++l) {
        // Error paths as in the file: top-level fields for version 1, "layers[l]." otherwise.
        const std::string path = source + ": " + (lesson.residual ? "layers[" + std::to_string(l) + "]." : "");
        if (auto e = validateHeads(lesson, lesson.layers[l], path)) return e;
        if (auto e = validateOutput(lesson, lesson.layers[l], path)) return e;
    }
    if (lesson.positional == PositionalKind::Table) {
        if (auto e = checkShape(lesson.positionalTable, lesson.positionalTable.rows(), d,
                                source + ": positional_encoding.table"))
            return e;
        if (auto e = checkFinite(lesson.positionalTable, source + ": positional_encoding.table")) return e;
    }
    return std::nullopt;
}

Result<Lesson> parseLesson(std::string_view json, const std::string& source) {
    const Json doc = Json::parse(json.begin(), json.end(), nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded())
        return Error{source, "is not valid JSON (check commas, quotes and brackets)"};
    try {
        Lesson lesson = readLesson(doc);
        if (auto e = validateLesson(lesson, source)) return *e;
        return lesson;
    } catch (const FieldError& e) {
        return Error{source + ": " + e.field, e.message};
    }
}

std::string serializeLesson(const Lesson& lesson) {
    Json doc = Json::object();
    doc["format"] = "attnscope-lesson";
    doc["version"] = lesson.residual ? 2 : 1;  // the oldest version that can hold the lesson
    doc["title"] = lesson.title;
    doc["description"] = lesson.description;
    doc["sentence"] = lesson.sentence;
    doc["d_model"] = lesson.dModel;
    doc["heads"] = lesson.numHeads;
    doc["d_k"] = lesson.dK;
    doc["d_v"] = lesson.dV;
    doc["lowercase"] = lesson.lowercase;
    doc["projections"] = lesson.projections;
    doc["scale"] = lesson.scale;
    doc["causal_mask"] = lesson.causalMask;
    doc["positional_encoding"] = positionalJson(lesson);
    if (!lesson.featureNames.empty()) doc["features"] = lesson.featureNames;
    Json table = Json::object();
    for (const auto& [token, vec] : lesson.embeddings) table[token] = vectorJson(vec);
    doc["embeddings"] = std::move(table);
    if (lesson.residual) {
        Json layers = Json::array();
        for (const LessonLayer& layer : lesson.layers) layers.push_back(layerJson(lesson, layer, Json::object()));
        doc["layers"] = std::move(layers);
    } else if (!lesson.layers.empty()) {
        doc = layerJson(lesson, lesson.layers[0], std::move(doc));
    }
    Json display = {{"decimals", lesson.decimals}};
    display["hand_rounding"] = lesson.handRounding ? Json(*lesson.handRounding) : Json(nullptr);
    doc["display"] = std::move(display);
    return doc.dump(2) + "\n";
}

}  // namespace attnscope
