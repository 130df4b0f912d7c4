#pragma once
// Beyond raw attention weights (issue 30 §2), one sentence of a model (core/analysis/norm_attention,
// core/analysis/logit_lens; JSON indices are 1-based):
//   attnscope norms --model M [--sentence TEXT] [--matrix L:H] [--ablate …] [--format text|json|csv] [--output FILE]
//       each head's share of attention on the first and special tokens by weight and by ‖α·f(x)‖
//       (--matrix: one head's norm-weighted T×T matrix, JSON)
//   attnscope lens --model M [--sentence TEXT] [--top K] [--ablate …] [--format text|json|csv] [--output FILE]
//       the logit lens: layers × positions (BERT family: the [MASK] positions)
//   attnscope dla --model M [--sentence TEXT] [--prediction N] [--no-ablation] [--ablate …] [--format …] [--output FILE]
//       direct logit attribution per head, beside the ablation ranking (each head switched off)
#include <QStringList>

namespace attnscope {

// True for "norms", "lens" and "dla".
bool isBeyondWeightsCommand(const QString& command);
// Runs one of them; results to stdout or --output, errors to stderr, returns the exit code.
int runBeyondWeightsCommand(const QStringList& arguments);

}  // namespace attnscope
