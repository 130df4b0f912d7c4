#pragma once
// Picks a pretrained model: one already in the Hugging Face cache, any folder on disk, or a new
// download. The result is a folder (a snapshot or the chosen directory).
#include <QDialog>
#include <QString>
#include <optional>

#include "core/model/hf_cache.hpp"

class QLabel;
class QPushButton;
class QTableWidget;

namespace attnscope {

class OpenModelDialog : public QDialog {
    Q_OBJECT
public:
    explicit OpenModelDialog(CacheEnv env, QWidget* parent = nullptr);

    // Runs modally with the process's environment; the chosen folder, or nullopt when cancelled.
    static std::optional<QString> choose(QWidget* parent);

    QString chosenPath() const { return chosenPath_; }
    void refresh();  // re-reads the cache
    QTableWidget* table() const { return table_; }

private:
    void buildUi();
    void updateButtons();
    void openSelected();
    void browseFolder();
    void downloadModel();

    CacheEnv env_;
    QLabel* cacheLabel_ = nullptr;
    QTableWidget* table_ = nullptr;
    QPushButton* openButton_ = nullptr;
    QString chosenPath_;
};

}  // namespace attnscope
