#pragma once
// A synthetic trace with rows like bert-base's at long inputs, for the head view's tests, its
// benchmark (bench/head_view_bench.cpp) and the screenshot tour's 512-token pictures (no shipped
// model reads 512 tokens): each row a softmax of scores where [CLS] and [SEP] score
// high, a few neighbours (1 + head % 3 away) a little, the rest noise. Tokens are "[CLS]",
// "w1" … "w<T-2>", "[SEP]"; the first and last are special.
#include <cmath>
#include <random>
#include <string>

#include "core/trace/trace.hpp"

namespace attnscope {

inline Trace softmaxLikeTrace(int tokens, int heads, int layers = 1) {
    std::mt19937 rng(13);
    std::normal_distribution<double> noise(0.0, 0.5);
    Trace t;
    for (int i = 0; i < tokens; ++i) {
        const bool special = i == 0 || i == tokens - 1;
        t.tokens.push_back({i == 0 ? "[CLS]" : special ? "[SEP]" : "w" + std::to_string(i)});
        t.tokens.back().special = special;
    }
    for (int l = 0; l < layers; ++l) {
        LayerTrace layer;
        for (int h = 0; h < heads; ++h) {
            Mat w(tokens, tokens);
            for (int r = 0; r < tokens; ++r) {
                for (int c = 0; c < tokens; ++c) {
                    const bool edge = c == 0 || c == tokens - 1, near = std::abs(r - c) <= 1 + h % 3;
                    w(r, c) = std::exp((edge ? 5.0 : near ? 3.0 : 0.0) + noise(rng));
                }
                w.row(r) /= w.row(r).sum();
            }
            HeadTrace head;
            head.weights = std::move(w);
            layer.heads.push_back(std::move(head));
        }
        t.layers.push_back(std::move(layer));
    }
    return t;
}

}  // namespace attnscope
