#pragma once
// Head ablation: switching heads off exactly as Hugging Face's head_mask does. The head's
// attention weights are multiplied by 0 before the weighted sum, so its output (its slice of the
// concatenation before W_O) is zero and the rest of the layer runs unchanged. The Trace keeps the
// weights the head computed and flags it (HeadTrace::ablated).
#include <string>
#include <string_view>
#include <vector>

#include "core/base/result.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

// "L:H[,L:H…]", layers and heads counted from 1 → 0-based, sorted, repeats merged (switching a
// head off twice is switching it off). Errors name the offending item: "0:1", "1:", "x", "1:2:3".
Result<std::vector<HeadRef>> parseHeadSpec(std::string_view spec);

// Every head must exist in a model of `layers` × `heads`; the error names it from 1 ("99:1").
Result<void> checkHeadsExist(const std::vector<HeadRef>& ablate, int layers, int heads, const std::string& where);
Result<void> checkHeadsExist(const std::vector<HeadRef>& ablate, int layers, int heads, const ErrorText& where);

// Layer `layer`'s mask: heads entries, true for the heads switched off (empty `ablate`: empty).
std::vector<bool> layerHeadMask(const std::vector<HeadRef>& ablate, int layer, int heads);

// The heads switched off in this run (HeadTrace::ablated), in layer then head order.
std::vector<HeadRef> ablatedHeads(const Trace& trace);

// "1:2,3:4": the heads counted from 1, as the command line takes them.
std::string headSpecText(const std::vector<HeadRef>& heads);

// The run's notice: which heads are off and what that means for their numbers.
Notice ablationNotice(const std::vector<HeadRef>& heads);

}  // namespace attnscope
