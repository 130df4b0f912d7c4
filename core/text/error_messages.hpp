#pragma once
// core's error catalogue (issue 12): every text an Error of core/ carries, by id, in English and
// Simplified Chinese, with {1}, {2}, … for its arguments (the same ones in both; checked by
// tests/core/test_error_messages.cpp). Error::message is the English text, exactly as before the
// catalogue; Error::textIn(Language) renders the same error in another language. An argument is a
// name, a number or an OS message (kept as it is) or another entry (a nested description, rendered
// in the same language). scripts/check_architecture.py refuses an Error built from an English literal.
// Terms follow docs/glossary.md.
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/base/result.hpp"
#include "core/text/language.hpp"

namespace attnscope {

// X(Id, English, Chinese). Grouped by the part of core/ that uses them first. A table: its rows are
// alike in shape (duplicates lists runs of them), each a different text.
#define ATTNSCOPE_ERROR_CATALOGUE(X)                                                                                   \
    /* generic shapes of a message */                                                                                  \
    X(ExpectedFound, "expected {1}, found {2}", "应为{1}，实际为{2}")                                                   \
    X(ExpectedFoundNote, "expected {1}, found {2} ({3})", "应为{1}，实际为{2}（{3}）")                                  \
    X(WithNote, "{1} ({2})", "{1}（{2}）")                                                                             \
    X(Quoted, "\"{1}\"", "“{1}”")                                                                                      \
    X(Range, "{1} to {2}", "{1} 到 {2}")                                                                               \
    X(IsMissing, "is missing", "缺失")                                                                                 \
    X(Nothing, "nothing", "无")                                                                                        \
    X(NoneFound, "none", "无")                                                                                              \
    X(CountNumbers, "{1} numbers", "{1} 个数")                                                                         \
    X(CountRows, "{1} rows", "{1} 行")                                                                                 \
    X(CountHeads, "{1} heads", "{1} 个头")                                                                             \
    X(CountLayers, "{1} layers", "{1} 层")                                                                             \
    /* core/io/json_reader: how a JSON value is named, and what a field expects */                                     \
    X(JsonNull, "null", "null")                                                                                        \
    X(JsonBoolean, "a boolean", "布尔值")                                                                              \
    X(JsonText, "the text \"{1}\"", "文本“{1}”")                                                                       \
    X(JsonList, "a list of {1}", "含 {1} 项的列表")                                                                    \
    X(JsonObject, "an object", "对象")                                                                                 \
    X(JsonBinary, "binary data", "二进制数据")                                                                         \
    X(JsonNumber, "the number {1}", "数字 {1}")                                                                        \
    X(AList, "a list", "列表")                                                                                         \
    X(ANumber, "a number", "数字")                                                                                     \
    X(AFiniteNumber, "a finite number", "有限的数")                                                                    \
    X(AText, "text", "文本")                                                                                           \
    X(TrueOrFalse, "true or false", "true 或 false")                                                                   \
    X(AWholeNumberFrom, "a whole number from {1} to {2}", "{1} 到 {2} 之间的整数")                                     \
    X(AnEmptyObject, "an empty object", "空对象")                                                                      \
    X(AJsonObject, "a JSON object", "JSON 对象")                                                                       \
    X(NotValidJson, "is not valid JSON", "不是有效的 JSON")                                                            \
    X(NotValidJsonAt, "is not valid JSON: line {1}, column {2}: {3}", "不是有效的 JSON：第 {1} 行，第 {2} 列：{3}")    \
    X(DuplicateKey, "has the key \"{1}\" twice (each key may appear only once)",                                      \
      "两次出现键“{1}”（每个键只能出现一次）")                                                                       \
    X(DuplicateTopKey, "has the key \"{1}\" twice at the top level (each key may appear only once)",                  \
      "在顶层两次出现键“{1}”（每个键只能出现一次）")                                                                 \
    X(NestedTooDeep, "is nested deeper than {1} levels of lists and objects", "列表和对象的嵌套超过 {1} 层")           \
    /* core/io/text_file, core/io/atomic_file */                                                                       \
    X(Bytes, "{1} bytes", "{1} 字节")                                                                                  \
    X(NoSuchFile, "cannot be opened: no such file", "无法打开：文件不存在")                                            \
    X(IsFolderNotFile, "is a folder, not a file", "是文件夹，不是文件")                                                \
    X(NotRegularFile, "is not a regular file (a device, FIFO or socket): only regular files are read",               \
      "不是普通文件（而是设备、FIFO 或套接字）：只读取普通文件")                                                     \
    X(CannotReadSize, "cannot read its size: {1}", "无法读取其大小：{1}")                                              \
    X(OverCap, "is {1}, over the cap of {2} for a file of this kind", "大小为 {1}，超过此类文件 {2} 的上限")           \
    X(CannotBeOpened, "cannot be opened", "无法打开")                                                                  \
    X(NotReadToEnd, "could not be read to the end", "未能读到末尾")                                                    \
    X(GrewPastCap, "grew past the cap of {1} for a file of this kind while it was read",                              \
      "读取期间增长，超过此类文件 {1} 的上限")                                                                       \
    X(CouldNotBeWritten, "could not be written: {1}", "无法写入：{1}")                                                 \
    X(LineOverBudget, "is {1} long; a sentence line may be at most {2} (a model reads a few thousand tokens at most)", \
      "长 {1}；一行句子最多 {2}（模型最多读取几千个词元）")                                                         \
    X(ReadOnlyTarget, "is read-only (mode {1}): not replaced (make it writable first)",                               \
      "是只读文件（权限 {1}）：未替换（请先设为可写）")                                                              \
    X(InputOfThisRun, "is an input of this run: writing over it would lose it (choose another output file)",           \
      "是本次运行读取的输入文件：写入会覆盖它（请选择其他输出文件）")                                                \
    X(FifoWithoutReader, "is a FIFO that no program is reading from: nothing was written",                            \
      "是没有程序在读取的 FIFO：未写入任何内容")                                                                     \
    X(LinkNotFollowed, "is a symbolic link: this file is never written through a link",                               \
      "是符号链接：此文件绝不通过链接写入")                                                                          \
    X(NotRegularTarget, "is not a regular file (a device, FIFO or socket): not replaced",                             \
      "不是普通文件（而是设备、FIFO 或套接字）：未替换")                                                             \
    /* core/lesson */                                                                                                  \
    X(InvalidUtf8At, "expected UTF-8 text, found an invalid byte sequence at byte {1}",                               \
      "应为 UTF-8 文本，实际在第 {1} 字节处有无效的字节序列")                                                        \
    X(LocalizedTextExpected, "text, or an object {language: text} such as {\"en\": \"…\", \"zh_CN\": \"…\"}",         \
      "文本，或对象 {语言: 文本}，例如 {\"en\": \"…\", \"zh_CN\": \"…\"}")                                           \
    X(SeveralLanguagesNeedV3, "a text in several languages needs \"version\": 3",                                     \
      "多种语言的文本需要 \"version\": 3")                                                                           \
    X(AtLeastOneLanguage, "at least one language", "至少一种语言")                                                    \
    X(ExpectedLanguageCode,                                                                                            \
      "expected a language code such as \"en\" or \"zh_CN\" (2–3 lower-case letters, optionally \"_\" and a "         \
      "2-letter region in capitals), found \"{1}\"",                                                                   \
      "应为语言代码，例如 \"en\" 或 \"zh_CN\"（2–3 个小写字母，可再加 \"_\" 和 2 个大写字母的地区），实际为“{1}”")   \
    X(AListOfNumbers, "a list of numbers", "数字列表")                                                                 \
    X(AMatrixOf, "a matrix ({1})", "矩阵（{1}）")                                                                      \
    X(NoRows, "no rows", "没有行")                                                                                     \
    X(ShapeTable, "the table is positions×d_model", "表为 位置数×d_model")                                             \
    X(ShapeIs, "{1} is {2}", "{1} 为 {2}")                                                                             \
    X(ShapeWO, "W_O is (heads·d_v)×d_model", "W_O 为 (头数·d_v)×d_model")                                              \
    X(PositionalKinds, "\"none\", \"sinusoidal\", \"rope\", {\"rope\": …} or {\"table\": …}",                       \
      "\"none\"、\"sinusoidal\"、\"rope\"、{\"rope\": …} 或 {\"table\": …}")    \
    X(RopeNeedsV5, "\"rope\" needs \"version\": 5", "\"rope\" 需要 \"version\": 5")                                     \
    X(RopePairings, "\"half\" or \"interleaved\"", "\"half\" 或 \"interleaved\"")                                    \
    X(RopeOddWidth, "rotary position encoding turns pairs of columns: d_k must be even, found {1}",                  \
      "旋转位置编码按列成对旋转：d_k 必须为偶数，实际为 {1}")                                                        \
    X(BlockNeedsV6, "\"block\" needs \"version\": 6", "\"block\" 需要 \"version\": 6")                                  \
    X(NormKinds, "\"layernorm\" or \"rmsnorm\"", "\"layernorm\" 或 \"rmsnorm\"")                                       \
    X(FeedForwardKinds, "\"relu\", \"gelu\" or \"swiglu\"", "\"relu\"、\"gelu\" 或 \"swiglu\"")                    \
    X(OutputHeadForms, "{\"tied\": true} or {\"W_vocab\": …}", "{\"tied\": true} 或 {\"W_vocab\": …}")                  \
    X(ShapeVocab, "W_vocab is d_model×V, V = {1} words of the embedding table",                                       \
      "W_vocab 为 d_model×V，V = 嵌入表中的 {1} 个词")                                                                 \
    X(BlockOutputWidth,                                                                                                \
      "needs the attention output d_model = {1} wide, but the last layer's output is the concatenation, "             \
      "heads·d_v = {2} wide; give a {2}×{1} W_O",                                                                      \
      "需要宽度为 d_model = {1} 的注意力输出，但最后一层的输出是各头的拼接，宽度为 头数·d_v = {2}；"                   \
      "请给出 {2}×{1} 的 W_O")                                                                                        \
    X(OutputHeadNoWords, "gives one logit per word of the embedding table, but the table is empty",                   \
      "为嵌入表中的每个词给出一个 logit，但嵌入表是空的")                                                             \
    X(AnObjectTokenNumbers, "an object {token: [numbers]}", "对象 {词元: [数字]}")                                    \
    X(AListOfHeads, "a list of {1} heads", "含 {1} 个头的列表")                                                        \
    X(AnObjectWithWQKV, "an object with W_Q, W_K, W_V", "含 W_Q、W_K、W_V 的对象")                                     \
    X(UnknownWordsNeedV4, "\"unknown_words\" needs \"version\": 4", "\"unknown_words\" 需要 \"version\": 4")          \
    X(UnknownWordsKinds, "\"hash\", \"zeros\" or \"ask\"", "\"hash\"、\"zeros\" 或 \"ask\"")                         \
    X(LayersNeedV2, "needs \"version\": 2 (a version 1 lesson has one layer, given at the top level)",                \
      "需要 \"version\": 2（版本 1 的课程只有一层，写在顶层）")                                                      \
    X(KeyInsideEachLayer, "with \"layers\", give {1} inside each layer, not at the top level",                        \
      "有 \"layers\" 时，{1} 应写在每一层里，而不是顶层")                                                            \
    X(AListOfLayers, "a list of 1 to 64 layers", "含 1 到 64 层的列表")                                                \
    X(AnObjectWithHeadsWO, "an object with heads_weights and W_O", "含 heads_weights 和 W_O 的对象")                   \
    X(NoProjectionsDims, "without projections Q = K = V = X, so d_k and d_v must equal d_model ({1})",                \
      "没有投影时 Q = K = V = X，因此 d_k 和 d_v 必须等于 d_model（{1}）")                                           \
    X(AListOfNames, "a list of {1} names (d_model)", "含 {1} 个名称的列表（d_model）")                                 \
    X(LessonFormatVersions, "this AttnScope reads lesson format versions 1 to {1}, the file has version {2}",         \
      "此版本的 AttnScope 只能读取格式版本 1 到 {1} 的课程，该文件的版本为 {2}")                                     \
    X(NanOrInfinity, "contains NaN or infinity; every weight must be a finite number",                                \
      "含有 NaN 或无穷大；每个权重都必须是有限的数")                                                                 \
    X(WOMissingResidual,                                                                                               \
      "is missing: the residual connection adds the output to X, which is d_model = {1} wide, but without W_O the "    \
      "output is the concatenation, heads·d_v = {2} wide; give a {2}×{1} W_O",                                         \
      "缺失：残差连接把输出加到 X 上，X 的宽度为 d_model = {1}，但没有 W_O 时输出是各头的拼接，宽度为 头数·d_v = "   \
      "{2}；请给出 {2}×{1} 的 W_O")                                                                                  \
    X(BOWithoutWO, "without W_O the output is the concatenation, {1} wide (heads·d_v), but b_O has {2} numbers",      \
      "没有 W_O 时输出是各头的拼接，宽度为 {1}（头数·d_v），但 b_O 有 {2} 个数")                                     \
    /* core/lesson/lesson_edit: the lesson editor's word and dimension changes */                                    \
    X(AWord, "a word", "一个词")                                                                                       \
    X(WordNotOneToken, "\"{1}\" is read as {2} token(s), {3}; a word of the table must be one token exactly as the "  \
      "tokenizer reads it", "“{1}”会被读作 {2} 个词元：{3}；嵌入表中的词必须恰好是分词器读出的一个词元")                 \
    X(WordAlreadyInTable, "\"{1}\" is already in the embedding table", "“{1}”已在嵌入表中")                          \
    X(WordNotInTable, "\"{1}\" is not in the embedding table", "“{1}”不在嵌入表中")                                  \
    X(HeadColumns, "{1} heads × {2} {3} = {4} columns per token; at most {5} (heads × d_k and heads × d_v)",          \
      "{1} 个头 × {2} {3} = 每个词元 {4} 列；最多 {5} 列（头数 × d_k 与头数 × d_v）")                                \
    X(OneLayerOrList, "expected one layer, or a list of layers joined by residual connections; found {1} layers",     \
      "应为一层，或由残差连接串起的多层列表；实际为 {1} 层")                                                         \
    X(WhereLesson, "lesson", "课程")                                                                                   \
    X(LessonSizes, "d_model {1}, heads {2}, d_k {3}, d_v {4}, {5} layers, {6} tokens",                              \
      "d_model {1}、“heads” {2}、d_k {3}、d_v {4}、{5} 层、{6} 个词元")                                              \
    X(LessonOverMemoryBudget, "{1}: the run would keep {2} of numbers, over the budget of {3} for a lesson run "     \
      "(make d_model, heads, d_k, layers or the sentence smaller)",                                                    \
      "{1}：运行需要保存 {2} 的数值，超过课程运行 {3} 的预算（请减小 d_model、“heads”、d_k、层数或句子长度）")          \
    X(LessonOverWorkBudget, "{1}: the run would take {2} million multiply-adds, over the budget of {3} million for "  \
      "a lesson run (make d_model, heads, d_k, layers or the sentence smaller)",                                       \
      "{1}：运行需要 {2} 百万次乘加，超过课程运行 {3} 百万次的预算（请减小 d_model、“heads”、d_k、层数或句子长度）")     \
    X(WhereSentence, "sentence", "句子")                                                                               \
    X(WhereTargetSentence, "target sentence", "目标句子")                                                              \
    X(WhereSourceSentence, "source sentence", "源句子")                                                                \
    X(NoAttentionLayer, "has no attention layer", "没有注意力层")                                                      \
    X(LayerOutputNotDModel, "layer {1}'s output is not d_model wide", "第 {1} 层的输出宽度不是 d_model")               \
    X(HasNoTokens, "has no tokens; type at least one word", "没有词元；请至少输入一个词")                              \
    X(WordsNotInTable,                                                                                                 \
      "not in the lesson's embedding table: {1}; add their vectors (the lesson editor's Add word), or choose "        \
      "what such words get (the editor's \"Words not in the table\")",                                               \
      "课程的嵌入表中没有：{1}；请补上它们的向量（课程编辑器的“添加词”），或选择这样的词得到什么向量（编辑器的“表外的词”）") \
    X(SentenceHasNoTokens, "the sentence has no tokens; type at least one word", "句子没有词元；请至少输入一个词")     \
    X(SentenceNotUtf8, "not valid UTF-8 text (bad byte sequence at byte {1})", "不是有效的 UTF-8 文本（第 {1} 字节处的字节序列无效）") \
    /* core/trace/ablation */ \
    X(NotLayerHead, "{1} is not LAYER:HEAD (e.g. 1:2, both counted from 1)", "{1} 不是 LAYER:HEAD 的形式（例如 1:2，层和头都从 1 开始数）") \
    X(LayerHeadWholeNumbers, "{1}: layer and head are whole numbers counted from 1 (e.g. 1:2)", "{1}：层和头是从 1 开始数的整数（例如 1:2）") \
    X(NoHeadGiven, "no head given; expected LAYER:HEAD[,LAYER:HEAD…] (e.g. 1:2)", "没有给出头；应为 LAYER:HEAD[,LAYER:HEAD…]（例如 1:2）") \
    X(CannotAblateOneLayer, "cannot ablate head {1}: there is 1 layer", "无法关闭头 {1}：只有 1 层") \
    X(CannotAblateLayers, "cannot ablate head {1}: there are {2} layers", "无法关闭头 {1}：只有 {2} 层") \
    X(CannotAblateOneHead, "cannot ablate head {1}: each layer has 1 head", "无法关闭头 {1}：每层只有 1 个头") \
    X(CannotAblateHeads, "cannot ablate head {1}: each layer has {2} heads", "无法关闭头 {1}：每层只有 {2} 个头") \
    X(WhereAblateCross, "ablate (cross-attention runs layer 1)", "关闭的头（交叉注意力只运行第 1 层）") \
    /* core/analysis/head_order (the model view's layer and head filters) */ \
    X(WhereLayerFilter, "layers", "层") \
    X(WhereHeadFilter, "heads", "头") \
    X(IndexListItem, "expected numbers or ranges such as 1-3,7 separated by commas, found \"{1}\"", "应为用逗号分隔的数字或范围（例如 1-3,7），实际为“{1}”") \
    X(IndexOutOfRange, "{1} is not between 1 and {2}", "{1} 不在 1 到 {2} 之间") \
    /* core/model: opening a checkpoint */ \
    X(WhereTensor, "{1}: tensor {2}", "{1}: 张量 {2}") \
    X(TensorIsMissing, "tensor {1} is missing", "缺少张量 {1}") \
    X(HasDtypeNotFloat, "has dtype {1}; only F32, F16 and BF16 tensors can be read as numbers", "数据类型为 {1}；只有 F32、F16 和 BF16 张量能读作数字") \
    X(ExpectedShape, "expected shape {1}, found {2}", "形状应为 {1}，实际为 {2}") \
    X(ListedInShard, "is listed in shard {1}, but {1} does not contain it", "列在分片 {1} 中，但 {1} 并不包含它") \
    X(NotInIndex, "is in this shard, but {1} does not list it here", "在此分片中，但 {1} 没有在这里列出它") \
    X(DisagreesWith, "disagrees with {1}: {2} vs {3}", "与 {1} 不一致：{2} 和 {3}") \
    X(OrAlias, "{1} (or {2})", "{1}（或 {2}）") \
    X(ANameList, "a list of names", "名称列表") \
    X(ASmallPositiveNumber, "a small positive number", "小的正数") \
    X(OrList, "{1} or {2}", "{1} 或 {2}") \
    X(HeadsDoNotDivide, "{1} heads do not divide the hidden size {2}", "{1} 个头不能整除隐藏层大小 {2}") \
    X(KvHeadsDoNotDivide, "{1} key/value heads do not divide the {2} attention heads", "{1} 个键/值头不能整除 {2} 个注意力头") \
    X(APositiveNumber, "a positive number", "正数") \
    X(AListOfLayerTypes, "a list of {1} layer types, one a layer", "含 {1} 个层类型的列表（每层一个）") \
    X(AnEvenHeadWidth, "an even head width (RoPE turns pairs of numbers)", "偶数的头宽度（RoPE 成对旋转数值）") \
    X(PickleRefused, "is a PyTorch pickle checkpoint. Pickle files can execute code when loaded, so AttnScope never opens them; nothing was read from it. Download the model's .safetensors version, or convert it once in Python:\n  {1}", "是 PyTorch pickle 检查点。Pickle 文件加载时可能执行代码，所以 AttnScope 从不打开它；没有从中读取任何内容。请下载该模型的 .safetensors 版本，或用 Python 转换一次：\n  {1}") \
    X(DoesNotExist, "does not exist", "不存在") \
    X(IsNotAFolder, "is not a folder", "不是文件夹") \
    X(NoSafetensorsFile, "has neither model.safetensors nor model.safetensors.index.json", "既没有 model.safetensors，也没有 model.safetensors.index.json") \
    X(ConfigMissing, "is missing; a Hugging Face model folder holds its config.json", "缺失；Hugging Face 模型文件夹里应有 config.json") \
    X(CannotOpenOs, "cannot open: {1}", "无法打开：{1}") \
    X(IsNotRegularFile, "is not a regular file", "不是普通文件") \
    X(CannotMap, "cannot map into memory: {1}", "无法映射到内存：{1}") \
    X(FieldExpectedFound, "{1}: expected {2}, found {3}", "{1}：应为{2}，实际为{3}") \
    X(ANonNegativeWholeNumber, "a non-negative whole number", "非负整数") \
    X(KeyIsMissing, "\"{1}\" is missing", "缺少 \"{1}\"") \
    X(TextSuchAsF32, "text such as \"F32\"", "文本，例如 \"F32\"") \
    X(UnknownDtype, "unknown dtype {1}; known: F32, F16, BF16, F64, I64, I32, I16, I8, U64, U32, U16, U8, BOOL", "未知的数据类型 {1}；已知的有：F32、F16、BF16、F64、I64、I32、I16、I8、U64、U32、U16、U8、BOOL") \
    X(AListOfSizes, "a list of sizes", "尺寸列表") \
    X(BeginEnd, "[begin, end]", "[起点, 终点]") \
    X(OffsetsBeginAfterEnd, "data_offsets [{1}, {2}]: begin is after end", "data_offsets [{1}, {2}]：起点在终点之后") \
    X(OffsetsBeyondData, "data_offsets end {1} is beyond the data section of {2} bytes", "data_offsets 的终点 {1} 超出了 {2} 字节的数据区") \
    X(MoreThan64Bits, "more bytes than fit in 64 bits", "超出 64 位所能表示的字节数") \
    X(ShapeNeedsBytes, "shape {1} of {2} needs {3}, but data_offsets span {4}", "形状为 {1}、类型为 {2} 的张量需要 {3}，但 data_offsets 跨度为 {4}") \
    X(AnObjectDtypeShapeOffsets, "an object with dtype, shape and data_offsets", "含 dtype、shape 和 data_offsets 的对象") \
    X(AnObjectOfTextValues, "an object of text values", "值为文本的对象") \
    X(OffsetsOverlap, "data_offsets [{1}, {2}] overlap tensor {3} [{4}, {5}]", "data_offsets [{1}, {2}] 与张量 {3} [{4}, {5}] 重叠") \
    X(HeaderNotObject, "the header must be a JSON object of tensors, found {1}", "文件头必须是由张量组成的 JSON 对象，实际为{1}") \
    X(FileTooShort, "the file is {1} bytes, shorter than the 8-byte header length every safetensors file starts with", "文件只有 {1} 字节，比每个 safetensors 文件开头的 8 字节文件头长度还短") \
    X(HeaderBeyondLimit, "header length {1} bytes is beyond the 100 MB limit; this is not a safetensors file", "文件头长度 {1} 字节超过 100 MB 的上限；这不是 safetensors 文件") \
    X(HeaderTruncated, "header length {1} bytes, but only {2} bytes follow; the file is truncated or not safetensors", "文件头长度为 {1} 字节，但后面只有 {2} 字节；文件被截断或不是 safetensors 文件") \
    X(AJsonObjectWithWeightMap, "a JSON object with \"weight_map\"", "含 \"weight_map\" 的 JSON 对象") \
    X(AShardFileName, "the file name of a shard in the same folder", "同一文件夹中分片的文件名") \
    /* core/model/hf_cache */ \
    X(WhereHfCache, "Hugging Face cache", "Hugging Face 缓存") \
    X(NoCacheFolder, "none of HF_HUB_CACHE, HF_HOME or HOME is set, so there is no cache folder", "HF_HUB_CACHE、HF_HOME 和 HOME 都没有设置，所以没有缓存文件夹") \
    X(WhereModelId, "model id", "模型 ID") \
    X(WhereModelIdQuoted, "model id {1}", "模型 ID {1}") \
    X(ModelIdEmpty, "is empty; expected ORG/NAME or NAME, e.g. openai-community/gpt2", "为空；应为 ORG/NAME 或 NAME，例如 openai-community/gpt2") \
    X(TooManyCharacters, "is {1} characters long; at most {2} are allowed", "长 {1} 个字符；最多允许 {2} 个") \
    X(MustNotContain, "must not contain {1}", "不能包含 {1}") \
    X(MoreThanOneSlash, "has more than one '/'; expected ORG/NAME or NAME", "含有多个 '/'；应为 ORG/NAME 或 NAME") \
    X(PartOrganisation, "organisation", "组织名") \
    X(PartModelName, "model name", "模型名") \
    X(IdPartEmpty, "the {1} is empty", "{1}为空") \
    X(IdPartStart, "the {1} must start with a letter or digit", "{1}必须以字母或数字开头") \
    X(IdPartEnd, "the {1} must not end with '-' or '.'", "{1}不能以 '-' 或 '.' 结尾") \
    X(IdPartCharacters, "the {1} may only contain letters, digits, '.', '_' and '-' (found {2})", "{1}只能包含字母、数字、'.'、'_' 和 '-'（出现了 {2}）") \
    X(WhereFileName, "file name", "文件名") \
    X(WhereFileNameQuoted, "file name {1}", "文件名 {1}") \
    X(IsEmpty, "is empty", "为空") \
    X(ContainsNul, "contains a NUL character", "包含 NUL 字符") \
    X(ContainsControl, "contains a control character", "包含控制字符") \
    X(ContainsBackslash, "contains a backslash; only '/' separates folders", "包含反斜杠；只有 '/' 用来分隔文件夹") \
    X(AbsolutePath, "is an absolute path; expected a path relative to the repo", "是绝对路径；应为相对于仓库的路径") \
    X(EmptyPathComponent, "has an empty path component (\"//\" or a trailing '/')", "含有空的路径部分（\"//\" 或结尾的 '/'）") \
    X(PathLeavesRepo, "contains {1}; paths must stay inside the repo", "包含 {1}；路径必须留在仓库之内") \
    X(WhereRevision, "revision {1}", "修订版本 {1}") \
    X(ContainsSpace, "contains a space", "包含空格") \
    X(WordPieceWithoutUnk, "its WordPiece vocabulary has no [UNK] token: a word it cannot spell would be dropped silently", \
      "其 “WordPiece” 词表没有 “[UNK]” 词元：无法拼出的词会被悄悄丢弃") \
    X(RefNotACommit, "expected a commit hash (40 hexadecimal digits) on its first line; what it holds is not shown", \
      "首行应为提交哈希（40 位十六进制数字）；其内容不予显示") \
    X(WhereModelAtRevision, "model {1} at revision {2}", "模型 {1} 的修订版本 {2}") \
    X(NotInHfCache, "is not in the Hugging Face cache (looked at {1})", "不在 Hugging Face 缓存中（查找过 {1}）") \
    X(NeitherFolderNorId, "is neither a folder (looked at {1}) nor a valid model id ({2})", "既不是文件夹（查找过 {1}），也不是有效的模型 ID（{2}）") \
    X(NeitherFolderNorCached, "is neither a folder (looked at {1}) nor a cached model: {2}", "既不是文件夹（查找过 {1}），也不是已缓存的模型：{2}") \
    X(WhereMessage, "{1}: {2}", "{1}: {2}") \
    /* core/tokenizers */ \
    X(ExpectedWhat, "expected {1}", "应为{1}") \
    X(ABpeVocabJson, "a BPE vocab.json", "BPE 的 vocab.json") \
    X(ABpeMergesTxt, "a BPE merges.txt", "BPE 的 merges.txt") \
    X(AHfTokenizerJson, "a Hugging Face tokenizer.json", "Hugging Face 的 tokenizer.json") \
    X(AWordPieceVocabTxt, "a WordPiece vocab.txt", "WordPiece 的 vocab.txt") \
    X(WhereMerge, "{1}: merge {2} (\"{3} {4}\")", "{1}: 第 {2} 条合并规则（\"{3} {4}\"）") \
    X(MergePiecesMissing, "expected its pieces and their join in the vocabulary, but \"{1}\" is not", "词表中应有它的两个子词及其拼接，但没有“{1}”") \
    X(WhereText, "text", "文本") \
    X(ByteHasNoPiece, "byte {1} has no piece in the vocabulary", "字节 {1} 在词表中没有对应的子词") \
    X(AtLeastOnePiece, "at least one piece {\"piece\": id, ...}", "至少一个子词 {\"piece\": id, ...}") \
    X(AnEmptyVocabulary, "an empty vocabulary", "空词表") \
    X(AJsonObjectPieceId, "a JSON object {\"piece\": id, ...}", "JSON 对象 {\"piece\": id, ...}") \
    X(AnObjectPieceId, "an object {\"piece\": id, ...}", "对象 {\"piece\": id, ...}") \
    X(WhereLine, "{1}: line {2}", "{1}: 第 {2} 行") \
    X(TwoPiecesOneSpace, "two pieces separated by one space", "用一个空格分隔的两个子词") \
    X(ATokenTextOrContent, "a token text or {\"content\": text, ...}", "词元文本或 {\"content\": 文本, ...}") \
    X(AnObjectIdContentSpecial, "an object {\"id\": {\"content\": text, \"special\": true}, ...}", "对象 {\"id\": {\"content\": 文本, \"special\": true}, ...}") \
    X(NoTokenizerFiles, "expected tokenizer.json, vocab.txt, or vocab.json with merges.txt in the folder; found none", "文件夹中应有 tokenizer.json、vocab.txt，或 vocab.json 加 merges.txt；一个也没有找到") \
    X(NoTokenizerFolder, "expected a folder with tokenizer files, found none", "应为含分词器文件的文件夹，但没有找到") \
    X(ObjectOrNull, "an object or null", "对象或 null") \
    X(AddedTokenObject, "{\"id\": integer, \"content\": string, ...}", "{\"id\": 整数, \"content\": 字符串, ...}") \
    X(AListOfAddedTokens, "a list of {\"id\": integer, \"content\": string, ...}", "由 {\"id\": 整数, \"content\": 字符串, ...} 组成的列表") \
    X(BertNormalizerOrNull, "\"BertNormalizer\" or a null normalizer", "\"BertNormalizer\" 或值为 null 的规范化器") \
    X(PreTokenizerFor, "\"{1}\" for a {2} model", "\"{1}\"（{2} 模型）") \
    X(MergeForm, "\"left right\" or [\"left\", \"right\"]", "\"left right\" 或 [\"left\", \"right\"]") \
    X(AListOfMerges, "a list of \"left right\" strings or [left, right] pairs", "由 \"left right\" 字符串或 [左, 右] 对组成的列表") \
    X(NullForByteLevel, "null for a byte-level BPE model", "null（字节级 BPE 模型）") \
    X(TrueGpt2Pattern, "true (GPT-2's pattern)", "true（GPT-2 的模式）") \
    X(NullOrEmptyForBpe, "null or \"\" for byte-level BPE", "null 或 \"\"（字节级 BPE）") \
    X(WordPieceOrBpe, "\"WordPiece\" or \"BPE\"", "\"WordPiece\" 或 \"BPE\"") \
    X(AJsonObjectWithModel, "a JSON object with a \"model\"", "含 \"model\" 的 JSON 对象") \
    X(AnObjectDescribingModel, "an object describing the tokenizer model", "描述分词器模型的对象") \
    X(CannotOpenFile, "cannot open the file", "无法打开文件") \
    X(InvalidBytes, "invalid bytes", "无效的字节") \
    X(Utf8Text, "UTF-8 text", "UTF-8 文本") \
    X(OnePiecePerLine, "one vocabulary piece per line", "每行一个词表子词") \
    X(AnEmptyFile, "an empty file", "空文件") \
    X(InvalidByteSequenceAt, "an invalid byte sequence at byte {1}", "第 {1} 字节处的无效字节序列") \
    X(RegexDoesNotCompile, "the regular expression \"{1}\" does not compile: {2}", "正则表达式“{1}”无法编译：{2}") \
    X(RegexSearchFailed, "the regular expression gave up on this text ({1}): it backtracks too much", "正则表达式在此文本上放弃匹配（{1}）：回溯过多") \
    X(ByteFallbackWithoutBytes, "byte_fallback needs the 256 byte pieces <0x00> … <0xFF> in the vocabulary, but {1} is not there", "byte_fallback 需要词表中有 256 个字节子词 <0x00> … <0xFF>，但没有 {1}") \
    X(DuplicateAddedToken, "added tokens conflict: \"{1}\" is id {2} and \"{3}\" is id {4}", "新增词元冲突：“{1}”的 ID 为 {2}，“{3}”的 ID 为 {4}") \
    X(StringOrRegexPattern, "{\"String\": text} or {\"Regex\": pattern}", "{\"String\": 文本} 或 {\"Regex\": 模式}") \
    X(NormalizerTypes, "a normalizer of type NFC, NFD, NFKC, NFKD, Lowercase, Prepend, Replace, Strip or Sequence", "类型为 NFC、NFD、NFKC、NFKD、Lowercase、Prepend、Replace、Strip 或 Sequence 的规范化器") \
    X(PreTokenizerTypes, "a pre-tokenizer of type Split, ByteLevel, Metaspace, Digits, Punctuation or Sequence", "类型为 Split、ByteLevel、Metaspace、Digits、Punctuation 或 Sequence 的预分词器") \
    X(PostProcessorTypes, "a post-processor of type TemplateProcessing, BertProcessing, RobertaProcessing, ByteLevel or Sequence", "类型为 TemplateProcessing、BertProcessing、RobertaProcessing、ByteLevel 或 Sequence 的后处理器") \
    X(SplitBehaviors, "Removed, Isolated, MergedWithPrevious, MergedWithNext or Contiguous", "Removed、Isolated、MergedWithPrevious、MergedWithNext 或 Contiguous") \
    X(PrependSchemes, "\"always\", \"first\" or \"never\"", "\"always\"、\"first\" 或 \"never\"") \
    X(NoDropout, "no dropout (null or 0): the tokenizer must give the same ids every time", "无 dropout（null 或 0）：分词器每次必须给出相同的 ID") \
    X(SpecialTokenUnknown, "the special token \"{1}\" is neither in special_tokens nor in the vocabulary", "特殊词元“{1}”既不在 special_tokens 中，也不在词表中") \
    X(TemplateItem, "{\"SpecialToken\": …} or {\"Sequence\": …}", "{\"SpecialToken\": …} 或 {\"Sequence\": …}") \
    X(TokenIdPair, "a [token, id] pair", "[词元, ID] 对") \
    X(ContentSpecialObject, "{\"content\": text, \"special\": true or false, ...}", "{\"content\": 文本, \"special\": true 或 false, ...}") \
    /* core/model/transformer, bert, gpt2 */ \
    X(UnexpectedTensor, "unexpected tensor of shape {1}: not a weight of a {2} model", "意外的张量，形状为 {1}：不是 {2} 模型的权重") \
    X(ShardsLabel, "the {1} safetensors shards", "这 {1} 个 safetensors 分片") \
    X(HoldsNoLayer, "is {1} but {2} holds no layer (no tensor named {3}N.…)", "为 {1}，但 {2} 中没有任何层（没有名为 {3}N.… 的张量）") \
    X(HoldsOneLayer, "is {1} but {2} holds 1 layer ({3}{4} … {3}{5})", "为 {1}，但 {2} 中只有 1 层（{3}{4} … {3}{5}）") \
    X(HoldsLayers, "is {1} but {2} holds {3} layers ({4}{5} … {4}{6})", "为 {1}，但 {2} 中只有 {3} 层（{4}{5} … {4}{6}）") \
    X(TableHasRows, "is {1} but the {2} \"{3}\" in {4} has {5} rows", "为 {1}，但 {4} 中的{2}“{3}”有 {5} 行") \
    X(TableHasColumns, "is {1} but the {2} \"{3}\" in {4} has {5} columns", "为 {1}，但 {4} 中的{2}“{3}”有 {5} 列") \
    X(WhereModelInput, "model input", "模型输入") \
    X(WhereModelInputToken, "model input: token {1}", "模型输入: 第 {1} 个词元") \
    X(IdsButLabels, "{1} token ids but {2} token labels", "{1} 个词元 ID，却有 {2} 个词元标签") \
    X(NoTokensToRun, "no tokens to run", "没有可运行的词元") \
    X(IdOutsideVocabulary, "id {1} is outside the vocabulary 0…{2}", "ID {1} 超出词表范围 0…{2}") \
    X(Unsupported, "unsupported \"{1}\"", "不支持“{1}”") \
    X(UnsupportedActivation, "unsupported activation \"{1}\"", "不支持的激活函数“{1}”") \
    X(NoRoomForToken, "leaves no room for a token", "容不下任何词元") \
    X(WhereModelRun, "model run", "模型运行") \
    X(Cancelled, "cancelled", "已取消") \
    X(HoldsNonFinite, "holds {1} at [{2}]; weights must be finite", "在 [{2}] 处为 {1}；权重必须是有限的数") \
    X(PositionOutsideInput, "prediction position {1} is outside the input", "预测位置 {1} 超出输入范围") \
    X(NoLayerNumber, "no layer {1}", "没有第 {1} 层") \
    X(TensorMissingPrefix, "tensor \"{1}\" is missing (looked for it with and without the \"{2}\" prefix)", "缺少张量“{1}”（带与不带前缀“{2}”都查找过）") \
    X(WordEmbeddingTable, "word-embedding table", "词嵌入表") \
    X(ThePositionTable, "position table", "位置表") \
    /* core/source */ \
    X(NoClsSep, "the tokenizer names no [CLS]/[SEP] tokens, which {1} needs around every sentence", "分词器没有指定 [CLS]/[SEP] 词元，而 {1} 需要用它们包住每个句子") \
    X(TheExampleModels, "the example models: {1}", "示例模型：{1}") \
    X(NothingToRun, "nothing to run: the sentence has no tokens", "没有可运行的内容：句子没有词元") \
    X(NotAnExampleModel, "is not an example model (the examples are {1})", "不是示例模型（示例模型有 {1}）") \
    X(ExampleNotInstalled, "the example model is not installed (looked for its config.json in {1})", "示例模型没有安装（在 {1} 中查找过它的 config.json）") \
    X(NoFolder, "no folder", "没有文件夹") \
    /* core/trace/explain */ \
    X(WhereCellOf, "cell of {1}", "{1} 的单元格") \
    X(LayerDoesNotExist, "layer {1} does not exist", "第 {1} 层不存在") \
    X(HeadDoesNotExist, "head {1} does not exist", "第 {1} 头不存在") \
    X(LayerKeptOnlyWeights, "layer {1} kept only its attention weights; rebuild it in detail (traceLayerInDetail) to explain it", "第 {1} 层只保留了注意力权重；要讲解它，请详细重建该层（traceLayerInDetail）") \
    X(CellOutsideMatrix, "({1}, {2}) is outside the {3}×{4} matrix", "({1}, {2}) 超出 {3}×{4} 矩阵的范围") \
    X(WhereTensorAlone, "tensor {1}", "张量 {1}") \
    /* core/analysis */ \
    X(TheFieldIsMissing, "the field is missing", "该字段缺失") \
    X(AnEmptyString, "an empty string", "空字符串") \
    X(UnknownField, "unknown field (expected one of {1})", "未知字段（应为以下之一：{1}）") \
    X(OccursOnce, "expected \"{1}\" to occur as a word {2} time in the sentence, found {3}", "“{1}”应作为单词在句子中出现 {2} 次，实际出现 {3} 次") \
    X(OccursTimes, "expected \"{1}\" to occur as a word {2} times in the sentence, found {3}", "“{1}”应作为单词在句子中出现 {2} 次，实际出现 {3} 次") \
    X(AWordOtherThanMention, "a word other than the mention", "指称以外的词") \
    X(TheMentionItself, "the mention itself", "指称本身") \
    X(NotJsonLine, "expected a JSON object on one line, found text that is not valid JSON at column {1}: {2}", "应为写在一行上的 JSON 对象，实际是第 {1} 列处无效的 JSON 文本：{2}") \
    X(ARunWithHeads, "a run with attention heads", "含注意力头的运行结果") \
    X(LayersHeadsLikeFirst, "expected {1} layers × {2} heads like the first sentence, found {3} × {4}", "应与第一个句子一样为 {1} 层 × {2} 个头，实际为 {3} × {4}") \
    X(AtLeastOneExampleLine, "at least one example line", "至少一行示例") \
    X(ACorefSetJsonLines, "a coreference set, JSON lines", "共指数据集（JSON 行）") \
    X(EvaluationCancelled, "evaluation cancelled", "评估已取消") \
    X(NoEvaluableExamples, "expected at least one example to evaluate, found none of {1}: each was skipped because its mention or antecedent is not among the model's words or the antecedent is not a candidate (the first: {2})", "应至少有一个可评估的样例，实际 {1} 个样例都被跳过：指称或先行词不在模型的词中，或先行词不是候选词（第一个：{2}）") \
    X(SquareMatrixExpected, "expected a square attention matrix, found {1}×{2} (were the weights kept?)", "应为方形的注意力矩阵，实际为 {1}×{2}（是否保留了权重？）") \
    X(WordsUseToken, "the words use token {1} but the matrix has only {2} rows", "这些词用到第 {1} 个词元，但矩阵只有 {2} 行") \
    X(WhereHead, "head {1}", "头 {1}") \
    X(WhereLayer, "layer {1}", "第 {1} 层") \
    X(ALayerFrom, "a layer from 1 to {1}", "1 到 {1} 之间的层") \
    X(AHeadFrom, "a head from 1 to {1}", "1 到 {1} 之间的头") \
    X(WhereScoring, "scoring", "打分") \
    X(AtLeastOneHead, "at least one head", "至少一个头") \
    X(WhereMention, "mention", "指称") \
    X(WordsWithin, "words within 1..{1}", "1..{1} 范围内的词") \
    X(AWordFrom, "a word from 1 to {1}", "1 到 {1} 之间的词") \
    X(WhereRolloutLayer, "rollout: layer {1}", "注意力展开: 第 {1} 层") \
    X(EveryHeadWeights, "every head's T×T weights", "每个头的 T×T 权重") \
    X(AHeadWithoutThem, "a head without them", "一个没有权重的头") \
    X(WhereRollout, "rollout", "注意力展开") \
    X(AtLeastOneLayer, "at least one layer", "至少一层") \
    X(WhereHeadStatistics, "head statistics", "头统计") \
    X(AnEvaluationOf, "an evaluation of {1} layers × {2} heads", "{1} 层 × {2} 个头的评估") \
    X(WhereHeadStatisticsHead, "head statistics: layer {1} head {2}", "头统计: 第 {1} 层第 {2} 头") \
    X(TxTWeights, "{1}×{2} weights", "{1}×{2} 权重") \
    /* core/analysis: compare, corpus statistics, head ranking, queries and keys, t-SNE */ \
    X(SelfAttention, "self-attention", "自注意力") \
    X(CrossAttention, "cross-attention", "交叉注意力") \
    X(ACrossAttentionTrace, "a cross-attention trace", "交叉注意力的运行结果") \
    X(WhereSentenceNamed, "sentence {1}", "句子 {1}") \
    X(HasNoLayer, "has no layer {1}", "没有第 {1} 层") \
    X(HasNoHead, "has no head {1}", "没有头 {1}") \
    X(TheHeadsTxTWeights, "the head's T×T weights", "该头的 T×T 权重") \
    X(WhereCorpusStatistics, "corpus statistics", "语料统计") \
    X(WhereCorpusStatisticsHead, "corpus statistics: layer {1} head {2}", "语料统计: 第 {1} 层第 {2} 头") \
    X(AttentionHeads, "attention heads", "注意力头") \
    X(ATraceWithoutHeads, "a trace without any", "没有任何注意力头的运行结果") \
    X(AtLeastOneNonBlankSentence, "at least one sentence (a non-blank line)", "至少一个句子（非空行）") \
    X(CorpusStatisticsCancelled, "corpus statistics cancelled", "语料统计已取消") \
    X(ASentenceOfAtMost, "a sentence of at most {1} tokens", "最多 {1} 个词元的句子") \
    X(WhereHeadRanking, "head ranking", "注意力头排名") \
    X(APredictionFrom, "a prediction from 1 to {1}", "1 到 {1} 之间的预测") \
    X(WhereQueriesAndKeys, "queries and keys", "查询和键") \
    X(WhereQueriesAndKeysSentence, "queries and keys: sentence {1}", "查询和键: 第 {1} 个句子") \
    X(AtLeastOneSentence, "at least one sentence", "至少一个句子") \
    X(AtLeastOneToken, "at least one token", "至少一个词元") \
    X(VectorsOfWidth, "vectors of width {1}", "宽度为 {1} 的向量") \
    X(AndList, "{1} and {2}", "{1} 和 {2}") \
    X(QkShapes, "one query per token, one key per key token and T_q×T_k weights", "每个词元一个查询、每个键词元一个键，以及 T_q×T_k 的权重") \
    X(WhereLayerCommaHead, "layer {1}, head {2}", "第 {1} 层第 {2} 头") \
    X(QkNotKept, "its queries and keys were not kept (the layer holds its weights only)", "它的查询和键没有保留（该层只保留了权重）") \
    X(TsneTooManyPoints, "expected at most {1} points (exact t-SNE costs N² per iteration), found {2}; use PCA", "应最多 {1} 个点（精确的 t-SNE 每次迭代的代价为 N²），实际为 {2}；请改用 PCA") \
    X(AtLeastNPoints, "at least {1} points", "至少 {1} 个点") \
    X(APerplexityFrom, "a perplexity from 1 to {1} ((N - 1) / 3 for {2} points)", "1 到 {1} 之间的困惑度（{2} 个点时为 (N - 1) / 3）") \
    X(AtLeastOneIteration, "at least one iteration", "至少一次迭代") \
    /* core/lab */ \
    X(RunKeptNoMatrix, "this run kept no such matrix", "这次运行没有保留这个矩阵") \
    X(RowOutside, "row {1} is outside the {2} rows", "第 {1} 行超出了 {2} 行的范围") \
    X(NoFiniteCell, "has no finite cell to ask for", "没有可以提问的有限单元格") \
    X(IsEmptyTypeWord, "is empty; type at least one word", "为空；请至少输入一个词") \
    X(LabTooManyTokens, "has {1} tokens; the lab shows at most {2} so every number stays legible", "有 {1} 个词元；实验室最多显示 {2} 个，以便每个数字都清晰可读") \
    X(WhereMultiHeadH, "multi-head lab: H", "多头实验室: H") \
    X(HeadCountDivides, "expected a head count that divides d = {1}, found H = {2}", "应为能整除 d = {1} 的头数，实际为 H = {2}") \
    X(WhereMultiHeadWeights, "multi-head lab: weights", "多头实验室: 权重") \
    X(WeightsForWidth, "expected {1} (d×d for X of width d = {2}), found {3}", "应为 {1}（宽度 d = {2} 的 X 对应 d×d），实际为 {3}") \
    X(WhereRelativeMapD, "relative position map: d", "相对位置映射: d") \
    X(AnEvenWidth, "an even width", "偶数宽度") \
    X(WhereRelativeCheckK, "relative position check: k", "相对位置检查: k") \
    X(KBelowT, "expected 0 ≤ k < T = {1}, found {2}", "应满足 0 ≤ k < T = {1}，实际为 {2}") \
    X(LearnedTableExpected, "expected a {1} model with a learned position table, found none", "应为带学习得到的位置表的 {1} 模型，但没有找到") \
    X(PositionsAskedFor, "expected 1 … {1} positions, asked for {2}", "应为 1 … {1} 个位置，请求了 {2} 个") \
    X(WhereRelativeFit, "relative position fit", "相对位置拟合") \
    X(FitNeedsPairs, "expected 1 ≤ k and more row pairs N − k than dimensions D = {1}, found N = {2}, k = {3} (with fewer, any table fits exactly)", "应满足 1 ≤ k，且行对数 N − k 多于维度 D = {1}，实际为 N = {2}，k = {3}（行对更少时，任何表都能精确拟合）") \
    X(WherePermutationDemo, "permutation demo", "置换演示") \
    X(ShuffledDoesNotReadBack, "the shuffled sentence does not read back as the shuffled tokens (token {1})", "打乱后的句子读回来与打乱的词元不一致（第 {1} 个词元）") \
    X(WhereSynthesizer, "synthesizer", "合成器") \
    X(SynthesizerSizes, "expected d, ℓ and the rank ≥ 1, found {1}, {2}, {3}", "d、ℓ 和秩都应 ≥ 1，实际为 {1}、{2}、{3}") \
    X(WhereSynthesizerFactor, "synthesizer: factor a", "合成器: 因子 a") \
    X(ADivisorOf, "expected a divisor of ℓ = {1}, found {2}", "应为 ℓ = {1} 的约数，实际为 {2}") \
    X(WhereMixtureAlpha, "mixture: α", "混合: α") \
    X(OneWeightPerVariant, "expected one weight per variant ({1}), found {2}", "每个变体应有一个权重（{1} 个），实际为 {2} 个") \
    X(FiniteWeights, "expected finite weights ≥ 0, found {1}", "权重应为 ≥ 0 的有限数，实际为 {1}") \
    X(WeightsSumToOne, "expected weights summing to 1, found {1}", "权重之和应为 1，实际为 {1}") \
    X(SentenceTooLongForModel, "the sentence has {1} tokens, the model room for {2}", "句子有 {1} 个词元，模型只容得下 {2} 个") \
    X(WhereWorksheet, "worksheet", "练习单") \
    X(ExerciseHidesNoCell, "the exercise hides no cell", "这个练习没有隐藏任何单元格") \
    X(WhereExerciseOn, "exercise on {1}", "{1} 上的练习") \
    X(WhereLearnedTableOf, "learned position table of {1}", "{1} 的学习得到的位置表") \
    X(WhereFirstSentence, "first sentence", "第一个句子") \
    X(WhereSecondSentence, "second sentence", "第二个句子") \
    /* app/lesson_source (the shell's lesson loading, worded by core's catalogue) */ \
    X(CannotBeRead, "cannot be read: {1}", "无法读取：{1}") \
    X(ShownAsFffd, "shown as U+FFFD", "显示为 U+FFFD") \
    X(NotALesson, "is neither a lesson file nor a built-in lesson (built-in: {1})", "既不是课程文件，也不是内置课程（内置课程：{1}）") \
    X(WhereInlineLesson, "inline lesson", "内联课程") \
    /* core/analysis/compare_export: comparing several heads of two sentences */ \
    X(TheHeadsSwitchedOffInA, "the heads switched off in A ({1})", "A 中关闭的头（{1}）") \
    X(AtLeastOneHeadToCompare, "at least one head to compare", "至少一个要比较的头") \
    X(WhereHeads, "heads", "头") \
    /* core/io/json_reader: the lead of a JSON syntax error (nlohmann's own text follows in brackets) */ \
    X(JsonFoundHere, "found {1} here", "此处出现了{1}") \
    X(JsonEndOfText, "the end of the text", "文本结尾") \
    X(JsonAValue, "a value (an object, a list, text in double quotes, a number, true, false or null)", \
      "一个值（对象、列表、双引号中的文本、数字、true、false 或 null）") \
    X(JsonAKey, "a key in double quotes", "双引号中的键") \
    X(JsonAString, "text in double quotes", "双引号中的文本") \
    X(JsonBadString, "text in quotes that JSON does not allow (a missing closing quote, a bad escape, a raw control character or invalid UTF-8)", \
      "JSON 不允许的引号文本（缺少右引号、错误的转义、未转义的控制字符或无效的 UTF-8）") \
    X(JsonNumberOverflow, "a number too large for a double (at most about 1.8e308)", "超出双精度范围的数（最大约 1.8e308）") \
    X(JsonBadLiteral, "a word that is not a JSON value (text needs double quotes; true, false and null are lower-case)", \
      "不是 JSON 值的词（文本需要双引号；true、false 和 null 须小写）") \
    X(JsonBadNumber, "a malformed number", "格式错误的数字") \
    X(JsonOneOf, "{1} or {2}", "{1}或{2}") \
    X(WhereAblate, "ablate", "关闭的头") \
    /* core/analysis/norm_attention, logit_lens (issue 30 §2) */ \
    X(WhereNormAttention, "norm-based attention", "基于范数的注意力") \
    X(WhereLogitLens, "logit lens", "logit 透镜") \
    X(WhereLogitAttribution, "direct logit attribution", "直接 logit 归因") \
    X(ValuesNotKept, "its value vectors were not kept (the layer holds its weights only)", "它的值向量没有保留（该层只保留了权重）") \
    X(NoMaskToRead, "the sentence has no [MASK] token; a masked language model is read at its masks", "句子中没有 [MASK] 词元；掩码语言模型只在掩码处读取") \
    X(NoMaskedLmHead, "the checkpoint has no masked-LM head (tensor \"{1}\" is missing)", "该检查点没有掩码语言模型头（缺少张量“{1}”）") \
    X(HiddenStatesCount, "{1} hidden states (one per layer and the embeddings')", "{1} 个隐藏状态（每层一个，另加嵌入的）") \
    /* lessons with grouped-query attention (issue 29 §3, format version 7) */ \
    X(KvHeadsNeedV7, "\"kv_heads\" needs \"version\": 7", "\"kv_heads\" 需要 \"version\": 7") \
    X(ADivisorOfHeads, "a number of key/value heads that divides heads = {1}", "能整除 “heads” = {1} 的键/值头数") \
    X(AListOfKvHeads, "a list of {1} key/value heads", "含 {1} 个键/值头的列表") \
    X(CountKvHeads, "{1} key/value heads", "{1} 个键/值头") \
    X(AnObjectWithWKV, "an object with W_K, W_V", "含 W_K、W_V 的对象") \
    X(AnObjectWithWQ, "an object with W_Q", "含 W_Q 的对象") \
    X(KeyValueInKvHeads, "is given, but with kv_heads = {1} below heads = {2} the keys and values are in kv_heads_weights (one entry per key/value head)", \
      "已给出，但 kv_heads = {1} 小于 “heads” = {2}，键和值应写在 kv_heads_weights 中（每个键/值头一项）") \
    X(KvWeightsWithoutSharing, "is given, but every head has its own keys and values (kv_heads = heads = {1}): give W_K and W_V in heads_weights", \
      "已给出，但每个头都有自己的键和值（kv_heads = “heads” = {1}）：W_K 和 W_V 应写在 heads_weights 中") \
    /* lessons with an encoder and a decoder (issue 29 §4, format version 8) */ \
    X(EncoderDecoderNeedsV8, "\"encoder_decoder\" needs \"version\": 8", "\"encoder_decoder\" 需要 \"version\": 8") \
    X(BlockWithEncoderDecoder, "is given with \"encoder_decoder\": the decoder ends in encoder_decoder.output_head, so a lesson has a block or an encoder and a decoder, not both", \
      "与 \"encoder_decoder\" 同时给出：解码器以 encoder_decoder.output_head 结束，所以一个课程要么有 “block”，要么有编码器和解码器，不能两者都有") \
    X(AnObjectEncoderDecoder, "an object with target, decoder_self, cross and output_head", "含 “target”、“decoder_self”、“cross” 和 “output_head” 的对象") \
    X(AtLeastOneWord, "at least one word", "至少一个词") \
    X(AListOfWords, "a list of 1 to 4096 words", "含 1 到 4096 个词的列表") \
    X(WordTwice, "has \"{1}\" twice (each word of the vocabulary once)", "两次出现“{1}”（词表中每个词只能出现一次）") \
    X(VocabularyWithEnd, "a list that holds \"</s>\" (the last label)", "含有 \"</s>\"（最后一个标签）的列表") \
    X(WordsOfVocabulary, "words of output_head.vocabulary ({1})", "output_head.vocabulary 中的词（{1}）") \
    X(ShapeVocabTarget, "W_vocab is d_model×V_t, V_t = {1} words of output_head.vocabulary", \
      "W_vocab 为 d_model×V_t，V_t = output_head.vocabulary 中的 {1} 个词") \
    X(EncoderOutputWidth, \
      "is missing: the encoder's output M = X + attention output is d_model = {1} wide, but without W_O the attention " \
      "output is the concatenation, heads·d_v = {2} wide; give a {2}×{1} W_O", \
      "缺失：编码器输出 M = X + 注意力输出，宽度为 d_model = {1}，但没有 W_O 时注意力输出是各头的拼接，宽度为 头数·d_v = " \
      "{2}；请给出 {2}×{1} 的 W_O") \
    X(NoEncoderDecoder, "has no \"encoder_decoder\" part (format version 8): there is no decoder to run", \
      "没有 \"encoder_decoder\" 部分（格式版本 8）：没有可运行的解码器") \
    X(StageNames, "encoder, decoder_self or cross (the stages of an encoder–decoder lesson)", \
      "encoder、decoder_self 或 cross（编码器–解码器课程的阶段）") \
    X(StageNeedsEncoderDecoder, "chooses a stage of an encoder–decoder lesson, but this lesson has no \"encoder_decoder\" part (format version 8): its attention is its only stage (leave --stage out)", \
      "用于选择编码器–解码器课程的阶段，但此课程没有 \"encoder_decoder\" 部分（格式版本 8）：注意力是它唯一的阶段（请去掉 --stage）") \
    /* core/analysis/token_movement (issue 29 §5) */ \
    X(WhereTokenMovement, "what attention did to each word", "注意力对每个词做了什么") \
    X(WhereSameWord, "the same word in two contexts", "同一个词在两个语境中") \
    X(HasNoLayerOf, "has no layer {1}; its layers are 1 to {2}", "没有第 {1} 层；层的编号为 1 到 {2}") \
    X(HasNoTokenOf, "has no token {1}; its tokens are 1 to {2}", "没有第 {1} 个词元；词元的编号为 1 到 {2}") \
    X(HasNoLayers, "has no layers", "没有任何层") \
    X(StatesPerLayer, "{1} vectors per token (one entering each layer, one leaving the last)", "每个词元 {1} 个向量（进入每层各一个，离开最后一层一个）") \
    X(NoDirectPath, "needs a final norm and a linear output head; {1} models have neither (post-norm layers, a masked-LM head with a GELU inside)", "需要最终归一化和线性输出头；{1} 模型两者都没有（后归一化的层，内部含 GELU 的掩码语言模型头）")

enum class ErrorId {
#define ATTNSCOPE_ERROR_ID(id, english, chinese) id,
    ATTNSCOPE_ERROR_CATALOGUE(ATTNSCOPE_ERROR_ID)
#undef ATTNSCOPE_ERROR_ID
        Count
};

// The template of `id` in `language`.
std::string_view errorTemplate(ErrorId id, Language language);

// `text` with {1}, {2}, … replaced by `arguments` (a placeholder without an argument stays).
std::string fillErrorTemplate(std::string_view text, const std::vector<std::string>& arguments);

namespace detail {
inline ErrorText errorArgument(ErrorText text) { return text; }
inline ErrorText errorArgument(ErrorId id) { return ErrorText(id); }
inline ErrorText errorArgument(std::string text) { return ErrorText::verbatim(std::move(text)); }
inline ErrorText errorArgument(std::string_view text) { return ErrorText::verbatim(std::string(text)); }
inline ErrorText errorArgument(const char* text) { return ErrorText::verbatim(text); }
template <class N, std::enable_if_t<std::is_integral_v<N> && !std::is_same_v<N, bool> && !std::is_same_v<N, char>, int> = 0>
ErrorText errorArgument(N number) {
    return ErrorText::verbatim(std::to_string(number));
}
}  // namespace detail

// The entry `id` with its arguments: texts and numbers are kept verbatim, ids and ErrorTexts are
// rendered in the reader's language. errorText(ErrorId::ExpectedFound, ErrorId::ANumber, "\"x\"").
template <class... Args>
ErrorText errorText(ErrorId id, Args&&... arguments) {
    return ErrorText(id, {detail::errorArgument(std::forward<Args>(arguments))...});
}

}  // namespace attnscope
