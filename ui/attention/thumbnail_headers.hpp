#pragma once
// The model view's column headers ("head 10" / "h10" / "10") and layer labels, fitted to the
// font actually in use: the longest form whose widest text fits between two columns, else the
// shortest form on every k-th column. No two header rects ever overlap (a header that would
// is left out), at any thumbnail size and font.
#include <QFontMetrics>
#include <QRect>
#include <QString>
#include <QStringList>
#include <vector>

namespace attnscope {

// One header as drawn: its text centred in `rect` (canvas coordinates), for tests.
struct DrawnHeader {
    QRect rect;
    QString text;
};

inline constexpr int kHeaderSpacing = 4;  // px kept free between two headers

// Headers centred on `centres` (one per column, evenly `pitch` apart) with their top at `top`.
// `forms` are templates with %1, longest first; `numbers[i]` fills column i's. `taken` holds
// headers already placed (the aggregate column's): new ones never overlap them.
std::vector<DrawnHeader> columnHeaders(const QFontMetrics& fm, const std::vector<int>& centres, int pitch, int top,
                                       const QStringList& forms, const std::vector<int>& numbers,
                                       const std::vector<DrawnHeader>& taken = {});

// Labels right-aligned at `right`, vertically centred on `centres` (rows `pitch` apart); every
// k-th row when the font is taller than a row.
std::vector<DrawnHeader> rowHeaders(const QFontMetrics& fm, const std::vector<int>& centres, int pitch, int right,
                                    const QString& form, const std::vector<int>& numbers);

}  // namespace attnscope
