#pragma once
// The analysis subcommands of the attnscope binary (docs/coreference.md):
//   attnscope coref (--model M | --lesson L) [--sentence TEXT] [--heads L:H,... | --layer L | --rollout]
//                   [--mention WORD[#N]] [--cataphora] [--format text|json] [--decimals N]
//   attnscope heads (--model M | --lesson L) --coref-set FILE [--cataphora] [--top N] [--format text|json]
//   attnscope heads (--model M | --lesson L) --stats [--sentence TEXT] [--coref-set FILE] [--format text|json]
#include <QStringList>

namespace attnscope {

//   attnscope qk …, attnscope compare …: see cli_qk.hpp, cli_compare.hpp (dispatched from here)
// True when the first argument after the program is "coref", "heads", "qk" or "compare".
bool isAnalysisCommand(const QStringList& arguments);
// The arguments with a subcommand typed after a leading --lang moved to the front, where
// isAnalysisCommand and the subcommands' parsers look for it.
QStringList withSubcommandFirst(QStringList arguments);

// Runs the subcommand; results to stdout, errors to stderr, returns the exit code.
int runAnalysisCommand(const QStringList& arguments);

}  // namespace attnscope
