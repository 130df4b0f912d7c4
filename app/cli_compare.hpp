#pragma once
// attnscope compare (--model M | --lesson L) [--sentence A] --sentence-b B [--layer L] [--head H]
//                   [--ablate L:H[,…]] [--format text|json|csv] [--output FILE] [--decimals N]
// Two sentences side by side (issue 14 §4): both token lists, how they were aligned (by position
// or by word) and, for each chosen head, A, B and A − B (core/analysis/compare_export.hpp).
// Default heads: every head of the last layer (--layer alone: every head of that layer).
#include <QStringList>

namespace attnscope {

// Runs `attnscope compare …`; results to stdout or --output, errors to stderr, returns the exit code.
int runCompareCommand(const QStringList& arguments);

}  // namespace attnscope
