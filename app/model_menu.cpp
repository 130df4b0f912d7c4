#include "app/model_menu.hpp"

#include <QAction>
#include <QMenu>

#include "core/source/example_models.hpp"
#include "ui/common/qt_text.hpp"
#include "ui/common/core_error_text.hpp"

namespace attnscope {

void addModelMenu(QMenu* menu, std::function<void(const QString& name)> openModel) {
    QMenu* examples = menu->addMenu(QObject::tr("&Example models"));
    examples->setObjectName("exampleModels");
    examples->setToolTipsVisible(true);
    const ExampleModelPlaces places = ExampleModelPlaces::fromProcess();
    for (const ExampleModel& example : exampleModels()) {
        const QString name = qs(example.name);
        QAction* action = examples->addAction(name);
        action->setObjectName("exampleModel:" + name);
        const auto folder = findExampleModel(places, example.name);  // a few stat calls: cheap
        action->setEnabled(folder.ok());
        action->setToolTip(folder ? QObject::tr("%1 (%2)").arg(qs(example.description), qs(folder.value().string()))
                                  : coreErrorText(folder.error()));
        QObject::connect(action, &QAction::triggered, menu, [openModel, name] { openModel(name); });
    }
}

}  // namespace attnscope
