#include "app/app_identity.hpp"

#include <QApplication>
#include <QDir>
#include <QIcon>
#include <QMenu>
#include <QMessageBox>

// Set for this file only by app/CMakeLists.txt, so a version bump recompiles one file.
#ifndef ATTNSCOPE_VERSION
#error "ATTNSCOPE_VERSION must be defined by the build (project(VERSION) in CMakeLists.txt)"
#endif

// Q_INIT_RESOURCE cannot be used inside a namespace; packaging/app_icon.qrc is in a static library.
static void initIconResource() { Q_INIT_RESOURCE(app_icon); }

namespace attnscope {

QString applicationVersion() { return QStringLiteral(ATTNSCOPE_VERSION); }

QString versionLine() { return QStringLiteral("AttnScope ") + applicationVersion(); }

void applyApplicationIdentity() {
    QApplication::setApplicationName(QStringLiteral("AttnScope"));  // also the X11 WM_CLASS class
    QApplication::setApplicationVersion(applicationVersion());
    QApplication::setDesktopFileName(QString::fromLatin1(kDesktopId));
    initIconResource();
    // The same SVG as the installed icon (packaging/icons), compiled in: the window has its icon
    // even when run from the build tree, where no icon theme knows it.
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/attnscope.svg")));
}

QString installedDataDir() {
    return QDir::cleanPath(QApplication::applicationDirPath() + QStringLiteral("/../share/attnscope"));
}

QString aboutText() {
    const QString title = QStringLiteral("<h3>AttnScope %1</h3>").arg(applicationVersion());
    const QString what = QCoreApplication::translate(
        "About", "<p>Transformer self-attention, every number visible and computable by hand.</p>");
    const QString numbers = QCoreApplication::translate(
        "About",
        "<p><b>Where the numbers come from.</b> Every number is computed on this computer by AttnScope's "
        "own engine, without a network connection. Lessons run in double precision on the embeddings and "
        "weights written in the lesson file (optionally rounded as by hand); real models run in single "
        "precision on the weights of the safetensors files you open, with the formulas of their Hugging "
        "Face implementation (BERT, DistilBERT, RoBERTa, GPT-2). An independent Python reference checks "
        "both in the test suite.</p>");
    const QString licence = QCoreApplication::translate(
        "About",
        "<p><b>Licence:</b> GNU General Public License, version 3 or any later version "
        "(GPL-3.0-or-later). AttnScope comes with ABSOLUTELY NO WARRANTY. It uses Qt %1 (LGPL-3.0), "
        "QCustomPlot (GPL-3.0), Eigen (MPL-2.0), nlohmann/json (MIT) and OpenBLAS (BSD-3-Clause).</p>")
                                .arg(QString::fromLatin1(qVersion()));
    return title + what + numbers + licence;
}

void fillHelpMenu(QMenu* help, QWidget* parent) {
    help->addAction(QCoreApplication::translate("About", "&About AttnScope"), parent, [parent] {
        // open(), not exec(): it returns at once, so the event loop (and a test) goes on.
        auto* box = new QMessageBox(QMessageBox::NoIcon, QCoreApplication::translate("About", "About AttnScope"),
                                    aboutText(), QMessageBox::Ok, parent);
        box->setObjectName(QStringLiteral("aboutBox"));
        box->setTextFormat(Qt::RichText);
        box->setIconPixmap(QApplication::windowIcon().pixmap(64, 64));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
    help->addAction(QCoreApplication::translate("About", "About &Qt"), parent, [parent] { QMessageBox::aboutQt(parent); });
}

}  // namespace attnscope
