#pragma once
// Where attnscope coref and heads get their traces: the --model or --lesson (with --ablate), its
// description for the output, and the sentence to run.
#include <QCommandLineParser>
#include <memory>
#include <string>
#include <vector>

#include "core/analysis/coref_eval.hpp"
#include "core/base/result.hpp"
#include "core/source/model_session.hpp"

namespace attnscope {

struct AnalysisSource {
    std::string description;      // "model: … (BERT, 2 layers × 4 heads)" / "lesson: …", in the interface language
    std::string jsonDescription;  // the same in English, for the JSON export
    std::string defaultSentence;  // the lesson's own; empty for models
    SentenceRunner run;
    std::shared_ptr<const OpenedModel> model;  // null for lessons (no weights to shuffle)
    std::vector<HeadRef> ablate;               // --ablate: switched off in every run (the control's too)
};

// --model or --lesson, and --ablate checked against its layers and heads.
Result<AnalysisSource> openAnalysisSource(const QCommandLineParser& parser);
// --sentence, else the lesson's own; errors for invalid bytes and for none.
Result<std::string> sentenceOf(const QCommandLineParser& parser, const AnalysisSource& source);
// Runs the sentence and prints the run's notices.
Result<Trace> runAndReport(const AnalysisSource& source, const std::string& sentence);

}  // namespace attnscope
