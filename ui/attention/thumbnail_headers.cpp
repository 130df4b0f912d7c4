#include "ui/attention/thumbnail_headers.hpp"

#include <algorithm>

namespace attnscope {

namespace {

int widestText(const QFontMetrics& fm, const QString& form, const std::vector<int>& numbers) {
    int widest = 0;
    for (const int n : numbers) widest = std::max(widest, fm.horizontalAdvance(form.arg(n)));
    return widest;
}

// Every how many-th item fits when each needs `extent` px and items are `pitch` apart.
int thinningStep(int extent, int pitch) {
    return pitch > 0 ? std::max(1, (extent + kHeaderSpacing + pitch - 1) / pitch) : 1;
}

bool overlapsAny(const QRect& rect, const std::vector<DrawnHeader>& headers) {
    return std::any_of(headers.begin(), headers.end(), [&](const DrawnHeader& h) {
        return h.rect.adjusted(-kHeaderSpacing / 2, 0, kHeaderSpacing / 2, 0).intersects(rect);
    });
}

}  // namespace

std::vector<DrawnHeader> columnHeaders(const QFontMetrics& fm, const std::vector<int>& centres, int pitch, int top,
                                       const QStringList& forms, const std::vector<int>& numbers,
                                       const std::vector<DrawnHeader>& taken) {
    if (forms.isEmpty() || centres.empty()) return {};
    QString form = forms.back();
    for (const QString& f : forms)
        if (widestText(fm, f, numbers) + kHeaderSpacing <= pitch) {
            form = f;
            break;
        }
    const int step = thinningStep(widestText(fm, form, numbers), pitch);
    std::vector<DrawnHeader> placed = taken;
    std::vector<DrawnHeader> headers;
    for (std::size_t i = 0; i < centres.size() && i < numbers.size(); i += static_cast<std::size_t>(step)) {
        const QString text = form.arg(numbers[i]);
        const int width = fm.horizontalAdvance(text);
        const QRect rect(centres[i] - width / 2, top, width, fm.height());
        if (overlapsAny(rect, placed)) continue;
        placed.push_back({rect, text});
        headers.push_back({rect, text});
    }
    return headers;
}

std::vector<DrawnHeader> rowHeaders(const QFontMetrics& fm, const std::vector<int>& centres, int pitch, int right,
                                    const QString& form, const std::vector<int>& numbers) {
    const int step = thinningStep(fm.height(), pitch);
    std::vector<DrawnHeader> headers;
    for (std::size_t i = 0; i < centres.size() && i < numbers.size(); i += static_cast<std::size_t>(step)) {
        const QString text = form.arg(numbers[i]);
        const int width = fm.horizontalAdvance(text);
        headers.push_back({QRect(right - width, centres[i] - fm.height() / 2, width, fm.height()), text});
    }
    return headers;
}

}  // namespace attnscope
