#pragma once
// Worksheet files for an exercise (issue 5 §7), written from core's exerciseWorksheet.
//
// File convention: "NAME.md" or "NAME.tex" writes the questions to that file and the answer key
// beside it as "NAME-answers.md" / "NAME-answers.tex"; "NAME.pdf" writes one PDF with the
// questions first and the answer key starting on a new page. Every file is written atomically.
#include <QByteArray>
#include <QString>
#include <functional>

#include "core/lab/worksheet.hpp"

class QLabel;
class QWidget;

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
// The same for any worksheet: `make` gives it in the format asked (PDF is made from the Markdown).
using WorksheetMaker = std::function<Result<Worksheet>(WorksheetFormat)>;
Result<void> saveWorksheetWith(const WorksheetMaker& make, const QString& title, const QString& path);

// Asks where to write a worksheet (Markdown, LaTeX or PDF), starting at ~/NAME; empty when cancelled.
QString askWorksheetPath(QWidget* parent, const QString& name);
// "Wrote PATH and PATH-answers.md" (or "Wrote PATH" for a PDF): what the lab says after a save.
QString worksheetWrittenText(const QString& path);
// A lab section's Worksheet… button: asks for the file (from ~/NAME), writes it with `write`, says
// what was written in `written` or why not in a message box.
void exportWorksheetDialog(QWidget* parent, const QString& name, const std::function<Result<void>(const QString&)>& write,
                           QLabel* written);

}  // namespace attnscope
