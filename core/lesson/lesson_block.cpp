// The lesson's block after attention (format version 6): reading, checking, writing.
// Shape legend: d model width, d_ff feed-forward width, V the words of the embedding table.
#include "core/lesson/lesson_block.hpp"

#include <cmath>

namespace attnscope {

using namespace lesson_fields;
using json::fail;
using json::need;

namespace {

BlockNorm normKindFrom(const Field& kind) {
    const std::string name = need(kind.text());
    if (name == "layernorm") return BlockNorm::LayerNorm;
    if (name == "rmsnorm") return BlockNorm::RmsNorm;
    fail(kind.error(errorText(ErrorId::ExpectedFound, ErrorId::NormKinds, errorText(ErrorId::Quoted, name))));
}

const char* normKindName(BlockNorm kind) { return kind == BlockNorm::RmsNorm ? "rmsnorm" : "layernorm"; }

// {"kind": "layernorm" | "rmsnorm", "gamma": [d], "beta": [d], "eps": ε > 0}; γ = 1, β = 0, ε = 1e-5 by default.
LessonNorm readNorm(const Field& f, int d) {
    need(f.requireObject());
    LessonNorm norm;
    norm.kind = normKindFrom(need(f.member("kind")));
    const auto gamma = need(f.optionalMember("gamma"));
    norm.gamma = gamma ? readVector(*gamma, d) : RowVec(RowVec::Ones(d));
    const auto beta = need(f.optionalMember("beta"));
    if (norm.kind == BlockNorm::LayerNorm) norm.beta = beta ? readVector(*beta, d) : RowVec(RowVec::Zero(d));
    if (const auto eps = need(f.optionalMember("eps"))) {
        norm.eps = readNumber(*eps);
        if (!(norm.eps > 0)) fail(eps->expected(ErrorId::APositiveNumber));
    }
    return norm;
}

BlockFfn ffnKindFrom(const Field& kind) {
    const std::string name = need(kind.text());
    if (name == "relu") return BlockFfn::Relu;
    if (name == "gelu") return BlockFfn::Gelu;
    if (name == "swiglu") return BlockFfn::SwiGlu;
    fail(kind.error(errorText(ErrorId::ExpectedFound, ErrorId::FeedForwardKinds, errorText(ErrorId::Quoted, name))));
}

const char* ffnKindName(BlockFfn kind) {
    switch (kind) {
        case BlockFfn::Gelu: return "gelu";
        case BlockFfn::SwiGlu: return "swiglu";
        default: return "relu";
    }
}

// The names of the input and output matrices: W_1/W_2, or W_up/W_down for SwiGLU.
std::pair<const char*, const char*> ffnMatrixNames(BlockFfn kind) {
    return kind == BlockFfn::SwiGlu ? std::pair{"W_up", "W_down"} : std::pair{"W_1", "W_2"};
}

RowVec readOptional(const Field& f, const char* key, Eigen::Index width) {
    const auto v = need(f.optionalMember(key));
    return v ? readVector(*v, width) : RowVec();
}

// ReLU/GELU: W_1 (d×d_ff), b_1, W_2 (d_ff×d), b_2; SwiGLU: W_gate, W_up (d×d_ff), W_down (d_ff×d).
LessonFeedForward readFeedForward(const Field& f, int d) {
    need(f.requireObject());
    LessonFeedForward ffn;
    ffn.kind = ffnKindFrom(need(f.member("kind")));
    const auto [in, out] = ffnMatrixNames(ffn.kind);
    ffn.wIn = readMatrix(need(f.member(in)), d, -1, errorText(ErrorId::ShapeIs, in, "d_model×d_ff"));
    const Eigen::Index dff = ffn.wIn.cols();
    if (ffn.kind == BlockFfn::SwiGlu)
        ffn.wGate = readMatrix(need(f.member("W_gate")), d, dff, errorText(ErrorId::ShapeIs, "W_gate", "d_model×d_ff"));
    else
        ffn.bIn = readOptional(f, "b_1", dff);
    ffn.wOut = readMatrix(need(f.member(out)), dff, d, errorText(ErrorId::ShapeIs, out, "d_ff×d_model"));
    if (ffn.kind != BlockFfn::SwiGlu) ffn.bOut = readOptional(f, "b_2", d);
    return ffn;
}

// {"tied": true} or {"W_vocab": d×V, "b_vocab": [V]}.
void readOutputHead(const Field& f, Lesson& lesson) {
    need(f.requireObject(ErrorId::OutputHeadForms));
    const auto V = static_cast<Eigen::Index>(lesson.embeddings.size());
    if (V == 0) fail(f.error(ErrorId::OutputHeadNoWords));
    LessonBlock& block = lesson.block;
    block.outputHead = true;
    block.tied = readBool(f, "tied", false);
    if (!block.tied) {
        if (!f.has("W_vocab")) fail(f.expected(ErrorId::OutputHeadForms));
        block.wVocab = readMatrix(need(f.member("W_vocab")), lesson.dModel, V, errorText(ErrorId::ShapeVocab, V));
    }
    block.bVocab = readOptional(f, "b_vocab", V);
}

}  // namespace

void readLessonBlock(const Field& doc, int version, Lesson& lesson) {
    const auto found = need(doc.optionalMember("block"));
    if (!found) return;
    if (version < 6) fail(found->error(ErrorId::BlockNeedsV6));
    need(found->requireObject());
    const int d = lesson.dModel;
    LessonBlock& block = lesson.block;
    block.residual = readBool(*found, "residual", false);
    if (const auto norm = need(found->optionalMember("norm"))) block.norm = readNorm(*norm, d);
    if (const auto ffn = need(found->optionalMember("ffn"))) block.ffn = readFeedForward(*ffn, d);
    if (const auto norm = need(found->optionalMember("final_norm"))) block.finalNorm = readNorm(*norm, d);
    if (const auto head = need(found->optionalMember("output_head"))) readOutputHead(*head, lesson);
}

namespace {

Json normJson(const LessonNorm& norm) {
    Json j = {{"kind", normKindName(norm.kind)}, {"gamma", vectorJson(RowVec(norm.gamma))}};
    if (norm.kind == BlockNorm::LayerNorm) j["beta"] = vectorJson(RowVec(norm.beta));
    j["eps"] = norm.eps;
    return j;
}

Json ffnJson(const LessonFeedForward& ffn) {
    const auto [in, out] = ffnMatrixNames(ffn.kind);
    Json j = {{"kind", ffnKindName(ffn.kind)}};
    if (ffn.kind == BlockFfn::SwiGlu) j["W_gate"] = matrixJson(ffn.wGate);
    j[in] = matrixJson(ffn.wIn);
    if (ffn.bIn.size()) j["b_1"] = vectorJson(ffn.bIn);
    j[out] = matrixJson(ffn.wOut);
    if (ffn.bOut.size()) j["b_2"] = vectorJson(ffn.bOut);
    return j;
}

}  // namespace

Json lessonBlockJson(const LessonBlock& block) {
    Json j = {{"residual", block.residual}};
    if (block.norm.kind != BlockNorm::None) j["norm"] = normJson(block.norm);
    if (block.ffn.kind != BlockFfn::None) j["ffn"] = ffnJson(block.ffn);
    if (block.finalNorm.kind != BlockNorm::None) j["final_norm"] = normJson(block.finalNorm);
    if (block.outputHead) {
        Json head = block.tied ? Json{{"tied", true}} : Json{{"W_vocab", matrixJson(block.wVocab)}};
        if (block.bVocab.size()) head["b_vocab"] = vectorJson(block.bVocab);
        j["output_head"] = std::move(head);
    }
    return j;
}

namespace {

Result<void> checkMatrix(const Mat& m, Eigen::Index rows, Eigen::Index cols, const std::string& where) {
    if (auto e = checkShape(m, rows, cols, where); !e.ok()) return e;
    return checkFinite(m, where);
}

// An optional vector: empty, or 1×width and finite.
Result<void> checkOptional(const RowVec& v, Eigen::Index width, const std::string& where) {
    return v.size() == 0 ? Result<void>{} : checkMatrix(v, 1, width, where);
}

Result<void> validateNorm(const LessonNorm& norm, int d, const std::string& at) {
    if (norm.kind == BlockNorm::None) return {};
    if (auto e = checkMatrix(norm.gamma, 1, d, at + "gamma"); !e.ok()) return e;
    if (norm.kind == BlockNorm::LayerNorm)
        if (auto e = checkMatrix(norm.beta, 1, d, at + "beta"); !e.ok()) return e;
    if (!(norm.eps > 0 && std::isfinite(norm.eps)))
        return Error{at + "eps", errorText(ErrorId::ExpectedFound, ErrorId::APositiveNumber, Json(norm.eps).dump())};
    return {};
}

Result<void> validateFeedForward(const LessonFeedForward& ffn, int d, const std::string& at) {
    if (ffn.kind == BlockFfn::None) return {};
    const auto [in, out] = ffnMatrixNames(ffn.kind);
    const Eigen::Index dff = ffn.wIn.cols();
    if (auto e = checkMatrix(ffn.wIn, d, dff, at + in); !e.ok()) return e;
    if (ffn.kind == BlockFfn::SwiGlu)
        if (auto e = checkMatrix(ffn.wGate, d, dff, at + "W_gate"); !e.ok()) return e;
    if (auto e = checkOptional(ffn.bIn, dff, at + "b_1"); !e.ok()) return e;
    if (auto e = checkMatrix(ffn.wOut, dff, d, at + out); !e.ok()) return e;
    return checkOptional(ffn.bOut, d, at + "b_2");
}

// The width of what the last attention layer hands the block (d with W_O, else heads·d_v).
int attentionOutputWidth(const Lesson& lesson) {
    return lesson.layers.empty() || lesson.layers.back().wo.size() ? lesson.dModel : lesson.numHeads * lesson.dV;
}

}  // namespace

Result<void> validateLessonBlock(const Lesson& lesson, const std::string& source) {
    const LessonBlock& block = lesson.block;
    if (!block.present()) return {};
    const int d = lesson.dModel;
    const std::string at = source + ": block.";
    if (const int width = attentionOutputWidth(lesson); width != d)
        return Error{source + ": block", errorText(ErrorId::BlockOutputWidth, d, width)};
    if (auto e = validateNorm(block.norm, d, at + "norm."); !e.ok()) return e;
    if (auto e = validateFeedForward(block.ffn, d, at + "ffn."); !e.ok()) return e;
    if (auto e = validateNorm(block.finalNorm, d, at + "final_norm."); !e.ok()) return e;
    if (!block.outputHead) return {};
    const auto V = static_cast<Eigen::Index>(lesson.embeddings.size());
    if (V == 0) return Error{at + "output_head", ErrorId::OutputHeadNoWords};
    if (!block.tied)
        if (auto e = checkMatrix(block.wVocab, d, V, at + "output_head.W_vocab"); !e.ok()) return e;
    return checkOptional(block.bVocab, V, at + "output_head.b_vocab");
}

std::vector<std::string> lessonVocabulary(const Lesson& lesson) {
    std::vector<std::string> words;
    for (const auto& [word, vector] : lesson.embeddings) words.push_back(word);
    return words;
}

namespace {

NormTrace normWeights(const LessonNorm& norm) {
    NormTrace t;
    t.kind = norm.kind;
    if (norm.gamma.size()) t.gamma = norm.gamma;  // 1×d
    if (norm.beta.size()) t.beta = norm.beta;     // 1×d
    t.eps = norm.eps;
    return t;
}

// The embedding table as columns: d×V, column v the vector of word v.
Mat tableTransposed(const Lesson& lesson) {
    Mat w(lesson.dModel, static_cast<Eigen::Index>(lesson.embeddings.size()));
    for (std::size_t v = 0; v < lesson.embeddings.size(); ++v) w.col(static_cast<Eigen::Index>(v)) = lesson.embeddings[v].second.transpose();
    return w;
}

}  // namespace

BlockTrace blockWeights(const Lesson& lesson) {
    const LessonBlock& block = lesson.block;
    BlockTrace t;
    t.residual = block.residual;
    t.norm = normWeights(block.norm);
    t.finalNorm = normWeights(block.finalNorm);
    t.ffn.kind = block.ffn.kind;
    t.ffn.wIn = block.ffn.wIn;
    t.ffn.bIn = block.ffn.bIn;
    t.ffn.wGate = block.ffn.wGate;
    t.ffn.wOut = block.ffn.wOut;
    t.ffn.bOut = block.ffn.bOut;
    if (block.outputHead) {
        t.vocabulary = lessonVocabulary(lesson);
        t.wVocab = block.tied ? tableTransposed(lesson) : block.wVocab;  // d×V
        t.bVocab = block.bVocab;
    }
    return t;
}

}  // namespace attnscope
