#pragma once
// A lesson as a TraceSource: small, hand-checkable, run at once on the GUI thread. It owns the
// Session (the lesson, its sentence and the last good Trace); the lesson editor edits the lesson
// in place and calls rerun().
#include "app/source/trace_source.hpp"
#include "core/source/session.hpp"

namespace attnscope {

class LessonTraceSource : public TraceSource {
    Q_OBJECT
public:
    explicit LessonTraceSource(QObject* parent = nullptr);

    // Replaces the lesson and runs it on its own sentence; on error nothing changes.
    Result<void> open(Lesson lesson);
    bool rerun();  // after an edit → traceChanged or runFailed (false)
    const Session& session() const { return session_; }
    Session& session() { return session_; }

    bool offers(Offer offer) const override;
    QString kindName() const override { return tr("lesson"); }
    QString name() const override;
    QString shortName() const override { return name(); }
    QString title() const override { return name(); }
    QString description() const override;
    QString origin() const override { return name(); }
    QString openingSentence(const QString& /*typed*/) const override;
    QString sentencePlaceholder() const override { return tr("Type a sentence; every matrix below follows it."); }
    int decimals() const override { return session_.decimals(); }
    void run(const QString& sentence, int layer) override;
    void setAblation(std::vector<HeadRef> heads) override;
    void showLayer(int layer) override;
    std::shared_ptr<const Trace> trace() const override { return trace_; }
    std::shared_ptr<const Trace> workedTrace() const override { return trace_; }
    int workedLayer(int layer) const override;
    bool cheapToShow() const override { return true; }
    SentenceRunner sentenceRunner(std::vector<HeadRef> ablate = {}) const override;
    NormSentenceRunner normSentenceRunner(std::vector<HeadRef> ablate = {}) const override;
    StatesSentenceRunner statesRunner(std::vector<HeadRef> ablate = {}) const override;
    void showStages(StageBar& bar) const override;
    void setStage(EncoderDecoderStage stage) override;
    QString compareUnavailable() const override;
    QString corefEvaluationUnavailable() const override;

private:
    void publish();
    std::optional<StageView> stageView() const;  // none for a lesson without stages

    Session session_;
    std::shared_ptr<const Trace> trace_;  // a copy of session_.trace(): lesson traces are small
};

}  // namespace attnscope
