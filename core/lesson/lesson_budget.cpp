#include "core/lesson/lesson_budget.hpp"

#include "core/io/text_file.hpp"
#include "core/text/error_messages.hpp"

namespace attnscope {

LessonRunCost lessonRunCost(const Lesson& lesson, int queryTokens, int keyTokens, int layers) {
    const double T = queryTokens, Tk = keyTokens, d = lesson.dModel, H = lesson.numHeads;
    const double dk = lesson.projections ? lesson.dK : lesson.dModel;
    const double dv = lesson.projections ? lesson.dV : lesson.dModel;
    // One head: its W_Q, W_K (d×d_k) and W_V (d×d_v) (an identity of d×d each without
    // projections), Q and K (T×d_k), V (T_k×d_v), the five T×T_k grids, the weighted sum (T×d_v).
    const double head = d * (2 * dk + dv) + T * dk + Tk * dk + Tk * dv + 5 * T * Tk + T * dv;
    // One layer: its heads, input and key input, concat, W_O and output.
    const double layer = H * head + T * d + Tk * d + T * H * dv + H * dv * d + T * d;
    const double headWork = T * d * dk + Tk * d * (dk + dv) + T * Tk * (dk + dv);
    LessonRunCost cost;
    cost.traceBytes = 8 * (layers * layer + 2 * T * d);  // + embedding and positional rows
    cost.multiplyAdds = layers * (H * headWork + T * H * dv * d);
    return cost;
}

Result<void> checkLessonBudget(const Lesson& lesson, int queryTokens, int keyTokens, int layers) {
    const LessonRunCost cost = lessonRunCost(lesson, queryTokens, keyTokens, layers);
    const auto sizes = errorText(ErrorId::LessonSizes, lesson.dModel, lesson.numHeads, lesson.dK, lesson.dV, layers, queryTokens);
    if (cost.traceBytes > static_cast<double>(kLessonTraceBudgetBytes))
        return Error{ErrorId::WhereLesson,
                     errorText(ErrorId::LessonOverMemoryBudget, sizes,
                               byteSizeErrorText(static_cast<std::uint64_t>(cost.traceBytes)),
                               byteSizeErrorText(kLessonTraceBudgetBytes))};
    if (cost.multiplyAdds > kLessonWorkBudget)
        return Error{ErrorId::WhereLesson,
                     errorText(ErrorId::LessonOverWorkBudget, sizes, static_cast<long long>(cost.multiplyAdds / 1e6),
                               static_cast<long long>(kLessonWorkBudget / 1e6))};
    return {};
}

}  // namespace attnscope
