#pragma once
// Model ▸ Example models: the small models trained by scripts/train_example_models.py and shipped
// with AttnScope (core/source/example_models.hpp), one action each, opening it with `openModel`.
// Actions are named "exampleModel:<name>" (for tests); an example not installed is disabled and
// says where it was looked for.
#include <QString>
#include <functional>

class QMenu;

namespace attnscope {


void addModelMenu(QMenu* menu, std::function<void(const QString& name)> openModel);

}  // namespace attnscope
