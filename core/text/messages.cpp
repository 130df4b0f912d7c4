#include "core/text/messages.hpp"

#include <array>

namespace attnscope {

namespace {

struct Entry {
    MessageId id;
    std::string_view english, chinese;
};

// One row per id, in MessageId order (the test checks the order and that both texts exist).
constexpr std::array<Entry, static_cast<std::size_t>(MessageId::Count)> kMessages{{
    {MessageId::StepEmbedding, "Embedding: each token's vector", "嵌入：每个词元的向量"},
    {MessageId::StepInput, "Input X = E + positional encoding", "输入 X = E + 位置编码"},
    {MessageId::StepQuery, "Queries Q = X·W_Q", "查询 Q = X·W_Q"},
    {MessageId::StepKey, "Keys K = X·W_K", "键 K = X·W_K"},
    {MessageId::StepValue, "Values V = X·W_V", "值 V = X·W_V"},
    {MessageId::StepScores, "Scores S = Q·Kᵀ", "分数 S = Q·Kᵀ"},
    {MessageId::StepScaled, "Scaled scores S / √d_k", "缩放后的分数 S / √d_k"},
    {MessageId::StepMasked, "Masked scores (causal mask)", "掩码后的分数（因果掩码）"},
    {MessageId::StepWeights, "Attention weights A = softmax(rows)", "注意力权重 A = softmax（按行）"},
    {MessageId::StepWeightedSum, "Weighted sum A·V", "加权和 A·V"},
    {MessageId::StepConcat, "Concatenation of heads", "各头的拼接"},
    {MessageId::StepOutput, "Output = concat·W_O", "输出 = concat·W_O"},
    {MessageId::StepPositional, "Positional encoding P", "位置编码 P"},
    {MessageId::StepWQ, "Weights W_Q", "权重 W_Q"},
    {MessageId::StepWK, "Weights W_K", "权重 W_K"},
    {MessageId::StepWV, "Weights W_V", "权重 W_V"},
    {MessageId::StepWO, "Weights W_O", "权重 W_O"},
    {MessageId::StepMask, "Mask M (0 keeps, −∞ hides)", "掩码 M（0 保留，−∞ 屏蔽）"},
    {MessageId::StepSourceInput, "Source input X_src (keys and values come from it)", "源输入 X_src（键和值来自它）"},
    {MessageId::StepMaskedCausalPadding, "Masked scores (causal and padding mask)", "掩码后的分数（因果掩码和填充掩码）"},
    {MessageId::StepMaskedPadding, "Masked scores (padding mask)", "掩码后的分数（填充掩码）"},
    {MessageId::StepInputResidual, "Input of layer {1}: X{2} = X{3} + output{3} (residual)",
     "第 {1} 层的输入：X{2} = X{3} + output{3}（残差）"},
    {MessageId::StepInputPassedOn, "Input of layer {1}: what layer {2} passed on", "第 {1} 层的输入：第 {2} 层传下来的结果"},
}};

constexpr bool inIdOrder() {
    for (std::size_t i = 0; i < kMessages.size(); ++i)
        if (static_cast<std::size_t>(kMessages[i].id) != i) return false;
    return true;
}
static_assert(inIdOrder(), "kMessages must list every MessageId once, in order");

// Step order of core/trace/trace.hpp → its title's id.
constexpr std::array<MessageId, 19> kStepTitles{
    MessageId::StepEmbedding, MessageId::StepInput,    MessageId::StepQuery,      MessageId::StepKey,
    MessageId::StepValue,     MessageId::StepScores,   MessageId::StepScaled,     MessageId::StepMasked,
    MessageId::StepWeights,   MessageId::StepWeightedSum, MessageId::StepConcat,  MessageId::StepOutput,
    MessageId::StepPositional, MessageId::StepWQ,      MessageId::StepWK,         MessageId::StepWV,
    MessageId::StepWO,        MessageId::StepMask,     MessageId::StepSourceInput};

// 12 → "₁₂", for X₂ = X₁ + output₁.
std::string subscript(int n) {
    static constexpr std::array<std::string_view, 10> kDigits{"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};
    std::string out;
    for (const char digit : std::to_string(n)) out += kDigits[digit - '0'];
    return out;
}

}  // namespace

std::optional<Language> languageFromCode(std::string_view code) {
    if (code == "en" || code.substr(0, 3) == "en_") return Language::English;
    if (code.substr(0, 2) == "zh") return Language::Chinese;
    return std::nullopt;
}

std::string_view message(MessageId id, Language language) {
    const auto index = static_cast<std::size_t>(id);
    if (index >= kMessages.size()) return {};
    return language == Language::Chinese ? kMessages[index].chinese : kMessages[index].english;
}

std::string fillMessage(std::string_view text, std::initializer_list<std::string_view> arguments) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const std::size_t n = i + 2 < text.size() && text[i] == '{' && text[i + 2] == '}' ? text[i + 1] - '1' : 99;
        if (n < arguments.size()) {
            out += *(arguments.begin() + n);
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

std::string_view stepTitle(Step step, Language language) {
    return message(kStepTitles.at(static_cast<std::size_t>(step)), language);
}

std::string stepTitleIn(const Trace& trace, Step step, int layer, Language language) {
    if (step == Step::Masked && trace.paddedFrom >= 0)
        return std::string(message(trace.causal ? MessageId::StepMaskedCausalPadding : MessageId::StepMaskedPadding, language));
    if (step != Step::Input || layer == 0) return std::string(stepTitle(step, language));
    const std::string n = std::to_string(layer + 1), before = std::to_string(layer);
    if (trace.residual)
        return fillMessage(message(MessageId::StepInputResidual, language), {n, subscript(layer + 1), subscript(layer)});
    return fillMessage(message(MessageId::StepInputPassedOn, language), {n, before});
}

}  // namespace attnscope
