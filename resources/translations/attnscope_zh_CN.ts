<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>About</name>
    <message>
        <source>&lt;p&gt;Transformer self-attention, every number visible and computable by hand.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Transformer 自注意力：每个数字都看得见，都能手算。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Where the numbers come from.&lt;/b&gt; Every number is computed on this computer by AttnScope&apos;s own engine, without a network connection. Lessons run in double precision on the embeddings and weights written in the lesson file (optionally rounded as by hand); real models run in single precision on the weights of the safetensors files you open, with the formulas of their Hugging Face implementation (BERT, DistilBERT, RoBERTa, GPT-2). An independent Python reference checks both in the test suite.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;数字从何而来。&lt;/b&gt;每个数字都由 AttnScope 自己的计算引擎在本机算出，无需联网。课程以双精度运行，使用课程文件中写明的嵌入和权重（可选择像手算一样舍入）；真实模型以单精度运行，使用你打开的 safetensors 文件中的权重，公式与其 Hugging Face 实现一致（BERT、DistilBERT、RoBERTa、GPT-2）。测试套件中有一份独立的 Python 参考实现对两者进行核对。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Licence:&lt;/b&gt; GNU General Public License, version 3 or any later version (GPL-3.0-or-later). AttnScope comes with ABSOLUTELY NO WARRANTY. It uses Qt %1 (LGPL-3.0), QCustomPlot (GPL-3.0), Eigen (MPL-2.0), nlohmann/json (MIT) and OpenBLAS (BSD-3-Clause).&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;许可证：&lt;/b&gt;GNU 通用公共许可证第 3 版或任何更高版本（GPL-3.0-or-later）。AttnScope 不提供任何担保。它使用了 Qt %1（LGPL-3.0）、QCustomPlot（GPL-3.0）、Eigen（MPL-2.0）、nlohmann/json（MIT）和 OpenBLAS（BSD-3-Clause）。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;About AttnScope</source>
        <translation>关于 AttnScope(&amp;A)</translation>
    </message>
    <message>
        <source>About AttnScope</source>
        <translation>关于 AttnScope</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 Qt(&amp;Q)</translation>
    </message>
</context>
<context>
    <name>HeadsTab</name>
    <message>
        <source>sink</source>
        <translation>汇聚</translation>
    </message>
    <message>
        <source>prev</source>
        <translation>前词</translation>
    </message>
    <message>
        <source>next</source>
        <translation>后词</translation>
    </message>
    <message>
        <source>self</source>
        <translation>自身</translation>
    </message>
    <message>
        <source>broad</source>
        <translation>广泛</translation>
    </message>
    <message>
        <source>coref</source>
        <translation>共指</translation>
    </message>
    <message>
        <source>first</source>
        <translation>首汇</translation>
    </message>
</context>
<context>
    <name>HeatmapExport</name>
    <message>
        <source>nothing to draw: the sentence has no tokens</source>
        <translation>没有可绘制的内容：句子没有词元</translation>
    </message>
    <message>
        <source>there is no layer %1</source>
        <translation>没有第 %1 层</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>config</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>no config.json</source>
        <translation>没有 config.json</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>no .safetensors</source>
        <translation>没有 .safetensors</translation>
    </message>
    <message>
        <source>&amp;Positional encoding</source>
        <translation>位置编码(&amp;P)</translation>
    </message>
    <message>
        <source>Why scale by √&amp;d_k</source>
        <translation>为什么要除以 √d_k 缩放(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Synthesizer</source>
        <translation>Synthesizer 合成注意力(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Masks &amp;&amp; cross-attention</source>
        <translation>掩码与交叉注意力(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Multi-head, step by step</source>
        <translation>多头注意力，逐步演示(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Exercises</source>
        <translation>练习(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Example models</source>
        <translation>示例模型(&amp;E)</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 · entropy %2 bits</source>
        <translation>%1 · 熵 %2 比特</translation>
    </message>
    <message>
        <source>… and %1 more (attnscope heads lists them all)</source>
        <translation>……另有 %1 条（attnscope heads 会全部列出）</translation>
    </message>
    <message>
        <source>Skipped:
</source>
        <translation>已跳过：
</translation>
    </message>
    <message>
        <source>attention weight</source>
        <translation>注意力权重</translation>
    </message>
    <message>
        <source>attended-to token (key)</source>
        <translation>被关注的词元（键）</translation>
    </message>
    <message>
        <source>query token</source>
        <translation>查询词元</translation>
    </message>
    <message>
        <source>attended-to word (key)</source>
        <translation>被关注的词（键）</translation>
    </message>
    <message>
        <source>query word</source>
        <translation>查询词</translation>
    </message>
    <message>
        <source>Average over heads</source>
        <translation>各头平均</translation>
    </message>
    <message>
        <source>Maximum over heads</source>
        <translation>各头最大值</translation>
    </message>
    <message>
        <source>Attention weights — head %1</source>
        <translation>注意力权重 — 第 %1 头</translation>
    </message>
    <message>
        <source>Attention weights</source>
        <translation>注意力权重</translation>
    </message>
    <message>
        <source> (special tokens hidden, rows renormalised)</source>
        <translation>（已隐藏特殊词元，各行重新归一化）</translation>
    </message>
    <message>
        <source> (special tokens hidden: rows sum to &lt; 1)</source>
        <translation>（已隐藏特殊词元：各行之和 &lt; 1）</translation>
    </message>
    <message>
        <source>Next token after “%1” (position %2)</source>
        <translation>“%1”之后的下一个词元（位置 %2）</translation>
    </message>
    <message>
        <source>%1 at position %2</source>
        <translation>位置 %2 上的 %1</translation>
    </message>
    <message>
        <source>max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>平均值</translation>
    </message>
    <message>
        <source>nearest</source>
        <translation>最近指称</translation>
    </message>
    <message>
        <source>rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>第 %1 头</translation>
    </message>
    <message>
        <source>Embedding table</source>
        <translation>嵌入表</translation>
    </message>
    <message>
        <source>Positional table</source>
        <translation>位置编码表</translation>
    </message>
    <message>
        <source>antecedent accuracy</source>
        <translation>先行词准确率</translation>
    </message>
    <message>
        <source>head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>No evaluation yet</source>
        <translation>尚未评估</translation>
    </message>
    <message>
        <source>Layer %1 · head %2: %3% (%4 of %5)</source>
        <translation>第 %1 层 · 第 %2 头：%3%（%5 个中的 %4 个）</translation>
    </message>
    <message>
        <source>layer %1 · head %2</source>
        <translation>第 %1 层 · 第 %2 头</translation>
    </message>
    <message>
        <source>DPI must be between 24 and 1200, found %1</source>
        <translation>DPI 必须在 24 到 1200 之间，实际为 %1</translation>
    </message>
    <message>
        <source>cannot draw the SVG</source>
        <translation>无法绘制 SVG</translation>
    </message>
    <message>
        <source>cannot draw the PDF</source>
        <translation>无法绘制 PDF</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG vector image (*.svg);;PDF (*.pdf)</source>
        <translation>PNG 图像 (*.png);;SVG 矢量图 (*.svg);;PDF (*.pdf)</translation>
    </message>
    <message>
        <source>;;CSV matrix (*.csv);;JSON matrix (*.json);;NumPy matrix (*.npy)</source>
        <translation>;;CSV 矩阵 (*.csv);;JSON 矩阵 (*.json);;NumPy 矩阵 (*.npy)</translation>
    </message>
    <message>
        <source>Export figure</source>
        <translation>导出图形</translation>
    </message>
    <message>
        <source>PNG resolution</source>
        <translation>PNG 分辨率</translation>
    </message>
    <message>
        <source>DPI:</source>
        <translation>DPI：</translation>
    </message>
    <message>
        <source>unknown file type “.%1”: use .png, .svg, .pdf, .csv, .json or .npy</source>
        <translation>未知的文件类型“.%1”：请使用 .png、.svg、.pdf、.csv、.json 或 .npy</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>PNG (chosen DPI), SVG, PDF%1</source>
        <translation>PNG（所选 DPI）、SVG、PDF%1</translation>
    </message>
    <message>
        <source>; the matrix as CSV, JSON or .npy</source>
        <translation>；矩阵可导出为 CSV、JSON 或 .npy</translation>
    </message>
    <message>
        <source>Not updated — %1. The plots still show the last valid input.</source>
        <translation>未更新 — %1。图中仍显示上一次有效的输入。</translation>
    </message>
    <message>
        <source>scaled by 1/√d</source>
        <translation>按 1/√d 缩放</translation>
    </message>
    <message>
        <source>unscaled</source>
        <translation>未缩放</translation>
    </message>
    <message>
        <source>unknown file type “.%1”: use .md, .tex or .pdf</source>
        <translation>未知的文件类型“.%1”：请使用 .md、.tex 或 .pdf</translation>
    </message>
    <message>
        <source>concat</source>
        <translation>拼接</translation>
    </message>
    <message>
        <source>parameters 4d²</source>
        <translation>参数量 4d²</translation>
    </message>
    <message>
        <source>std of Q_h·K_hᵀ</source>
        <translation>Q_h·K_hᵀ 的标准差</translation>
    </message>
    <message>
        <source>std of Q_h·K_hᵀ/√d_k</source>
        <translation>Q_h·K_hᵀ/√d_k 的标准差</translation>
    </message>
    <message>
        <source>mean row entropy (nats)</source>
        <translation>各行熵的平均（奈特）</translation>
    </message>
    <message>
        <source>Switch head %1 back on</source>
        <translation>重新打开头 %1</translation>
    </message>
    <message>
        <source>Switch head %1 off</source>
        <translation>关闭头 %1</translation>
    </message>
    <message>
        <source>%1 (model)</source>
        <translation>%1（模型）</translation>
    </message>
    <message>
        <source>%1 (missing)</source>
        <translation>%1（不存在）</translation>
    </message>
    <message>
        <source>No recent files</source>
        <translation>没有最近的文件</translation>
    </message>
    <message>
        <source>Clear list</source>
        <translation>清空列表</translation>
    </message>
    <message>
        <source>weight ÷ its row&apos;s maximum</source>
        <translation>权重 ÷ 所在行的最大值</translation>
    </message>
    <message>
        <source>attention weight (log scale, from %1)</source>
        <translation>注意力权重（对数刻度，从 %1 起）</translation>
    </message>
    <message>
        <source>cannot draw the figure</source>
        <translation>无法绘制图形</translation>
    </message>
    <message>
        <source>less than a second left</source>
        <translation>剩余不到 1 秒</translation>
    </message>
    <message>
        <source>about %1 s left</source>
        <translation>约剩 %1 秒</translation>
    </message>
    <message>
        <source>about %1 min %2 s left</source>
        <translation>约剩 %1 分 %2 秒</translation>
    </message>
    <message>
        <source>about %1 h %2 min left</source>
        <translation>约剩 %1 小时 %2 分</translation>
    </message>
    <message>
        <source>punctuation</source>
        <translation>标点</translation>
    </message>
    <message>
        <source>previous token</source>
        <translation>前一个词元</translation>
    </message>
    <message>
        <source>itself</source>
        <translation>自身</translation>
    </message>
    <message>
        <source>next token</source>
        <translation>后一个词元</translation>
    </message>
    <message>
        <source>same token elsewhere</source>
        <translation>别处的相同词元</translation>
    </message>
    <message>
        <source>No corpus statistics yet</source>
        <translation>尚无语料统计</translation>
    </message>
    <message>
        <source>mean attention</source>
        <translation>平均注意力</translation>
    </message>
    <message>
        <source>entropy (bits)</source>
        <translation>熵（比特）</translation>
    </message>
    <message>
        <source>offset (key − query)</source>
        <translation>偏移（键 − 查询）</translation>
    </message>
    <message>
        <source>(a) attention to: %1</source>
        <translation>（a）注意力指向：%1</translation>
    </message>
    <message>
        <source>(b) entropy per head; bars: uniform</source>
        <translation>（b）各头的熵；横条：均匀分布</translation>
    </message>
    <message>
        <source>(c) offsets of layer %1, head %2</source>
        <translation>（c）第 %1 层第 %2 头的偏移</translation>
    </message>
    <message>
        <source>%1 bits (uniform %2)</source>
        <translation>%1 比特（均匀分布 %2）</translation>
    </message>
    <message>
        <source>Antecedent accuracy per head
%1, %2 evaluated
baselines: random %3, first %4, nearest %5, rule %6; rollout %7</source>
        <translation>各注意力头的先行词准确率
%1，已评估 %2
基线：随机 %3，第一个 %4，最近指称 %5，规则 %6；注意力展开 %7</translation>
    </message>
    <message>
        <source>%1 [%2, %3] (%4/%5)</source>
        <translation>%1 [%2, %3]（%4/%5）</translation>
    </message>
    <message>
        <source>first token</source>
        <translation>第一个词元</translation>
    </message>
    <message>
        <source>last token</source>
        <translation>最后一个词元</translation>
    </message>
    <message>
        <source>%1:%2   p %3 → %4 (%5), logit %6 → %7 (%8), then “%9”</source>
        <translation>%1:%2   p %3 → %4（%5），logit %6 → %7（%8），之后预测“%9”</translation>
    </message>
    <message>
        <source>Logit lens of %1: the tokens each layer&apos;s residual stream would predict next at each position, read through the final norm and the output head.</source>
        <translation>%1 的 logit 透镜：在每个位置上，各层残差流经过最终归一化和输出头后会预测的下一个词元。</translation>
    </message>
    <message>
        <source>Logit lens of %1: what each layer&apos;s residual stream would fill in at each [MASK], read through the masked-LM head.</source>
        <translation>%1 的 logit 透镜：各层残差流经过掩码语言模型头后，会在每个 [MASK] 处填入的词元。</translation>
    </message>
    <message>
        <source>embeddings</source>
        <translation>嵌入</translation>
    </message>
    <message>
        <source>layer %1 (output)</source>
        <translation>第 %1 层（输出）</translation>
    </message>
    <message>
        <source>Weight × ‖value‖ — head %1</source>
        <translation>权重 × ‖值‖ — 头 %1</translation>
    </message>
    <message>
        <source>Weight × ‖value‖</source>
        <translation>权重 × ‖值‖</translation>
    </message>
    <message>
        <source> of weight × ‖value‖</source>
        <translation>（权重 × ‖值‖）</translation>
    </message>
    <message>
        <source>weight × ‖value‖, each row&apos;s share</source>
        <translation>权重 × ‖值‖，占每行的比例</translation>
    </message>
    <message>
        <source>K/V head %1</source>
        <translation>K/V 头 %1</translation>
    </message>
    <message>
        <source>Export worksheet</source>
        <translation>导出练习单</translation>
    </message>
    <message>
        <source>Markdown: NAME.md and NAME-answers.md (*.md);;LaTeX: NAME.tex and NAME-answers.tex (*.tex);;PDF: questions, then the answer key on a new page (*.pdf)</source>
        <translation>Markdown：NAME.md 和 NAME-answers.md (*.md);;LaTeX：NAME.tex 和 NAME-answers.tex (*.tex);;PDF：先是题目，答案另起一页 (*.pdf)</translation>
    </message>
    <message>
        <source>Wrote %1 and %2</source>
        <translation>已写入 %1 和 %2</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>Cross-attention heads: rows (queries) are the decoder&apos;s %1 tokens “%2”, columns (keys) the source&apos;s %3 tokens “%4”; previous, next, self and first are left out (two different sentences). Click a column to sort.</source>
        <translation>交叉注意力头：行（查询）是解码器的 %1 个词元“%2”，列（键）是源句的 %3 个词元“%4”；前一个、后一个、自身和首词元不列出（两个不同的句子）。点击列标题可排序。</translation>
    </message>
    <message>
        <source>Layer %1: attention weights not computed</source>
        <translation>第 %1 层：尚未计算注意力权重</translation>
    </message>
</context>
<context>
    <name>attnscope::AttentionControls</name>
    <message>
        <source>Layer:</source>
        <translation>层：</translation>
    </message>
    <message>
        <source>Hide special tokens</source>
        <translation>隐藏特殊词元</translation>
    </message>
    <message>
        <source>Each head</source>
        <translation>每个头</translation>
    </message>
    <message>
        <source>Average over heads</source>
        <translation>各头平均</translation>
    </message>
    <message>
        <source>Maximum over heads</source>
        <translation>各头最大值</translation>
    </message>
    <message>
        <source>Fixed 0–1</source>
        <translation>固定 0–1</translation>
    </message>
    <message>
        <source>Shared maximum</source>
        <translation>共同最大值</translation>
    </message>
    <message>
        <source>Per-head maximum</source>
        <translation>各头各自最大值</translation>
    </message>
    <message>
        <source>Renormalise rows</source>
        <translation>各行重新归一化</translation>
    </message>
    <message>
        <source>With special tokens hidden: divide each row by what is left, so it sums to 1.</source>
        <translation>隐藏特殊词元时：每行除以剩余部分之和，使其总和为 1。</translation>
    </message>
    <message>
        <source>Heads:</source>
        <translation>头：</translation>
    </message>
    <message>
        <source>Colour scale:</source>
        <translation>色标：</translation>
    </message>
    <message>
        <source>Weight × ‖value‖</source>
        <translation>权重 × ‖值‖</translation>
    </message>
    <message>
        <source>Weight × ‖value‖ (Kobayashi et al. 2020): how much of each token&apos;s value vector, through the head&apos;s part of W_O, reaches the query, as a share of the row. Attention parked on [CLS], [SEP] or the first token often carries little.</source>
        <translation>权重 × ‖值‖（Kobayashi 等，2020）：每个词元的值向量经过该头在 W_O 中的部分后，有多少到达查询，以占该行的比例表示。停在 [CLS]、[SEP] 或第一个词元上的注意力往往传递得很少。</translation>
    </message>
    <message>
        <source>‖value‖: layer %v of %m</source>
        <translation>‖值‖：第 %v 层，共 %m 层</translation>
    </message>
</context>
<context>
    <name>attnscope::BestHeadsRow</name>
    <message>
        <source>best </source>
        <translation>最佳 </translation>
    </message>
    <message>
        <source>How many of the best heads the coreference view averages.</source>
        <translation>共指视图对多少个最佳头取平均。</translation>
    </message>
    <message>
        <source>Use best head(s) for coreference</source>
        <translation>用最佳的头进行共指消解</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Heatmap as PNG…</source>
        <translation>热力图导出为 PNG…</translation>
    </message>
    <message>
        <source>Heatmap as SVG…</source>
        <translation>热力图导出为 SVG…</translation>
    </message>
    <message>
        <source>Heatmap as PDF…</source>
        <translation>热力图导出为 PDF…</translation>
    </message>
    <message>
        <source>Accuracies as CSV…</source>
        <translation>准确率导出为 CSV…</translation>
    </message>
    <message>
        <source>Evaluation as JSON…</source>
        <translation>评估结果导出为 JSON…</translation>
    </message>
</context>
<context>
    <name>attnscope::BeyondTabController</name>
    <message>
        <source>Beyond weights</source>
        <translation>超越权重</translation>
    </message>
    <message>
        <source>No run yet: type a sentence.</source>
        <translation>尚未运行：请输入一个句子。</translation>
    </message>
    <message>
        <source>A lesson has no output head, so there is no vocabulary to read its layers through: the logit lens and direct logit attribution need a model. Open one from Model ▸ Example models.</source>
        <translation>课程没有输出头，因此没有可用来解读各层的词表：logit 透镜和直接 logit 归因需要一个模型。请从“模型 ▸ 示例模型”打开一个。</translation>
    </message>
    <message>
        <source>Cancelled; what was shown stays.</source>
        <translation>已取消；保留之前显示的内容。</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>nothing is shown yet</source>
        <translation>尚未显示任何内容</translation>
    </message>
    <message>
        <source>cannot draw the figure</source>
        <translation>无法绘制图形</translation>
    </message>
    <message>
        <source>Beyond</source>
        <comment>short tab label</comment>
        <translation>超越权重</translation>
    </message>
</context>
<context>
    <name>attnscope::BeyondView</name>
    <message>
        <source>Head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>Direct logit</source>
        <translation>直接 logit</translation>
    </message>
    <message>
        <source>Switched off: logit change</source>
        <translation>关闭后：logit 变化</translation>
    </message>
    <message>
        <source>Switched off: p</source>
        <translation>关闭后：概率</translation>
    </message>
    <message>
        <source>%v of %m</source>
        <translation>%v / %m</translation>
    </message>
    <message>
        <source>Switch each head off</source>
        <translation>逐个关闭头</translation>
    </message>
    <message>
        <source>The ablation ranking beside the attribution: one run of the model per head.</source>
        <translation>在归因旁显示消融排名：每个头运行一次模型。</translation>
    </message>
    <message>
        <source>head %v of %m</source>
        <translation>第 %v 个头，共 %m 个</translation>
    </message>
    <message>
        <source>Top tokens:</source>
        <translation>前几个词元：</translation>
    </message>
    <message>
        <source>Attribute:</source>
        <translation>归因对象：</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Logit lens as PNG…</source>
        <translation>Logit 透镜导出为 PNG…</translation>
    </message>
    <message>
        <source>Logit lens as SVG…</source>
        <translation>Logit 透镜导出为 SVG…</translation>
    </message>
    <message>
        <source>Logit lens as CSV…</source>
        <translation>Logit 透镜导出为 CSV…</translation>
    </message>
    <message>
        <source>Logit lens as JSON…</source>
        <translation>Logit 透镜导出为 JSON…</translation>
    </message>
    <message>
        <source>Head attribution as CSV…</source>
        <translation>头归因导出为 CSV…</translation>
    </message>
    <message>
        <source>Head attribution as JSON…</source>
        <translation>头归因导出为 JSON…</translation>
    </message>
    <message>
        <source>Direct logit attribution of “%1” at position %2 (logit %3): what each head writes there, through W_O, the final norm with its scale frozen and the output head. Largest first; beside it, switching the head off.</source>
        <translation>位置 %2 上“%1”的直接 logit 归因（logit %3）：每个头在该处写入的内容，经过 W_O、缩放固定的最终归一化和输出头。从大到小排列；旁边是关闭该头的结果。</translation>
    </message>
</context>
<context>
    <name>attnscope::CompareTabController</name>
    <message>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Running B…</source>
        <translation>正在运行 B…</translation>
    </message>
    <message>
        <source>B could not be run: %1</source>
        <translation>无法运行 B：%1</translation>
    </message>
    <message>
        <source>Weight × ‖value‖ of B could not be computed (%1): the maps show the weights.</source>
        <translation>无法计算 B 的权重 × ‖值‖（%1）：图中显示的是权重。</translation>
    </message>
    <message>
        <source>The maps show the weights until weight × ‖value‖ of both sentences is computed.</source>
        <translation>在两个句子的权重 × ‖值‖ 都计算完成之前，图中显示的是权重。</translation>
    </message>
</context>
<context>
    <name>attnscope::CompareView</name>
    <message>
        <source>Tokens aligned by position (both sentences have as many).</source>
        <translation>词元按位置对齐（两个句子的词元数相同）。</translation>
    </message>
    <message>
        <source>Different token counts: aligned by word (%1 words in common or paired).</source>
        <translation>词元数不同：按词对齐（%1 个词相同或配对）。</translation>
    </message>
    <message>
        <source>Only in A: %1.</source>
        <translation>仅在 A 中：%1。</translation>
    </message>
    <message>
        <source>Only in B: %1.</source>
        <translation>仅在 B 中：%1。</translation>
    </message>
    <message>
        <source>A second sentence, e.g. the same with one word changed</source>
        <translation>第二个句子，例如只改动一个词的同一句</translation>
    </message>
    <message>
        <source>Compare with (B):</source>
        <translation>对比句（B）：</translation>
    </message>
    <message>
        <source>key (attended to)</source>
        <translation>键（被关注）</translation>
    </message>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>Type a second sentence and press Enter: its attention is set beside this one&apos;s.</source>
        <translation>输入第二个句子并按回车：它的注意力会与本句的并排显示。</translation>
    </message>
    <message>
        <source>layer %1 · head %2</source>
        <translation>第 %1 层 · 第 %2 头</translation>
    </message>
    <message>
        <source>A — %1</source>
        <translation>A — %1</translation>
    </message>
    <message>
        <source>attention weight</source>
        <translation>注意力权重</translation>
    </message>
    <message>
        <source>B — %1</source>
        <translation>B — %1</translation>
    </message>
    <message>
        <source>A − B</source>
        <translation>A − B</translation>
    </message>
    <message>
        <source>A − B (vermillion: A larger)</source>
        <translation>A − B（朱红：A 较大）</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Maps as PNG…</source>
        <translation>热力图导出为 PNG…</translation>
    </message>
    <message>
        <source>Maps as SVG…</source>
        <translation>热力图导出为 SVG…</translation>
    </message>
    <message>
        <source>Maps as PDF…</source>
        <translation>热力图导出为 PDF…</translation>
    </message>
    <message>
        <source>Numbers as CSV…</source>
        <translation>数值导出为 CSV…</translation>
    </message>
    <message>
        <source>Numbers as JSON…</source>
        <translation>数值导出为 JSON…</translation>
    </message>
    <message>
        <source>nothing is compared yet</source>
        <translation>尚未进行比较</translation>
    </message>
    <message>
        <source>Export comparison</source>
        <translation>导出比较</translation>
    </message>
    <message>
        <source>weight × ‖value‖, each row&apos;s share</source>
        <translation>权重 × ‖值‖，占每行的比例</translation>
    </message>
    <message>
        <source>Shown: weight × ‖value‖ (Kobayashi et al. 2020), each row&apos;s share, not the raw weight.</source>
        <translation>显示的是权重 × ‖值‖（Kobayashi 等，2020）占每行的比例，而不是原始权重。</translation>
    </message>
    <message>
        <source>weight × ‖value‖</source>
        <translation>权重 × ‖值‖</translation>
    </message>
</context>
<context>
    <name>attnscope::CorefMentionRow</name>
    <message>
        <source>Every pronoun</source>
        <translation>每个代词</translation>
    </message>
    <message>
        <source>Resolve every pronoun of the sentence again, instead of the clicked word</source>
        <translation>重新消解句中的每个代词，而不是所点击的词</translation>
    </message>
    <message>
        <source>Cataphora</source>
        <translation>后指</translation>
    </message>
    <message>
        <source>Admit the words after the mention as candidates too</source>
        <translation>指称之后的词也作为候选</translation>
    </message>
    <message>
        <source>Mention: every pronoun</source>
        <translation>指称：每个代词</translation>
    </message>
    <message>
        <source>Click a word in the picture to resolve it as the mention</source>
        <translation>点击图中的词，将其作为指称进行消解</translation>
    </message>
    <message>
        <source>Mention: “%1”</source>
        <translation>指称：“%1”</translation>
    </message>
</context>
<context>
    <name>attnscope::CorefSetRow</name>
    <message>
        <source>Other file…</source>
        <translation>其他文件…</translation>
    </message>
    <message>
        <source>Evaluate</source>
        <translation>评估</translation>
    </message>
    <message>
        <source>Run every sentence of the set and measure how often each head attends most to the gold antecedent.</source>
        <translation>运行数据集中的每个句子，统计每个头把最大注意力给到标准先行词的频率。</translation>
    </message>
    <message>
        <source>sentence %v of %m</source>
        <translation>第 %v 句，共 %m 句</translation>
    </message>
    <message>
        <source>Coreference set:</source>
        <translation>共指数据集：</translation>
    </message>
    <message>
        <source>Coreference set</source>
        <translation>共指数据集</translation>
    </message>
    <message>
        <source>Coreference sets (*.jsonl);;All files (*)</source>
        <translation>共指数据集 (*.jsonl);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Random-weights control</source>
        <translation>随机权重对照</translation>
    </message>
    <message>
        <source>Also evaluate a copy of the model with every tensor&apos;s weights shuffled (with the seed beside), and show where its best head lands: a head that does not beat it has not shown it learned coreference. Models only; the copy needs the model&apos;s size in memory.</source>
        <translation>另外评估一个每个张量的权重都被打乱（用旁边的种子）的模型副本，并显示其最佳头排在哪里：赢不了它的头并没有表明自己学到了共指。仅限模型；副本需要与模型同样大小的内存。</translation>
    </message>
    <message>
        <source>seed </source>
        <translation>种子 </translation>
    </message>
    <message>
        <source>Seed of the random-weights control&apos;s shuffle and of the bootstrap intervals (as attnscope heads --seed): the same seed gives the same numbers.</source>
        <translation>随机权重对照的打乱种子，也是自助法区间的种子（与 attnscope heads --seed 相同）：同一种子给出同样的数字。</translation>
    </message>
</context>
<context>
    <name>attnscope::CorefTab</name>
    <message>
        <source>Attention rollout</source>
        <translation>注意力展开（rollout）</translation>
    </message>
    <message>
        <source>All heads of layer 1</source>
        <translation>第 1 层的所有头</translation>
    </message>
    <message>
        <source>Chosen heads</source>
        <translation>所选的头</translation>
    </message>
    <message>
        <source>Rollout multiplies every layer&apos;s head-averaged attention (plus the residual identity)</source>
        <translation>注意力展开把每一层按头平均后的注意力（加上残差单位矩阵）逐层相乘</translation>
    </message>
    <message>
        <source>L:H, …</source>
        <translation>层:头, …</translation>
    </message>
    <message>
        <source>The heads to average, LAYER:HEAD counted from 1, e.g. 5:4, 6:1</source>
        <translation>要平均的头，格式为 层:头，从 1 开始计数，例如 5:4, 6:1</translation>
    </message>
    <message>
        <source>Scores from:</source>
        <translation>分数来源：</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Arcs as PNG (%1×)…</source>
        <translation>弧线导出为 PNG（%1×）…</translation>
    </message>
    <message>
        <source>Arcs as SVG…</source>
        <translation>弧线导出为 SVG…</translation>
    </message>
    <message>
        <source>Arcs as PDF…</source>
        <translation>弧线导出为 PDF…</translation>
    </message>
    <message>
        <source>Scores as CSV…</source>
        <translation>分数导出为 CSV…</translation>
    </message>
    <message>
        <source>Scores as JSON…</source>
        <translation>分数导出为 JSON…</translation>
    </message>
    <message>
        <source>All heads of layer %1</source>
        <translation>第 %1 层的所有头</translation>
    </message>
    <message>
        <source>Nothing drawn: the heads could not be read.</source>
        <translation>未绘制：无法读取这些头。</translation>
    </message>
    <message>
        <source>Nothing drawn: the sentence could not be resolved.</source>
        <translation>未绘制：无法对该句进行消解。</translation>
    </message>
    <message>
        <source>Export coreference</source>
        <translation>导出共指</translation>
    </message>
    <message>
        <source>The file could not be written</source>
        <translation>无法写入文件</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>PDF documents (*.pdf)</source>
        <translation>PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
</context>
<context>
    <name>attnscope::CorefTabController</name>
    <message>
        <source>Coreference</source>
        <translation>共指</translation>
    </message>
    <message>
        <source>Coref.</source>
        <comment>short tab label</comment>
        <translation>共指</translation>
    </message>
</context>
<context>
    <name>attnscope::CorefView</name>
    <message>
        <source>from the attention weights, not weight × ‖value‖</source>
        <translation>依据注意力权重，而非“权重 × ‖值‖”</translation>
    </message>
    <message>
        <source>chosen (highest score)</source>
        <translation>选中（分数最高）</translation>
    </message>
    <message>
        <source>other candidates: thickness and opacity = score</source>
        <translation>其他候选：粗细和不透明度 = 分数</translation>
    </message>
    <message>
        <source>nearest-mention baseline</source>
        <translation>最近指称基线</translation>
    </message>
    <message>
        <source>rule baseline (agreement + recency)</source>
        <translation>规则基线（一致性 + 就近）</translation>
    </message>
    <message>
        <source>nearest</source>
        <translation>最近指称</translation>
    </message>
    <message>
        <source>rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>AttnScope coreference</source>
        <translation>AttnScope 共指</translation>
    </message>
    <message>
        <source>Click to resolve “%1” as the mention</source>
        <translation>点击以将“%1”作为指称进行消解</translation>
    </message>
    <message>
        <source>Layer:head</source>
        <translation>层:头</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>分数</translation>
    </message>
    <message>
        <source>Nothing to resolve yet.</source>
        <translation>尚无可消解的内容。</translation>
    </message>
    <message>
        <source>No pronoun in this sentence: click a word to resolve it as the mention.</source>
        <translation>这句话中没有代词：点击一个词，将其作为指称进行消解。</translation>
    </message>
    <message>
        <source>Scores: none</source>
        <translation>分数：无</translation>
    </message>
    <message>
        <source>Scores: %1</source>
        <translation>分数：%1</translation>
    </message>
    <message>
        <source>score %1 · rank %2 of %3%4</source>
        <translation>分数 %1 · 第 %2 名，共 %3 个%4</translation>
    </message>
    <message>
        <source> · chosen</source>
        <translation> · 选中</translation>
    </message>
    <message>
        <source>the nearest-mention baseline&apos;s choice</source>
        <translation>最近指称基线的选择</translation>
    </message>
    <message>
        <source>the rule baseline&apos;s choice</source>
        <translation>规则基线的选择</translation>
    </message>
    <message>
        <source>attention rollout: no per-head scores</source>
        <translation>注意力展开：没有单个头的分数</translation>
    </message>
    <message>
        <source>one head: %1</source>
        <translation>一个头：%1</translation>
    </message>
    <message>
        <source>… %1 more (click the arc)</source>
        <translation>……另有 %1 个（点击弧线）</translation>
    </message>
    <message>
        <source>mean of %1 heads: %2</source>
        <translation>%1 个头的平均：%2</translation>
    </message>
    <message>
        <source>Click an arc to see each head&apos;s score.</source>
        <translation>点击一条弧线，查看每个头的分数。</translation>
    </message>
    <message>
        <source>score %1, rank %2 of %3%4</source>
        <translation>分数 %1，第 %2 名，共 %3 个%4</translation>
    </message>
    <message>
        <source>, chosen</source>
        <translation>，选中</translation>
    </message>
    <message>
        <source>Attention rollout mixes every head of every layer: there are no per-head scores.</source>
        <translation>注意力展开混合了每一层的每个头：没有单个头的分数。</translation>
    </message>
    <message>
        <source>The score is the mean of these heads&apos; scores:</source>
        <translation>该分数是以下各头分数的平均值：</translation>
    </message>
    <message>
        <source>renormalised over the candidates, which received %1 of the mention&apos;s attention (raw attention: hover an arc)</source>
        <translation>在候选词上重新归一化，候选词得到指称注意力的 %1（原始注意力：悬停在弧线上查看）</translation>
    </message>
    <message>
        <source>raw attention %1 (the score is it renormalised over the candidates)</source>
        <translation>原始注意力 %1（分数是它在候选词上重新归一化后的值）</translation>
    </message>
</context>
<context>
    <name>attnscope::CorpusController</name>
    <message>
        <source>Cancelled; the previous statistics stay shown.</source>
        <translation>已取消；仍显示之前的统计。</translation>
    </message>
    <message>
        <source>The corpus statistics failed: %1</source>
        <translation>语料统计失败：%1</translation>
    </message>
    <message>
        <source>Stopped: the model or lesson changed.</source>
        <translation>已停止：模型或课程已更改。</translation>
    </message>
    <message>
        <source>Press “Corpus statistics…” to run a text file through %1.</source>
        <translation>按“语料统计…”用 %1 运行一个文本文件。</translation>
    </message>
    <message>
        <source>Open a lesson or a model first.</source>
        <translation>请先打开一个课程或模型。</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1，语料 %2</translation>
    </message>
    <message>
        <source>What every head attends to over %1 sentences (%2 tokens)
%3</source>
        <translation>每个注意力头在 %1 个句子（%2 个词元）上关注什么
%3</translation>
    </message>
    <message>
        <source>Ran %1 sentences (%2 tokens): %3. Click a point to see that head&apos;s offsets.</source>
        <translation>已运行 %1 个句子（%2 个词元）：%3。点击一个点查看该头的偏移。</translation>
    </message>
    <message>
        <source>Nothing to export</source>
        <translation>没有可导出的内容</translation>
    </message>
    <message>
        <source>Run corpus statistics first.</source>
        <translation>请先运行语料统计。</translation>
    </message>
    <message>
        <source>Export corpus statistics</source>
        <translation>导出语料统计</translation>
    </message>
</context>
<context>
    <name>attnscope::CorpusPanel</name>
    <message>
        <source>Press “Corpus statistics…” and choose a text file, one sentence a line, to see what every head does over all of them.</source>
        <translation>按“语料统计…”并选择一个文本文件（每行一句），查看每个注意力头在所有句子上的表现。</translation>
    </message>
    <message>
        <source>Corpus statistics…</source>
        <translation>语料统计…</translation>
    </message>
    <message>
        <source>Choose a text file (one sentence a line) and run every sentence through the open lesson or model.</source>
        <translation>选择一个文本文件（每行一句），用当前打开的课程或模型运行每一句。</translation>
    </message>
    <message>
        <source>sentence %v of %m</source>
        <translation>第 %v 句，共 %m 句</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Figure as PNG…</source>
        <translation>图像导出为 PNG…</translation>
    </message>
    <message>
        <source>Figure as SVG…</source>
        <translation>图像导出为 SVG…</translation>
    </message>
    <message>
        <source>Figure as PDF…</source>
        <translation>图像导出为 PDF…</translation>
    </message>
    <message>
        <source>Statistics as CSV…</source>
        <translation>统计导出为 CSV…</translation>
    </message>
    <message>
        <source>Statistics as JSON…</source>
        <translation>统计导出为 JSON…</translation>
    </message>
    <message>
        <source>Panel (a):</source>
        <translation>面板（a）：</translation>
    </message>
    <message>
        <source>Corpus statistics</source>
        <translation>语料统计</translation>
    </message>
    <message>
        <source>Text files (*.txt);;All files (*)</source>
        <translation>文本文件 (*.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>No corpus statistics yet</source>
        <translation>尚无语料统计</translation>
    </message>
</context>
<context>
    <name>attnscope::DownloadDialog</name>
    <message>
        <source>Download a model</source>
        <translation>下载模型</translation>
    </message>
    <message>
        <source>Download a model from the Hugging Face hub</source>
        <translation>从 Hugging Face Hub 下载模型</translation>
    </message>
    <message>
        <source>  (optional)</source>
        <translation>  （可选）</translation>
    </message>
    <message>
        <source>Skipped without an error when the repo does not have it</source>
        <translation>仓库中没有该文件时直接跳过，不报错</translation>
    </message>
    <message>
        <source>Ready.</source>
        <translation>就绪。</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>下载</translation>
    </message>
    <message>
        <source>Model id:</source>
        <translation>模型 ID：</translation>
    </message>
    <message>
        <source>Revision:</source>
        <translation>修订版本：</translation>
    </message>
    <message>
        <source>Files:</source>
        <translation>文件：</translation>
    </message>
    <message>
        <source>Tick at least one file.</source>
        <translation>请至少勾选一个文件。</translation>
    </message>
    <message>
        <source>Contacting %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <source>File %1 of %2: %3</source>
        <translation>第 %1 个文件，共 %2 个：%3</translation>
    </message>
    <message>
        <source>Cancelled. The partial file is kept; downloading again resumes it.</source>
        <translation>已取消。已下载的部分会保留，再次下载时将继续。</translation>
    </message>
</context>
<context>
    <name>attnscope::ExercisePanel</name>
    <message>
        <source>No exercise: %1</source>
        <translation>没有练习：%1</translation>
    </message>
    <message numerus="yes">
        <source>Fill in the %n blank cell(s): double-click or start typing, then press Enter.</source>
        <translation>
            <numerusform>请填写 %n 个空白单元格：双击或直接输入，然后按回车。</numerusform>
        </translation>
    </message>
    <message>
        <source>✓ %1 is right for %2.</source>
        <translation>✓ %1 是 %2 的正确答案。</translation>
    </message>
    <message>
        <source>✗ %1 is not right for %2: try again, or reveal the explanation step by step.</source>
        <translation>✗ %1 不是 %2 的正确答案：再试一次，或逐步显示讲解。</translation>
    </message>
    <message>
        <source>“%1” is not a number: type digits with a decimal point or comma, e.g. %2. Not counted.</source>
        <translation>“%1”不是数字：请输入带小数点或逗号的数字，例如 %2。本次不计分。</translation>
    </message>
    <message>
        <source>Blank %1 of %2: row %3 (%4), column %5 (%6)</source>
        <translation>第 %1 个空格，共 %2 个：第 %3 行（%4），第 %5 列（%6）</translation>
    </message>
    <message>
        <source>Select a blank cell.</source>
        <translation>请选择一个空白单元格。</translation>
    </message>
    <message>
        <source>… step %1 of %2</source>
        <translation>……第 %1 步，共 %2 步</translation>
    </message>
    <message>
        <source>Answer: %1</source>
        <translation>答案：%1</translation>
    </message>
    <message>
        <source>Score: %1 / %2 (total %3)</source>
        <translation>得分：%1 / %2（共 %3）</translation>
    </message>
    <message>
        <source>there is no exercise to export</source>
        <translation>没有可导出的练习</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
</context>
<context>
    <name>attnscope::ExerciseSettings</name>
    <message>
        <source>New exercise</source>
        <translation>新练习</translation>
    </message>
    <message>
        <source>Export worksheet…</source>
        <translation>导出练习单…</translation>
    </message>
    <message>
        <source>NAME.md / NAME.tex with NAME-answers beside it, or one PDF (answer key on a new page)</source>
        <translation>NAME.md / NAME.tex，旁边附 NAME-answers 答案文件；或一个 PDF（答案另起一页）</translation>
    </message>
    <message>
        <source>Whole step</source>
        <translation>整个步骤</translation>
    </message>
    <message>
        <source>One row</source>
        <translation>一行</translation>
    </message>
    <message>
        <source>Random cells</source>
        <translation>随机单元格</translation>
    </message>
    <message>
        <source>The same seed hides the same cells: a class can share an exercise</source>
        <translation>相同的种子隐藏相同的单元格：全班可以共用一道练习</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Decimals</source>
        <translation>小数位</translation>
    </message>
    <message>
        <source>Hide</source>
        <translation>隐藏</translation>
    </message>
    <message>
        <source>Row</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <source>Worksheet</source>
        <translation>练习单</translation>
    </message>
</context>
<context>
    <name>attnscope::ExerciseTableModel</name>
    <message numerus="yes">
        <source>Type your answer with %n decimal(s), then press Enter</source>
        <translation>
            <numerusform>输入保留 %n 位小数的答案，然后按回车</numerusform>
        </translation>
    </message>
    <message>
        <source>“%1” is not a number</source>
        <translation>“%1”不是数字</translation>
    </message>
    <message>
        <source>Right</source>
        <translation>正确</translation>
    </message>
    <message>
        <source>Wrong: try again, or reveal the explanation</source>
        <translation>错误：再试一次，或显示讲解</translation>
    </message>
</context>
<context>
    <name>attnscope::ExplanationBox</name>
    <message>
        <source>Explanation of the selected blank</source>
        <translation>所选空格的讲解</translation>
    </message>
    <message>
        <source>Reveal next step</source>
        <translation>显示下一步</translation>
    </message>
    <message>
        <source>Show answer</source>
        <translation>显示答案</translation>
    </message>
</context>
<context>
    <name>attnscope::FileMenu</name>
    <message>
        <source>&amp;Open lesson…</source>
        <translation>打开课程(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Save lesson</source>
        <translation>保存课程(&amp;S)</translation>
    </message>
    <message>
        <source>Save lesson &amp;as…</source>
        <translation>课程另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Open &amp;model…</source>
        <translation>打开模型(&amp;M)…</translation>
    </message>
    <message>
        <source>&amp;Download model…</source>
        <translation>下载模型(&amp;D)…</translation>
    </message>
    <message>
        <source>Export heatmap &amp;PNG…</source>
        <translation>导出热力图 PNG(&amp;P)…</translation>
    </message>
    <message>
        <source>Export &amp;worksheet (Markdown)…</source>
        <translation>导出练习单（Markdown）(&amp;W)…</translation>
    </message>
    <message>
        <source>Export current step (&amp;CSV)…</source>
        <translation>导出当前步骤（CSV）(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Open lesson</source>
        <translation>打开课程</translation>
    </message>
    <message>
        <source>AttnScope lessons (*.json);;All files (*)</source>
        <translation>AttnScope 课程 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Save lesson as</source>
        <translation>课程另存为</translation>
    </message>
    <message>
        <source>AttnScope lessons (*.json)</source>
        <translation>AttnScope 课程 (*.json)</translation>
    </message>
    <message>
        <source>The file could not be written</source>
        <translation>无法写入文件</translation>
    </message>
    <message>
        <source>Export heatmap</source>
        <translation>导出热力图</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>The heatmap could not be saved</source>
        <translation>无法保存热力图</translation>
    </message>
    <message>
        <source>Export worksheet</source>
        <translation>导出练习单</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>Export step</source>
        <translation>导出步骤</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;New lesson…</source>
        <translation>新建课程(&amp;N)…</translation>
    </message>
</context>
<context>
    <name>attnscope::FoldingText</name>
    <message>
        <source>More ▾</source>
        <translation>展开 ▾</translation>
    </message>
    <message>
        <source>Less ▴</source>
        <translation>收起 ▴</translation>
    </message>
    <message>
        <source>Show the whole text</source>
        <translation>显示全文</translation>
    </message>
    <message>
        <source>Show only its first lines</source>
        <translation>只显示前几行</translation>
    </message>
</context>
<context>
    <name>attnscope::GroupedQueryBox</name>
    <message>
        <source>&lt;b&gt;Grouped-query attention&lt;/b&gt;: query heads that share keys and values</source>
        <translation>&lt;b&gt;分组查询注意力&lt;/b&gt;：共用键和值的查询头</translation>
    </message>
    <message>
        <source>Key/value heads H_kv</source>
        <translation>键/值头数 H_kv</translation>
    </message>
    <message>
        <source>K/V head %1 ← query heads %2</source>
        <translation>键/值头 %1 ← 查询头 %2</translation>
    </message>
    <message>
        <source>H = %1 query heads, H_kv = %2 key/value heads (d_k = %3): %4.</source>
        <translation>H = %1 个查询头，H_kv = %2 个键/值头（d_k = %3）：%4。</translation>
    </message>
    <message>
        <source>H_kv = %1: %2 parameters, %3 K/V numbers per token and layer</source>
        <translation>H_kv = %1：%2 个参数，每个词元每层缓存 %3 个键/值数</translation>
    </message>
    <message>
        <source>query head %1 (K/V head %2)</source>
        <translation>查询头 %1（键/值头 %2）</translation>
    </message>
    <message>
        <source>attention weight</source>
        <translation>注意力权重</translation>
    </message>
    <message>
        <source>Worksheet…</source>
        <translation>练习单…</translation>
    </message>
    <message>
        <source>Query head 2&apos;s scores to compute by hand, with the answer key: Markdown, LaTeX or PDF</source>
        <translation>手算查询头 2 的分数，附答案：Markdown、LaTeX 或 PDF</translation>
    </message>
    <message>
        <source>Heads that share keys</source>
        <translation>共用键的头</translation>
    </message>
</context>
<context>
    <name>attnscope::HeadAnalysisWorker</name>
    <message>
        <source>Evaluation stopped: the model or lesson changed.</source>
        <translation>评估已停止：模型或课程已改变。</translation>
    </message>
</context>
<context>
    <name>attnscope::HeadEffectBox</name>
    <message>
        <source>&lt;b&gt;Most important heads&lt;/b&gt;</source>
        <translation>&lt;b&gt;最重要的注意力头&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Switches each head off in turn (one run of the model per head) and ranks the heads by how far the predicted token&apos;s probability moves.</source>
        <translation>依次关闭每个头（每个头运行一次模型），按预测词元概率的变化幅度对各头排序。</translation>
    </message>
    <message>
        <source>Rank heads</source>
        <translation>排序各头</translation>
    </message>
    <message>
        <source>head %v of %m</source>
        <translation>第 %v / %m 个头</translation>
    </message>
    <message>
        <source>Double-click a head to switch it off.</source>
        <translation>双击一个头即可将其关闭。</translation>
    </message>
    <message>
        <source>No prediction to explain.</source>
        <translation>没有可解释的预测。</translation>
    </message>
    <message>
        <source>“%1” had p = %2 at position %3. Each head switched off alone:</source>
        <translation>“%1”在位置 %3 的概率 p = %2。单独关闭每个头后：</translation>
    </message>
</context>
<context>
    <name>attnscope::HeadEffectController</name>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
</context>
<context>
    <name>attnscope::HeadRankingBox</name>
    <message>
        <source>Best heads:</source>
        <translation>最佳的头：</translation>
    </message>
    <message>
        <source>Baselines appear here after an evaluation.</source>
        <translation>评估之后这里会显示基线结果。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 of %2 examples evaluated&lt;/b&gt; (%3 skipped)&lt;br&gt;</source>
        <translation>&lt;b&gt;已评估 %2 个样例中的 %1 个&lt;/b&gt;（跳过 %3 个）&lt;br&gt;</translation>
    </message>
    <message>
        <source>Nearest mention: %1&lt;br&gt;</source>
        <translation>最近指称：%1&lt;br&gt;</translation>
    </message>
    <message>
        <source>Rule-based: %1&lt;br&gt;</source>
        <translation>基于规则：%1&lt;br&gt;</translation>
    </message>
    <message>
        <source>Attention rollout: %1</source>
        <translation>注意力展开：%1</translation>
    </message>
    <message>
        <source>&lt;br&gt;Best head: %1</source>
        <translation>&lt;br&gt;最佳的头：%1</translation>
    </message>
    <message>
        <source>%1. %2 — %3</source>
        <translation>%1. %2 — %3</translation>
    </message>
    <message>
        <source>Click a cell to select a head.</source>
        <translation>点击一个单元格以选择一个头。</translation>
    </message>
    <message>
        <source>Selected: %1 — %2</source>
        <translation>已选择：%1 — %2</translation>
    </message>
    <message>
        <source>Random candidate (expected): %1&lt;br&gt;</source>
        <translation>随机候选（期望值）：%1&lt;br&gt;</translation>
    </message>
    <message>
        <source>First candidate: %1&lt;br&gt;</source>
        <translation>第一个候选：%1&lt;br&gt;</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;small&gt;[ ]: %1% bootstrap interval over the examples, %2 resamples, seed %3. ▲: significantly above the rule baseline (paired), not corrected for choosing among %4 heads.&lt;/small&gt;</source>
        <translation>&lt;br&gt;&lt;small&gt;[ ]：对样例的 %1% 自助法区间，重采样 %2 次，种子 %3。▲：显著高于规则基线（配对），未对从 %4 个头中挑选做校正。&lt;/small&gt;</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;Random-weights control&lt;/b&gt; (weights shuffled, seed %1): best head %2 — %3, would rank %4 among the trained heads</source>
        <translation>&lt;br&gt;&lt;b&gt;随机权重对照&lt;/b&gt;（权重打乱，种子 %1）：最佳头 %2 — %3，在训练模型的头中排第 %4</translation>
    </message>
</context>
<context>
    <name>attnscope::HeadStatsModel</name>
    <message>
        <source>First ×‖v‖</source>
        <translation>首词元 ×‖v‖</translation>
    </message>
    <message>
        <source>The same share by weight × ‖value‖ (Kobayashi et al. 2020): how much the first token really carries. Shown once the attention controls&apos; “Weight × ‖value‖” is on and computed</source>
        <translation>按“权重 × ‖值‖”计算的同一份额（Kobayashi 等，2020）：首词元实际传递了多少。在注意力控件中勾选“权重 × ‖值‖”并计算完成后显示</translation>
    </message>
    <message>
        <source>%1 bits; normalised %2</source>
        <translation>%1 比特；归一化后 %2</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>Entropy</source>
        <translation>熵</translation>
    </message>
    <message>
        <source>Delim./special</source>
        <translation>分隔符/特殊</translation>
    </message>
    <message>
        <source>Previous</source>
        <translation>前一个</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>后一个</translation>
    </message>
    <message>
        <source>Self</source>
        <translation>自身</translation>
    </message>
    <message>
        <source>Coref.</source>
        <translation>共指</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Layers and heads count from 1</source>
        <translation>层和头都从 1 开始计数</translation>
    </message>
    <message>
        <source>Mean over rows of −Σ w·log₂ w, in bits</source>
        <translation>各行 −Σ w·log₂ w 的平均，单位为比特</translation>
    </message>
    <message>
        <source>Share of attention to special tokens and punctuation</source>
        <translation>分给特殊词元和标点的注意力占比</translation>
    </message>
    <message>
        <source>Share to the token just before (rows after the first)</source>
        <translation>分给紧邻的前一个词元的占比（第一行之后的各行）</translation>
    </message>
    <message>
        <source>Share to the token just after (rows before the last)</source>
        <translation>分给紧邻的后一个词元的占比（最后一行之前的各行）</translation>
    </message>
    <message>
        <source>Share to the token itself</source>
        <translation>分给词元自身的占比</translation>
    </message>
    <message>
        <source>Antecedent accuracy on the evaluated coreference set</source>
        <translation>在已评估的共指数据集上的先行词准确率</translation>
    </message>
    <message>
        <source>Thresholds in docs/coreference.md, “Head statistics”</source>
        <translation>阈值见 docs/coreference.md 的“Head statistics”一节</translation>
    </message>
    <message>
        <source>First</source>
        <translation>首词元</translation>
    </message>
    <message>
        <source>Share to the first token (rows after the first); “attention sink” from 0.5 (Xiao et al. 2023)</source>
        <translation>分给第一个词元的占比（第一行之后的各行）；达到 0.5 即为“注意力汇点”（Xiao 等，2023）</translation>
    </message>
    <message>
        <source>Cross-attention: the rows are the decoder&apos;s tokens and the columns the source&apos;s, two different sentences, so previous, next, self and first name nothing here</source>
        <translation>交叉注意力：行是解码器的词元，列是源句的词元，属于两个不同的句子，因此前一个、后一个、自身和首词元在这里没有意义</translation>
    </message>
</context>
<context>
    <name>attnscope::HeadView</name>
    <message>
        <source>Heads:</source>
        <translation>头：</translation>
    </message>
    <message>
        <source>Show or hide head %1&apos;s lines</source>
        <translation>显示或隐藏第 %1 头的连线</translation>
    </message>
    <message>
        <source>Layer %1: attention weights not computed.</source>
        <translation>第 %1 层：尚未计算注意力权重。</translation>
    </message>
    <message>
        <source>Layer %1. Line opacity = weight</source>
        <translation>第 %1 层。连线不透明度 = 权重</translation>
    </message>
    <message>
        <source> (1 = opaque)</source>
        <translation>（1 = 不透明）</translation>
    </message>
    <message>
        <source> / the layer&apos;s largest shown weight</source>
        <translation> / 该层显示的最大权重</translation>
    </message>
    <message>
        <source> / each head&apos;s largest weight</source>
        <translation> / 每个头自身的最大权重</translation>
    </message>
    <message>
        <source>; weights below %1 are not drawn.</source>
        <translation>；小于 %1 的权重不绘制。</translation>
    </message>
    <message>
        <source> Black: maximum over the selected heads.</source>
        <translation> 黑色：所选各头的最大值。</translation>
    </message>
    <message>
        <source> Black: mean over the selected heads.</source>
        <translation> 黑色：所选各头的平均值。</translation>
    </message>
    <message>
        <source> Special tokens hidden; rows renormalised to sum to 1.</source>
        <translation> 已隐藏特殊词元；各行重新归一化，总和为 1。</translation>
    </message>
    <message>
        <source> Special tokens hidden: rows no longer sum to 1.</source>
        <translation> 已隐藏特殊词元：各行之和不再为 1。</translation>
    </message>
    <message>
        <source>query (attends)</source>
        <translation>查询（发出注意）</translation>
    </message>
    <message>
        <source>key (attended to)</source>
        <translation>键（被关注）</translation>
    </message>
    <message>
        <source>Finding lines…</source>
        <translation>正在查找连线…</translation>
    </message>
    <message>
        <source>Drawing %1 lines… %2%</source>
        <translation>正在绘制 %1 条连线… %2%</translation>
    </message>
    <message>
        <source>Drawing %1 lines…</source>
        <translation>正在绘制 %1 条连线…</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>Also draw each token&apos;s strongest weights, however small (at 512 tokens a weight is ~0.002).</source>
        <translation>同时画出每个词元最强的权重，无论多小（512 个词元时一个权重约为 0.002）。</translation>
    </message>
    <message>
        <source>Lines from weight</source>
        <translation>画线的最小权重</translation>
    </message>
    <message>
        <source>and the strongest per token:</source>
        <translation>以及每个词元最强的：</translation>
    </message>
    <message>
        <source>; drawn: weights from %1 and each token&apos;s %2 strongest.</source>
        <translation>；画出：不小于 %1 的权重，以及每个词元最强的 %2 个。</translation>
    </message>
    <message>
        <source> Hover a token to isolate its lines; click it to keep them (Esc: every line again).</source>
        <translation> 悬停在词元上只看它的连线；单击可保持（Esc：恢复全部连线）。</translation>
    </message>
    <message>
        <source>▲ lines to tokens above: %1</source>
        <translation>▲ 连向上方词元的线：%1</translation>
    </message>
    <message>
        <source>▼ lines to tokens below: %1</source>
        <translation>▼ 连向下方词元的线：%1</translation>
    </message>
    <message>
        <source>Layer %1. Line opacity = weight × ‖value‖, each row&apos;s share (Kobayashi et al. 2020)</source>
        <translation>第 %1 层。线条不透明度 = 权重 × ‖值‖，占每行的比例（Kobayashi 等，2020）</translation>
    </message>
</context>
<context>
    <name>attnscope::HeadsPanel</name>
    <message>
        <source>Choose a coreference set and press Evaluate to rank every head.</source>
        <translation>选择一个共指数据集并点击“评估”，为每个头排名。</translation>
    </message>
    <message>
        <source>Ranking and sentence</source>
        <translation>排名与句子</translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation>语料</translation>
    </message>
</context>
<context>
    <name>attnscope::HeadsTab</name>
    <message>
        <source>English (built-in, 160 sentences)</source>
        <translation>英语（内置，160 句）</translation>
    </message>
    <message>
        <source>Chinese (built-in, 56 sentences)</source>
        <translation>中文（内置，56 句）</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>注意力头</translation>
    </message>
    <message>
        <source>Cancelled; the previous ranking stays shown.</source>
        <translation>已取消；仍显示之前的排名。</translation>
    </message>
    <message>
        <source>The evaluation failed: %1</source>
        <translation>评估失败：%1</translation>
    </message>
    <message>
        <source>Press Evaluate to rank the heads of %1.</source>
        <translation>点击“评估”，为 %1 的各个头排名。</translation>
    </message>
    <message>
        <source>Choose a coreference set first.</source>
        <translation>请先选择一个共指数据集。</translation>
    </message>
    <message>
        <source>Open a lesson or a model first.</source>
        <translation>请先打开一个课程或模型。</translation>
    </message>
    <message>
        <source>The set could not be read: %1</source>
        <translation>无法读取数据集：%1</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1，数据集 %2</translation>
    </message>
    <message>
        <source>Evaluated %1 of %2 sentences.</source>
        <translation>已评估 %2 句中的 %1 句。</translation>
    </message>
    <message>
        <source>What every head does on “%1” (%2 tokens). Labels: thresholds in docs/coreference.md; “coreference” when a head beats both baselines on the evaluated set. Click a column to sort.</source>
        <translation>每个头在“%1”（%2 个词元）上的表现。标签的阈值见 docs/coreference.md；某个头在已评估的数据集上胜过两个基线时标为“共指”。点击列标题可排序。</translation>
    </message>
    <message>
        <source>Nothing to export</source>
        <translation>没有可导出的内容</translation>
    </message>
    <message>
        <source>Evaluate a coreference set first.</source>
        <translation>请先评估一个共指数据集。</translation>
    </message>
    <message>
        <source>Export head ranking</source>
        <translation>导出注意力头排名</translation>
    </message>
    <message>
        <source>The random-weights control needs a model (a lesson has no weights to shuffle).</source>
        <translation>随机权重对照需要模型（课程没有可打乱的权重）。</translation>
    </message>
</context>
<context>
    <name>attnscope::HeatmapTools</name>
    <message>
        <source>Weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Weight ÷ row maximum</source>
        <translation>权重 ÷ 行最大值</translation>
    </message>
    <message>
        <source>Log scale (from %1)</source>
        <translation>对数刻度（从 %1 起）</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>重置缩放</translation>
    </message>
    <message>
        <source>Wheel: zoom around the cursor. Drag: zoom into a rectangle. Shift + drag or middle button: pan. Double-click: reset.</source>
        <translation>滚轮：以光标为中心缩放。拖动：放大到所框矩形。Shift + 拖动或中键：平移。双击：重置。</translation>
    </message>
    <message>
        <source>Colours:</source>
        <translation>颜色：</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>to</source>
        <translation>至</translation>
    </message>
    <message>
        <source>Find token</source>
        <translation>查找词元</translation>
    </message>
    <message>
        <source>Previous match</source>
        <translation>上一个匹配</translation>
    </message>
    <message>
        <source>Next match</source>
        <translation>下一个匹配</translation>
    </message>
    <message>
        <source>no match</source>
        <translation>无匹配</translation>
    </message>
    <message>
        <source>1 match</source>
        <translation>1 个匹配</translation>
    </message>
    <message>
        <source>%1 matches (%2 of %1)</source>
        <translation>%1 个匹配（第 %2 个，共 %1 个）</translation>
    </message>
</context>
<context>
    <name>attnscope::HeatmapView</name>
    <message>
        <source>All heads side by side</source>
        <translation>所有头并排显示</translation>
    </message>
    <message>
        <source>Head:</source>
        <translation>头：</translation>
    </message>
    <message>
        <source>Hover a cell for its exact weight.</source>
        <translation>将鼠标悬停在单元格上可查看精确权重。</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>第 %1 头</translation>
    </message>
    <message>
        <source>%1 — layer %2</source>
        <translation>%1 — 第 %2 层</translation>
    </message>
    <message>
        <source>%1, average over heads</source>
        <translation>%1，各头平均</translation>
    </message>
    <message>
        <source>%1, maximum over heads</source>
        <translation>%1，各头最大值</translation>
    </message>
    <message>
        <source>%1, all %2 heads</source>
        <translation>%1，全部 %2 个头</translation>
    </message>
    <message>
        <source>%1, head %2</source>
        <translation>%1，第 %2 头</translation>
    </message>
</context>
<context>
    <name>attnscope::HubDownloader</name>
    <message>
        <source>holds %1 bytes, %2 were received</source>
        <translation>有 %1 字节，但收到了 %2 字节</translation>
    </message>
    <message>
        <source>could not be created</source>
        <translation>无法创建</translation>
    </message>
    <message>
        <source>could not be opened: %1</source>
        <translation>无法打开：%1</translation>
    </message>
    <message>
        <source>could not be read back</source>
        <translation>无法读回</translation>
    </message>
    <message>
        <source>download</source>
        <translation>下载</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>the server refused to resume (HTTP 416)</source>
        <translation>服务器拒绝续传（HTTP 416）</translation>
    </message>
    <message>
        <source>the download answered HTTP %1 %2</source>
        <translation>下载返回 HTTP %1 %2</translation>
    </message>
    <message>
        <source>the server resumed at the wrong byte</source>
        <translation>服务器从错误的字节处续传</translation>
    </message>
    <message>
        <source>the connection broke after %1 bytes: %2</source>
        <translation>连接在 %1 字节后中断：%2</translation>
    </message>
    <message>
        <source>the connection ended after %1 of %2 bytes</source>
        <translation>连接在 %2 字节中的 %1 字节后结束</translation>
    </message>
    <message>
        <source> (gave up after %1 resumes; the partial file is kept for the next attempt)</source>
        <translation>（续传 %1 次后放弃；部分文件保留供下次继续）</translation>
    </message>
    <message>
        <source>expected %1 bytes, received %2; the download was discarded</source>
        <translation>应为 %1 字节，实际收到 %2 字节；已丢弃此次下载</translation>
    </message>
    <message>
        <source>sha256 mismatch: the hub reported %1, the downloaded bytes hash to %2; the download was discarded</source>
        <translation>sha256 不一致：Hub 给出 %1，下载内容的哈希为 %2；已丢弃此次下载</translation>
    </message>
    <message>
        <source>could not be created from %1: %2</source>
        <translation>无法由 %1 创建：%2</translation>
    </message>
    <message>
        <source>could not be linked to %1: %2</source>
        <translation>无法链接到 %1：%2</translation>
    </message>
    <message>
        <source>another download is still running</source>
        <translation>另一个下载仍在进行</translation>
    </message>
    <message>
        <source>no files were requested</source>
        <translation>没有请求任何文件</translation>
    </message>
    <message>
        <source>too many redirects</source>
        <translation>重定向次数过多</translation>
    </message>
    <message>
        <source>refused a redirect from https to %1</source>
        <translation>拒绝从 https 重定向到 %1</translation>
    </message>
    <message>
        <source>the hub refused access (HTTP %1): the repo does not exist, or it is private or gated, which needs a login AttnScope does not support yet</source>
        <translation>Hub 拒绝访问（HTTP %1）：仓库不存在，或为私有/受限仓库，需要登录，而 AttnScope 尚不支持登录</translation>
    </message>
    <message>
        <source>could not reach %1: %2</source>
        <translation>无法连接 %1：%2</translation>
    </message>
    <message>
        <source>the hub answered HTTP %1 %2</source>
        <translation>Hub 返回 HTTP %1 %2</translation>
    </message>
    <message>
        <source>not found on the hub: %1 in %2 at revision %3</source>
        <translation>Hub 上找不到：%2 在修订版本 %3 中的 %1</translation>
    </message>
    <message>
        <source>hub download</source>
        <translation>Hub 下载</translation>
    </message>
</context>
<context>
    <name>attnscope::JobProgress</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>attnscope::LabWindow</name>
    <message>
        <source>AttnScope — Lab</source>
        <translation>AttnScope — 实验室</translation>
    </message>
    <message>
        <source>Positional encoding</source>
        <translation>位置编码</translation>
    </message>
    <message>
        <source>Why scale by √d_k</source>
        <translation>为什么要除以 √d_k 缩放</translation>
    </message>
    <message>
        <source>Synthesizer</source>
        <translation>Synthesizer 合成注意力</translation>
    </message>
    <message>
        <source>Masks &amp;&amp; cross-attention</source>
        <translation>掩码与交叉注意力</translation>
    </message>
    <message>
        <source>Multi-head</source>
        <translation>多头</translation>
    </message>
    <message>
        <source>Exercises</source>
        <translation>练习</translation>
    </message>
</context>
<context>
    <name>attnscope::LessonBlockBar</name>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>tied to the embeddings</source>
        <translation>与嵌入表共享</translation>
    </message>
    <message>
        <source>own weights W_vocab</source>
        <translation>自己的权重 W_vocab</translation>
    </message>
    <message>
        <source>Residual</source>
        <translation>残差</translation>
    </message>
    <message>
        <source>Add X to the attention output, and the norm&apos;s output to the feed-forward output</source>
        <translation>把 X 加到注意力输出上，并把归一化的输出加到前馈网络的输出上</translation>
    </message>
    <message>
        <source>Width of a new feed-forward network&apos;s hidden layer</source>
        <translation>新前馈网络隐藏层的宽度</translation>
    </message>
    <message>
        <source>Apply block</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>The parts after attention; a part switched on starts with γ = 1, β = 0 and zero weights</source>
        <translation>注意力之后的部分；新开启的部分从 γ = 1、β = 0 和全零权重开始</translation>
    </message>
    <message>
        <source>After attention:</source>
        <translation>注意力之后：</translation>
    </message>
    <message>
        <source>Norm</source>
        <translation>归一化</translation>
    </message>
    <message>
        <source>Feed-forward</source>
        <translation>前馈网络</translation>
    </message>
    <message>
        <source>Final norm</source>
        <translation>最终归一化</translation>
    </message>
    <message>
        <source>Output head</source>
        <translation>输出头</translation>
    </message>
</context>
<context>
    <name>attnscope::LessonDocument</name>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>The lesson “%1” has changes that are not saved. Save them first?</source>
        <translation>课程“%1”有尚未保存的更改。要先保存吗？</translation>
    </message>
    <message>
        <source>Save lesson as</source>
        <translation>课程另存为</translation>
    </message>
    <message>
        <source>AttnScope lessons (*.json)</source>
        <translation>AttnScope 课程 (*.json)</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <source>Edit %1</source>
        <translation>编辑 %1</translation>
    </message>
    <message>
        <source>Add word “%1”</source>
        <translation>添加词“%1”</translation>
    </message>
    <message>
        <source>Rename “%1” to “%2”</source>
        <translation>将“%1”重命名为“%2”</translation>
    </message>
    <message>
        <source>Delete word “%1”</source>
        <translation>删除词“%1”</translation>
    </message>
    <message>
        <source>Change dimensions to d_model %1, %2 heads, d_k %3, d_v %4</source>
        <translation>将维度改为 d_model %1、%2 个头、d_k %3、d_v %4</translation>
    </message>
    <message>
        <source>%1: refused, nothing changed (%2)</source>
        <translation>%1：被拒绝，未做任何更改（%2）</translation>
    </message>
    <message>
        <source>&amp;Paste table</source>
        <translation>粘贴表格(&amp;P)</translation>
    </message>
    <message>
        <source>Rows copied from a blog or a textbook (笔=[1,2,1,2,1], a Markdown or tab-separated table, W_Q = and its rows) into the lesson</source>
        <translation>把从博客或教科书复制的行（笔=[1,2,1,2,1]、Markdown 表格或以制表符分隔的表格、W_Q = 及其各行）放入课程</translation>
    </message>
    <message>
        <source>&amp;Decimals</source>
        <translation>小数位(&amp;D)</translation>
    </message>
    <message>
        <source>Show %1 decimals</source>
        <translation>显示 %1 位小数</translation>
    </message>
    <message>
        <source>Paste table</source>
        <translation>粘贴表格</translation>
    </message>
    <message>
        <source>Change the lesson&apos;s title, description, feature names and flags</source>
        <translation>修改课程的标题、说明、特征名称和开关</translation>
    </message>
    <message>
        <source>Change the parts after attention</source>
        <translation>修改注意力之后的部分</translation>
    </message>
    <message>
        <source>Change dimensions to d_model %1, %2 heads sharing %5 key/value heads, d_k %3, d_v %4</source>
        <translation>更改维度为 d_model %1、%2 个头共用 %5 个键/值头、d_k %3、d_v %4</translation>
    </message>
</context>
<context>
    <name>attnscope::LessonEditor</name>
    <message>
        <source>Matrix:</source>
        <translation>矩阵：</translation>
    </message>
    <message>
        <source>Double-click a number to change it; every view recomputes at once.</source>
        <translation>双击一个数字即可修改；所有视图会立即重新计算。</translation>
    </message>
    <message>
        <source>Select a word&apos;s row in the embedding table first.</source>
        <translation>请先在嵌入表中选中一个词所在的行。</translation>
    </message>
</context>
<context>
    <name>attnscope::LessonMatrixModel</name>
    <message>
        <source>is not a finite number</source>
        <translation>不是有限数</translation>
    </message>
    <message>
        <source>is not a number</source>
        <translation>不是数字</translation>
    </message>
    <message>
        <source>“%1” %2; %3 keeps %4</source>
        <translation>“%1”%2；%3 保持为 %4</translation>
    </message>
    <message>
        <source>γ (norm)</source>
        <translation>γ（归一化）</translation>
    </message>
    <message>
        <source>β (norm)</source>
        <translation>β（归一化）</translation>
    </message>
    <message>
        <source>γ (final norm)</source>
        <translation>γ（最终归一化）</translation>
    </message>
    <message>
        <source>β (final norm)</source>
        <translation>β（最终归一化）</translation>
    </message>
    <message>
        <source>W_vocab (output head)</source>
        <translation>W_vocab（输出头）</translation>
    </message>
    <message>
        <source>decoder self-attention</source>
        <translation>解码器自注意力</translation>
    </message>
    <message>
        <source>cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>encoder</source>
        <translation>编码器</translation>
    </message>
</context>
<context>
    <name>attnscope::LessonSettingsBar</name>
    <message>
        <source>made up by the hash rule</source>
        <translation>由哈希规则编造</translation>
    </message>
    <message>
        <source>zero vectors</source>
        <translation>零向量</translation>
    </message>
    <message>
        <source>not run: ask for their vectors</source>
        <translation>不运行：要求补上它们的向量</translation>
    </message>
    <message>
        <source>What a typed word that is not in the embedding table gets. A banner names every made-up word.</source>
        <translation>输入的词若不在嵌入表中，会得到什么向量。横幅会列出每个编造了向量的词。</translation>
    </message>
    <message>
        <source>Words not in the table:</source>
        <translation>表外的词：</translation>
    </message>
    <message>
        <source>optional, separated by commas: noun, animate, place</source>
        <translation>可选，用逗号分隔：名词, 有生命, 地点</translation>
    </message>
    <message>
        <source>Divide the scores by √d_k</source>
        <translation>分数除以 √d_k</translation>
    </message>
    <message>
        <source>Causal mask</source>
        <translation>因果掩码</translation>
    </message>
    <message>
        <source>Each token sees only itself and earlier ones.</source>
        <translation>每个词元只看到自己和前面的词元。</translation>
    </message>
    <message>
        <source>Apply settings</source>
        <translation>应用设置</translation>
    </message>
    <message>
        <source>Title:</source>
        <translation>标题：</translation>
    </message>
    <message>
        <source>Description:</source>
        <translation>说明：</translation>
    </message>
    <message>
        <source>Feature names:</source>
        <translation>特征名称：</translation>
    </message>
    <message>
        <source>Positions:</source>
        <translation>位置：</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>sinusoidal (added to X)</source>
        <translation>正弦（加到 X 上）</translation>
    </message>
    <message>
        <source>the lesson&apos;s table (added to X)</source>
        <translation>课程自带的表（加到 X 上）</translation>
    </message>
    <message>
        <source>rotary, RoPE (Q and K turned)</source>
        <translation>旋转，RoPE（旋转 Q 和 K）</translation>
    </message>
    <message>
        <source>base θ = </source>
        <translation>底数 θ = </translation>
    </message>
    <message>
        <source>RoPE turns pair i (counted from 1) by m·θ_i with θ_i = base^(−2(i−1)/d_k); d_k must be even.</source>
        <translation>RoPE 把第 i 对（从 1 数起）旋转 m·θ_i，其中 θ_i = 底数^(−2(i−1)/d_k)；d_k 必须为偶数。</translation>
    </message>
    <message>
        <source>pairs (i, i + d_k/2), Hugging Face</source>
        <translation>成对 (i, i + d_k/2)，Hugging Face</translation>
    </message>
    <message>
        <source>pairs (2i−1, 2i), the RoPE paper</source>
        <translation>成对 (2i−1, 2i)，RoPE 论文</translation>
    </message>
</context>
<context>
    <name>attnscope::LessonStructureBar</name>
    <message>
        <source>a word, e.g. dogs</source>
        <translation>一个词，例如 dogs</translation>
    </message>
    <message>
        <source>Add word</source>
        <translation>添加词</translation>
    </message>
    <message>
        <source>Rename selected</source>
        <translation>重命名所选词</translation>
    </message>
    <message>
        <source>Delete selected</source>
        <translation>删除所选词</translation>
    </message>
    <message>
        <source>Adds the word with an embedding row of zeros</source>
        <translation>添加该词，其嵌入行全为零</translation>
    </message>
    <message>
        <source>Apply dimensions</source>
        <translation>应用维度</translation>
    </message>
    <message>
        <source>Every matrix keeps the numbers that fit; new cells are zero</source>
        <translation>每个矩阵保留放得下的数，新单元格为零</translation>
    </message>
    <message>
        <source>Word:</source>
        <translation>词：</translation>
    </message>
    <message>
        <source>heads</source>
        <translation>头数</translation>
    </message>
    <message>
        <source>Key/value heads: query heads share them in groups (grouped-query attention); 1 is multi-query attention, equal to heads every head has its own. Must divide heads.</source>
        <translation>键/值头：查询头按组共用它们（分组查询注意力）；1 为多查询注意力，等于头数时每个头都有自己的键和值。必须能整除头数。</translation>
    </message>
    <message>
        <source>key/value heads</source>
        <translation>键/值头</translation>
    </message>
</context>
<context>
    <name>attnscope::LessonTraceSource</name>
    <message>
        <source>The sentence could not be run (%1); the previous result stays shown.</source>
        <translation>无法运行该句子（%1）；仍显示之前的结果。</translation>
    </message>
    <message>
        <source>The edited lesson could not be run (%1); the previous result stays shown.</source>
        <translation>无法运行编辑后的课程（%1）；仍显示之前的结果。</translation>
    </message>
    <message>
        <source>The stage could not be shown (%1); the previous result stays shown.</source>
        <translation>无法显示该阶段（%1）；仍显示之前的结果。</translation>
    </message>
    <message>
        <source>lesson</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>Type a sentence; every matrix below follows it.</source>
        <translation>输入一个句子；下方的每个矩阵都会随之更新。</translation>
    </message>
    <message>
        <source>A coreference set ranks heads by where a pronoun looks within its own sentence; this decoder stage&apos;s rows are the target words, not the sentence&apos;s. Evaluate on the encoder stage.</source>
        <translation>共指数据集按代词在它自己句子里看向哪里来给头排名；这个解码器阶段的行是目标词，不是这句话的词。请在编码器阶段评估。</translation>
    </message>
</context>
<context>
    <name>attnscope::MainWindow</name>
    <message>
        <source>Sentence:</source>
        <translation>句子：</translation>
    </message>
    <message>
        <source>Worked example</source>
        <translation>逐步演算</translation>
    </message>
    <message>
        <source>Attention heatmap</source>
        <translation>注意力热力图</translation>
    </message>
    <message>
        <source>Edit lesson</source>
        <translation>编辑课程</translation>
    </message>
    <message>
        <source>Model view</source>
        <translation>模型视图</translation>
    </message>
    <message>
        <source>Head view</source>
        <translation>注意力头视图</translation>
    </message>
    <message>
        <source>layer %v of %m</source>
        <translation>第 %v 层，共 %m 层</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Lessons</source>
        <translation>课程(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <source>L&amp;ab</source>
        <translation>实验室(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Colour shading of cells</source>
        <translation>单元格颜色深浅(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;All heads side by side</source>
        <translation>所有头并排显示(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Recomputed with the edited weights.</source>
        <translation>已用编辑后的权重重新计算。</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>The lesson could not be saved</source>
        <translation>无法保存课程</translation>
    </message>
    <message>
        <source>%1

The file on disk is unchanged; your edits stay here, unsaved.</source>
        <translation>%1

磁盘上的文件未被改动；你的编辑仍保留在这里，尚未保存。</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>The lesson could not be opened</source>
        <translation>无法打开课程</translation>
    </message>
    <message>
        <source>%1

The previous lesson stays open.</source>
        <translation>%1

之前的课程仍然打开着。</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <source>The model could not be opened</source>
        <translation>无法打开模型</translation>
    </message>
    <message>
        <source>%1

The previous %2 stays open.</source>
        <translation>%1

之前的%2仍然打开着。</translation>
    </message>
    <message>
        <source>AttnScope — %1</source>
        <translation>AttnScope — %1</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <source>Run cancelled; the previous result stays shown.</source>
        <translation>运行已取消；仍显示之前的结果。</translation>
    </message>
    <message>
        <source>Hand rounding: every intermediate is rounded to %1 decimals</source>
        <translation>手算舍入：每个中间结果都舍入到 %1 位小数</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;G)</translation>
    </message>
    <message>
        <source>%1: no translation built in</source>
        <translation>%1：没有内置的翻译</translation>
    </message>
    <message>
        <source>none (e.g. 1:2,2:1)</source>
        <translation>无（例如 1:2,2:1）</translation>
    </message>
    <message>
        <source>Heads to switch off, LAYER:HEAD counted from 1: their output becomes zero</source>
        <translation>要关闭的头，写作 层:头，从 1 开始计数：它们的输出变为零</translation>
    </message>
    <message>
        <source>Switch heads off:</source>
        <translation>关闭的头：</translation>
    </message>
    <message>
        <source>Switch heads off: %1; the previous result stays shown.</source>
        <translation>关闭头：%1；仍显示之前的结果。</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>Weight × ‖value‖ cancelled; the views show the weights.</source>
        <translation>权重 × ‖值‖ 已取消；视图显示权重。</translation>
    </message>
    <message>
        <source>Weight × ‖value‖ could not be computed: %1</source>
        <translation>无法计算权重 × ‖值‖：%1</translation>
    </message>
    <message>
        <source>The session showed the stage “%1”, but this lesson has no stages: its attention is shown.</source>
        <translation>会话显示的是阶段“%1”，但这个课程没有阶段：现在显示它的注意力。</translation>
    </message>
    <message>
        <source>Example</source>
        <comment>short tab label</comment>
        <translation>演算</translation>
    </message>
    <message>
        <source>Heatmap</source>
        <comment>short tab label</comment>
        <translation>热力图</translation>
    </message>
    <message>
        <source>Edit</source>
        <comment>short tab label</comment>
        <translation>编辑</translation>
    </message>
    <message>
        <source>Model</source>
        <comment>short tab label</comment>
        <translation>模型</translation>
    </message>
</context>
<context>
    <name>attnscope::MasksPanel</name>
    <message>
        <source>Every view shows layer 1, head</source>
        <translation>所有视图显示第 1 层，头</translation>
    </message>
    <message>
        <source>Causal mask</source>
        <translation>因果掩码</translation>
    </message>
    <message>
        <source>Padding mask (a batch)</source>
        <translation>填充掩码（一个批次）</translation>
    </message>
    <message>
        <source>Cross-attention</source>
        <translation>交叉注意力</translation>
    </message>
    <message>
        <source>key token j</source>
        <translation>键词元 j</translation>
    </message>
    <message>
        <source>query token i</source>
        <translation>查询词元 i</translation>
    </message>
    <message>
        <source>&lt;b&gt;Causal mask.&lt;/b&gt; A model that writes text word by word must not read the words after the one it is writing. The mask M is added to the scaled scores &lt;i&gt;before&lt;/i&gt; the softmax: 0 keeps a score, −∞ above the diagonal removes it, and since e&lt;sup&gt;−∞&lt;/sup&gt; = 0 every weight above the diagonal is exactly 0. The lesson&apos;s sentence, run with the mask on (the head chosen above).</source>
        <translation>&lt;b&gt;因果掩码。&lt;/b&gt;逐词生成文本的模型不能读取它正在写的词之后的词。掩码 M 在 softmax &lt;i&gt;之前&lt;/i&gt;加到缩放后的分数上：0 保留分数，对角线以上的 −∞ 把分数去掉；由于 e&lt;sup&gt;−∞&lt;/sup&gt; = 0，对角线以上的每个权重都恰好为 0。下面是课程的句子在加上掩码后的运行结果（使用上面选择的头）。</translation>
    </message>
    <message>
        <source>Second sentence of the batch:</source>
        <translation>批次中的第二个句子：</translation>
    </message>
    <message>
        <source>Press Enter to run the batch [lesson sentence, this sentence]</source>
        <translation>按回车运行批次 [课程句子, 这个句子]</translation>
    </message>
    <message>
        <source>&lt;b&gt;Padding mask.&lt;/b&gt; Sentences of different lengths are run together as one batch: the shorter one is filled up with [PAD] tokens, and a padding mask puts −∞ in their columns for every query, so no real token (and no [PAD]) attends to padding. The real tokens then get the weights they get alone.</source>
        <translation>&lt;b&gt;填充掩码。&lt;/b&gt;长度不同的句子作为一个批次一起运行：较短的句子用 [PAD] 词元补齐，填充掩码对每个查询在这些列中放入 −∞，因此没有真实词元（也没有 [PAD]）会关注填充位置。这样，真实词元得到的权重与单独运行时相同。</translation>
    </message>
    <message>
        <source>Source (keys, values):</source>
        <translation>源句（键、值）：</translation>
    </message>
    <message>
        <source>Press Enter to run cross-attention from the lesson&apos;s sentence to this one</source>
        <translation>按回车运行从课程句子到这个句子的交叉注意力</translation>
    </message>
    <message>
        <source>Click a cell of the heatmap to see how its score and weight were computed.</source>
        <translation>点击热力图中的单元格，查看其分数和权重是如何算出的。</translation>
    </message>
    <message>
        <source>source token (keys, values)</source>
        <translation>源词元（键、值）</translation>
    </message>
    <message>
        <source>target token (queries)</source>
        <translation>目标词元（查询）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Cross-attention&lt;/b&gt; (a translation&apos;s decoder reading its encoder): the queries come from one sentence (the target, rows), the keys and values from another (the source, columns). Q = X_target·W_Q, K = X_source·W_K, V = X_source·W_V, so the weights are T_target × T_source and each target token&apos;s output mixes source values. Nothing is masked: the target may read the whole source. Click a cell to see its arithmetic.</source>
        <translation>&lt;b&gt;交叉注意力&lt;/b&gt;（翻译模型的解码器读取编码器）：查询来自一个句子（目标句，行），键和值来自另一个句子（源句，列）。Q = X_target·W_Q，K = X_source·W_K，V = X_source·W_V，因此权重是 T_target × T_source 的矩阵，每个目标词元的输出是源句各值的混合。这里没有掩码：目标句可以读取整个源句。点击一个单元格查看其计算过程。</translation>
    </message>
    <message>
        <source>Target (queries): &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>目标句（查询）：&lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Scaled scores S/√d_k = Q·Kᵀ/√d_k</source>
        <translation>缩放后的分数 S/√d_k = Q·Kᵀ/√d_k</translation>
    </message>
    <message>
        <source>Scores S = Q·Kᵀ (no scaling)</source>
        <translation>分数 S = Q·Kᵀ（未缩放）</translation>
    </message>
    <message>
        <source>score</source>
        <translation>分数</translation>
    </message>
    <message>
        <source>Causal mask M: −∞ above the diagonal</source>
        <translation>因果掩码 M：对角线以上为 −∞</translation>
    </message>
    <message>
        <source>mask</source>
        <translation>掩码</translation>
    </message>
    <message>
        <source>%1 + M: later tokens are −∞</source>
        <translation>%1 + M：后面的词元为 −∞</translation>
    </message>
    <message>
        <source>A = softmax(%1 + M) per row: upper triangle 0</source>
        <translation>A = 按行 softmax(%1 + M)：上三角为 0</translation>
    </message>
    <message>
        <source>attention weight</source>
        <translation>注意力权重</translation>
    </message>
    <message>
        <source>Check (every layer and head): largest weight above the diagonal = %1%2; every row sums to 1 (largest |Σ_j A_ij − 1| = %3). The first token can only attend to itself: its weight is 1.</source>
        <translation>检验（每一层、每个头）：对角线以上的最大权重 = %1%2；每行之和为 1（最大的 |Σ_j A_ij − 1| = %3）。第一个词元只能关注它自己：其权重为 1。</translation>
    </message>
    <message>
        <source> (exactly: e^−∞ = 0)</source>
        <translation>（恰好为 0：e^−∞ = 0）</translation>
    </message>
    <message>
        <source>Sentence %1: weights, %2 [PAD] column(s) = 0</source>
        <translation>句子 %1：权重，%2 个 [PAD] 列 = 0</translation>
    </message>
    <message>
        <source>Sentence %1: weights (no padding)</source>
        <translation>句子 %1：权重（无填充）</translation>
    </message>
    <message>
        <source>Mask of sentence %1 (causal + padding)</source>
        <translation>句子 %1 的掩码（因果 + 填充）</translation>
    </message>
    <message>
        <source>Padding mask of sentence %1</source>
        <translation>句子 %1 的填充掩码</translation>
    </message>
    <message>
        <source>Mask of sentence 1: nothing to pad</source>
        <translation>句子 1 的掩码：无需填充</translation>
    </message>
    <message>
        <source>Mask of sentence 1: causal, nothing to pad</source>
        <translation>句子 1 的掩码：因果掩码，无需填充</translation>
    </message>
    <message>
        <source>Both sentences have %1 tokens, so nothing is padded. Type a shorter or longer second sentence and press Enter.</source>
        <translation>两个句子都有 %1 个词元，因此没有填充。请输入一个更短或更长的第二个句子并按回车。</translation>
    </message>
    <message>
        <source> — equal up to the last bits of a double (the softmax adds its e^−∞ = 0 terms in another order)</source>
        <translation> — 相等，只差双精度数的最后几位（softmax 以另一种顺序加上了 e^−∞ = 0 的项）</translation>
    </message>
    <message>
        <source>Check (every layer and head): largest weight in a [PAD] column = %1; the real tokens&apos; rows sum to 1 (largest |Σ_j A_ij − 1| = %2); sentence %3&apos;s real part (weights, A·V, output) against its run alone, without [PAD]: largest difference %4%5.</source>
        <translation>检验（每一层、每个头）：[PAD] 列中的最大权重 = %1；真实词元的各行之和为 1（最大的 |Σ_j A_ij − 1| = %2）；句子 %3 的真实部分（权重、A·V、输出）与其不带 [PAD] 单独运行的结果相比：最大差值 %4%5。</translation>
    </message>
    <message>
        <source>, head %1 of %2</source>
        <translation>，第 %1 头，共 %2 个头</translation>
    </message>
    <message>
        <source>Cross-attention weights (%1 target × %2 source tokens%3)</source>
        <translation>交叉注意力权重（%1 个目标词元 × %2 个源词元%3）</translation>
    </message>
    <message>
        <source>Check: each target row is a distribution over the source tokens (largest |Σ_j A_ij − 1| = %1).</source>
        <translation>检验：每个目标行都是源词元上的一个概率分布（最大的 |Σ_j A_ij − 1| = %1）。</translation>
    </message>
    <message>
        <source>  Notice: %1.</source>
        <translation>  注意：%1。</translation>
    </message>
</context>
<context>
    <name>attnscope::MatrixPanel</name>
    <message>
        <source>Select a cell of the result to see how it was computed.</source>
        <translation>选择结果中的一个单元格，查看它是如何算出的。</translation>
    </message>
    <message>
        <source>  (read as Kᵀ)</source>
        <translation>  （按 Kᵀ 读）</translation>
    </message>
    <message>
        <source>  — layer %1</source>
        <translation>  — 第 %1 层</translation>
    </message>
    <message>
        <source>  — head %1</source>
        <translation>  — 第 %1 头</translation>
    </message>
    <message>
        <source>softmax
of each row
→</source>
        <translation>对每一行
做 softmax
→</translation>
    </message>
    <message>
        <source>turn each pair
by m·θ_i
→</source>
        <translation>每对数
旋转 m·θ_i
→</translation>
    </message>
    <message>
        <source>RMSNorm
of each row
→</source>
        <translation>对每一行
做 RMS 归一化
→</translation>
    </message>
    <message>
        <source>LayerNorm
of each row
→</source>
        <translation>对每一行
做层归一化
→</translation>
    </message>
    <message>
        <source>SiLU(G) ⊙ U
→</source>
        <translation>SiLU(G) ⊙ U
逐元素相乘
→</translation>
    </message>
    <message>
        <source>GELU
of each cell
→</source>
        <translation>对每个单元格
做 GELU
→</translation>
    </message>
    <message>
        <source>ReLU
of each cell
→</source>
        <translation>对每个单元格
做 ReLU
→</translation>
    </message>
</context>
<context>
    <name>attnscope::ModelTraceSource</name>
    <message>
        <source>The sentence could not be run (%1); the previous result stays shown.</source>
        <translation>无法运行该句子（%1）；仍显示之前的结果。</translation>
    </message>
    <message>
        <source>%1 · %2 layers × %3 heads · d = %4 · vocabulary %5 · %6 tokenizer · %7</source>
        <translation>%1 · %2 层 × %3 个头 · d = %4 · 词表 %5 · %6 分词器 · %7</translation>
    </message>
    <message>
        <source>example shipped with AttnScope</source>
        <translation>AttnScope 自带的示例模型</translation>
    </message>
    <message>
        <source>Type the start of a sentence; the model predicts what comes next.</source>
        <translation>输入一个句子的开头；模型会预测接下来的内容。</translation>
    </message>
    <message>
        <source>Type a sentence; write [MASK] where the model should fill in a word.</source>
        <translation>输入一个句子；在需要模型填词的地方写 [MASK]。</translation>
    </message>
    <message>
        <source>model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Model: %1</source>
        <translation>模型：%1</translation>
    </message>
</context>
<context>
    <name>attnscope::ModelView</name>
    <message>
        <source>Building thumbnails… %1 / %2</source>
        <translation>正在生成缩略图… %1 / %2</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>Layer %1 · %2 over %3 heads</source>
        <translation>第 %1 层 · %3 个头的%2</translation>
    </message>
    <message>
        <source>Layer %1 · head %2</source>
        <translation>第 %1 层 · 第 %2 头</translation>
    </message>
    <message>
        <source>
weights not computed</source>
        <translation>
尚未计算权重</translation>
    </message>
    <message>
        <source>
%1 × %2 block means of the weights (a long run keeps this thumbnail)</source>
        <translation>
权重的 %1 × %2 分块均值（长输入的运行只保留这张缩略图）</translation>
    </message>
    <message>
        <source>
building…</source>
        <translation>
正在生成…</translation>
    </message>
    <message>
        <source>
brightest colour = %1</source>
        <translation>
最亮颜色 = %1</translation>
    </message>
    <message>
        <source>
click to open it large</source>
        <translation>
点击放大查看</translation>
    </message>
    <message>
        <source>Colour: attention weight from 0 (dark) to 1 (yellow).</source>
        <translation>颜色：注意力权重从 0（深色）到 1（黄色）。</translation>
    </message>
    <message>
        <source>Colour: 0 (dark) to %1 (yellow), the largest weight shown in any head.</source>
        <translation>颜色：从 0（深色）到 %1（黄色），即所有头中显示的最大权重。</translation>
    </message>
    <message>
        <source>Colour: 0 (dark) to the largest weight shown in any head (yellow; finding it…).</source>
        <translation>颜色：从 0（深色）到所有头中显示的最大权重（黄色；正在查找…）。</translation>
    </message>
    <message>
        <source>Colour: 0 (dark) to each head&apos;s own largest weight (yellow).</source>
        <translation>颜色：从 0（深色）到每个头自身的最大权重（黄色）。</translation>
    </message>
    <message>
        <source> Special tokens hidden; rows renormalised to sum to 1.</source>
        <translation> 已隐藏特殊词元；各行重新归一化，总和为 1。</translation>
    </message>
    <message>
        <source> Special tokens hidden: rows no longer sum to 1.</source>
        <translation> 已隐藏特殊词元：各行之和不再为 1。</translation>
    </message>
    <message>
        <source> Last column: %1 over the layer&apos;s heads.</source>
        <translation> 最后一列：该层各头的%1。</translation>
    </message>
    <message>
        <source> Click a head to open it.</source>
        <translation> 点击一个头可将其打开。</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>第 %1 头</translation>
    </message>
    <message>
        <source>not computed</source>
        <translation>尚未计算</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>第 %1 名</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <source>h%1</source>
        <translation>头%1</translation>
    </message>
    <message>
        <source>%1. The previous filter (%2) stays.</source>
        <translation>%1。保留之前的筛选（%2）。</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>%1. Showing all.</source>
        <translation>%1。显示全部。</translation>
    </message>
    <message>
        <source> Showing %1 of %2 layers and %3 of %4 heads.</source>
        <translation> 显示 %2 层中的 %1 层、%4 个头中的 %3 个。</translation>
    </message>
    <message>
        <source> Heads ordered by %1 within each layer, highest first; the number in each corner is the head.</source>
        <translation> 每层内的注意力头按%1从高到低排列；角上的数字是头的编号。</translation>
    </message>
    <message>
        <source> Shown: weight × ‖value‖ (Kobayashi et al. 2020), each row&apos;s share, not the raw weight.</source>
        <translation> 显示的是权重 × ‖值‖（Kobayashi 等，2020）占每行的比例，而不是原始权重。</translation>
    </message>
</context>
<context>
    <name>attnscope::ModelViewBar</name>
    <message>
        <source>all, or e.g. 1-3,7</source>
        <translation>全部，或例如 1-3,7</translation>
    </message>
    <message>
        <source>head number</source>
        <translation>头编号</translation>
    </message>
    <message>
        <source>entropy</source>
        <translation>熵</translation>
    </message>
    <message>
        <source>weight on delimiters</source>
        <translation>分隔符上的权重</translation>
    </message>
    <message>
        <source>previous-token share</source>
        <translation>前一个词元的份额</translation>
    </message>
    <message>
        <source>next-token share</source>
        <translation>后一个词元的份额</translation>
    </message>
    <message>
        <source>self share</source>
        <translation>自身的份额</translation>
    </message>
    <message>
        <source>Layers:</source>
        <translation>层：</translation>
    </message>
    <message>
        <source>Heads:</source>
        <translation>头：</translation>
    </message>
    <message>
        <source>Order heads by:</source>
        <translation>头的排序依据：</translation>
    </message>
</context>
<context>
    <name>attnscope::ModelWorker</name>
    <message>
        <source>No model is open.</source>
        <translation>没有打开的模型。</translation>
    </message>
</context>
<context>
    <name>attnscope::MovementTabController</name>
    <message>
        <source>X → Y</source>
        <translation>X → Y（词的变化）</translation>
    </message>
    <message>
        <source>What attention did to each word: its vector before and after, and where its new content came from</source>
        <translation>注意力对每个词做了什么：它之前和之后的向量，以及它的新内容来自哪里</translation>
    </message>
    <message>
        <source>No run yet: type a sentence.</source>
        <translation>尚未运行：请输入一个句子。</translation>
    </message>
    <message>
        <source>Cancelled; what was shown stays.</source>
        <translation>已取消；保留之前显示的内容。</translation>
    </message>
    <message>
        <source>Sentence A could not be run: %1</source>
        <translation>无法运行句子 A：%1</translation>
    </message>
    <message>
        <source>B could not be run: %1</source>
        <translation>无法运行 B：%1</translation>
    </message>
    <message>
        <source>The same word in two contexts: type a second sentence (B) in the Compare tab; one word of each is compared here, layer by layer.</source>
        <translation>同一个词在两个语境中：请在“对比”标签页输入第二个句子（B）；这里逐层比较两句中各一个词。</translation>
    </message>
    <message>
        <source>nothing is shown yet</source>
        <translation>尚未显示任何内容</translation>
    </message>
    <message>
        <source>cannot draw the figure</source>
        <translation>无法绘制图形</translation>
    </message>
    <message>
        <source>What attention did to each word</source>
        <translation>注意力对每个词做了什么</translation>
    </message>
    <message>
        <source>X → Y</source>
        <comment>short tab label</comment>
        <translation>X → Y</translation>
    </message>
</context>
<context>
    <name>attnscope::MovementView</name>
    <message>
        <source>Word</source>
        <translation>词</translation>
    </message>
    <message>
        <source>‖y − x‖</source>
        <translation>‖y − x‖</translation>
    </message>
    <message>
        <source>cos(x, y)</source>
        <translation>cos(x, y)</translation>
    </message>
    <message>
        <source>New content from (largest first)</source>
        <translation>新内容来自（从大到小）</translation>
    </message>
    <message>
        <source>layer %v of %m</source>
        <translation>第 %v 层，共 %m 层</translation>
    </message>
    <message>
        <source>From x to y over:</source>
        <translation>从 x 到 y 经过：</translation>
    </message>
    <message>
        <source>Sources per word:</source>
        <translation>每个词的来源数：</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>‖y − x‖ bars as PNG…</source>
        <translation>‖y − x‖ 柱状图导出为 PNG…</translation>
    </message>
    <message>
        <source>‖y − x‖ bars as SVG…</source>
        <translation>‖y − x‖ 柱状图导出为 SVG…</translation>
    </message>
    <message>
        <source>Every word&apos;s movement as CSV…</source>
        <translation>每个词的变化导出为 CSV…</translation>
    </message>
    <message>
        <source>Every word&apos;s movement as JSON…</source>
        <translation>每个词的变化导出为 JSON…</translation>
    </message>
    <message>
        <source>Same word curve as PNG…</source>
        <translation>同词曲线导出为 PNG…</translation>
    </message>
    <message>
        <source>Same word curve as SVG…</source>
        <translation>同词曲线导出为 SVG…</translation>
    </message>
    <message>
        <source>Same word curve as CSV…</source>
        <translation>同词曲线导出为 CSV…</translation>
    </message>
    <message>
        <source>Same word curve as JSON…</source>
        <translation>同词曲线导出为 JSON…</translation>
    </message>
    <message>
        <source>the whole stack</source>
        <translation>整个堆叠（所有层）</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>the whole stack (layer 1 to %1)</source>
        <translation>整个堆叠（第 1 层到第 %1 层）</translation>
    </message>
    <message>
        <source>What %1 did to each word: x is its vector entering layer 1, y leaving the last. ‖y − x‖: how far it moved; cos(x, y): 1 when its direction kept. Choose a layer to see where each word&apos;s new content came from.</source>
        <translation>%1 对每个词做了什么：x 是它进入第 1 层时的向量，y 是离开最后一层时的向量。‖y − x‖：它移动了多远；cos(x, y)：方向不变时为 1。选择一层可查看每个词的新内容来自哪里。</translation>
    </message>
    <message>
        <source>How far each word moved over %1</source>
        <translation>每个词经过%1移动了多远</translation>
    </message>
    <message>
        <source>%1 %2 (%3 %)</source>
        <translation>%1 %2（%3%）</translation>
    </message>
    <message>
        <source>‖y − x‖ per word</source>
        <translation>每个词的 ‖y − x‖</translation>
    </message>
    <message>
        <source>One word in A and B</source>
        <translation>A 和 B 中的同一个词</translation>
    </message>
    <message>
        <source>Worksheet of the selected word (Markdown, LaTeX or PDF)…</source>
        <translation>所选词的练习单（Markdown、LaTeX 或 PDF）…</translation>
    </message>
    <message>
        <source>What %1 did to “{1}” (token {2})</source>
        <translation>%1对“{1}”（第 {2} 个词元）做了什么</translation>
    </message>
    <message>
        <source>x is the word&apos;s vector entering %1, y the vector leaving it. Fill in the table row by row, add up each column in its last row (Σ), then work out the lengths and the cosine below.</source>
        <translation>x 是这个词进入%1时的向量，y 是离开时的向量。逐行填写表格，在最后一行（Σ）把每一列加起来，然后算出下面的长度和余弦。</translation>
    </message>
    <message>
        <source>How far it moved, and whether its direction kept</source>
        <translation>它移动了多远，方向是否保持</translation>
    </message>
    <message>
        <source>Where its new content came from</source>
        <translation>它的新内容来自哪里</translation>
    </message>
    <message>
        <source>c_j = Σ_h α_j·v_j·W_O^h is what source word j brought to this word through every head; its length ‖c_j‖ is given. Work out Σ_j ‖c_j‖ and the share ‖c_j‖ / Σ_j′ ‖c_j′‖ of the {1} largest.</source>
        <translation>c_j = Σ_h α_j·v_j·W_O^h 是来源词 j 经由所有头带给这个词的内容；它的长度 ‖c_j‖ 已给出。算出 Σ_j ‖c_j‖，以及最大的 {1} 个来源的份额 ‖c_j‖ / Σ_j′ ‖c_j′‖。</translation>
    </message>
    <message>
        <source>What %1 did to each word: x is its vector entering the layer, y leaving it (%2). ‖y − x‖: how far it moved; cos(x, y): 1 when its direction kept. Its new content came from these words: ‖Σ_h α·v·W_O‖ of each source, largest first.</source>
        <translation>%1 对每个词做了什么：x 是它进入该层时的向量，y 是离开时的向量（%2）。‖y − x‖：它移动了多远；cos(x, y)：方向不变时为 1。它的新内容来自这些词：每个来源的 ‖Σ_h α·v·W_O‖，从大到小。</translation>
    </message>
</context>
<context>
    <name>attnscope::MultiHeadPanel</name>
    <message>
        <source>Input X</source>
        <translation>输入 X</translation>
    </message>
    <message>
        <source>Heads H</source>
        <translation>头数 H</translation>
    </message>
    <message>
        <source>Weights W_Q, W_K, W_V, W_O ~ N(0, 1/d), seed</source>
        <translation>权重 W_Q, W_K, W_V, W_O ~ N(0, 1/d)，种子</translation>
    </message>
    <message>
        <source>Inspect head</source>
        <translation>查看头</translation>
    </message>
    <message>
        <source>the sentence&apos;s X (d = %1)</source>
        <translation>句子的 X (d = %1)</translation>
    </message>
    <message>
        <source>The sentence&apos;s X is %1 wide; this lab runs inputs up to %2 wide.</source>
        <translation>句子的 X 宽度为 %1；本实验只能运行宽度不超过 %2 的输入。</translation>
    </message>
    <message>
        <source>random X, d = %1</source>
        <translation>随机 X，d = %1</translation>
    </message>
    <message>
        <source>head %1: softmax(S_%1/√%2)</source>
        <translation>第 %1 头：softmax(S_%1/√%2)</translation>
    </message>
    <message>
        <source>attention weight</source>
        <translation>注意力权重</translation>
    </message>
    <message>
        <source>concat (%1×%2)</source>
        <translation>拼接（%1×%2）</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>concat·W_O (%1×%2)</source>
        <translation>拼接·W_O（%1×%2）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Shapes:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;形状：&lt;/b&gt;%1</translation>
    </message>
    <message>
        <source>with one head there is a single softmax over the whole %1-wide dot product</source>
        <translation>只有一个头时，只对整个 %1 维的点积做一次 softmax</translation>
    </message>
    <message>
        <source>what %1 heads buy is %1 separate softmaxes</source>
        <translation>%1 个头带来的是 %1 个各自独立的 softmax</translation>
    </message>
    <message>
        <source>&lt;b&gt;Parameters:&lt;/b&gt; W_Q, W_K, W_V, W_O are d×d each, 4·d² = 4·%1 = %2 whatever H — H only decides how the columns of W_Q, W_K, W_V are split into heads of d_k = %3/%4 = %5, scaled by 1/√%5. &lt;b&gt;Σ_h Q_h·K_hᵀ = Q·Kᵀ:&lt;/b&gt; largest difference %6 — the heads&apos; raw scores add up to the single-head scores; %7.</source>
        <translation>&lt;b&gt;参数：&lt;/b&gt;W_Q、W_K、W_V、W_O 都是 d×d 矩阵，无论 H 是多少，共 4·d² = 4·%1 = %2 个参数 — H 只决定 W_Q、W_K、W_V 的列如何划分成 d_k = %3/%4 = %5 维的头，并按 1/√%5 缩放。&lt;b&gt;Σ_h Q_h·K_hᵀ = Q·Kᵀ：&lt;/b&gt;最大差值 %6 — 各头的原始分数相加等于单头的分数；%7。</translation>
    </message>
    <message>
        <source>%1_%2 = X·W_%1, columns %3–%4</source>
        <translation>%1_%2 = X·W_%1 的第 %3–%4 列</translation>
    </message>
    <message>
        <source>value (%1×%2)</source>
        <translation>值（%1×%2）</translation>
    </message>
    <message>
        <source>Every head</source>
        <translation>每个头</translation>
    </message>
    <message>
        <source>Heads that share keys (grouped-query)</source>
        <translation>共享键的头（分组查询）</translation>
    </message>
</context>
<context>
    <name>attnscope::NewLessonDialog</name>
    <message>
        <source>New lesson</source>
        <translation>新建课程</translation>
    </message>
    <message>
        <source>e.g. the cat sat, or 笔记本 (one token per Chinese character)</source>
        <translation>例如 the cat sat，或 笔记本（每个汉字一个词元）</translation>
    </message>
    <message>
        <source>optional, separated by commas: noun, animate, place</source>
        <translation>可选，用逗号分隔：名词, 有生命, 地点</translation>
    </message>
    <message>
        <source>Projections W_Q, W_K, W_V (without them Q = K = V = X)</source>
        <translation>投影 W_Q、W_K、W_V（没有投影时 Q = K = V = X）</translation>
    </message>
    <message>
        <source>Divide the scores by √d_k</source>
        <translation>分数除以 √d_k</translation>
    </message>
    <message>
        <source>Causal mask (each token sees only itself and earlier ones)</source>
        <translation>因果掩码（每个词元只看到自己和前面的词元）</translation>
    </message>
    <message>
        <source>Title (English):</source>
        <translation>标题（英文）：</translation>
    </message>
    <message>
        <source>Title (Chinese):</source>
        <translation>标题（中文）：</translation>
    </message>
    <message>
        <source>Words or characters:</source>
        <translation>词或汉字：</translation>
    </message>
    <message>
        <source>Feature names:</source>
        <translation>特征名称：</translation>
    </message>
    <message>
        <source>Heads:</source>
        <translation>头数：</translation>
    </message>
    <message>
        <source>Decimals:</source>
        <translation>小数位：</translation>
    </message>
    <message>
        <source>Query heads share the key/value heads in groups (grouped-query attention); 1 is multi-query attention. Must divide the number of heads.</source>
        <translation>查询头按组共用键/值头（分组查询注意力）；1 为多查询注意力。必须能整除头数。</translation>
    </message>
    <message>
        <source>Key/value heads:</source>
        <translation>键/值头：</translation>
    </message>
</context>
<context>
    <name>attnscope::OpenModelDialog</name>
    <message>
        <source>Open a pretrained model</source>
        <translation>打开预训练模型</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Revision</source>
        <translation>修订版本</translation>
    </message>
    <message>
        <source>Contents</source>
        <translation>内容</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Browse folder…</source>
        <translation>浏览文件夹…</translation>
    </message>
    <message>
        <source>Download…</source>
        <translation>下载…</translation>
    </message>
    <message>
        <source>Models in the Hugging Face cache (%1):</source>
        <translation>Hugging Face 缓存中的模型（%1）：</translation>
    </message>
    <message>
        <source>none yet — download one or browse to a folder.</source>
        <translation>暂无 — 请下载一个，或浏览到一个文件夹。</translation>
    </message>
    <message>
        <source>Model folder (config.json + *.safetensors)</source>
        <translation>模型文件夹（config.json + *.safetensors）</translation>
    </message>
</context>
<context>
    <name>attnscope::PermutationDemoBox</name>
    <message>
        <source>&lt;b&gt;Permutation demo&lt;/b&gt; on the lesson&apos;s sentence (layer 1, head 1)</source>
        <translation>在课程句子上的&lt;b&gt;置换演示&lt;/b&gt;（第 1 层，第 1 头）</translation>
    </message>
    <message>
        <source>keep positional encoding (and the causal mask)</source>
        <translation>保留位置编码（以及因果掩码）</translation>
    </message>
    <message>
        <source>Shuffle seed</source>
        <translation>打乱种子</translation>
    </message>
    <message>
        <source>No demo: %1</source>
        <translation>无演示：%1</translation>
    </message>
    <message>
        <source>Original order</source>
        <translation>原始顺序</translation>
    </message>
    <message>
        <source>attention weight</source>
        <translation>注意力权重</translation>
    </message>
    <message>
        <source>Shuffled</source>
        <translation>打乱后</translation>
    </message>
    <message>
        <source>Order: shuffled token i is original token [%1]</source>
        <translation>顺序：打乱后的词元 i 是原来的词元 [%1]</translation>
    </message>
    <message>
        <source>Without positional encoding, A′(i, j) = A(order[i], order[j]) for every layer, head, i, j: largest difference %1 — shuffling only permutes rows and columns.</source>
        <translation>没有位置编码时，对每一层、每个头以及所有 i、j，都有 A′(i, j) = A(order[i], order[j])：最大差值 %1 — 打乱只是置换了行和列。</translation>
    </message>
    <message>
        <source>With positional encoding kept, A′(i, j) = A(order[i], order[j]) breaks: largest difference %1 — the model sees word order.</source>
        <translation>保留位置编码时，A′(i, j) = A(order[i], order[j]) 不再成立：最大差值 %1 — 模型能看到词序。</translation>
    </message>
    <message>
        <source>This lesson has no positional encoding or causal mask, so even kept the check holds: largest difference %1. Try the causal-mask lesson.</source>
        <translation>本课程没有位置编码或因果掩码，所以即使保留，检验依然成立：最大差值 %1。请试试因果掩码那一课。</translation>
    </message>
</context>
<context>
    <name>attnscope::PositionalPanel</name>
    <message>
        <source>dimension</source>
        <translation>维度</translation>
    </message>
    <message>
        <source>position</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>output dimension</source>
        <translation>输出维度</translation>
    </message>
    <message>
        <source>input dimension</source>
        <translation>输入维度</translation>
    </message>
    <message>
        <source>Dimensions drawn as curves, separated by commas</source>
        <translation>以曲线绘制的维度，用逗号分隔</translation>
    </message>
    <message>
        <source>Sinusoidal</source>
        <translation>正弦</translation>
    </message>
    <message>
        <source>A real model opened in the main window offers its learned position table here</source>
        <translation>在主窗口中打开真实模型后，这里会提供它学习得到的位置编码表</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>编码表</translation>
    </message>
    <message>
        <source>Positions T</source>
        <translation>位置数 T</translation>
    </message>
    <message>
        <source>Width d</source>
        <translation>宽度 d</translation>
    </message>
    <message>
        <source>Curves of dimensions</source>
        <translation>维度曲线</translation>
    </message>
    <message>
        <source>Offset k</source>
        <translation>偏移 k</translation>
    </message>
    <message>
        <source>%1: learned table (first N positions)</source>
        <translation>%1：学习得到的编码表（前 N 个位置）</translation>
    </message>
    <message>
        <source>%1: learned PE (%2 positions × %3 of %4 dims)</source>
        <translation>%1：学习得到的位置编码（%2 个位置 × %4 维中的 %3 维）</translation>
    </message>
    <message>
        <source>PE value</source>
        <translation>位置编码值</translation>
    </message>
    <message>
        <source>Sinusoidal encoding PE (%1 positions × %2 dimensions)</source>
        <translation>正弦位置编码 PE（%1 个位置 × %2 维）</translation>
    </message>
    <message>
        <source>PE(pos, i) along the positions</source>
        <translation>PE(pos, i) 随位置的变化</translation>
    </message>
    <message>
        <source>No check: %1</source>
        <translation>未检验：%1</translation>
    </message>
    <message>
        <source>R_%1: PE(pos + %1) = PE(pos) · R_%1</source>
        <translation>R_%1：PE(pos + %1) = PE(pos) · R_%1</translation>
    </message>
    <message>
        <source>entry</source>
        <translation>元素</translation>
    </message>
    <message>
        <source>PE(pos+%1) = PE(pos)·R_%1: largest difference %2 over %3 positions</source>
        <translation>PE(pos+%1) = PE(pos)·R_%1：在 %3 个位置上的最大差值为 %2</translation>
    </message>
    <message>
        <source>Least-squares R_%1: PE(pos + %1) ≈ PE(pos) · R_%1</source>
        <translation>最小二乘 R_%1：PE(pos + %1) ≈ PE(pos) · R_%1</translation>
    </message>
    <message>
        <source>Learned table: the best single map PE(pos+%1) ≈ PE(pos)·R_%1 (least squares over %2 positions) leaves a relative residual ‖PE[%1:] − PE[:−%1]·R_%1‖ / ‖PE[%1:]‖ = %3 — 0 would mean every position is the one before it moved by the same map, as for the sinusoidal table.</source>
        <translation>学习得到的编码表：最佳的单一映射 PE(pos+%1) ≈ PE(pos)·R_%1（在 %2 个位置上做最小二乘）留下的相对残差 ‖PE[%1:] − PE[:−%1]·R_%1‖ / ‖PE[%1:]‖ = %3 — 若为 0，则意味着每个位置都是前一个位置经同一映射移动而来，正如正弦编码表那样。</translation>
    </message>
    <message>
        <source>i = %1</source>
        <translation>i = %1</translation>
    </message>
    <message>
        <source>i = %1 (%2)</source>
        <translation>i = %1（%2）</translation>
    </message>
</context>
<context>
    <name>attnscope::PredictionsView</name>
    <message>
        <source>No predictions: BERT-family models predict at [MASK] tokens (type [MASK] in the sentence).</source>
        <translation>没有预测：BERT 系列模型在 [MASK] 词元处进行预测（请在句子中输入 [MASK]）。</translation>
    </message>
</context>
<context>
    <name>attnscope::Presentation</name>
    <message>
        <source>Zoom &amp;in</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Reset zoom</source>
        <translation>重置缩放(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Presentation mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <source>Leave presentation mode</source>
        <translation>退出演示模式</translation>
    </message>
    <message>
        <source>&amp;Fit the step to the window</source>
        <translation>让当前步骤填满窗口(&amp;F)</translation>
    </message>
    <message>
        <source>F&amp;ocus the chosen row, product by product</source>
        <translation>聚焦所选的行，逐个乘积讲解(&amp;O)</translation>
    </message>
    <message>
        <source>Zoom %1 %</source>
        <translation>缩放 %1 %</translation>
    </message>
</context>
<context>
    <name>attnscope::QkTabController</name>
    <message>
        <source>Queries &amp;&amp; keys</source>
        <translation>查询与键</translation>
    </message>
    <message>
        <source>Run a sentence to see its queries and keys.</source>
        <translation>运行一个句子即可看到它的查询和键。</translation>
    </message>
    <message>
        <source>Q &amp;&amp; K</source>
        <comment>short tab label</comment>
        <translation>查询与键</translation>
    </message>
</context>
<context>
    <name>attnscope::QkView</name>
    <message>
        <source>PCA</source>
        <translation>PCA</translation>
    </message>
    <message>
        <source>t-SNE</source>
        <translation>t-SNE</translation>
    </message>
    <message>
        <source>position</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>token kind</source>
        <translation>词元类型</translation>
    </message>
    <message>
        <source>Layout:</source>
        <translation>布局：</translation>
    </message>
    <message>
        <source>Colour by:</source>
        <translation>着色依据：</translation>
    </message>
    <message>
        <source>t-SNE (perplexity %1, seed 1; its axes have no meaning, only neighbours do). </source>
        <translation>t-SNE（困惑度 %1，种子 1；坐标轴本身没有含义，只有相邻关系有意义）。</translation>
    </message>
    <message>
        <source>Layer %1, head %2: %3 queries ● and %4 keys ▲. %8PC1 explains %5 %, PC2 %6 % of the variance; correlation of 2-D distance and dot product: %7.</source>
        <translation>第 %1 层第 %2 头：%3 个查询 ● 和 %4 个键 ▲。%8PC1 解释了 %5 % 的方差，PC2 解释了 %6 %；二维距离与点积的相关系数：%7。</translation>
    </message>
    <message>
        <source>The keys are moved so their centre meets the queries&apos; centre, the queries multiplied by a = %1 and the keys divided by it: this changes no softmax, since every score of a query shifts by the same amount (recomputed from the moved vectors, the weights differ by at most %2). Click a query to draw its attention.</source>
        <translation>键被平移，使其中心与查询的中心重合；查询乘以 a = %1，键除以 a：这不会改变任何 softmax，因为同一查询的所有分数都平移了相同的量（用变换后的向量重新计算，注意力权重之差至多为 %2）。点击一个查询即可画出它的注意力。</translation>
    </message>
    <message>
        <source>● queries, ▲ keys; orange: special token, purple: punctuation, blue: word</source>
        <translation>● 查询，▲ 键；橙色：特殊词元，紫色：标点，蓝色：词</translation>
    </message>
    <message>
        <source>● queries, ▲ keys; dark purple → yellow: first → last token</source>
        <translation>● 查询，▲ 键；深紫 → 黄：第一个 → 最后一个词元</translation>
    </message>
    <message>
        <source>PC1 (%1 %)</source>
        <translation>PC1（%1 %）</translation>
    </message>
    <message>
        <source>t-SNE 1</source>
        <translation>t-SNE 1</translation>
    </message>
    <message>
        <source>PC2 (%1 %)</source>
        <translation>PC2（%1 %）</translation>
    </message>
    <message>
        <source>t-SNE 2</source>
        <translation>t-SNE 2</translation>
    </message>
    <message>
        <source> … (%1)</source>
        <translation> …（%1）</translation>
    </message>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>special token</source>
        <translation>特殊词元</translation>
    </message>
    <message>
        <source>punctuation</source>
        <translation>标点</translation>
    </message>
    <message>
        <source>word</source>
        <translation>词</translation>
    </message>
    <message>
        <source>%1 of “%2” (position %3, %4)</source>
        <translation>“%2”的%1（位置 %3，%4）</translation>
    </message>
</context>
<context>
    <name>attnscope::ReportingPart</name>
    <message>
        <source>Unknown export format</source>
        <translation>未知的导出格式</translation>
    </message>
    <message>
        <source>The file could not be written</source>
        <translation>无法写入文件</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>%1 files (*.%2)</source>
        <translation>%1 文件 (*.%2)</translation>
    </message>
</context>
<context>
    <name>attnscope::RopeDemoBox</name>
    <message>
        <source>&lt;b&gt;Rotary encoding (RoPE)&lt;/b&gt;: Q and K turned by position</source>
        <translation>&lt;b&gt;旋转位置编码（RoPE）&lt;/b&gt;：按位置旋转 Q 和 K</translation>
    </message>
    <message>
        <source>d_k</source>
        <translation>d_k</translation>
    </message>
    <message>
        <source>query at m</source>
        <translation>查询位置 m</translation>
    </message>
    <message>
        <source>key at n</source>
        <translation>键位置 n</translation>
    </message>
    <message>
        <source>shifts s up to</source>
        <translation>平移 s 最大到</translation>
    </message>
    <message>
        <source>base θ</source>
        <translation>底数 θ</translation>
    </message>
    <message>
        <source>q, k seed</source>
        <translation>q、k 随机种子</translation>
    </message>
    <message>
        <source>No demo: %1</source>
        <translation>无演示：%1</translation>
    </message>
    <message>
        <source>q·k at positions (m + s, n + s)</source>
        <translation>位置 (m + s, n + s) 上的 q·k</translation>
    </message>
    <message>
        <source>shift s</source>
        <translation>平移 s</translation>
    </message>
    <message>
        <source>score q·k</source>
        <translation>分数 q·k</translation>
    </message>
    <message>
        <source>RoPE</source>
        <translation>RoPE</translation>
    </message>
    <message>
        <source>sinusoids added to q and k</source>
        <translation>q 和 k 加上正弦编码</translation>
    </message>
    <message>
        <source>Shifting both positions by s = 0 … %1: with RoPE q·k changes by at most %2 (rounding: it depends only on m − n = %3); with sinusoids added to q and k it changes by %4, because the sum carries the absolute positions.</source>
        <translation>两个位置同时平移 s = 0 … %1：用 RoPE 时 q·k 最多变化 %2（舍入误差：它只取决于 m − n = %3）；给 q 和 k 加上正弦编码时变化 %4，因为和里带着绝对位置。</translation>
    </message>
    <message>
        <source>Wavelength 2π/θ_i of each pair i</source>
        <translation>每对 i 的波长 2π/θ_i</translation>
    </message>
    <message>
        <source>pair i (from 1)</source>
        <translation>第 i 对（从 1 数起）</translation>
    </message>
    <message>
        <source>positions per turn</source>
        <translation>转一圈的位置数</translation>
    </message>
    <message>
        <source>θ_i = base^(−2(i−1)/d_k)</source>
        <translation>θ_i = 底数^(−2(i−1)/d_k)</translation>
    </message>
    <message>
        <source>Llama 3 scaling (×8 above 8192, kept below 2048)</source>
        <translation>Llama 3 缩放（8192 以上 ×8，2048 以下不变）</translation>
    </message>
    <message>
        <source>Worksheet…</source>
        <translation>练习单…</translation>
    </message>
    <message>
        <source>q and k turned pair by pair and their score, to compute by hand, with the answer key</source>
        <translation>手算 q 和 k 逐对旋转后的值及其分数，附答案</translation>
    </message>
    <message>
        <source>RoPE by hand</source>
        <translation>手算 RoPE</translation>
    </message>
    <message>
        <source>q = {1} and k = {2} (d_k = {3}). Pair i (i = 1 … d_k/2) is (x[i], x[i + d_k/2]), turned at position m by the angle m·θ_i with θ_i = {4}^(−2(i − 1)/d_k): x′[i] = x[i]·cos(m·θ_i) − x[i + d_k/2]·sin(m·θ_i), x′[i + d_k/2] = x[i + d_k/2]·cos(m·θ_i) + x[i]·sin(m·θ_i).</source>
        <translation>q = {1}，k = {2}（d_k = {3}）。第 i 对（i = 1 … d_k/2）是 (x[i], x[i + d_k/2])，在位置 m 旋转角度 m·θ_i，其中 θ_i = {4}^(−2(i − 1)/d_k)：x′[i] = x[i]·cos(m·θ_i) − x[i + d_k/2]·sin(m·θ_i)，x′[i + d_k/2] = x[i + d_k/2]·cos(m·θ_i) + x[i]·sin(m·θ_i)。</translation>
    </message>
    <message>
        <source>q turned at position m = {1}</source>
        <translation>q 在位置 m = {1} 旋转</translation>
    </message>
    <message>
        <source>k turned at position n = {1}</source>
        <translation>k 在位置 n = {1} 旋转</translation>
    </message>
    <message>
        <source>The score q′·k′ with q at m = {1} and k at n = {2}</source>
        <translation>q 在 m = {1}、k 在 n = {2} 时的分数 q′·k′</translation>
    </message>
    <message>
        <source>The score with both moved by s = {1} (q at {2}, k at {3})</source>
        <translation>两者都移动 s = {1} 后的分数（q 在 {2}，k 在 {3}）</translation>
    </message>
    <message>
        <source>Why are the two scores equal?</source>
        <translation>为什么两个分数相等？</translation>
    </message>
    <message>
        <source>Each pair of q′·k′ depends only on the angle (m − n)·θ_i: moving q and k by the same s changes m and n but not m − n, so a RoPE score depends on the distance, not on the absolute positions.</source>
        <translation>q′·k′ 的每一对只取决于角度 (m − n)·θ_i：把 q 和 k 移动相同的 s 会改变 m 和 n，却不改变 m − n，所以 RoPE 的分数取决于距离，而不是绝对位置。</translation>
    </message>
    <message>
        <source>pair {1}</source>
        <translation>第 {1} 对</translation>
    </message>
</context>
<context>
    <name>attnscope::SameWordPanel</name>
    <message>
        <source>Word in A:</source>
        <translation>A 中的词：</translation>
    </message>
    <message>
        <source>Word in B:</source>
        <translation>B 中的词：</translation>
    </message>
    <message>
        <source>cos(A, B)</source>
        <translation>cos(A, B)</translation>
    </message>
    <message>
        <source>cos(“%1” in A, “%2” in B) per layer</source>
        <translation>逐层 cos（A 中的“%1”，B 中的“%2”）</translation>
    </message>
    <message>
        <source>cosine</source>
        <translation>余弦</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>入 %1</translation>
    </message>
    <message>
        <source>out</source>
        <translation>出</translation>
    </message>
    <message>
        <source>The same word in two contexts: “%1” of A, “%2” of B. Leaving the last layer: cos %3.</source>
        <translation>同一个词在两个语境中：A 中的“%1”，B 中的“%2”。离开最后一层时：cos %3。</translation>
    </message>
    <message>
        <source>B is the Compare tab&apos;s sentence: “%1”. The curve is the cosine of the two words&apos; vectors entering each layer and leaving the last; 1: the same direction.</source>
        <translation>B 是“对比”标签页中的句子：“%1”。曲线是两个词的向量在进入每一层和离开最后一层时的余弦；1 表示方向相同。</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>层</translation>
    </message>
</context>
<context>
    <name>attnscope::ScalingPanel</name>
    <message>
        <source>q and %1 keys from N(0, 1), %2 runs per d, seed</source>
        <translation>q 和 %1 个键取自 N(0, 1)，每个 d 运行 %2 次，种子</translation>
    </message>
    <message>
        <source>Distribution of q·k at d =</source>
        <translation>q·k 的分布，d =</translation>
    </message>
    <message>
        <source>Sentence: layer 1, head</source>
        <translation>句子：第 1 层，头</translation>
    </message>
    <message>
        <source>Running the experiment for seed %1…</source>
        <translation>正在以种子 %1 运行实验…</translation>
    </message>
    <message>
        <source>Largest softmax gradient vs d (seed %1)</source>
        <translation>softmax 最大梯度随 d 的变化（种子 %1）</translation>
    </message>
    <message>
        <source>dimension d</source>
        <translation>维度 d</translation>
    </message>
    <message>
        <source>largest |∂yᵢ/∂sⱼ|</source>
        <translation>最大的 |∂yᵢ/∂sⱼ|</translation>
    </message>
    <message>
        <source>median, %1</source>
        <translation>中位数，%1</translation>
    </message>
    <message>
        <source>each run, %1</source>
        <translation>每次运行，%1</translation>
    </message>
    <message>
        <source>At d = 1024 the median largest gradient is %1 unscaled and %2 scaled: without the division the softmax saturates and stops learning.</source>
        <translation>在 d = 1024 时，最大梯度的中位数在未缩放时为 %1，缩放后为 %2：不做除法，softmax 就会饱和，无法继续学习。</translation>
    </message>
    <message>
        <source> %1 values were exactly 0 (underflow) and cannot be drawn on a log scale.</source>
        <translation> 有 %1 个值恰好为 0（下溢），无法在对数坐标上绘制。</translation>
    </message>
    <message>
        <source>q·k at d = %1 (%2 runs × %3 keys)</source>
        <translation>d = %1 时的 q·k（%2 次运行 × %3 个键）</translation>
    </message>
    <message>
        <source>score</source>
        <translation>分数</translation>
    </message>
    <message>
        <source>count</source>
        <translation>计数</translation>
    </message>
    <message>
        <source>Row entropy on the sentence (layer 1, head %1)</source>
        <translation>句子上各行的熵（第 1 层，第 %1 头）</translation>
    </message>
    <message>
        <source>entropy (nats)</source>
        <translation>熵（奈特）</translation>
    </message>
    <message>
        <source>with 1/√d_k (÷%1)</source>
        <translation>乘以 1/√d_k（÷%1）</translation>
    </message>
    <message>
        <source>without scaling</source>
        <translation>不缩放</translation>
    </message>
</context>
<context>
    <name>attnscope::SessionMenu</name>
    <message>
        <source>Save s&amp;ession…</source>
        <translation>保存会话(&amp;E)…</translation>
    </message>
    <message>
        <source>Open sess&amp;ion…</source>
        <translation>打开会话(&amp;I)…</translation>
    </message>
    <message>
        <source>Save session</source>
        <translation>保存会话</translation>
    </message>
    <message>
        <source>AttnScope sessions (*.json)</source>
        <translation>AttnScope 会话 (*.json)</translation>
    </message>
    <message>
        <source>Open session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <source>AttnScope sessions (*.json);;All files (*)</source>
        <translation>AttnScope 会话 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>The session could not be saved</source>
        <translation>无法保存会话</translation>
    </message>
    <message>
        <source>Save the lesson to a file first: a session names the file it opens.</source>
        <translation>请先把课程保存为文件：会话要记下它打开的文件。</translation>
    </message>
    <message>
        <source>The session could not be opened</source>
        <translation>无法打开会话</translation>
    </message>
    <message>
        <source>%1

What is open stays.</source>
        <translation>%1

当前打开的内容保持不变。</translation>
    </message>
    <message>
        <source>%1 changed on disk since the session was saved: %2. It was opened as it is now; numbers may differ from the saved figure.</source>
        <translation>%1 在保存会话之后已在磁盘上改变：%2。已按其当前内容打开；数字可能与保存时的图不同。</translation>
    </message>
    <message>
        <source>The session&apos;s source changed</source>
        <translation>会话的来源已改变</translation>
    </message>
</context>
<context>
    <name>attnscope::StageBar</name>
    <message>
        <source>Stage:</source>
        <translation>阶段：</translation>
    </message>
    <message>
        <source>1. Encoder: self-attention over the source (output M)</source>
        <translation>1. 编码器：对源句的自注意力（输出 M）</translation>
    </message>
    <message>
        <source>2. Decoder: masked self-attention (output Y₁)</source>
        <translation>2. 解码器：掩码自注意力（输出 Y₁）</translation>
    </message>
    <message>
        <source>3. Decoder: cross-attention to M, output head and labels</source>
        <translation>3. 解码器：对 M 的交叉注意力、输出头与标签</translation>
    </message>
    <message>
        <source>Every view shows the chosen stage of the encoder–decoder</source>
        <translation>所有视图都显示编码器–解码器中选定的阶段</translation>
    </message>
    <message>
        <source>Teacher forcing: each position is scored on the word after its input word</source>
        <translation>教师强制：每个位置都按其输入词之后的那个词打分</translation>
    </message>
</context>
<context>
    <name>attnscope::StepNavigator</name>
    <message>
        <source>◀ Previous</source>
        <translation>◀ 上一步</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>下一步 ▶</translation>
    </message>
    <message>
        <source>Previous step (Left arrow)</source>
        <translation>上一步（左方向键）</translation>
    </message>
    <message>
        <source>Next step (Right arrow)</source>
        <translation>下一步（右方向键）</translation>
    </message>
    <message>
        <source>Head:</source>
        <translation>头：</translation>
    </message>
    <message>
        <source>&lt;b&gt;Steps&lt;/b&gt;</source>
        <translation>&lt;b&gt;步骤&lt;/b&gt;</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>第 %1 头</translation>
    </message>
</context>
<context>
    <name>attnscope::SynthesizerPanel</name>
    <message>
        <source>&lt;b&gt;The point:&lt;/b&gt; Random ignores the tokens entirely (the same picture for every sentence), Dense looks at each token alone (a row depends only on its own token), and only the dot product compares tokens with each other.</source>
        <translation>&lt;b&gt;要点：&lt;/b&gt;Random（随机）完全不看词元（每个句子的图都一样），Dense（稠密）只单独看每个词元（一行只取决于它自己的词元），只有点积才会把词元彼此进行比较。</translation>
    </message>
    <message>
        <source>Weights after softmax on the sentence; dot product from layer 1, head</source>
        <translation>句子上 softmax 之后的权重；点积取自第 1 层，头</translation>
    </message>
    <message>
        <source>Synthesizer weights: ℓ = %1, a = %2, r = %3, seed</source>
        <translation>Synthesizer 权重：ℓ = %1，a = %2，r = %3，种子</translation>
    </message>
    <message>
        <source>Mixture α:</source>
        <translation>混合系数 α：</translation>
    </message>
    <message>
        <source>This lesson&apos;s d_model is %1; the synthesizer draws a d×d weight matrix and runs lessons up to d_model %2.</source>
        <translation>本课程的 d_model 为 %1；Synthesizer 会生成一个 d×d 的权重矩阵，只能运行 d_model 不超过 %2 的课程。</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>α = (%1)</source>
        <translation>α = (%1)</translation>
    </message>
    <message>
        <source>Dot product</source>
        <translation>点积</translation>
    </message>
    <message>
        <source>Dense</source>
        <translation>Dense（稠密）</translation>
    </message>
    <message>
        <source>Random</source>
        <translation>Random（随机）</translation>
    </message>
    <message>
        <source>Factorized Dense</source>
        <translation>Factorized Dense（分解稠密）</translation>
    </message>
    <message>
        <source>Factorized Random</source>
        <translation>Factorized Random（分解随机）</translation>
    </message>
</context>
<context>
    <name>attnscope::ThemeSwitcher</name>
    <message>
        <source>%1: the saved theme &quot;%2&quot; is not light, dark or system; following the system</source>
        <translation>%1：保存的主题“%2”不是 light、dark 或 system；改为跟随系统</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
    <message>
        <source>Follow the &amp;system</source>
        <translation>跟随系统(&amp;S)</translation>
    </message>
</context>
<context>
    <name>attnscope::TokenFocusBar</name>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Show only this token&apos;s lines (its position, from 1)</source>
        <translation>只显示此词元的连线（位置，从 1 起）</translation>
    </message>
    <message>
        <source>Find a token…</source>
        <translation>查找词元…</translation>
    </message>
    <message>
        <source>Enter: focus the next token containing this text</source>
        <translation>回车：聚焦下一个包含此文本的词元</translation>
    </message>
    <message>
        <source>Clear focus</source>
        <translation>取消聚焦</translation>
    </message>
    <message>
        <source>Show every token&apos;s lines again (Esc)</source>
        <translation>重新显示所有词元的连线（Esc）</translation>
    </message>
    <message>
        <source>Focus token:</source>
        <translation>聚焦词元：</translation>
    </message>
    <message>
        <source>Matches: %1</source>
        <translation>匹配：%1</translation>
    </message>
</context>
<context>
    <name>attnscope::TokenStrip</name>
    <message>
        <source>not in the lesson&apos;s table: this lesson gives such words zero vectors</source>
        <translation>不在课程的表中：本课程给这样的词零向量</translation>
    </message>
    <message>
        <source>vector from the lesson&apos;s embedding table</source>
        <translation>向量取自课程的嵌入表</translation>
    </message>
    <message>
        <source>not in the lesson&apos;s table: its vector comes from the hash rule (fnv1a32 mod 5 − 2)</source>
        <translation>不在课程的嵌入表中：其向量由哈希规则生成（fnv1a32 mod 5 − 2）</translation>
    </message>
    <message>
        <source>token %1 “%2”: %3</source>
        <translation>词元 %1“%2”：%3</translation>
    </message>
    <message>
        <source>token %1 “%2”: vocabulary piece “%3”</source>
        <translation>词元 %1“%2”：词表子词“%3”</translation>
    </message>
    <message>
        <source>Holds the first bytes of a character that token %1 shows.</source>
        <translation>含有一个字符的前几个字节，该字符显示在词元 %1 上。</translation>
    </message>
    <message>
        <source>Not valid text alone: these bytes form no whole character here.</source>
        <translation>单独不是有效文本：这些字节在此处不构成完整的字符。</translation>
    </message>
</context>
<context>
    <name>attnscope::WordLevelSwitch</name>
    <message>
        <source>Attention between &amp;words</source>
        <translation>词之间的注意力(&amp;W)</translation>
    </message>
    <message>
        <source>Heatmap, model view, head view and Coreference between words instead of tokens: attention to a word is the sum over its tokens, from a word the mean</source>
        <translation>热力图、模型视图、头视图和共指以词而非词元显示：指向一个词的注意力是其各词元之和，来自一个词的注意力是其各词元的平均</translation>
    </message>
</context>
<context>
    <name>attnscope::WorkedExample</name>
    <message>
        <source>A: %1</source>
        <translation>A：%1</translation>
    </message>
    <message>
        <source>running sum of the first %1 of %2 = %3</source>
        <translation>前 %1 项（共 %2 项）之和 = %3</translation>
    </message>
    <message>
        <source>B: %1</source>
        <translation>B：%1</translation>
    </message>
    <message>
        <source>This token has no partner in B (left out by the alignment).</source>
        <translation>该词元在 B 中没有对应项（对齐时被略去）。</translation>
    </message>
</context>
<context>
    <name>cli</name>
    <message>
        <source>Built-in lesson NAME, a lesson FILE, or inline lesson JSON.</source>
        <translation>内置课程名 NAME、课程文件 FILE，或内联的课程 JSON。</translation>
    </message>
    <message>
        <source>A pretrained model: a FOLDER (config.json, model.safetensors, tokenizer files) or a Hugging Face id found in the local cache (e.g. bert-base-uncased).</source>
        <translation>预训练模型：一个文件夹 FOLDER（含 config.json、model.safetensors 和分词器文件），或本地缓存中的 Hugging Face 模型 ID（例如 bert-base-uncased）。</translation>
    </message>
    <message>
        <source>Only this layer (1 = first). Models: default the last for text, all for json; lessons: default every layer (the last for --export-png).</source>
        <translation>只输出这一层（1 = 第一层）。模型：text 格式默认最后一层，json 格式默认所有层；课程：默认每一层（--export-png 时为最后一层）。</translation>
    </message>
    <message>
        <source>Models: how many predicted tokens to list (default 5).</source>
        <translation>模型：列出多少个预测词元（默认 5）。</translation>
    </message>
    <message>
        <source>The sentence to run (default: the lesson&apos;s own).</source>
        <translation>要运行的句子（默认：课程自带的句子）。</translation>
    </message>
    <message>
        <source>Print the matrices instead of opening a window.</source>
        <translation>打印矩阵，而不是打开窗口。</translation>
    </message>
    <message>
        <source>Only this step: embedding, positional, x, q, k, v, scores, scaled_scores, mask, masked_scores, weights, weighted_sum, concat, output, w_q, w_k, w_v, w_o; after attention (lessons with a block): residual, norm, ffn_gate, ffn_hidden, ffn_activated, ffn_output, residual_ffn, final_norm, logits, next_word, w_gate, w_1, w_2, w_vocab.</source>
        <translation>只输出这个步骤：embedding、positional、x、q、k、v、scores、scaled_scores、mask、masked_scores、weights、weighted_sum、concat、output、w_q、w_k、w_v、w_o；注意力之后（含 block 的课程）：residual、norm、ffn_gate、ffn_hidden、ffn_activated、ffn_output、residual_ffn、final_norm、logits、next_word、w_gate、w_1、w_2、w_vocab。</translation>
    </message>
    <message>
        <source>Only this head (1 = first).</source>
        <translation>只输出这个头（1 = 第一个）。</translation>
    </message>
    <message>
        <source>Decimals shown (default: the lesson&apos;s).</source>
        <translation>显示的小数位数（默认：课程的设置）。</translation>
    </message>
    <message>
        <source>Round every intermediate to N decimals, as by hand.</source>
        <translation>像手算一样，把每个中间结果舍入到 N 位小数。</translation>
    </message>
    <message>
        <source>Ignore the lesson&apos;s hand-rounding setting.</source>
        <translation>忽略课程的手算舍入设置。</translation>
    </message>
    <message>
        <source>Text and Markdown: add each cell&apos;s explanation (a worksheet).</source>
        <translation>text 和 Markdown 格式：附上每个单元格的讲解（即一份练习单）。</translation>
    </message>
    <message>
        <source>Write the attention heatmaps (all heads) to a PNG file.</source>
        <translation>把注意力热力图（所有头）写入 PNG 文件。</translation>
    </message>
    <message>
        <source>List the built-in lessons.</source>
        <translation>列出内置课程。</translation>
    </message>
    <message>
        <source>Interface language: zh_CN (Simplified Chinese) or en (default: the system locale).</source>
        <translation>界面语言：zh_CN（简体中文）或 en（英语）（默认：系统区域设置）。</translation>
    </message>
    <message>
        <source>attnscope coref: which earlier word a pronoun attends to.
attnscope heads: every head&apos;s antecedent accuracy on a coreference set, or head statistics.</source>
        <translation>attnscope coref：代词关注的是前面哪个词。
attnscope heads：每个头在共指数据集上的先行词准确率，或注意力头统计。</translation>
    </message>
    <message>
        <source>coref or heads</source>
        <translation>coref 或 heads</translation>
    </message>
    <message>
        <source>A pretrained model: a FOLDER or a Hugging Face id in the local cache.</source>
        <translation>预训练模型：一个文件夹 FOLDER，或本地缓存中的 Hugging Face 模型 ID。</translation>
    </message>
    <message>
        <source>The sentence (default: the lesson&apos;s own).</source>
        <translation>句子（默认：课程自带的句子）。</translation>
    </message>
    <message>
        <source>coref: the mean of these heads, LAYER:HEAD pairs counted from 1, e.g. 5:4,6:1.</source>
        <translation>coref：这些头的平均，格式为 层:头 对，从 1 开始计数，例如 5:4,6:1。</translation>
    </message>
    <message>
        <source>coref: the mean of every head of this layer (1 = first).</source>
        <translation>coref：这一层所有头的平均（1 = 第一层）。</translation>
    </message>
    <message>
        <source>coref: attention rollout through every layer (the default).</source>
        <translation>coref：贯穿所有层的注意力展开（默认）。</translation>
    </message>
    <message>
        <source>coref: resolve this word (WORD or WORD#N for its N-th occurrence) instead of every pronoun.</source>
        <translation>coref：消解这个词（WORD，或 WORD#N 表示它第 N 次出现），而不是每个代词。</translation>
    </message>
    <message>
        <source>Let words after the mention be candidates too.</source>
        <translation>指称之后的词也作为候选。</translation>
    </message>
    <message>
        <source>heads: a coreference set (JSON lines, see docs/coreference.md).</source>
        <translation>heads：一个共指数据集（JSON Lines 格式，见 docs/coreference.md）。</translation>
    </message>
    <message>
        <source>heads: print entropy and attention shares of every head on --sentence.</source>
        <translation>heads：打印每个头在 --sentence 上的熵和注意力占比。</translation>
    </message>
    <message>
        <source>heads: print only the N best heads of the ranking.</source>
        <translation>heads：只打印排名中最好的 N 个头。</translation>
    </message>
    <message>
        <source>Decimals shown in text (default 3).</source>
        <translation>text 格式显示的小数位数（默认 3）。</translation>
    </message>
    <message>
        <source>Switch these heads off (LAYER:HEAD, counted from 1, comma-separated, e.g. 1:2,2:1), as Hugging Face&apos;s head_mask: their weights are shown, their output is zero.</source>
        <translation>关闭这些头（层:头，从 1 开始计数，以逗号分隔，例如 1:2,2:1），与 Hugging Face 的 head_mask 相同：仍显示它们的权重，但其输出为零。</translation>
    </message>
    <message>
        <source>heads --stats: the statistics over a text FILE, one sentence a line (blank lines skipped).</source>
        <translation>heads --stats：改为在文本文件 FILE 上统计（每行一句，跳过空行）。</translation>
    </message>
    <message>
        <source>heads --corpus: read at most N sentences (default 10000).</source>
        <translation>heads --corpus：最多读取 N 句（默认 10000）。</translation>
    </message>
    <message>
        <source>heads --corpus: skip sentences longer than N tokens (default 512).</source>
        <translation>heads --corpus：跳过超过 N 个词元的句子（默认 512）。</translation>
    </message>
    <message>
        <source>attnscope qk: one head&apos;s queries and keys projected together to 2-D (AttentionViz&apos;s normalisation, then PCA).</source>
        <translation>attnscope qk：把一个注意力头的查询和键一起投影到二维（先做 AttentionViz 的归一化，再做 PCA）。</translation>
    </message>
    <message>
        <source>qk</source>
        <translation>qk</translation>
    </message>
    <message>
        <source>A text file: every non-empty line is a sentence (at most 1000 are read).</source>
        <translation>文本文件：每个非空行是一个句子（最多读取 1000 行）。</translation>
    </message>
    <message>
        <source>The layer (1 = first).</source>
        <translation>层（1 = 第一层）。</translation>
    </message>
    <message>
        <source>The head (1 = first).</source>
        <translation>头（1 = 第一个）。</translation>
    </message>
    <message>
        <source>pca (default) or tsne (exact t-SNE of the same normalised points, at most 2000).</source>
        <translation>pca（默认）或 tsne（对同样归一化后的点做精确 t-SNE，最多 2000 个点）。</translation>
    </message>
    <message>
        <source>t-SNE: the effective number of neighbours (default 30, at most (points - 1) / 3).</source>
        <translation>t-SNE：有效邻居数，即困惑度（默认 30，至多 (点数 - 1) / 3）。</translation>
    </message>
    <message>
        <source>t-SNE: the seed of its random start (default 1).</source>
        <translation>t-SNE：随机初始位置的种子（默认 1）。</translation>
    </message>
    <message>
        <source>json (default) or csv.</source>
        <translation>json（默认）或 csv。</translation>
    </message>
    <message>
        <source>Write to FILE (atomically) instead of standard output.</source>
        <translation>写入 FILE（原子写入），而不是标准输出。</translation>
    </message>
    <message>
        <source>--step: unknown step &quot;%1&quot; (see --help)</source>
        <translation>--step：未知的步骤“%1”（见 --help）</translation>
    </message>
    <message>
        <source>--model and --lesson exclude each other: give one</source>
        <translation>--model 与 --lesson 互斥：只能给出一个</translation>
    </message>
    <message>
        <source>--top-k applies to --model runs only</source>
        <translation>--top-k 只适用于 --model 运行</translation>
    </message>
    <message>
        <source>--model needs --sentence TEXT</source>
        <translation>--model 需要 --sentence TEXT</translation>
    </message>
    <message>
        <source>unexpected argument &quot;%1&quot; (options start with --; see --help)</source>
        <translation>意外的参数“%1”（选项以 -- 开头；见 --help）</translation>
    </message>
    <message>
        <source>--format expects text or json, got &quot;%1&quot;</source>
        <translation>--format 应为 text 或 json，实际为“%1”</translation>
    </message>
    <message>
        <source>needs --model FOLDER|ID or --lesson NAME|FILE</source>
        <translation>需要 --model FOLDER|ID 或 --lesson NAME|FILE</translation>
    </message>
    <message>
        <source>needs --sentence TEXT</source>
        <translation>需要 --sentence TEXT</translation>
    </message>
    <message>
        <source>expected LAYER:HEAD pairs like 5:4,6:1, got &quot;%1&quot;</source>
        <translation>应为 LAYER:HEAD 对（例如 5:4,6:1），实际为“%1”</translation>
    </message>
    <message>
        <source>expected layers 1 to %1 and heads 1 to %2, got &quot;%3&quot;</source>
        <translation>应为第 1 到 %1 层、第 1 到 %2 头，实际为“%3”</translation>
    </message>
    <message>
        <source>give one of --heads, --layer and --rollout</source>
        <translation>--heads、--layer 和 --rollout 只能给出一个</translation>
    </message>
    <message>
        <source>expected LAYER:HEAD pairs like 5:4,6:1, got nothing</source>
        <translation>应为 LAYER:HEAD 对（例如 5:4,6:1），实际什么也没有</translation>
    </message>
    <message>
        <source>expected WORD or WORD#N, got &quot;%1&quot;</source>
        <translation>应为 WORD 或 WORD#N，实际为“%1”</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a word of the sentence (its words: %2)</source>
        <translation>“%1”不是句子中的词（句子的词：%2）</translation>
    </message>
    <message>
        <source>evaluating: %1/%2</source>
        <translation>评估中：%1/%2</translation>
    </message>
    <message>
        <source>sentences: %1/%2, about %3 s left</source>
        <translation>句子：%1/%2，约剩 %3 秒</translation>
    </message>
    <message>
        <source>needs --stats (heads --corpus FILE --stats)</source>
        <translation>需要 --stats（heads --corpus FILE --stats）</translation>
    </message>
    <message>
        <source>expected text, json or csv, got &quot;%1&quot;</source>
        <translation>应为 text、json 或 csv，实际为“%1”</translation>
    </message>
    <message>
        <source>heads needs --coref-set FILE or --stats</source>
        <translation>heads 需要 --coref-set FILE 或 --stats</translation>
    </message>
    <message>
        <source>expected one command (coref or heads), got %1</source>
        <translation>应为一个命令（coref 或 heads），实际为 %1</translation>
    </message>
    <message>
        <source>attnscope compare: the same heads&apos; attention in two sentences (A: --sentence, B: --sentence-b), tokens aligned by position when both have as many, else by word, and the difference A − B.</source>
        <translation>attnscope compare：同一组注意力头在两个句子中的注意力（A：--sentence，B：--sentence-b），词元数相同时按位置对齐，否则按词对齐，并给出差值 A − B。</translation>
    </message>
    <message>
        <source>compare</source>
        <translation>compare</translation>
    </message>
    <message>
        <source>The second sentence (B).</source>
        <translation>第二个句子（B）。</translation>
    </message>
    <message>
        <source>The layer (1 = first; default: the last).</source>
        <translation>层（1 = 第一层；默认：最后一层）。</translation>
    </message>
    <message>
        <source>Only this head (1 = first; default: every head of the layer).</source>
        <translation>只看这个头（1 = 第一个；默认：该层的每个头）。</translation>
    </message>
    <message>
        <source>Switch these heads off in both runs (LAYER:HEAD, counted from 1, comma-separated).</source>
        <translation>在两次运行中都关闭这些头（层:头，从 1 开始计数，逗号分隔）。</translation>
    </message>
    <message>
        <source>text (default), json or csv.</source>
        <translation>text（默认）、json 或 csv。</translation>
    </message>
    <message>
        <source>Text: decimals shown (default 3).</source>
        <translation>文本：显示的小数位数（默认 3）。</translation>
    </message>
    <message>
        <source>expected at least one non-empty line (one sentence per line), found none</source>
        <translation>应至少有一个非空行（每行一个句子），实际没有</translation>
    </message>
    <message>
        <source>%1: read the first %2 sentences (the cap), left %3 more</source>
        <translation>%1：只读取了前 %2 个句子（上限），其余 %3 个未读</translation>
    </message>
    <message>
        <source>needs --sentence TEXT or --corpus FILE</source>
        <translation>需要 --sentence TEXT 或 --corpus FILE</translation>
    </message>
    <message>
        <source>line %1</source>
        <translation>第 %1 行</translation>
    </message>
    <message>
        <source>running: %1/%2</source>
        <translation>运行中：%1/%2</translation>
    </message>
    <message>
        <source>qk needs --layer L and --head H (counted from 1)</source>
        <translation>qk 需要 --layer L 和 --head H（从 1 开始数）</translation>
    </message>
    <message>
        <source>--layout expects pca or tsne, got &quot;%1&quot;</source>
        <translation>--layout 应为 pca 或 tsne，实际为“%1”</translation>
    </message>
    <message>
        <source>--perplexity and --seed need --layout tsne</source>
        <translation>--perplexity 和 --seed 需要 --layout tsne</translation>
    </message>
    <message>
        <source>--perplexity expects a number, got &quot;%1&quot;</source>
        <translation>--perplexity 应为数字，实际为“%1”</translation>
    </message>
    <message>
        <source>qk expects options only, got %1</source>
        <translation>qk 只接受选项，实际还有 %1</translation>
    </message>
    <message>
        <source>--format expects json or csv, got &quot;%1&quot;</source>
        <translation>--format 应为 json 或 csv，实际为“%1”</translation>
    </message>
    <message>
        <source>standard output could not be written: %1</source>
        <translation>无法写入标准输出：%1</translation>
    </message>
    <message>
        <source>--%1 expects a whole number from %2 to %3, got &quot;%4&quot;</source>
        <translation>--%1 应为 %2 到 %3 之间的整数，实际为“%4”</translation>
    </message>
    <message>
        <source>give either %1 or %2, not both</source>
        <translation>%1 和 %2 只能给出一个</translation>
    </message>
    <message>
        <source>--lang expects zh_CN or en, got &quot;%1&quot;</source>
        <translation>--lang 应为 zh_CN 或 en，实际为“%1”</translation>
    </message>
    <message>
        <source>command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>compare needs --model FOLDER|ID or --lesson NAME|FILE</source>
        <translation>compare 需要 --model FOLDER|ID 或 --lesson NAME|FILE</translation>
    </message>
    <message>
        <source>compare needs --sentence TEXT (sentence A)</source>
        <translation>compare 需要 --sentence TEXT（句子 A）</translation>
    </message>
    <message>
        <source>compare needs --sentence-b TEXT (sentence B)</source>
        <translation>compare 需要 --sentence-b TEXT（句子 B）</translation>
    </message>
    <message>
        <source>compare expects options only, got %1</source>
        <translation>compare 只接受选项，实际还有 %1</translation>
    </message>
    <message>
        <source>--format expects text, json or csv, got &quot;%1&quot;</source>
        <translation>--format 应为 text、json 或 csv，实际为“%1”</translation>
    </message>
    <message>
        <source>Matrix-product kernels: auto (default: the best this CPU runs), openblas (its own choice), avx512, avx2 or sse3. Also ATTNSCOPE_KERNELS=NAME.</source>
        <translation>矩阵乘法内核：auto（默认：本 CPU 能运行的最佳内核）、openblas（由 OpenBLAS 自行选择）、avx512、avx2 或 sse3。也可用 ATTNSCOPE_KERNELS=NAME 指定。</translation>
    </message>
    <message>
        <source>Print which BLAS kernels run and why, then exit.</source>
        <translation>打印正在使用的 BLAS 内核及其选择依据，然后退出。</translation>
    </message>
    <message>
        <source>--layers: models print several layers as json or csv (text and markdown: --layer)</source>
        <translation>--layers：模型只能以 json 或 csv 输出多层（text 和 markdown 请用 --layer）</translation>
    </message>
    <message>
        <source>--output needs --print</source>
        <translation>--output 需要与 --print 同用</translation>
    </message>
    <message>
        <source>%1: an empty list (give numbers counted from 1, e.g. 1,3-5)</source>
        <translation>%1：列表为空（请给出从 1 开始计数的编号，例如 1,3-5）</translation>
    </message>
    <message>
        <source>--steps: unknown step &quot;%1&quot; (see --help)</source>
        <translation>--steps：未知步骤“%1”（见 --help）</translation>
    </message>
    <message>
        <source>Only these layers, counted from 1 (e.g. 1,3-5): json, csv, text and markdown.</source>
        <translation>只输出这些层，从 1 开始计数（例如 1,3-5）：适用于 json、csv、text 和 markdown。</translation>
    </message>
    <message>
        <source>Only these heads, counted from 1 (e.g. 2,7).</source>
        <translation>只输出这些头，从 1 开始计数（例如 2,7）。</translation>
    </message>
    <message>
        <source>Only these steps, comma-separated, named as for --step.</source>
        <translation>只输出这些步骤，以逗号分隔，名称同 --step。</translation>
    </message>
    <message>
        <source>With --print: write to FILE instead of standard output (replaced only once everything was written).</source>
        <translation>与 --print 同用：写入 FILE 而非标准输出（全部写完后才替换该文件）。</translation>
    </message>
    <message>
        <source>--steps: an empty list (give step names as for --step)</source>
        <translation>--steps：列表为空（请给出步骤名称，同 --step）</translation>
    </message>
    <message>
        <source>standard output</source>
        <translation>标准输出</translation>
    </message>
    <message>
        <source>%1 expects one of %2, got &quot;%3&quot;</source>
        <translation>%1 应为 %2 之一，实际为“%3”</translation>
    </message>
    <message>
        <source>%1 %2: this CPU cannot run these kernels (its features: %3)</source>
        <translation>%1 %2：此 CPU 无法运行这些内核（其特性：%3）</translation>
    </message>
    <message>
        <source>BLAS: none (this build uses Eigen for every product)
</source>
        <translation>BLAS：无（此版本的所有矩阵乘法都使用 Eigen）
</translation>
    </message>
    <message>
        <source>OPENBLAS_CORETYPE, set by you</source>
        <translation>你设置的 OPENBLAS_CORETYPE</translation>
    </message>
    <message>
        <source>OpenBLAS&apos;s own detection</source>
        <translation>OpenBLAS 自身的检测</translation>
    </message>
    <message>
        <source>AttnScope, from the CPU&apos;s features (auto)</source>
        <translation>AttnScope 根据 CPU 特性（auto）</translation>
    </message>
    <message>
        <source>BLAS: %1
Kernels: %2 (chosen by %3)
CPU features: %4
Choose with --kernels NAME or ATTNSCOPE_KERNELS=NAME: %5
</source>
        <translation>BLAS：%1
内核：%2（由 %3 选择）
CPU 特性：%4
可用 --kernels NAME 或 ATTNSCOPE_KERNELS=NAME 选择：%5
</translation>
    </message>
    <message>
        <source>text (default), json, csv, markdown or npy (a NumPy .npz of every matrix, with --output).</source>
        <translation>text（默认）、json、csv、markdown 或 npy（含每个矩阵的 NumPy .npz 文件，需配合 --output）。</translation>
    </message>
    <message>
        <source>--format expects text, json, csv, markdown or npy, got &quot;%1&quot;</source>
        <translation>--format 应为 text、json、csv、markdown 或 npy，而不是“%1”</translation>
    </message>
    <message>
        <source>--format npy writes a binary .npz file: give --output FILE</source>
        <translation>--format npy 会写出二进制 .npz 文件：请用 --output FILE 指定文件</translation>
    </message>
    <message>
        <source>--export-png writes PNG only: name the file .png, not .%1</source>
        <translation>--export-png 只写 PNG：文件名应以 .png 结尾，而不是 .%1</translation>
    </message>
    <message>
        <source>Put a table copied from a blog or a textbook into the lesson before the run: lines such as cat=[1,0,1], a Markdown or tab-separated table, W_Q = and its rows.</source>
        <translation>运行前把从博客或教科书复制的表格放入课程：如 笔=[1,2,1] 的行、Markdown 表格或以制表符分隔的表格、W_Q = 及其各行。</translation>
    </message>
    <message>
        <source>--paste applies to lessons only</source>
        <translation>--paste 只适用于课程</translation>
    </message>
    <message>
        <source>Models: attention weights between words instead of tokens (to a word: the sum over its tokens, from a word: the mean; Chinese split into words by ICU). Text, csv, markdown and --export-png.</source>
        <translation>模型：词之间而非词元之间的注意力权重（指向一个词：其各词元之和；来自一个词：其各词元的平均；中文按词典分词）。适用于 text、csv、markdown 和 --export-png。</translation>
    </message>
    <message>
        <source>--words applies to --model runs only (a lesson&apos;s tokens are words already)</source>
        <translation>--words 只用于 --model 运行（课程的词元本来就是词）</translation>
    </message>
    <message>
        <source>--words prints text, csv or markdown</source>
        <translation>--words 只输出 text、csv 或 markdown</translation>
    </message>
    <message>
        <source>an encoder-decoder lesson prints its stages as text or markdown (--format)</source>
        <translation>编码器–解码器课程的各阶段只能输出为 text 或 markdown（--format）</translation>
    </message>
    <message>
        <source>--words shows attention weights only (no --step other than weights, --steps or --explain)</source>
        <translation>--words 只显示注意力权重（不可与 weights 以外的 --step、--steps 或 --explain 同用）</translation>
    </message>
    <message>
        <source>coref: score on attention between words (to a word: the sum over its tokens, from a word: the mean; Chinese split into words by ICU), so 它 can point to 马路, not 路.</source>
        <translation>coref：按词之间的注意力打分（指向一个词：其各词元之和；来自一个词：其各词元的平均；中文按词典分词），于是“它”可以指向“马路”而不是“路”。</translation>
    </message>
    <message>
        <source>heads --coref-set: bootstrap resamples of the examples for the 95% intervals (default 1000).</source>
        <translation>heads --coref-set：计算 95% 区间时对样例的自助法重采样次数（默认 1000）。</translation>
    </message>
    <message>
        <source>heads --coref-set: seed of the bootstrap and of --control&apos;s shuffle (default 1).</source>
        <translation>heads --coref-set：自助法和 --control 打乱权重所用的种子（默认 1）。</translation>
    </message>
    <message>
        <source>heads --coref-set: also evaluate a copy of the model with every tensor&apos;s weights shuffled, and show where its best head lands.</source>
        <translation>heads --coref-set：另外评估一个每个张量的权重都被打乱的模型副本，并显示其最佳头排在哪里。</translation>
    </message>
    <message>
        <source>text (default) or json; heads --coref-set and --corpus also csv.</source>
        <translation>text（默认）或 json；heads --coref-set 和 --corpus 还可用 csv。</translation>
    </message>
    <message>
        <source>needs --model (a lesson has no weights to shuffle)</source>
        <translation>需要 --model（课程没有可打乱的权重）</translation>
    </message>
    <message>
        <source>csv is for heads --coref-set or --corpus alone</source>
        <translation>csv 只用于单独的 heads --coref-set 或 --corpus</translation>
    </message>
    <message>
        <source>needs --coref-set FILE</source>
        <translation>需要 --coref-set FILE</translation>
    </message>
    <message>
        <source>Switch these heads off in every run (LAYER:HEAD, counted from 1, comma-separated).</source>
        <translation>在每次运行中关闭这些头（层:头，从 1 开始计数，用逗号分隔）。</translation>
    </message>
    <message>
        <source>heads: write to FILE (atomically) instead of standard output.</source>
        <translation>heads：写入文件 FILE（原子写入），而不是标准输出。</translation>
    </message>
    <message>
        <source>A session saved by the window (File ▸ Save session): its model or lesson, sentence, switched-off heads, layer and head, unless given here too.</source>
        <translation>窗口保存的会话（文件 ▸ 保存会话）：其模型或课程、句子、关闭的头、层和头，除非在此处也给出。</translation>
    </message>
    <message>
        <source>%1 changed on disk since the session was saved: %2; it runs as it is now</source>
        <translation>%1 在保存会话之后已在磁盘上改变：%2；按其当前内容运行</translation>
    </message>
    <message>
        <source>--session-file needs a session FILE (File ▸ Save session)</source>
        <translation>--session-file 需要一个会话文件 FILE（文件 ▸ 保存会话）</translation>
    </message>
    <message>
        <source>attnscope norms: each head&apos;s attention on the first and special tokens, by weight and by norm ‖α·f(x)‖.
attnscope lens: the logit lens, each layer&apos;s top tokens per position.
attnscope dla: each head&apos;s direct contribution to the predicted token&apos;s logit, beside switching it off.</source>
        <translation>attnscope norms：每个头落在第一个词元和特殊词元上的注意力，按权重和按范数 ‖α·f(x)‖ 计算。
attnscope lens：logit 透镜，每一层在每个位置的最可能词元。
attnscope dla：每个头对预测词元 logit 的直接贡献，以及关闭该头后的变化。</translation>
    </message>
    <message>
        <source>norms, lens or dla</source>
        <translation>norms、lens 或 dla</translation>
    </message>
    <message>
        <source>norms: one head&apos;s norm-weighted T×T matrix instead (LAYER:HEAD, counted from 1; JSON).</source>
        <translation>norms：改为输出一个头按范数加权的 T×T 矩阵（LAYER:HEAD，从 1 开始计数；JSON）。</translation>
    </message>
    <message>
        <source>lens: the K most likely tokens of each cell (default 5).</source>
        <translation>lens：每个单元格中最可能的 K 个词元（默认 5）。</translation>
    </message>
    <message>
        <source>dla: which prediction to attribute (1 = first; default 1).</source>
        <translation>dla：要归因的预测（1 = 第一个；默认 1）。</translation>
    </message>
    <message>
        <source>dla: leave out the ablation ranking (one run of the model per head).</source>
        <translation>dla：不做关闭头的排名（它对每个头运行一次模型）。</translation>
    </message>
    <message>
        <source>Switch these heads off in the run (LAYER:HEAD, counted from 1, comma-separated).</source>
        <translation>在这次运行中关闭这些头（LAYER:HEAD，从 1 开始计数，逗号分隔）。</translation>
    </message>
    <message>
        <source>%1 needs --model FOLDER|ID</source>
        <translation>%1 需要 --model FOLDER|ID</translation>
    </message>
    <message>
        <source>%1 needs a model&apos;s weights and output head; give --model</source>
        <translation>%1 需要模型的权重和输出头；请给出 --model</translation>
    </message>
    <message>
        <source>%1 needs --sentence TEXT</source>
        <translation>%1 需要 --sentence TEXT</translation>
    </message>
    <message>
        <source>expected LAYER:HEAD with layers 1 to %1 and heads 1 to %2, got &quot;%3&quot;</source>
        <translation>应为 LAYER:HEAD，层为 1 到 %1，头为 1 到 %2，实际为“%3”</translation>
    </message>
    <message>
        <source>is written as JSON; add --format json</source>
        <translation>以 JSON 格式写出；请加上 --format json</translation>
    </message>
    <message>
        <source>%1 expects options only, got %2</source>
        <translation>%1 只接受选项，实际得到 %2</translation>
    </message>
    <message>
        <source>--export-png: shade by weight × ‖value‖, the share of each weight&apos;s value vector through W_O (Kobayashi et al. 2020), instead of the weight, as the window&apos;s check box does.</source>
        <translation>--export-png：按“权重 × ‖值‖”着色，即每个权重所带的值向量经过 W_O 后所占的份额（Kobayashi 等，2020），而不是按权重本身，与窗口中的复选框相同。</translation>
    </message>
    <message>
        <source>--norms needs --export-png</source>
        <translation>--norms 需要与 --export-png 一起使用</translation>
    </message>
    <message>
        <source>--norms and --words exclude each other: the norms are of the tokens&apos; value vectors</source>
        <translation>--norms 与 --words 不能同时使用：范数是词元的值向量的范数</translation>
    </message>
    <message>
        <source>--out is not an option: write the output file as --output FILE</source>
        <translation>--out 不是选项：输出文件请写作 --output FILE</translation>
    </message>
    <message>
        <source>--output expects a file name, got nothing</source>
        <translation>--output 应为文件名，实际什么也没有</translation>
    </message>
    <message>
        <source>Compare weight × ‖value‖ (Kobayashi et al. 2020) instead of the weights: each row&apos;s shares of α·‖f(x)‖, as the Compare tab&apos;s colour scale.</source>
        <translation>对比权重 × ‖值‖（Kobayashi 等，2020）而不是权重：每行中 α·‖f(x)‖ 所占的比例，与“对比”页的颜色刻度相同。</translation>
    </message>
    <message>
        <source>Shaded by weight × ‖value‖ (Kobayashi et al. 2020): each cell is α·‖f(x)‖ as a share of its row, not the attention weight.</source>
        <translation>按权重 × ‖值‖ 着色（Kobayashi 等，2020）：每格是 α·‖f(x)‖ 占该行的比例，而不是注意力权重。</translation>
    </message>
    <message>
        <source>AttnScope: transformer self-attention, every number visible.
Subcommands, each with its own --help:
  coref     which earlier word a pronoun attends to
  heads     every head ranked on a coreference set, or head statistics
  qk        one head&apos;s queries and keys projected together to 2-D (PCA or t-SNE)
  compare   the same heads&apos; attention in two sentences, and the difference A − B
  norms     each head&apos;s attention by weight and by norm ‖α·f(x)‖ (first and special tokens)
  lens      the logit lens: each layer&apos;s most likely tokens, per position
  dla       each head&apos;s direct contribution to the predicted token&apos;s logit, beside switching it off
  movement  what attention did to each word (‖y − x‖, cos, its sources); one word in two sentences</source>
        <translation>AttnScope：Transformer 自注意力，每个数字都看得见。
子命令（各有自己的 --help）：
  coref     代词关注的是前面哪个词
  heads     在共指数据集上为每个注意力头排名，或注意力头统计
  qk        一个头的查询和键一起投影到二维（PCA 或 t-SNE）
  compare   同一些头在两个句子中的注意力，以及差值 A − B
  norms     每个头按权重和按范数 ‖α·f(x)‖ 计算的注意力（第一个词元和特殊词元）
  lens      logit 透镜：每一层在每个位置最可能的词元
  dla       每个头对预测词元 logit 的直接贡献，以及关闭该头后的变化
  movement  注意力对每个词做了什么（‖y − x‖、cos、它的来源）；同一个词在两个句子中</translation>
    </message>
    <message>
        <source>attnscope movement: what attention did to each word: its vector entering a layer (or the whole stack) and leaving it, ‖y − x‖, cos(x, y), and the source words of its new content, largest first.
With --sentence-b: the same word in two contexts, the cosine of its vectors layer by layer.</source>
        <translation>attnscope movement：注意力对每个词做了什么：它进入某一层（或整个层栈）和离开时的向量、‖y − x‖、cos(x, y)，以及它新内容的来源词，从大到小。
加 --sentence-b：同一个词在两个语境中，其向量逐层的余弦相似度。</translation>
    </message>
    <message>
        <source>movement</source>
        <translation>movement</translation>
    </message>
    <message>
        <source>The layer (1 = first; default: the whole stack, no sources).</source>
        <translation>层（1 = 第一层；默认：整个层栈，不列来源）。</translation>
    </message>
    <message>
        <source>Text: the K largest sources of each word (default 3).</source>
        <translation>文本：每个词最大的 K 个来源（默认 3）。</translation>
    </message>
    <message>
        <source>The second sentence (B): compare one word of each instead.</source>
        <translation>第二个句子（B）：改为比较两个句子中各一个词。</translation>
    </message>
    <message>
        <source>With --sentence-b: the token of sentence A (1 = first).</source>
        <translation>配合 --sentence-b：句子 A 中的词元（1 = 第一个）。</translation>
    </message>
    <message>
        <source>With --sentence-b: the token of sentence B (1 = first).</source>
        <translation>配合 --sentence-b：句子 B 中的词元（1 = 第一个）。</translation>
    </message>
    <message>
        <source>movement needs --%1 TEXT</source>
        <translation>movement 需要 --%1 TEXT</translation>
    </message>
    <message>
        <source>movement needs --model FOLDER|ID or --lesson NAME|FILE</source>
        <translation>movement 需要 --model FOLDER|ID 或 --lesson NAME|FILE</translation>
    </message>
    <message>
        <source>needs --sentence-b TEXT (the second sentence)</source>
        <translation>需要 --sentence-b TEXT（第二个句子）</translation>
    </message>
    <message>
        <source>--sentence-b needs --token-a I and --token-b J (1 = first)</source>
        <translation>--sentence-b 需要 --token-a I 和 --token-b J（1 = 第一个）</translation>
    </message>
    <message>
        <source>Products of BF16 weights: auto (default: in BF16 where the CPU has AMX-BF16, else float32), bf16 (in BF16 through oneDNN wherever the CPU has AVX512_BF16) or f32. Also ATTNSCOPE_PRODUCTS=NAME.</source>
        <translation>BF16 权重的矩阵乘积：auto（默认：CPU 有 AMX-BF16 时以 BF16 计算，否则用 float32）、bf16（只要 CPU 有 AVX512_BF16，就经由 oneDNN 以 BF16 计算）或 f32。也可用 ATTNSCOPE_PRODUCTS=NAME。</translation>
    </message>
    <message>
        <source>%1 bf16: this build has no oneDNN (libdnnl-dev); its products are float32</source>
        <translation>%1 bf16：此构建没有 oneDNN（libdnnl-dev），其矩阵乘积均为 float32</translation>
    </message>
    <message>
        <source>%1 bf16: this CPU cannot multiply in BF16 (it needs avx512bf16; its features: %2)</source>
        <translation>%1 bf16：此 CPU 无法以 BF16 计算矩阵乘积（需要 avx512bf16；其特性：%2）</translation>
    </message>
    <message>
        <source>bf16 through %1</source>
        <translation>bf16，经由 %1</translation>
    </message>
    <message>
        <source>f32 (each weight matrix widened to float32 in turn)</source>
        <translation>f32（每个权重矩阵依次扩展为 float32）</translation>
    </message>
    <message>
        <source>Products of BF16 weights: %1 (chosen by %2)
Choose with --products NAME or ATTNSCOPE_PRODUCTS=NAME: %3
</source>
        <translation>BF16 权重的矩阵乘积：%1（由 %2 选择）
可用 --products NAME 或 ATTNSCOPE_PRODUCTS=NAME 选择：%3
</translation>
    </message>
    <message>
        <source>Encoder-decoder lessons: only this stage, encoder, decoder_self or cross (the window&apos;s Stage box); --ablate then switches off its heads (a decoder stage has one layer: 1:H).</source>
        <translation>编码器–解码器课程：只看这一个阶段，encoder、decoder_self 或 cross（即窗口的“阶段”框）；此时 --ablate 关闭该阶段的头（解码器的阶段只有一层：1:H）。</translation>
    </message>
    <message>
        <source>Encoder-decoder lessons: the stage, encoder (default) or cross (B is another source: the same decoder rows looking at B&apos;s words); --layer, --head and --ablate name its heads.</source>
        <translation>编码器–解码器课程：阶段，encoder（默认）或 cross（B 是另一个源句：同样的解码器行看向 B 的词）；--layer、--head 和 --ablate 指的是该阶段的头。</translation>
    </message>
    <message>
        <source>Encoder-decoder lessons: the stage, encoder (default), decoder_self (each decoder row from Y₀ to Y₁) or cross (from Y₁ to Y₂: its sources are the source words).</source>
        <translation>编码器–解码器课程：阶段，encoder（默认）、decoder_self（每个解码器行从 Y₀ 到 Y₁）或 cross（从 Y₁ 到 Y₂：来源是源句的词）。</translation>
    </message>
    <message>
        <source>--stage applies to encoder-decoder lessons only (a model runs one stack)</source>
        <translation>--stage 只适用于编码器–解码器课程（模型只运行一个层栈）</translation>
    </message>
</context>
<context>
    <name>settings</name>
    <message>
        <source>%1; the settings are neither read nor saved this session</source>
        <translation>%1；本次会话既不读取也不保存设置</translation>
    </message>
</context>
</TS>
