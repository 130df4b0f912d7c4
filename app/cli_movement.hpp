#pragma once
// What attention did to each word (issue 29 §5), a model's or a lesson's sentence
// (core/analysis/token_movement; indices are 1-based):
//   attnscope movement (--model M | --lesson L) [--sentence TEXT] [--layer N] [--top K]
//                      [--format text|json|csv] [--out FILE]
//       each token's ‖y − x‖ and cos(x, y) over layer N (default: the whole stack), and its sources
//   attnscope movement … --sentence-b TEXT --token-a I --token-b J
//       the same word in two contexts: cos of token I of A and token J of B, entering each layer and leaving the last
#include <QStringList>

namespace attnscope {

// Runs it; results to stdout or --out, errors to stderr, returns the exit code.
int runMovementCommand(const QStringList& arguments);

}  // namespace attnscope
