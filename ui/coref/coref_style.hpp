#pragma once
// What the coreference view's three files share: how a score is written and a head named (the
// side panel and tool tips in coref_view.cpp, the painting in coref_paint.cpp show the same
// digits) and the picture's margin (coref_layout.cpp places within it, relayout adds it below).
#include <QString>

#include "core/analysis/coreference.hpp"
#include "core/trace/explain.hpp"
#include "ui/common/qt_text.hpp"

namespace attnscope::coref {

inline constexpr int kDecimals = 3;
inline constexpr double kMargin = 12;  // px around the picture

inline QString number(double v) { return qs(formatNumber(v, kDecimals)); }
inline QString headName(const HeadRef& h) { return QStringLiteral("%1:%2").arg(h.layer + 1).arg(h.head + 1); }

}  // namespace attnscope::coref
