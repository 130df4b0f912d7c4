#pragma once
// Model ▸ Example models: the small models trained by scripts/train_example_models.py and shipped
// with AttnScope (core/source/example_models.hpp), one action each, opening it in `window`.
// Actions are named "exampleModel:<name>" (for tests); an example not installed is disabled and
// says where it was looked for.
class QMenu;

namespace attnscope {

class MainWindow;

void addModelMenu(QMenu* menu, MainWindow& window);

}  // namespace attnscope
