#include "ui/lab/worksheet_export.hpp"

#include <QBuffer>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QFont>
#include <QMarginsF>
#include <QObject>
#include <QPageSize>
#include <QPdfWriter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFormat>

#include "ui/common/file_write.hpp"

namespace attnscope {

namespace {

QFont worksheetFont() {
    QFont f;
    f.setFamilies({"DejaVu Sans", "WenQuanYi Micro Hei", "Noto Sans CJK SC"});
    f.setPointSizeF(10);
    return f;
}

Result<void> saveText(const Worksheet& sheet, const QString& path) {
    if (auto questions = writeFileAtomically(path, QByteArray::fromStdString(sheet.questions)); !questions.ok())
        return questions;
    return writeFileAtomically(answerKeyPath(path), QByteArray::fromStdString(sheet.answers));
}

}  // namespace

QString answerKeyPath(const QString& path) {
    const QFileInfo info(path);
    return info.dir().filePath(info.completeBaseName() + "-answers." + info.suffix());
}

QByteArray worksheetPdf(const Worksheet& markdown, const QString& title) {
    QTextDocument doc;
    doc.setDefaultFont(worksheetFont());
    doc.setMarkdown(QString::fromStdString(markdown.questions));
    QTextCursor cursor(&doc);
    cursor.movePosition(QTextCursor::End);
    cursor.insertBlock();
    const int answersStart = cursor.position();
    cursor.insertMarkdown(QString::fromStdString(markdown.answers));
    // The key's first block (its heading) opens a new page, whatever format the Markdown gave it.
    QTextBlockFormat newPage;
    newPage.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
    QTextCursor(doc.findBlock(answersStart)).mergeBlockFormat(newPage);

    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter pdf(&buffer);
    pdf.setPageSize(QPageSize(QPageSize::A4));
    pdf.setPageMargins(QMarginsF(20, 20, 20, 20), QPageLayout::Millimeter);
    pdf.setTitle(title);
    pdf.setCreator(QStringLiteral("AttnScope"));
    doc.print(&pdf);
    return buffer.data();
}

Result<void> saveWorksheetWith(const WorksheetMaker& make, const QString& title, const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != "md" && suffix != "tex" && suffix != "pdf")
        return Error{path.toStdString(), QObject::tr("unknown file type “.%1”: use .md, .tex or .pdf").arg(suffix).toStdString()};
    auto sheet = make(suffix == "tex" ? WorksheetFormat::Latex : WorksheetFormat::Markdown);
    if (!sheet) return sheet.error();
    if (suffix == "pdf") return writeFileAtomically(path, worksheetPdf(sheet.value(), title));
    return saveText(sheet.value(), path);
}

Result<void> saveWorksheet(const Trace& trace, const Exercise& exercise, const QString& title,
                      const WorksheetPhrases& phrases, const QString& path) {
    return saveWorksheetWith(
        [&](WorksheetFormat format) { return exerciseWorksheet(trace, exercise, format, title.toStdString(), phrases); },
        title, path);
}

QString askWorksheetPath(QWidget* parent, const QString& name) {
    return QFileDialog::getSaveFileName(
        parent, QObject::tr("Export worksheet"), QDir::home().filePath(name),
        QObject::tr("Markdown: NAME.md and NAME-answers.md (*.md);;LaTeX: NAME.tex and NAME-answers.tex (*.tex);;"
                    "PDF: questions, then the answer key on a new page (*.pdf)"));
}

QString worksheetWrittenText(const QString& path) {
    const bool twoFiles = QFileInfo(path).suffix().toLower() != "pdf";
    return twoFiles ? QObject::tr("Wrote %1 and %2").arg(path, answerKeyPath(path)) : QObject::tr("Wrote %1").arg(path);
}

void exportWorksheetDialog(QWidget* parent, const QString& name, const std::function<Result<void>(const QString&)>& write,
                           QLabel* written) {
    const QString path = askWorksheetPath(parent, name);
    if (path.isEmpty()) return;
    if (const auto result = write(path); !result.ok())
        return void(QMessageBox::warning(parent, QObject::tr("Export failed"), errorText(result)));
    written->setText(worksheetWrittenText(path));
}

}  // namespace attnscope
