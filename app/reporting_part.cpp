#include "app/reporting_part.hpp"

#include "ui/common/file_write.hpp"
#include "ui/common/core_error_text.hpp"

namespace attnscope {

bool ReportingPart::writeReported(const QString& path, const QByteArray& bytes, const QString& format) {
    if (bytes.isEmpty()) {
        emit failed(tr("Unknown export format"), format);
        return false;
    }
    if (auto error = writeFileAtomically(path, bytes); !error.ok()) {
        emit failed(tr("The file could not be written"), coreErrorText(error.error()));
        return false;
    }
    emit wrote(path);
    return true;
}

QString ReportingPart::exportFilter(const QString& format) {
    return format == "csv"    ? tr("CSV (*.csv)")
           : format == "json" ? tr("JSON (*.json)")
                              : tr("%1 files (*.%2)").arg(format.toUpper(), format);
}

}  // namespace attnscope
