#pragma once
// attnscope qk (--model M | --lesson L) (--sentence TEXT | --corpus FILE) --layer L --head H
//              [--format json|csv] [--output FILE]
// One head's queries and keys projected together to 2-D (core/analysis/qk_space.hpp): the points
// as JSON or CSV, the explained variance and the distance–dot-product correlation on stderr.
#include <QStringList>

namespace attnscope {

// At most this many non-empty lines of a --corpus file are read (a notice says when more were left).
inline constexpr int kMaxQkCorpusSentences = 1000;

// Runs `attnscope qk …`; results to stdout or --output, errors to stderr, returns the exit code.
int runQkCommand(const QStringList& arguments);

}  // namespace attnscope
