#pragma once
// What the worked example's two sizing modes share (matrix_panel.cpp: tables up to a size that
// grows with the zoom; matrix_panel_fit.cpp: the equation scaled to its area).
#include <QFont>
#include <QSize>

namespace attnscope::panel_sizes {

inline const QSize kMaxTableSize{620, 460};  // at the 12-point font of 100 % zoom; grows with the font
inline constexpr double kBasePointSize = 12;
inline constexpr int kExplanationMinLines = 2;  // the placeholder's two lines

inline QFont scaledBold(QFont font, double factor) {
    font.setPointSizeF(font.pointSizeF() * factor);
    font.setBold(true);
    return font;
}

}  // namespace attnscope::panel_sizes
