#include "core/text/messages.hpp"

#include <array>

namespace attnscope {

namespace {

struct Entry {
    MessageId id;
    std::string_view english, chinese;
};

// One row per id, in MessageId order (the test checks the order and that both texts exist). A table:
// its rows are alike in shape (duplicates lists runs of them), each a different text.
constexpr std::array<Entry, static_cast<std::size_t>(MessageId::Count)> kMessages{{
    {MessageId::StepEmbedding, "Embedding: each token's vector", "嵌入：每个词元的向量"},
    {MessageId::StepInput, "Input X = E + positional encoding", "输入 X = E + 位置编码"},
    {MessageId::StepQuery, "Queries Q = X·W_Q", "查询 Q = X·W_Q"},
    {MessageId::StepKey, "Keys K = X·W_K", "键 K = X·W_K"},
    {MessageId::StepValue, "Values V = X·W_V", "值 V = X·W_V"},
    {MessageId::StepScores, "Scores S = Q·Kᵀ", "分数 S = Q·Kᵀ"},
    {MessageId::StepScaled, "Scaled scores S / √d_k", "缩放后的分数 S / √d_k"},
    {MessageId::StepMasked, "Masked scores (causal mask)", "掩码后的分数（因果掩码）"},
    {MessageId::StepWeights, "Attention weights A = softmax(rows)", "注意力权重 A = softmax（按行）"},
    {MessageId::StepWeightedSum, "Weighted sum A·V", "加权和 A·V"},
    {MessageId::StepConcat, "Concatenation of heads", "各头的拼接"},
    {MessageId::StepOutput, "Output = concat·W_O", "输出 = concat·W_O"},
    {MessageId::StepPositional, "Positional encoding P", "位置编码 P"},
    {MessageId::StepWQ, "Weights W_Q", "权重 W_Q"},
    {MessageId::StepWK, "Weights W_K", "权重 W_K"},
    {MessageId::StepWV, "Weights W_V", "权重 W_V"},
    {MessageId::StepWO, "Weights W_O", "权重 W_O"},
    {MessageId::StepMask, "Mask M (0 keeps, −∞ hides)", "掩码 M（0 保留，−∞ 屏蔽）"},
    {MessageId::StepSourceInput, "Source input X_src (keys and values come from it)", "源输入 X_src（键和值来自它）"},
    {MessageId::StepMaskedCausalPadding, "Masked scores (causal and padding mask)", "掩码后的分数（因果掩码和填充掩码）"},
    {MessageId::StepMaskedPadding, "Masked scores (padding mask)", "掩码后的分数（填充掩码）"},
    {MessageId::StepInputResidual, "Input of layer {1}: X{2} = X{3} + output{3} (residual)",
     "第 {1} 层的输入：X{2} = X{3} + output{3}（残差）"},
    {MessageId::StepInputPassedOn, "Input of layer {1}: what layer {2} passed on", "第 {1} 层的输入：第 {2} 层传下来的结果"},
    {MessageId::StepQueryIsInput, "Queries Q = X (no projection)", "查询 Q = X（无投影）"},
    {MessageId::StepKeyIsInput, "Keys K = X (no projection)", "键 K = X（无投影）"},
    {MessageId::StepValueIsInput, "Values V = X (no projection)", "值 V = X（无投影）"},
    // Notices
    {MessageId::NoticeInLayer, "layer {1}, ", "第 {1} 层，"},
    {MessageId::NoticeInHead, "head {1}: ", "第 {1} 头："},
    {MessageId::NoticeRowNaN, "scores of \"{1}\" contain NaN: its weights are undefined", "“{1}”的分数含有 NaN：其权重没有定义"},
    {MessageId::NoticeRowNaNNumbered, "scores of row {1} contain NaN: its weights are undefined", "第 {1} 行的分数含有 NaN：其权重没有定义"},
    {MessageId::NoticeRowMasked, "every score of \"{1}\" is masked: it attends to nothing (weights 0)",
     "“{1}”的每个分数都被掩码：它不关注任何词元（权重为 0）"},
    {MessageId::NoticeRowMaskedNumbered, "every score of row {1} is masked: it attends to nothing (weights 0)",
     "第 {1} 行的每个分数都被掩码：它不关注任何词元（权重为 0）"},
    {MessageId::NoticeRowInfinite, "scores of \"{1}\" contain +inf: the weight is split among those",
     "“{1}”的分数含有 +inf：权重在这些分数之间平分"},
    {MessageId::NoticeRowInfiniteNumbered, "scores of row {1} contain +inf: the weight is split among those",
     "第 {1} 行的分数含有 +inf：权重在这些分数之间平分"},
    {MessageId::NoticePositionalTableShort, "the positional table has {1} rows; later positions add zeros",
     "位置表只有 {1} 行；之后的位置加 0"},
    {MessageId::NoticeLessonTruncated, "the sentence has {1} tokens; only the first {2} are shown", "句子有 {1} 个词元；只显示前 {2} 个"},
    {MessageId::NoticeCrossNoCausalMask,
     "no causal mask in cross-attention: every target token may read the whole source (the mask orders the tokens of one sentence)",
     "交叉注意力中没有因果掩码：每个目标词元都可以读取整个源句子（因果掩码只为同一句子中的词元排序）"},
    {MessageId::NoticeCrossFirstLayer, "cross-attention uses the weights of layer 1 of {1}", "交叉注意力使用 {1} 层中第 1 层的权重"},
    {MessageId::NoticeAblation, "heads switched off (layer:head): {1}; their weights are shown as computed, their output is zero",
     "已关闭的头（层:头）：{1}；其注意力权重按计算结果显示，输出为零"},
    {MessageId::NoticeModelTruncated, "The input has {1} tokens; this model reads at most {2}, so only the first {2} were run.",
     "输入有 {1} 个词元；此模型最多读取 {2} 个，因此只运行了前 {2} 个。"},
    {MessageId::NoticeSentenceTruncated,
     "The sentence has {1} tokens; the model reads at most {2} besides its special tokens, so only the first {2} are used.",
     "句子有 {1} 个词元；除特殊词元外，模型最多读取 {2} 个，因此只使用前 {2} 个。"},
    {MessageId::NoticeDecoderTied, "the masked-LM decoder is tied to the word embeddings", "掩码语言模型的解码器与词嵌入共享权重"},
    {MessageId::NoticeLmHeadTied, "the language-model head is tied to the word embeddings", "语言模型输出层与词嵌入共享权重"},
    {MessageId::NoticeTokenizerLarger, "The tokenizer knows {1} ids but the model only {2}; sentences using the extra ids cannot run.",
     "分词器有 {1} 个 id，而模型只有 {2} 个；用到多出的 id 的句子无法运行。"},
    {MessageId::NoticeWordsHashed, "not in the lesson's embedding table, so their vectors are made up by the hash rule: {1}",
     "课程的嵌入表中没有这些词，它们的向量由哈希规则编造：{1}"},
    {MessageId::NoticeWordsZeroed, "not in the lesson's embedding table, so their vectors are zeros: {1}",
     "课程的嵌入表中没有这些词，它们的向量为零：{1}"},
    {MessageId::CorefMadeUpWords, "not in the lesson's embedding table, so these scores rest on made-up vectors: {1}",
     "课程的嵌入表中没有这些词，所以这些分数建立在编造的向量上：{1}"},
    // Cell explanations
    {MessageId::ExplainHead, ", head {1}", "，第 {1} 头"},
    {MessageId::ExplainLayer, ", layer {1}", "，第 {1} 层"},
    {MessageId::ExplainNoProjections, "(no projections in this lesson: Q = K = V = X)", "（本课没有投影：Q = K = V = X）"},
    {MessageId::ExplainProjection, "(row of {1} times column of {2})", "（{1} 的行乘以 {2} 的列）"},
    {MessageId::ExplainBias, "bias {1}", "偏置 {1}"},
    {MessageId::ExplainScores, "(how well {1}'s query matches {2}'s key)", "（{1} 的查询与 {2} 的键有多匹配）"},
    {MessageId::ExplainScoresCross, "(how well {1}'s query matches {2}'s key (a source token))", "（{1} 的查询与源词元 {2} 的键有多匹配）"},
    {MessageId::ExplainScaled, "with d_k = {1}, √d_k = {2}", "其中 d_k = {1}，√d_k = {2}"},
    {MessageId::ExplainMaskPadding, "{1} is padding: hidden from every query (−∞, so its weight becomes 0)",
     "{1} 是填充：对每个查询都屏蔽（−∞，因此其权重为 0）"},
    {MessageId::ExplainMaskLater, "{1} comes after {2}: hidden (−∞, so its weight becomes 0)", "{1} 在 {2} 之后：屏蔽（−∞，因此其权重为 0）"},
    {MessageId::ExplainMaskCross, "no mask in cross-attention: every source token is visible (add 0)", "交叉注意力没有掩码：每个源词元都可见（加 0）"},
    {MessageId::ExplainMaskEarlier, "{1} is at or before {2}: visible (add 0)", "{1} 在 {2} 处或之前：可见（加 0）"},
    {MessageId::ExplainMaskReal, "{1} is a real token: visible (add 0)", "{1} 是真实词元：可见（加 0）"},
    {MessageId::ExplainMaskRuleCausalPadding, "(M is −∞ for later tokens and for [PAD], else 0)", "（M 对后面的词元和 [PAD] 为 −∞，其余为 0）"},
    {MessageId::ExplainMaskRulePadding, "(M is −∞ in the [PAD] columns, else 0)", "（M 在 [PAD] 列为 −∞，其余为 0）"},
    {MessageId::ExplainMaskRuleCausal, "(M is 0 for earlier tokens, −∞ for later ones)", "（M 对前面的词元为 0，对后面的词元为 −∞）"},
    {MessageId::ExplainMaskRuleNone, "(M is 0 everywhere)", "（M 处处为 0）"},
    {MessageId::ExplainSoftmax, ", with the row maximum {1} subtracted so no exponential overflows", "，先减去行最大值 {1}，使指数不会溢出"},
    {MessageId::ExplainExpFor, "{1} for {2}", "{2} 的 {1}"},
    {MessageId::ExplainWeightedSum, "(each token's value, weighted by {1}'s attention)", "（每个词元的值，按 {1} 的注意力加权）"},
    {MessageId::ExplainWeightedSumCross, "(each source token's value, weighted by {1}'s attention)", "（每个源词元的值，按 {1} 的注意力加权）"},
    {MessageId::ExplainHeadOff, "this head is switched off (head_mask 0): ", "此头已关闭（head_mask 0）："},
    {MessageId::ExplainConcat, "column {1} of the concatenation is column {2} of head {3}'s output", "拼接的第 {1} 列是第 {3} 头输出的第 {2} 列"},
    {MessageId::ExplainConcatTerm, "head {1} {2}", "第 {1} 头 {2}"},
    {MessageId::ExplainNoWO, "(this layer has no W_O)", "（此层没有 W_O）"},
    {MessageId::ExplainLookup, "looked up: row \"{1}\" of the embedding table, feature {2}", "查表：嵌入表中“{1}”这一行的第 {2} 个特征"},
    {MessageId::ExplainHashRule,
     "\"{1}\" is not in the table, so the hash rule gives it a vector: (FNV-1a-32(\"{1}\" + byte {2}) = {3}) mod 5 = {4}, minus 2",
     "“{1}”不在表中，因此由哈希规则给出它的向量：(FNV-1a-32(\"{1}\" + 字节 {2}) = {3}) mod 5 = {4}，再减 2"},
    {MessageId::ExplainZeroRule, "\"{1}\" is not in the table, and this lesson gives such words zero vectors: 0",
     "“{1}”不在表中，本课程给这样的词零向量：0"},
    {MessageId::ExplainPositionColumn, "(token {1}: pos = {2}; column {3})", "（第 {1} 个词元：pos = {2}；第 {3} 列）"},
    {MessageId::ExplainPositionalTableRow, "row {1} of the lesson's positional table", "本课位置表的第 {1} 行"},
    {MessageId::ExplainPassedOn, "the vector layer {1} passed on (after parts this view does not show)",
     "第 {1} 层传下来的向量（经过本视图未显示的部分）"},
    {MessageId::ExplainResidual,
     "residual connection: X of this layer = X of layer {1} + output of layer {1} (the layer adds what it found to what the token already was)",
     "残差连接：本层的 X = 第 {1} 层的 X + 第 {1} 层的输出（该层把它找到的内容加到词元原有的向量上）"},
    {MessageId::ExplainOfLayer, "{1} of layer {2}", "第 {2} 层的 {1}"},
    {MessageId::ExplainInput, "X = E + P: the token's vector plus the encoding of its position", "X = E + P：词元的向量加上其位置的编码"},
    {MessageId::ExplainSourceInput,
     "X_src[{1}] = E + P: the source token's vector plus the encoding of its position (token {2} of the source sentence)",
     "X_src[{1}] = E + P：源词元的向量加上其位置（源句子的第 {2} 个词元）的编码"},
    {MessageId::ExplainLessonWeight, "a weight of the lesson (edit it in the weights editor)", "本课的一个权重（可在权重编辑器中修改）"},
    {MessageId::ExplainSumOfExponentials, "sum of exponentials = {1}", "指数之和 = {1}"},
    {MessageId::ExplainSum, "sum = {1}", "和 = {1}"},
    {MessageId::ExplainHandRounded, "hand-rounded to {1} decimals: {2}", "手算舍入到 {1} 位小数：{2}"},
    {MessageId::ExplainValue, "value = {1}", "值 = {1}"},
    // Block titles
    {MessageId::TitleInLayer, "Layer {1}: {2}", "第 {1} 层：{2}"},
    {MessageId::TitleOfHead, "{1} — head {2}", "{1} — 第 {2} 头"},
    {MessageId::TitleOfCell, "{1}: {2}", "{1}：{2}"},  // an explanation's title: the step, then the cell
    // Worksheets
    {MessageId::WorksheetTokens, "Tokens", "词元"},
    {MessageId::WorksheetGiven, "Given", "已知"},
    {MessageId::WorksheetCompute, "Fill in the blanks", "填空"},
    {MessageId::WorksheetDecimals, "Write each answer with {1} decimals.", "每个答案保留 {1} 位小数。"},
    {MessageId::WorksheetAnswerKey, "Answer key", "答案"},
    {MessageId::WorksheetHowComputed, "How each answer is computed", "每个答案的计算过程"},
    // The lab
    {MessageId::SynthesizerDotProduct, "Dot product", "点积"},
    {MessageId::SynthesizerDense, "Dense", "稠密"},
    {MessageId::SynthesizerRandom, "Random", "随机"},
    {MessageId::SynthesizerFactorizedDense, "Factorized Dense", "分解稠密"},
    {MessageId::SynthesizerFactorizedRandom, "Factorized Random", "分解随机"},
    {MessageId::SynthesizerMixture, "Mixture", "混合"},
    {MessageId::LabEachOfHeads, "(each of {1} heads)", "（{1} 个头各一份）"},
    {MessageId::LabEachOfOneHead, "(each of {1} head)", "（{1} 个头）"},
    // Predictions
    {MessageId::PredictionNextToken, "next token after position {1} ({2})", "位置 {1}（{2}）之后的下一个词元"},
    {MessageId::PredictionMaskedToken, "{2} at position {1}", "位置 {1} 的 {2}"},
    // Coreference scoring
    {MessageId::ScoringRollout, "attention rollout over all layers", "贯穿所有层的注意力展开"},
    {MessageId::ScoringLayer, "mean of all {1} heads of layer {2}", "第 {2} 层全部 {1} 个头的平均"},
    {MessageId::ScoringHead, "layer {1} head {2}", "第 {1} 层第 {2} 头"},
    {MessageId::ScoringHeadSet, "mean of {1} heads ({2})", "{1} 个头的平均（{2}）"},
    // Labels of the text exports
    {MessageId::LabelTokens, "tokens: ", "词元："},
    {MessageId::LabelTokensMarkdown, "**Tokens:** ", "**词元：** "},
    {MessageId::LabelSourceTokens, "source tokens (keys, values): ", "源词元（键和值）："},
    {MessageId::LabelSourceTokensMarkdown, "**Source tokens (keys, values):** ", "**源词元（键和值）：** "},
    {MessageId::LabelHandRounding, "hand-rounding: every step rounded to {1} decimals", "手算舍入：每一步舍入到 {1} 位小数"},
    {MessageId::LabelNotice, "notice: ", "提示："},
    {MessageId::LabelModel, "model: ", "模型："},
    {MessageId::LabelModelMarkdown, "**Model:** ", "**模型：** "},
    {MessageId::LabelModelShape, "{1} ({2}, {3} layers × {4} heads)", "{1}（{2}，{3} 层 × {4} 个头）"},
    {MessageId::LabelModelLayer, ", layer {1}", "，第 {1} 层"},
    {MessageId::LabelLesson, "lesson: ", "课程："},
    {MessageId::ListSeparator, ", ", "，"},
    // Coreference text
    {MessageId::CorefNoPronoun, "no pronoun found (choose a word with --mention)", "未找到代词（用 --mention 选择一个词）"},
    {MessageId::CorefScoring, "scoring: {1}", "打分：{1}"},
    {MessageId::CorefMention, "mention \"{1}\" (word {2}), {3} candidates:", "指称“{1}”（第 {2} 个词），{3} 个候选："},
    {MessageId::CorefRenormalised, "  scores renormalised over the candidates, which received {1} of the mention's attention",
     "  分数在候选之间重新归一化，候选共得到该指称注意力的 {1}"},
    {MessageId::CorefNone, "(none)", "（无）"},
    {MessageId::CorefChosen, "chosen", "选中"},
    {MessageId::CorefNearest, "nearest", "最近"},
    {MessageId::CorefRule, "rule", "规则"},
    {MessageId::CorefSummary, "{1} → {2}{3} (nearest: {4}, rule: {5})", "{1} → {2}{3}（最近：{4}，规则：{5}）"},
    {MessageId::CorefPerHead, "per head, score of {1}:", "各头给 {1} 的分数："},
    {MessageId::EvalSummary, "coreference set: {1}, {2} of {3} examples evaluated ({4} skipped), {5} × {6}",
     "共指数据集：{1}，评估了 {3} 个样例中的 {2} 个（跳过 {4} 个），{5} × {6}"},
    {MessageId::EvalLayer, "{1} layer", "{1} 层"},
    {MessageId::EvalLayers, "{1} layers", "{1} 层"},
    {MessageId::EvalHead, "{1} head", "{1} 个头"},
    {MessageId::EvalHeads, "{1} heads", "{1} 个头"},
    {MessageId::EvalNearest, "baseline: nearest mention", "基线：最近指称"},
    {MessageId::EvalRule, "baseline: rule-based", "基线：规则"},
    {MessageId::EvalRollout, "attention rollout:", "注意力展开："},
    {MessageId::EvalRankingHeader, "rank  layer  head  accuracy  95% interval      correct",
     "排名     层    头    准确率  95% 区间          正确"},
    {MessageId::EvalSkipped, "skipped:", "跳过的样例："},
    {MessageId::EvalIntervals, "intervals: {1}% bootstrap over the {2} evaluated examples (sentences resampled), {3} resamples, seed {4}",
     "区间：对 {2} 个已评估样例（按句子重采样）的 {1}% 自助法区间，重采样 {3} 次，种子 {4}"},
    {MessageId::EvalRandom, "baseline: random candidate (expected)", "基线：随机候选（期望值）"},
    {MessageId::EvalFirst, "baseline: first candidate", "基线：第一个候选"},
    {MessageId::EvalControl, "random-weights control (weights shuffled, seed {1}): best head {2} {3} {4}, would rank {5} among the trained heads",
     "随机权重对照（权重打乱，种子 {1}）：最佳头 {2} {3} {4}，在训练模型的头中排第 {5}"},
    {MessageId::EvalAboveRule, "above rule", "高于规则"},
    {MessageId::EvalAboveRuleNote, "above rule: the paired bootstrap interval of (head − rule baseline) lies above 0; not corrected for choosing among {1} heads",
     "高于规则：（头 − 规则基线）的配对自助法区间大于 0；未对从 {1} 个头中挑选做校正"},
    // Head and corpus statistics
    // The names of head statistics' text columns, set over the numbers by headStatsToText.
    {MessageId::HeadStatsHeader, "layer head entropy delimiter previous next self first coref label",
     "层 头 熵 分隔符 前词 后词 自身 首词元 共指 标签"},  // the glossary's badges: narrow enough for the columns
    {MessageId::HeadLabelDelimiterSink, "delimiter sink", "分隔符汇聚"},
    {MessageId::HeadLabelPreviousToken, "previous-token", "前一词元"},
    {MessageId::HeadLabelNextToken, "next-token", "后一词元"},
    {MessageId::HeadLabelSelf, "self", "自身"},
    {MessageId::HeadLabelBroad, "broad", "广泛"},
    {MessageId::HeadLabelMixed, "mixed", "混合"},
    {MessageId::HeadLabelCoreference, "coreference", "共指"},
    {MessageId::CorpusSummary, "{1} sentences, {2} tokens; shares are means over every token (query)",
     "{1} 个句子，{2} 个词元；占比为所有词元（查询）上的平均值"},
    // The columns of corpusStatsToText, in the order of its kColumns (core/analysis/corpus_export.cpp)
    {MessageId::CorpusHeader, "layer head first last punctuation previous self next same_token entropy uniform_entropy",
     "层 头 首词元 末词元 标点 前一词元 自身 后一词元 相同词元 熵 均匀分布熵"},
    {MessageId::CorpusAt, "{1}: ", "{1}："},
    {MessageId::CorpusAtLine, "{1}: line {2}: ", "{1}：第 {2} 行："},
    {MessageId::NoticeCorpusCapped, "read the first {1} sentences; {2} more lines left out (the cap is {1} sentences)",
     "只读取了前 {1} 个句子；其余 {2} 行未读（上限为 {1} 个句子）"},
    {MessageId::NoticeCorpusSkippedLong, "skipped {1} sentences longer than {2} tokens", "跳过了 {1} 个超过 {2} 个词元的句子"},
    {MessageId::NoticeCorpusMoreNotices, "{1} more sentences had notices (not shown)", "另有 {1} 个句子有提示（未显示）"},
    {MessageId::QkSummary,
     "{1} queries, {2} keys; {3}PC1 explains {4} %, PC2 {5} % of the variance; correlation of 2-D distance and dot "
     "product: {6}; softmax unchanged by the normalisation (largest difference {7})",
     "{1} 个查询，{2} 个键；{3}PC1 解释了 {4} % 的方差，PC2 解释了 {5} %；二维距离与点积的相关系数：{6}；"
     "归一化不改变 softmax（最大差异 {7}）"},
    {MessageId::QkTsne, "t-SNE (perplexity {1}); ", "t-SNE（困惑度 {1}）；"},
    {MessageId::CompareByPosition, "aligned by position (as many tokens in A as in B)", "按位置对齐（A 与 B 的词元数相同）"},
    {MessageId::CompareByWord, "aligned by word (the token counts differ): {1} words in common or paired",
     "按词对齐（词元数不同）：{1} 个共有或配对的词"},
    {MessageId::CompareOnlyInA, "only in A (left out): {1}", "只在 A 中（略去）：{1}"},
    {MessageId::CompareOnlyInB, "only in B (left out): {1}", "只在 B 中（略去）：{1}"},
    {MessageId::CompareHeadsOff, "heads switched off in both: {1}", "两次运行中都关闭的头：{1}"},
    {MessageId::CompareBlock, "{1}, layer {2}, head {3}", "{1}，第 {2} 层，第 {3} 个头"},
    {MessageId::SkipMentionNotWords, "mention \"{1}\" is not a run of whole words here", "指称“{1}”在这里不是由完整的词组成的"},
    {MessageId::SkipMentionNotWordsAt, "mention \"{1}\" (occurrence {2}) is not a run of whole words here",
     "指称“{1}”（第 {2} 次出现）在这里不是由完整的词组成的"},
    {MessageId::SkipAntecedentNotWords, "antecedent \"{1}\" is not a run of whole words here", "先行词“{1}”在这里不是由完整的词组成的"},
    {MessageId::SkipAntecedentNotWordsAt, "antecedent \"{1}\" (occurrence {2}) is not a run of whole words here",
     "先行词“{1}”（第 {2} 次出现）在这里不是由完整的词组成的"},
    {MessageId::SkipNotCandidate,
     "antecedent \"{1}\" is not a candidate (a stop-word, punctuation, or after the mention without cataphora)",
     "先行词“{1}”不是候选词（是停用词、标点，或在未开启后指时位于指称之后）"},
    {MessageId::SkipNotCandidateAt,
     "antecedent \"{1}\" (occurrence {2}) is not a candidate (a stop-word, punctuation, or after the mention without "
     "cataphora)",
     "先行词“{1}”（第 {2} 次出现）不是候选词（是停用词、标点，或在未开启后指时位于指称之后）"},
    {MessageId::StepQueryBeforeRope, "Queries before RoPE  Q_pre = X·W_Q", "RoPE 之前的查询 Q_pre = X·W_Q"},
    {MessageId::StepKeyBeforeRope, "Keys before RoPE  K_pre = X·W_K", "RoPE 之前的键 K_pre = X·W_K"},
    {MessageId::StepQueryBeforeRopeNormed, "Queries before RoPE  Q_pre = q_norm(X·W_Q)", "RoPE 之前的查询 Q_pre = q_norm(X·W_Q)"},
    {MessageId::StepKeyBeforeRopeNormed, "Keys before RoPE  K_pre = k_norm(X·W_K)", "RoPE 之前的键 K_pre = k_norm(X·W_K)"},
    {MessageId::StepQueryRope, "RoPE: queries turned by position  Q = RoPE(Q_pre)", "RoPE：按位置旋转的查询 Q = RoPE(Q_pre)"},
    {MessageId::StepKeyRope, "RoPE: keys turned by position  K = RoPE(K_pre)", "RoPE：按位置旋转的键 K = RoPE(K_pre)"},
    {MessageId::ExplainRopeRule,
     "RoPE turns the pair of columns ({1}, {2}) of {3}'s row (m = {4}, its position counted from 0) by the angle m·θ_{5}",
     "RoPE 把“{3}”这一行（m = {4}，从 0 数起的位置）的列对 ({1}, {2}) 旋转角度 m·θ_{5}"},
    {MessageId::ExplainRopeAngle, "angle m·θ_{1} = {2} × {3} = {4} rad; cos = {5}, sin = {6}",
     "角度 m·θ_{1} = {2} × {3} = {4} 弧度；cos = {5}，sin = {6}"},
    {MessageId::ExplainHeadNorm, "; then {1} (RMSNorm over this head's d_k values, times its weight) turns the sum into the value",
     "；然后 {1}（对该头的 d_k 个值做 RMSNorm，再乘以其权重）把和变为该值"},
    {MessageId::KvShared, "K/V head {1}, shared by query heads {2}", "K/V 头 {1}，由查询头 {2} 共用"},
    {MessageId::ExplainKvShared, ", K/V head {1}, shared by query heads {2}", "，K/V 头 {1}，由查询头 {2} 共用"},
    {MessageId::HeadLabelAttentionSink, "attention sink", "注意力汇点"},
    // attnscope norms, lens, dla (issue 30 §2)
    {MessageId::NormSharesNote,
     "share of attention on the first token and on special tokens, by weight α and by norm ‖α·f(x)‖ "
     "(Kobayashi et al. 2020; f(x) = (x·W_V + b_V)·W_O of the head), mean over queries 2…T",
     "注意力落在第一个词元和特殊词元上的占比：按权重 α 与按范数 ‖α·f(x)‖ 计算"
     "（Kobayashi 等 2020；f(x) = 该头的 (x·W_V + b_V)·W_O），对第 2…T 个查询取平均"},
    {MessageId::NormSharesHeader, "weight→first norm→first weight→special norm→special",  // the columns, space-separated
     "权重→首词元 范数→首词元 权重→特殊词元 范数→特殊词元"},
    {MessageId::LensEmbeddingRow, "embeddings", "嵌入"},
    {MessageId::LensLayerRow, "layer {1}", "第 {1} 层"},
    {MessageId::LensNoteNext,
     "logit lens: each layer's residual stream through the final norm and the output head; each cell is the most "
     "likely next token after that position, with its probability",
     "logit 透镜：每一层的残差流经过最终归一化和输出头；每个单元格是该位置之后最可能的下一个词元及其概率"},
    {MessageId::LensNoteMasked,
     "logit lens: each layer's residual stream through the masked-LM head, at the [MASK] positions; each cell is the "
     "most likely token there, with its probability",
     "logit 透镜：每一层的残差流在 [MASK] 位置经过掩码语言模型头；每个单元格是该处最可能的词元及其概率"},
    {MessageId::AttributionNote,
     "direct logit attribution of “{1}” at position {2} (logit {3}): each head's output through W_O, the final norm "
     "with its scale frozen, and the output head; beside it, the same head switched off",
     "“{1}”在位置 {2} 的直接 logit 归因（logit {3}）：每个头的输出经过 W_O、冻结缩放的最终归一化和输出头；"
     "旁边是关闭该头后的结果"},
    {MessageId::AttributionDirect, "direct logit", "直接 logit"},
    {MessageId::AttributionProbabilityOff, "p, head off", "p（关闭该头）"},
    {MessageId::AttributionLogitOff, "logit, head off", "logit（关闭该头）"},
    {MessageId::AttributionNoteFirstOrder,
     "first-order direct logit attribution of “{1}” at position {2} (logit {3}): each head's output through W_O and "
     "the residual route to the masked-LM head, every LayerNorm's scale 1/σ frozen at this run and the head's GELU "
     "replaced by its slope here (later attention and feed-forward blocks are off the route; the shares need not add "
     "up to the logit); beside it, the same head switched off",
     "“{1}”在位置 {2} 的一阶直接 logit 归因（logit {3}）：每个头的输出经过 W_O 和残差路径到达掩码语言模型头，"
     "每个层归一化的缩放 1/σ 冻结为本次运行的值，头中的 GELU 换成它在此处的斜率（之后的注意力和前馈块不在这条路径上，"
     "各份额之和不必等于 logit）；旁边是关闭该头后的结果"},
    // The block after attention (issue 29 §1)
    // attnscope movement (issue 29 §5)
    {MessageId::MovementNoteLayer,
     "what layer {1} did to each word: x entering it, y leaving it, how far it moved (‖y − x‖, cos(x, y)), and where "
     "its attention took the new content from: per source word j, ‖Σ_h α_ij·v_j·W_O^h‖, largest first",
     "第 {1} 层对每个词做了什么：进入该层的 x、离开该层的 y、移动了多远（‖y − x‖、cos(x, y)），以及注意力从哪里取来新内容："
     "按来源词 j 列出 ‖Σ_h α_ij·v_j·W_O^h‖，从大到小"},
    {MessageId::MovementNoteStack,
     "what the whole stack did to each word: x entering layer 1, y leaving layer {1}, how far it moved (‖y − x‖, cos(x, y))",
     "整个层栈对每个词做了什么：进入第 1 层的 x、离开第 {1} 层的 y、移动了多远（‖y − x‖、cos(x, y)）"},
    {MessageId::MovementHeader, "‖y−x‖ cos(x,y) sources", "‖y−x‖ cos(x,y) 来源"},  // the columns, space-separated
    {MessageId::StateEntering, "entering layer {1}", "进入第 {1} 层"},
    {MessageId::StateLeaving, "leaving layer {1}", "离开第 {1} 层"},
    {MessageId::SameWordNote,
     "the same word in two contexts: cosine similarity of \"{1}\" (A, token {2}) and \"{3}\" (B, token {4}), layer by layer",
     "同一个词在两个语境中：“{1}”（A，第 {2} 个词元）与“{3}”（B，第 {4} 个词元）逐层的余弦相似度"},
    {MessageId::StepAddAttention, "Residual connection R = X + attention output", "残差连接 R = X + 注意力输出"},
    {MessageId::StepLayerNorm, "LayerNorm N = (x − μ) / √(σ² + ε) · γ + β", "层归一化 N = (x − μ) / √(σ² + ε) · γ + β"},
    {MessageId::StepRmsNorm, "RMSNorm N = x / √(mean(x²) + ε) · γ", "RMS 归一化 N = x / √(mean(x²) + ε) · γ"},
    {MessageId::StepFfnGate, "Feed-forward gate G = N·W_gate", "前馈网络的门 G = N·W_gate"},
    {MessageId::StepFfnHidden, "Feed-forward hidden layer H = N·W_1 + b_1", "前馈网络的隐藏层 H = N·W_1 + b_1"},
    {MessageId::StepFfnUp, "Feed-forward up projection U = N·W_up", "前馈网络的上投影 U = N·W_up"},
    {MessageId::StepFfnRelu, "ReLU max(0, H)", "ReLU 激活 max(0, H)"},
    {MessageId::StepFfnGelu, "GELU H·Φ(H)", "GELU 激活 H·Φ(H)"},
    {MessageId::StepFfnSwiGlu, "SwiGLU SiLU(G) ⊙ U", "SwiGLU 激活 SiLU(G) ⊙ U"},
    {MessageId::StepFfnOutput, "Feed-forward output F = act·W_2 + b_2", "前馈网络的输出 F = act·W_2 + b_2"},
    {MessageId::StepFfnDown, "Feed-forward output F = (SiLU(G) ⊙ U)·W_down", "前馈网络的输出 F = (SiLU(G) ⊙ U)·W_down"},
    {MessageId::StepAddFfn, "Residual connection R₂ = N + F", "残差连接 R₂ = N + F"},
    {MessageId::StepFinalLayerNorm, "Final LayerNorm Y", "最终层归一化 Y"},
    {MessageId::StepFinalRmsNorm, "Final RMSNorm Y", "最终 RMS 归一化 Y"},
    {MessageId::StepLogits, "Logits over the vocabulary Y·W_vocab + b", "词表上的 logit Y·W_vocab + b"},
    {MessageId::StepProbabilities, "Next-word probabilities P = softmax(logits)", "下一个词的概率 P = softmax(logit)"},
    {MessageId::StepWGate, "Weights W_gate", "权重 W_gate"},
    {MessageId::StepW1, "Weights W_1", "权重 W_1"},
    {MessageId::StepWUp, "Weights W_up", "权重 W_up"},
    {MessageId::StepW2, "Weights W_2", "权重 W_2"},
    {MessageId::StepWDown, "Weights W_down", "权重 W_down"},
    {MessageId::StepWVocab, "Output head W_vocab (a column per word)", "输出头 W_vocab（每个词一列）"},
    {MessageId::ExplainBlockResidual, "(the token keeps its vector X and adds what attention found)", "（词元保留自己的向量 X，再加上注意力找到的内容）"},
    {MessageId::ExplainFfnResidual, "(the token keeps its normalised vector N and adds what the feed-forward network found)", "（词元保留归一化后的向量 N，再加上前馈网络找到的内容）"},
    {MessageId::ExplainLayerNormRule, "LayerNorm of row {1}: subtract the row's mean μ, divide by √(σ² + ε), then scale by γ and shift by β", "对 {1} 这一行做层归一化：减去该行的均值 μ，除以 √(σ² + ε)，再乘以 γ、加上 β"},
    {MessageId::ExplainRmsNormRule, "RMSNorm of row {1}: divide by √(mean of squares + ε), then scale by γ", "对 {1} 这一行做 RMS 归一化：除以 √(平方的均值 + ε)，再乘以 γ"},
    {MessageId::ExplainNormMean, "mean μ = ({1}) / {2} = {3}", "均值 μ = ({1}) / {2} = {3}"},
    {MessageId::ExplainNormVariance, "variance σ² = ({1}) / {2} = {3}", "方差 σ² = ({1}) / {2} = {3}"},
    {MessageId::ExplainNormMeanSquare, "mean of squares = ({1}) / {2} = {3}", "平方的均值 = ({1}) / {2} = {3}"},
    {MessageId::ExplainNormRoot, "ε = {1}; √({2} + ε) = {3}", "ε = {1}；√({2} + ε) = {3}"},
    {MessageId::ExplainNormDivision, "divided: {1} = {2}", "相除：{1} = {2}"},
    {MessageId::ExplainNormScale, "times γ[{1}]", "乘以 γ[{1}]"},
    {MessageId::ExplainNormShift, "plus β[{1}]", "加上 β[{1}]"},
    {MessageId::ExplainRelu, "ReLU keeps a positive number and turns a negative one into 0", "ReLU 保留正数，把负数变为 0"},
    {MessageId::ExplainGelu, "GELU(h) = h·Φ(h) = ½·h·(1 + erf(h/√2)), Φ the standard normal distribution", "GELU(h) = h·Φ(h) = ½·h·(1 + erf(h/√2))，Φ 为标准正态分布函数"},
    {MessageId::ExplainSwiGlu, "SwiGLU: the gate g through SiLU, times the up projection u; SiLU(g) = g / (1 + e^−g)", "SwiGLU：门 g 经过 SiLU，再乘以上投影 u；SiLU(g) = g / (1 + e^−g)"},
    {MessageId::ExplainGateProducts, "gate g = {1} = {2}", "门 g = {1} = {2}"},
    {MessageId::ExplainUpProducts, "up u = {1} = {2}", "上投影 u = {1} = {2}"},
    {MessageId::ExplainNextWord, "(the probability that {1} comes next, over the {2} words of the vocabulary)", "（下一个词是 {1} 的概率，在词表的 {2} 个词中）"},
    {MessageId::KvCostHeader,
     "Heads that share keys: {1} query heads read {2} key/value heads. Per layer, parameters = d·H·d_k (W_Q) + "
     "d·H_kv·(d_k + d_v) (W_K, W_V){3}; the K/V cache keeps H_kv·(d_k + d_v) numbers per token:",
     "共用键的头：{1} 个查询头读取 {2} 个键/值头。每层参数 = d·H·d_k（W_Q）+ d·H_kv·(d_k + d_v)（W_K、W_V）{3}；"
     "K/V 缓存每个词元保存 H_kv·(d_k + d_v) 个数："},
    {MessageId::KvCostRow, "H_kv = {1} {2}: {3} = {4} parameters; K/V cache {5} = {6} numbers per token{7}",
     "H_kv = {1}{2}：{3} = {4} 个参数；K/V 缓存每个词元 {5} = {6} 个数{7}"},
    {MessageId::KvKindMultiHead, "(multi-head)", "（多头）"},
    {MessageId::KvKindGrouped, "(grouped-query)", "（分组查询）"},
    {MessageId::KvKindMultiQuery, "(multi-query)", "（多查询）"},
    {MessageId::KvCostThisRun, "  ← this run", "  ← 本次运行"},
    {MessageId::StageEncoder, "Encoder: self-attention over the source {1}; its output M = X + attention is what the decoder reads",
     "编码器：对源句 {1} 做自注意力；它的输出 M = X + 注意力输出，供解码器读取"},
    {MessageId::StageDecoderSelf, "Decoder, masked self-attention over the decoder input {1} (teacher forcing: <s> and the target); Y₁ = Y₀ + attention",
     "解码器的掩码自注意力，作用于解码器输入 {1}（教师强制：<s> 加目标句）；Y₁ = Y₀ + 注意力输出"},
    {MessageId::StageCross, "Decoder, cross-attention: queries from the decoder's Y₁ (rows {1}, shown as E and X), keys and values from the encoder output M (columns {2}, shown as X_src); Y₂ = Y₁ + attention, then the output head",
     "解码器的交叉注意力：查询来自解码器的 Y₁（行 {1}，显示为 E 和 X），键和值来自编码器输出 M（列 {2}，显示为 X_src）；Y₂ = Y₁ + 注意力输出，然后是输出头"},
    {MessageId::StageLabels, "Output and labels (teacher forcing): each position is scored on the word after its input word",
     "输出与标签（教师强制）：每个位置都按其输入词之后的那个词打分"},
    {MessageId::TeacherForcingHeader, "position|decoder input|label|p(label)|−ln p(label)", "位置|解码器输入|标签|p(标签)|−ln p(标签)"},
    {MessageId::TeacherForcingMean, "mean loss (cross-entropy over the {1} labels) = {2}", "平均损失（{1} 个标签的交叉熵）= {2}"},
    {MessageId::StepDecoderState, "Decoder state Y₁ (after masked self-attention): the queries come from it",
     "解码器状态 Y₁（掩码自注意力之后）：查询来自它"},
    {MessageId::StepEncoderOutput, "Encoder output M (a row per source word): keys and values come from it",
     "编码器输出 M（每个源词一行）：键和值来自它"},
    {MessageId::ExplainDecoderState,
     "Y₁[{1}] = Y₀ + attention: the decoder's masked self-attention output for token {2} plus its input (the decoder stage)",
     "Y₁[{1}] = Y₀ + 注意力输出：解码器掩码自注意力在第 {2} 个词元处的输出加上其输入（见解码器阶段）"},
    {MessageId::ExplainEncoderOutput,
     "M[{1}] = X + attention: the encoder's output for source token {2} (the encoder stage)",
     "M[{1}] = X + 注意力输出：编码器在源句第 {2} 个词元处的输出（见编码器阶段）"},
    {MessageId::StepAddCross, "Residual connection Y₂ = Y₁ + cross-attention output", "残差连接 Y₂ = Y₁ + 交叉注意力输出"},
    {MessageId::StepQueryBeforeRopeIsInput, "Queries before RoPE  Q_pre = X (no projection)", "RoPE 之前的查询 Q_pre = X（无投影）"},
    {MessageId::StepKeyBeforeRopeIsInput, "Keys before RoPE  K_pre = X (no projection)", "RoPE 之前的键 K_pre = X（无投影）"},
    {MessageId::LayerOutputAttentionOnly, "y = the attention output alone: this lesson has no residual connection, so x is not added to it",
     "y 只是注意力输出：本课没有残差连接，x 不会加到它上面"},
    {MessageId::LayerOutputResidual, "y = x + the attention output: the residual connection", "y = x + 注意力输出：残差连接"},
    {MessageId::LayerOutputWholeLayer,
     "y = the layer's hidden state: x after the layer's attention and its feed-forward network, each added back to x, "
     "with the model's norms",
     "y = 该层的隐藏状态：x 经过该层的注意力和前馈网络，二者各自加回到 x 上，并经过模型的归一化"},
    {MessageId::CompareReadsOnlyTarget,
     "The decoder's masked self-attention reads only the target words, never the sentence: sentence B would give the "
     "same numbers. Compare the encoder or the cross-attention stage.",
     "解码器的掩码自注意力只读目标词，从不读句子：句子 B 会得到完全相同的数字。请在编码器或交叉注意力阶段对比。"},
}};

constexpr bool inIdOrder() {
    for (std::size_t i = 0; i < kMessages.size(); ++i)
        if (static_cast<std::size_t>(kMessages[i].id) != i) return false;
    return true;
}
static_assert(inIdOrder(), "kMessages must list every MessageId once, in order");

// Step order of core/trace/trace.hpp → its title's id.
constexpr std::array<MessageId, 35> kStepTitles{
    MessageId::StepEmbedding, MessageId::StepInput,    MessageId::StepQuery,      MessageId::StepKey,
    MessageId::StepValue,     MessageId::StepScores,   MessageId::StepScaled,     MessageId::StepMasked,
    MessageId::StepWeights,   MessageId::StepWeightedSum, MessageId::StepConcat,  MessageId::StepOutput,
    MessageId::StepPositional, MessageId::StepWQ,      MessageId::StepWK,         MessageId::StepWV,
    MessageId::StepWO,        MessageId::StepMask,     MessageId::StepSourceInput, MessageId::StepQueryBeforeRope,
    MessageId::StepKeyBeforeRope, MessageId::StepAddAttention, MessageId::StepLayerNorm, MessageId::StepFfnGate,
    MessageId::StepFfnHidden, MessageId::StepFfnRelu, MessageId::StepFfnOutput, MessageId::StepAddFfn,
    MessageId::StepFinalLayerNorm, MessageId::StepLogits, MessageId::StepProbabilities, MessageId::StepWGate,
    MessageId::StepW1, MessageId::StepW2, MessageId::StepWVocab};

// 12 → "₁₂", for X₂ = X₁ + output₁.
std::string subscript(int n) {
    static constexpr std::array<std::string_view, 10> kDigits{"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};
    std::string out;
    for (const char digit : std::to_string(n)) out += kDigits[digit - '0'];
    return out;
}

}  // namespace

std::optional<Language> languageFromCode(std::string_view code) {
    if (code == "en" || code.substr(0, 3) == "en_") return Language::English;
    if (code.substr(0, 2) == "zh") return Language::Chinese;
    return std::nullopt;
}

std::string_view message(MessageId id, Language language) {
    const auto index = static_cast<std::size_t>(id);
    if (index >= kMessages.size()) return {};
    return language == Language::Chinese ? kMessages[index].chinese : kMessages[index].english;
}

namespace {

// fillMessage for any sequence of arguments.
template <typename Arguments>
std::string fill(std::string_view text, const Arguments& arguments) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const std::size_t n = i + 2 < text.size() && text[i] == '{' && text[i + 2] == '}' ? text[i + 1] - '1' : 99;
        if (n < arguments.size()) {
            out += *(arguments.begin() + n);
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

}  // namespace

std::string fillMessage(std::string_view text, std::initializer_list<std::string_view> arguments) {
    return fill(text, arguments);
}

std::string fillMessage(std::string_view text, const std::vector<std::string>& arguments) {
    return fill(text, arguments);
}

namespace {

// RoPE models' Q and K (after the rotation) and their inputs (with q_norm / k_norm where the layer has them).
std::optional<MessageId> ropeTitle(const Trace& trace, Step step, int layer) {
    if (!trace.rotates()) return std::nullopt;
    const bool normed = layer >= 0 && layer < trace.layerCount() && trace.layers[static_cast<std::size_t>(layer)].headNorm;
    switch (step) {
        case Step::Query: return MessageId::StepQueryRope;
        case Step::Key: return MessageId::StepKeyRope;
        case Step::QueryBeforeRope:
            if (!trace.projections) return MessageId::StepQueryBeforeRopeIsInput;  // nothing projects X: it is turned itself
            return normed ? MessageId::StepQueryBeforeRopeNormed : MessageId::StepQueryBeforeRope;
        case Step::KeyBeforeRope:
            if (!trace.projections) return MessageId::StepKeyBeforeRopeIsInput;
            return normed ? MessageId::StepKeyBeforeRopeNormed : MessageId::StepKeyBeforeRope;
        default: return std::nullopt;
    }
}

// The block's steps whose title names the kind of norm or feed-forward network.
std::optional<MessageId> blockTitle(const Trace& trace, Step step) {
    const bool rms = step == Step::Norm ? trace.block.norm.kind == BlockNorm::RmsNorm
                                        : trace.block.finalNorm.kind == BlockNorm::RmsNorm;
    const BlockFfn ffn = trace.block.ffn.kind;
    const bool gated = ffn == BlockFfn::SwiGlu;
    switch (step) {
        case Step::Norm: return rms ? MessageId::StepRmsNorm : MessageId::StepLayerNorm;
        case Step::FinalNorm: return rms ? MessageId::StepFinalRmsNorm : MessageId::StepFinalLayerNorm;
        case Step::FfnHidden: return gated ? MessageId::StepFfnUp : MessageId::StepFfnHidden;
        case Step::FfnActivated:
            return gated ? MessageId::StepFfnSwiGlu : ffn == BlockFfn::Gelu ? MessageId::StepFfnGelu : MessageId::StepFfnRelu;
        case Step::FfnOutput: return gated ? MessageId::StepFfnDown : MessageId::StepFfnOutput;
        case Step::WFfnIn: return gated ? MessageId::StepWUp : MessageId::StepW1;
        case Step::WFfnOut: return gated ? MessageId::StepWDown : MessageId::StepW2;
        default: return std::nullopt;
    }
}

// 0, 1, 2, 5 → "1–3, 6" (1-based).
std::string headRanges(const std::vector<int>& heads) {
    std::string out;
    for (std::size_t i = 0; i < heads.size();) {
        std::size_t j = i;
        while (j + 1 < heads.size() && heads[j + 1] == heads[j] + 1) ++j;
        out += (out.empty() ? "" : ", ") + std::to_string(heads[i] + 1) + (j > i ? "–" + std::to_string(heads[j] + 1) : "");
        i = j + 1;
    }
    return out;
}

}  // namespace

std::string kvSharingText(const Trace& trace, int layer, int head, Language language, bool asSuffix) {
    if (layer < 0 || layer >= trace.layerCount()) return {};
    const LayerTrace& l = trace.layers[static_cast<std::size_t>(layer)];
    if (!sharesKeyValueHeads(l) || head < 0 || static_cast<std::size_t>(head) >= l.kvHeadOf.size()) return {};
    const std::string kv = std::to_string(l.kvHeadOf[static_cast<std::size_t>(head)] + 1);
    return fillMessage(message(asSuffix ? MessageId::ExplainKvShared : MessageId::KvShared, language),
                       {kv, headRanges(queryHeadsSharingKv(l, head))});
}

bool readsKeyValueHead(Step step) {
    return step == Step::Key || step == Step::Value || step == Step::KeyBeforeRope || step == Step::WK || step == Step::WV;
}

std::string_view stepTitle(Step step, Language language) {
    return message(kStepTitles.at(static_cast<std::size_t>(step)), language);
}

bool isDecoderCrossStage(const Trace& trace) { return trace.isCrossAttention() && trace.block.present(); }

namespace {

std::optional<MessageId> crossStageTitle(const Trace& trace, Step step) {
    if (!isDecoderCrossStage(trace)) return std::nullopt;
    switch (step) {
        case Step::Embedding: return MessageId::StepDecoderState;
        case Step::SourceInput: return MessageId::StepEncoderOutput;
        case Step::AddAttention: return MessageId::StepAddCross;
        default: return std::nullopt;
    }
}

}  // namespace

std::string stepTitleIn(const Trace& trace, Step step, int layer, Language language) {
    if (const auto cross = crossStageTitle(trace, step)) return std::string(message(*cross, language));
    if (step == Step::Masked && trace.paddedFrom >= 0)
        return std::string(message(trace.causal ? MessageId::StepMaskedCausalPadding : MessageId::StepMaskedPadding, language));
    // RoPE first: a lesson without projections turns X itself, and its Q and K are the turned ones.
    if (const auto rope = ropeTitle(trace, step, layer)) return std::string(message(*rope, language));
    // Without projections Q, K and V are X itself (cross-attention's K and V keep their W titles).
    const bool projectsX = trace.projections || trace.isCrossAttention();
    if (!projectsX && (step == Step::Query || step == Step::Key || step == Step::Value)) {
        const MessageId id = step == Step::Query ? MessageId::StepQueryIsInput
                             : step == Step::Key ? MessageId::StepKeyIsInput : MessageId::StepValueIsInput;
        return std::string(message(id, language));
    }
    if (const auto block = blockTitle(trace, step)) return std::string(message(*block, language));
    if (step != Step::Input || layer == 0) return std::string(stepTitle(step, language));
    const std::string n = std::to_string(layer + 1), before = std::to_string(layer);
    if (trace.residual)
        return fillMessage(message(MessageId::StepInputResidual, language), {n, subscript(layer + 1), subscript(layer)});
    return fillMessage(message(MessageId::StepInputPassedOn, language), {n, before});
}

std::string noticeText(const Notice& notice, Language language) {
    std::string text;
    if (notice.layer >= 0) text += fillMessage(message(MessageId::NoticeInLayer, language), {std::to_string(notice.layer + 1)});
    if (notice.head >= 0) text += fillMessage(message(MessageId::NoticeInHead, language), {std::to_string(notice.head + 1)});
    return text + fillMessage(message(notice.id, language), notice.args);
}

std::vector<std::string> noticeTexts(const std::vector<Notice>& notices, Language language) {
    std::vector<std::string> texts;
    for (const Notice& notice : notices) texts.push_back(noticeText(notice, language));
    return texts;
}

}  // namespace attnscope
