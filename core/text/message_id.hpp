#pragma once
// The ids of core's message catalogue (core/text/messages.hpp), apart from its texts: what makes a
// notice includes this; the Trace only needs core/text/notice.hpp, so a new id recompiles little.
#include "core/text/language.hpp"
#include "core/text/notice.hpp"

namespace attnscope {

enum class MessageId : int {
    StepEmbedding, StepInput, StepQuery, StepKey, StepValue, StepScores, StepScaled, StepMasked,
    StepWeights, StepWeightedSum, StepConcat, StepOutput, StepPositional, StepWQ, StepWK, StepWV, StepWO,
    StepMask, StepSourceInput,
    StepMaskedCausalPadding,  // Masked scores of a padded batch, with a causal mask
    StepMaskedPadding,        // … without one
    StepInputResidual,        // {1}: the layer (1-based); {2}, {3}: subscripts of this and the previous layer
    StepInputPassedOn,        // {1}: the layer (1-based); {2}: the previous layer
    StepQueryIsInput, StepKeyIsInput, StepValueIsInput,  // a lesson without projections: Q = K = V = X
    // Notices (Trace::notices): what the reader must see about a run.
    NoticeInLayer, NoticeInHead,  // prefixes: {1} the layer / head, 1-based
    NoticeRowNaN, NoticeRowNaNNumbered, NoticeRowMasked, NoticeRowMaskedNumbered,  // {1}: token / row
    NoticeRowInfinite, NoticeRowInfiniteNumbered,
    NoticePositionalTableShort,  // {1}: rows of the table
    NoticeLessonTruncated,       // {1}: tokens given, {2}: tokens kept
    NoticeCrossNoCausalMask, NoticeCrossFirstLayer,  // {1}: the lesson's layers
    NoticeAblation,              // {1}: the heads, "1:2,3:4"
    NoticeModelTruncated,        // {1}: tokens given, {2}: tokens run
    NoticeSentenceTruncated,     // {1}: word pieces, {2}: pieces kept
    NoticeDecoderTied,
    NoticeLmHeadTied,
    NoticeTokenizerLarger,       // {1}: the tokenizer's ids, {2}: the model's
    NoticeWordsHashed, NoticeWordsZeroed, CorefMadeUpWords,  // {1}: the words missing from a lesson's table, "小, 猫"
    // Cell explanations (core/trace/explain.cpp): the words around the arithmetic.
    ExplainHead, ExplainLayer, ExplainNoProjections, ExplainProjection, ExplainBias, ExplainScores,
    ExplainScoresCross, ExplainScaled, ExplainMaskPadding, ExplainMaskLater, ExplainMaskCross,
    ExplainMaskEarlier, ExplainMaskReal, ExplainMaskRuleCausalPadding, ExplainMaskRulePadding,
    ExplainMaskRuleCausal, ExplainMaskRuleNone, ExplainSoftmax, ExplainExpFor, ExplainWeightedSum,
    ExplainWeightedSumCross, ExplainHeadOff, ExplainConcat, ExplainConcatTerm, ExplainNoWO, ExplainLookup,
    ExplainHashRule, ExplainZeroRule, ExplainPositionColumn, ExplainPositionalTableRow, ExplainPassedOn, ExplainResidual,
    ExplainOfLayer, ExplainInput, ExplainSourceInput, ExplainLessonWeight, ExplainSumOfExponentials,
    ExplainSum, ExplainHandRounded, ExplainValue,
    // Titles of the printed blocks (text and Markdown exports, worksheets).
    TitleInLayer, TitleOfHead, TitleOfCell,
    // Worksheets (core/lab/worksheet.cpp)
    WorksheetTokens, WorksheetGiven, WorksheetCompute, WorksheetDecimals, WorksheetAnswerKey, WorksheetHowComputed,
    // The lab (core/lab/*): the Synthesizer's variants, the multi-head shapes
    SynthesizerDotProduct, SynthesizerDense, SynthesizerRandom, SynthesizerFactorizedDense,
    SynthesizerFactorizedRandom, SynthesizerMixture,
    LabEachOfHeads, LabEachOfOneHead,  // {1}: the heads
    // A model's predictions (core/export/model_export.cpp): {1} the position (1-based), {2} its token
    PredictionNextToken, PredictionMaskedToken,
    // Coreference scoring (describeScoring): {1}, {2} as in the English text
    ScoringRollout, ScoringLayer, ScoringHead, ScoringHeadSet,
    // Labels of the text and Markdown exports and of the command line's source line
    LabelTokens, LabelTokensMarkdown, LabelSourceTokens, LabelSourceTokensMarkdown, LabelHandRounding, LabelNotice,
    LabelModel, LabelModelMarkdown, LabelModelShape, LabelModelLayer, LabelLesson, ListSeparator,
    // Coreference text (resolutionToText, evaluationToText)
    CorefNoPronoun, CorefScoring, CorefMention, CorefRenormalised, CorefNone, CorefChosen, CorefNearest, CorefRule, CorefSummary,
    CorefPerHead, EvalSummary, EvalLayer, EvalLayers, EvalHead, EvalHeads, EvalNearest, EvalRule, EvalRollout, EvalRankingHeader, EvalSkipped,
    EvalIntervals, EvalRandom, EvalFirst, EvalControl, EvalAboveRule, EvalAboveRuleNote,
    // Head statistics (headStatsToText, headLabelText) and corpus statistics (corpusStatsToText, CorpusNotice)
    HeadStatsHeader, HeadLabelDelimiterSink, HeadLabelPreviousToken, HeadLabelNextToken, HeadLabelSelf, HeadLabelBroad,
    HeadLabelMixed, HeadLabelCoreference, CorpusSummary, CorpusHeader, CorpusAt, CorpusAtLine, NoticeCorpusCapped,
    NoticeCorpusSkippedLong, NoticeCorpusMoreNotices,
    // attnscope qk's summary line (qkSummary): {1} queries, {2} keys, {3} the t-SNE part, {4}, {5} PC1, PC2 in %,
    // {6} the correlation, {7} the softmax difference; QkTsne: {1} the perplexity
    QkSummary, QkTsne,
    // attnscope compare's text (comparisonToText): the alignment, {1} the words in common; the heads off;
    // a block's title, {1} the sentence (A, B or A − B), {2} the layer, {3} the head (1-based)
    CompareByPosition, CompareByWord, CompareOnlyInA, CompareOnlyInB, CompareHeadsOff, CompareBlock,
    // Why a coreference-set example is skipped (ExampleOutcome::skipReason): {1} the word, {2} its occurrence
    SkipMentionNotWords, SkipMentionNotWordsAt, SkipAntecedentNotWords, SkipAntecedentNotWordsAt, SkipNotCandidate,
    SkipNotCandidateAt,
    // RoPE models (issue 25): the steps before and after the rotation (Step::QueryBeforeRope, …); *Normed: with
    // q_norm / k_norm (LayerTrace::headNorm)
    StepQueryBeforeRope, StepKeyBeforeRope, StepQueryBeforeRopeNormed, StepKeyBeforeRopeNormed, StepQueryRope, StepKeyRope,
    ExplainRopeRule,   // {1}, {2}: the pair's columns, {3}: the row m, {4}: i
    ExplainRopeAngle,  // {1}: i, {2}: m, {3}: θ_i, {4}: m·θ_i, {5}: cos, {6}: sin
    ExplainHeadNorm,   // {1}: "q_norm" or "k_norm"
    // Grouped-query attention: {1} the key/value head, {2} the query heads reading it (1-based, "1–2")
    KvShared, ExplainKvShared,
    HeadLabelAttentionSink,
    // attnscope norms / lens / dla (issue 30 §2): the explanation over each table and its column names
    NormSharesNote, NormSharesHeader, LensEmbeddingRow, LensLayerRow,  // LensLayerRow: {1} the layer (1-based)
    LensNoteNext, LensNoteMasked,
    AttributionNote,  // {1} the predicted token, {2} its position (1-based), {3} its logit
    AttributionDirect, AttributionProbabilityOff, AttributionLogitOff,
    AttributionNoteFirstOrder,  // the BERT family's; {1} token, {2} position (1-based), {3} logit
    // attnscope movement (issue 29 §5): what attention did to each word, the same word in two contexts
    MovementNoteLayer,  // {1} the layer (1-based)
    MovementNoteStack,  // {1} the last layer (1-based)
    MovementHeader, StateEntering, StateLeaving,  // State…: {1} the layer (1-based)
    SameWordNote,  // {1} token of A, {2} its position (1-based), {3} token of B, {4} its position
    // The block after attention (lessons, format version 6): step titles by norm and FFN kind, explanations
    StepAddAttention, StepLayerNorm, StepRmsNorm, StepFfnGate, StepFfnHidden, StepFfnUp, StepFfnRelu, StepFfnGelu, StepFfnSwiGlu, StepFfnOutput, StepFfnDown, StepAddFfn, StepFinalLayerNorm, StepFinalRmsNorm, StepLogits, StepProbabilities, StepWGate, StepW1, StepWUp, StepW2, StepWDown, StepWVocab, ExplainBlockResidual, ExplainFfnResidual, ExplainLayerNormRule, ExplainRmsNormRule, ExplainNormMean, ExplainNormVariance, ExplainNormMeanSquare, ExplainNormRoot, ExplainNormDivision, ExplainNormScale, ExplainNormShift, ExplainRelu, ExplainGelu, ExplainSwiGlu, ExplainGateProducts, ExplainUpProducts, ExplainNextWord,
    // Heads that share keys (core/trace/kv_cost.cpp, issue 29 §3): {1} H, {2} H_kv, {3} the W_O term or nothing;
    // a row: {1} H_kv, {2} its kind, {3} the parameters' sum, {4} their count, {5} the cache's product, {6} its
    // count, {7} KvCostThisRun or nothing
    KvCostHeader, KvCostRow, KvKindMultiHead, KvKindGrouped, KvKindMultiQuery, KvCostThisRun,
    // Encoder–decoder lessons (format version 8): the stages' headings ({1} the tokens, {2} the source
    // tokens), the teacher-forcing table's column names (separated by "|"),
    // and its mean ({1} the labels, {2} the mean)
    StageEncoder, StageDecoderSelf, StageCross, StageLabels, TeacherForcingHeader, TeacherForcingMean,
    // The cross stage of an encoder–decoder (isDecoderCrossStage): what its first matrices are, their cells
    // ({1} the token, {2} its position), and its residual sum
    StepDecoderState, StepEncoderOutput, ExplainDecoderState, ExplainEncoderOutput, StepAddCross,
    // A RoPE lesson without projections: what is turned is X itself
    StepQueryBeforeRopeIsInput, StepKeyBeforeRopeIsInput,
    // What y is at one layer (core/analysis/token_movement.hpp, LayerOutput)
    LayerOutputAttentionOnly, LayerOutputResidual, LayerOutputWholeLayer,
    // Why Compare is off on the decoder's masked self-attention (the window's tooltip, compare --stage)
    CompareReadsOnlyTarget,
    Count
};

}  // namespace attnscope
