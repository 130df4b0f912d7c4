#include "core/source/saved_session.hpp"

#include <limits>
#include <map>

#include "core/io/json_reader.hpp"
#include "core/io/text_file.hpp"
#include "core/lesson/encoder_decoder_stage.hpp"
#include "core/text/error_messages.hpp"

namespace attnscope {

namespace {

using Json = nlohmann::ordered_json;
using Field = json::Field<json::Json>;
using json::need;

constexpr long long kMaxIndex = 1'000'000;  // far above any model's layers, heads or steps
constexpr long long kMaxSeed = 2'147'483'647;  // the window's seed box and `heads --seed`

const char* kindName(SessionSource kind) { return kind == SessionSource::Model ? "model" : "lesson"; }

Json filesJson(const std::vector<SessionFile>& files) {
    Json out = Json::array();
    for (const SessionFile& f : files) out.push_back(Json{{"name", f.name}, {"bytes", f.bytes}, {"sha256", f.sha256}});
    return out;
}

void checkHeader(const Field& doc) {
    need(doc.requireObject(ErrorId::AJsonObject));
    const Field format = need(doc.member("format"));
    if (need(format.text()) != "attnscope-session")
        json::fail(format.expected(errorText(ErrorId::Quoted, "attnscope-session")));
    need(need(doc.member("version")).integer(1, kSessionFormatVersion));
}

SessionSource readKind(const Field& field) {
    const std::string kind = need(field.text());
    if (kind == "model") return SessionSource::Model;
    if (kind == "lesson") return SessionSource::Lesson;
    json::fail(field.expected(errorText(ErrorId::JsonOneOf, errorText(ErrorId::Quoted, "model"), errorText(ErrorId::Quoted, "lesson"))));
}

SessionFile readFile(const Field& field) {
    SessionFile f;
    f.name = need(need(field.member("name")).text());
    f.bytes = static_cast<std::uint64_t>(need(need(field.member("bytes")).integer(0, std::numeric_limits<long long>::max())));
    f.sha256 = need(need(field.member("sha256")).text());  // not a digest: reported as changed on disk
    return f;
}

// [[layer, head], …] counted from 1.
std::vector<HeadRef> readHeads(const Field& field) {
    std::vector<HeadRef> heads;
    for (const Field& pair : need(field.elements())) {
        const std::vector<Field> two = need(pair.elements());
        if (two.size() != 2) json::fail(pair.expected(errorText(ErrorId::JsonList, 2)));
        heads.push_back({static_cast<int>(need(two[0].integer(1, kMaxIndex))) - 1,
                         static_cast<int>(need(two[1].integer(1, kMaxIndex))) - 1});
    }
    return heads;
}

// The --stage names (core/lesson/encoder_decoder_stage.hpp); whether the lesson has stages is
// the window's and the command line's to say, as for a layer it lacks.
std::string readStage(const Field& field) {
    const std::string stage = need(field.text());
    if (stageOfKey(stage)) return stage;
    json::fail(field.expected(errorText(ErrorId::StageNames)));
}

int readIndex(const Field& doc, const char* key) {
    return static_cast<int>(need(need(doc.member(key)).integer(1, kMaxIndex))) - 1;
}

SavedSession readSession(const Field& doc) {
    checkHeader(doc);
    SavedSession s;
    const Field source = need(doc.member("source"));
    s.kind = readKind(need(source.member("kind")));
    s.source = need(need(source.member("path")).text());
    if (auto files = need(source.optionalMember("files")))
        for (const Field& f : need(files->elements())) s.files.push_back(readFile(f));
    s.sentence = need(need(doc.member("sentence")).text());
    s.sentenceB = need(doc.optionalText("sentence_b")).value_or("");
    if (auto ablated = need(doc.optionalMember("ablated"))) s.ablated = readHeads(*ablated);
    s.layer = readIndex(doc, "layer");
    s.head = readIndex(doc, "head");
    s.step = readIndex(doc, "step");
    s.tab = readIndex(doc, "tab");
    if (auto stage = need(doc.optionalMember("stage"))) s.stage = readStage(*stage);
    if (auto view = need(doc.optionalMember("view"))) {
        s.shading = need(view->optionalBoolean("shading")).value_or(true);
        s.words = need(view->optionalBoolean("words")).value_or(false);
        s.norms = need(view->optionalBoolean("norms")).value_or(false);
    }
    if (auto evaluation = need(doc.optionalMember("evaluation"))) {
        s.seed = static_cast<std::uint32_t>(need(evaluation->optionalInteger("seed", 0, kMaxSeed)).value_or(1));
        s.control = need(evaluation->optionalBoolean("control")).value_or(false);
    }
    return s;
}

}  // namespace

std::string sessionToJson(const SavedSession& s) {
    Json ablated = Json::array();
    for (const HeadRef& h : s.ablated) ablated.push_back(Json::array({h.layer + 1, h.head + 1}));
    Json doc{{"format", "attnscope-session"},
             {"version", kSessionFormatVersion},
             {"source", Json{{"kind", kindName(s.kind)}, {"path", s.source}, {"files", filesJson(s.files)}}},
             {"sentence", s.sentence},
             {"sentence_b", s.sentenceB},
             {"ablated", ablated},
             {"layer", s.layer + 1},
             {"head", s.head + 1},
             {"step", s.step + 1},
             {"tab", s.tab + 1}};
    if (!s.stage.empty()) doc["stage"] = s.stage;  // a lesson with stages only
    doc["view"] = Json{{"shading", s.shading}, {"words", s.words}, {"norms", s.norms}};
    doc["evaluation"] = Json{{"seed", s.seed}, {"control", s.control}};
    return doc.dump(1, ' ', false, Json::error_handler_t::replace) + "\n";
}

Result<SavedSession> sessionFromJson(std::string_view text, const std::string& file) {
    auto doc = json::parse(text, file);
    if (!doc) return doc.error();
    return json::catching([&]() -> Result<SavedSession> { return readSession(Field(doc.value(), file)); });
}

Result<SavedSession> readSessionFile(const std::filesystem::path& path) {
    constexpr std::uint64_t kMaxSessionBytes = 1 << 20;
    auto text = readTextFile(path, kMaxSessionBytes);
    if (!text) return text.error();
    return sessionFromJson(text.value(), path.filename().string());
}

std::vector<std::string> changedFiles(const std::vector<SessionFile>& saved, const std::vector<SessionFile>& now) {
    std::map<std::string, const SessionFile*> current;
    for (const SessionFile& f : now) current[f.name] = &f;
    std::vector<std::string> changed;
    for (const SessionFile& f : saved)
        if (const auto found = current.find(f.name); found == current.end() || !(*found->second == f)) changed.push_back(f.name);
    return changed;
}

}  // namespace attnscope
