#pragma once
// Worksheet files for an exercise (issue 5 §7), written from core's exerciseWorksheet.
//
// File convention: "NAME.md" or "NAME.tex" writes the questions to that file and the answer key
// beside it as "NAME-answers.md" / "NAME-answers.tex"; "NAME.pdf" writes one PDF with the
// questions first and the answer key starting on a new page. Every file is written atomically.
#include <QByteArray>
#include <QString>

#include "core/lab/worksheet.hpp"

namespace attnscope {

// "dir/sheet.md" → "dir/sheet-answers.md".
QString answerKeyPath(const QString& path);

// The Markdown worksheet as a PDF (A4): the questions, then the answer key from a new page.
// Latin text in DejaVu Sans, Chinese from WenQuanYi Micro Hei.
QByteArray worksheetPdf(const Worksheet& markdown, const QString& title);

// Writes the worksheet in the format the file name ends with (.md, .tex or .pdf); fails with the
// reason (an unknown suffix, a file that cannot be written).
Result<void> saveWorksheet(const Trace& trace, const Exercise& exercise, const QString& title,
                      const WorksheetPhrases& phrases, const QString& path);

}  // namespace attnscope
