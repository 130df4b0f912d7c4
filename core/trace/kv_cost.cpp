#include "core/trace/kv_cost.hpp"

#include <algorithm>
#include <functional>

#include "core/text/messages.hpp"

namespace attnscope {

namespace {

std::string n(long long v) { return std::to_string(v); }

// "4·2·(2 + 2)": H_kv's share of the K/V cache and of W_K, W_V, worked for a reader to redo.
std::string kvWidthText(const AttentionWidths& w, int kvHeads) { return n(kvHeads) + "·(" + n(w.dK) + " + " + n(w.dV) + ")"; }

std::string parameterSum(const AttentionWidths& w, int kvHeads) {
    std::string sum = n(w.d) + "·" + n(w.heads) + "·" + n(w.dK) + " + " + n(w.d) + "·" + kvWidthText(w, kvHeads);
    if (w.outputWidth > 0) sum += " + " + n(w.heads) + "·" + n(w.dV) + "·" + n(w.outputWidth);
    return sum;
}

MessageId kindOf(int kvHeads, int heads) {
    if (kvHeads == heads) return MessageId::KvKindMultiHead;
    return kvHeads == 1 ? MessageId::KvKindMultiQuery : MessageId::KvKindGrouped;
}

}  // namespace

KeyValueCost keyValueCost(const AttentionWidths& w, int kvHeads) {
    const long long perToken = static_cast<long long>(kvHeads) * (w.dK + w.dV);  // H_kv·(d_k + d_v)
    const long long queries = static_cast<long long>(w.d) * w.heads * w.dK;      // W_Q: d×(H·d_k)
    const long long output = static_cast<long long>(w.heads) * w.dV * w.outputWidth;  // W_O: (H·d_v)×d
    return KeyValueCost{kvHeads, queries + static_cast<long long>(w.d) * perToken + output, perToken};
}

std::vector<int> kvHeadChoices(int heads) {
    std::vector<int> choices{heads};
    if (heads > 2 && heads % 2 == 0) choices.push_back(heads / 2);
    if (heads > 1) choices.push_back(1);
    return choices;
}

AttentionWidths attentionWidths(const Trace& trace, int layer) {
    const LayerTrace& l = trace.layers.at(static_cast<std::size_t>(layer));
    const HeadTrace& first = l.heads.at(0);
    const int d = static_cast<int>(l.input.cols());
    // A model's long run may drop W_O from the Trace; it still maps H·d_v back to d.
    const int output = !trace.hasOutputProjection ? 0 : l.wo.size() > 0 ? static_cast<int>(l.wo.cols()) : d;
    return AttentionWidths{d, static_cast<int>(l.heads.size()), static_cast<int>(first.q.cols()),
                           static_cast<int>(first.v.cols()), output};
}

int kvHeadCount(const LayerTrace& layer) {
    if (layer.kvHeadOf.empty()) return static_cast<int>(layer.heads.size());
    return *std::max_element(layer.kvHeadOf.begin(), layer.kvHeadOf.end()) + 1;
}

std::vector<std::string> keyValueCostLines(const Trace& trace, Language language) {
    if (trace.layers.empty() || trace.layers[0].kvHeadOf.empty() || trace.layers[0].heads.empty()) return {};
    const AttentionWidths w = attentionWidths(trace, 0);
    if (w.d == 0 || w.dK == 0 || w.dV == 0) return {};  // a long run without this layer's matrices
    const int own = kvHeadCount(trace.layers[0]);
    std::vector<int> choices = kvHeadChoices(w.heads);
    if (std::find(choices.begin(), choices.end(), own) == choices.end()) choices.push_back(own);
    std::sort(choices.begin(), choices.end(), std::greater<>());
    std::vector<std::string> lines{fillMessage(message(MessageId::KvCostHeader, language),
                                               {n(w.heads), n(own), w.outputWidth > 0 ? " + H·d_v·d (W_O)" : ""})};
    for (const int kv : choices) {
        const KeyValueCost cost = keyValueCost(w, kv);
        lines.push_back(fillMessage(message(MessageId::KvCostRow, language),
                                    {n(kv), message(kindOf(kv, w.heads), language), parameterSum(w, kv), n(cost.parameters),
                                     kvWidthText(w, kv), n(cost.kvPerToken),
                                     kv == own ? message(MessageId::KvCostThisRun, language) : ""}));
    }
    return lines;
}

}  // namespace attnscope
