#pragma once
// What the multi-head views (ModelView, HeadView) show: a plain struct the window owns and
// passes in. The numbers behind each choice come from core/analysis/head_summary.hpp.

namespace attnscope {

struct AttentionViewOptions {
    // Hide [CLS], [SEP], <|endoftext|>, … (rows and columns). Kept rows then sum to < 1; the
    // views say so unless `renormalize` is on.
    bool hideSpecial = false;

    // PerHead: every head. Average / Max: the model view adds a column with the mean / maximum
    // over the layer's heads; the head view draws that one summary instead of the heads.
    enum Aggregate { PerHead, Average, Max } aggregate = PerHead;

    // Colour (model view) and line opacity (head view) map [0, max] onto the full range:
    // Fixed01 max = 1; SharedMax: the largest weight shown in the trace (model view) or the
    // layer (head view); PerHeadMax: each head's own largest weight.
    enum Scale { Fixed01, SharedMax, PerHeadMax } scale = Fixed01;

    // What shades a cell (or a line): the attention weight α_ij, or the norm-based share
    // α_ij·‖f(x_j)‖ / Σ_j α_ij·‖f(x_j)‖ (Kobayashi et al. 2020; core/analysis/norm_attention.hpp).
    // Norms: the Trace drawn already holds those shares as its weights (the window swaps it in).
    enum Weighting { Weights, Norms } weighting = Weights;

    // With hidden tokens: divide each kept row by its sum (labelled "renormalised").
    bool renormalize = false;

    // The Trace drawn is between words (View ▸ Attention between words): axes say "word".
    bool words = false;

    bool operator==(const AttentionViewOptions&) const = default;
};

}  // namespace attnscope
