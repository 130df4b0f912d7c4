#pragma once
// What a lesson run would cost, checked before anything is allocated. A lesson is a small file
// that declares big sizes: 1.5 KB asking for d_model 4096, many heads without projections (each a
// 4096×4096 identity per layer) and 256 tokens is gigabytes and seconds, and its JSON export many
// times that. The run's Trace (every intermediate, in double) and its multiply-adds must fit the
// budgets below; the message names the sizes the lesson declares and the budget it exceeds.
// Shape legend: T query tokens, T_k key tokens, d model width, H heads, d_k, d_v, L layers.
#include <cstdint>

#include "core/base/result.hpp"
#include "core/lesson/lesson.hpp"

namespace attnscope {

inline constexpr std::uint64_t kLessonTraceBudgetBytes = 1024ull * 1024 * 1024;  // the Trace in memory (the widest shipped bench lesson, d_model 4096 without projections, keeps 513 MiB)
inline constexpr double kLessonWorkBudget = 2e9;  // multiply-adds: about a second

struct LessonRunCost {
    double traceBytes = 0;    // every matrix the Trace keeps, 8 bytes a number
    double multiplyAdds = 0;  // projections, Q·Kᵀ, weights·V and W_O, over every layer and head
};

LessonRunCost lessonRunCost(const Lesson& lesson, int queryTokens, int keyTokens, int layers);

// An error naming d_model, heads, d_k, d_v, layers and tokens when the run is over a budget.
Result<void> checkLessonBudget(const Lesson& lesson, int queryTokens, int keyTokens, int layers);

}  // namespace attnscope
