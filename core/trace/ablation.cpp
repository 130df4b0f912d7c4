// Head ablation: parsing "L:H" lists and turning them into per-layer masks.
#include "core/trace/ablation.hpp"

#include "core/text/message_id.hpp"

#include <algorithm>
#include <charconv>

#include "core/text/error_messages.hpp"

namespace attnscope {

namespace {

// A whole number ≥ 1 written with digits only (no sign, no spaces); 0 when it is not one.
int positiveNumber(std::string_view text) {
    int value = 0;
    if (text.empty() || text.size() > 9) return 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) return 0;
    return value;
}

Result<HeadRef> parseItem(std::string_view item) {
    const std::string quoted = "\"" + std::string(item) + "\"";
    const std::size_t colon = item.find(':');
    if (colon == std::string_view::npos)
        return Error{ErrorId::WhereAblate, errorText(ErrorId::NotLayerHead, quoted)};
    const int layer = positiveNumber(item.substr(0, colon));
    const int head = positiveNumber(item.substr(colon + 1));
    if (layer < 1 || head < 1)
        return Error{ErrorId::WhereAblate, errorText(ErrorId::LayerHeadWholeNumbers, quoted)};
    return HeadRef{layer - 1, head - 1};
}


}  // namespace

Result<std::vector<HeadRef>> parseHeadSpec(std::string_view spec) {
    if (spec.empty()) return Error{ErrorId::WhereAblate, ErrorId::NoHeadGiven};
    std::vector<HeadRef> heads;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = std::min(spec.find(',', start), spec.size());
        auto item = parseItem(spec.substr(start, comma - start));
        if (!item) return item.error();
        heads.push_back(item.value());
        if (comma == spec.size()) break;
        start = comma + 1;
    }
    std::sort(heads.begin(), heads.end());
    heads.erase(std::unique(heads.begin(), heads.end()), heads.end());
    return heads;
}

Result<void> checkHeadsExist(const std::vector<HeadRef>& ablate, int layers, int heads, const ErrorText& where) {
    for (const HeadRef& h : ablate) {
        const std::string name = std::to_string(h.layer + 1) + ":" + std::to_string(h.head + 1);
        if (h.layer < 0 || h.layer >= layers)
            return Error{where, layers == 1 ? errorText(ErrorId::CannotAblateOneLayer, name)
                                            : errorText(ErrorId::CannotAblateLayers, name, layers)};
        if (h.head < 0 || h.head >= heads)
            return Error{where, heads == 1 ? errorText(ErrorId::CannotAblateOneHead, name)
                                           : errorText(ErrorId::CannotAblateHeads, name, heads)};
    }
    return {};
}

Result<void> checkHeadsExist(const std::vector<HeadRef>& ablate, int layers, int heads, const std::string& where) {
    return checkHeadsExist(ablate, layers, heads, ErrorText::verbatim(where));
}

std::vector<bool> layerHeadMask(const std::vector<HeadRef>& ablate, int layer, int heads) {
    if (ablate.empty()) return {};
    std::vector<bool> mask(static_cast<std::size_t>(std::max(heads, 0)), false);
    for (const HeadRef& h : ablate)
        if (h.layer == layer && h.head >= 0 && h.head < heads) mask[static_cast<std::size_t>(h.head)] = true;
    return mask;
}

std::vector<HeadRef> ablatedHeads(const Trace& trace) {
    std::vector<HeadRef> heads;
    for (int l = 0; l < trace.layerCount(); ++l)
        for (std::size_t h = 0; h < trace.layers[static_cast<std::size_t>(l)].heads.size(); ++h)
            if (trace.layers[static_cast<std::size_t>(l)].heads[h].ablated) heads.push_back(HeadRef{l, static_cast<int>(h)});
    return heads;
}

std::string headSpecText(const std::vector<HeadRef>& heads) {
    std::string text;
    for (const HeadRef& h : heads)
        text += (text.empty() ? "" : ",") + std::to_string(h.layer + 1) + ":" + std::to_string(h.head + 1);
    return text;
}

Notice ablationNotice(const std::vector<HeadRef>& heads) {
    return Notice{MessageId::NoticeAblation, {headSpecText(heads)}};
}

}  // namespace attnscope
