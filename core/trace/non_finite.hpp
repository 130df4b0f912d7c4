#pragma once
// A model run's attention checked once it has finished: finite weights of 3e38 overflow on the
// way (Q·Kᵀ, a layer norm) and softmax meets NaN. Lessons get a notice per such row from softmax
// itself (core/pipeline/softmax.cpp); the models' fast kernel has no notices, so the finished
// Trace is read here and gets the same notice ("scores of "cat" contain NaN: its weights are
// undefined"), with its layer and head. Later layers only inherit the NaN, so only the first
// layer that has any is reported, the first such row of each of its heads.
#include <cstddef>
#include <functional>

#include "core/trace/trace.hpp"

namespace attnscope {

// slice(begin, end) over [0, n), on however many threads the caller has (sequential: one call).
using SliceRunner = std::function<void(std::size_t n, const std::function<void(std::size_t, std::size_t)>& slice)>;

// Appends the notices to trace.notices; true when there was a non-finite weight. The heads are
// read in slices through `run` (a model's product threads: every weight of a run is read).
bool addNonFiniteNotices(Trace& trace, const SliceRunner& run = {});

}  // namespace attnscope
