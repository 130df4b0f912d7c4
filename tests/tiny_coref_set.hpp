#pragma once
// The six-line coreference set both the core and the Heads-tab tests evaluate on the tiny BERT
// (5 evaluated: one antecedent repeats the mention); its scores are worked out by hand in
// tests/core/test_coreference.cpp.
inline constexpr const char* kTinyCorefSet =
    R"({"sentence": "the cat sat on the mat and it ran", "mention": "it", "antecedent": "cat"})" "\n"
    R"({"sentence": "the dog sat by the tree and it ran", "mention": "it", "antecedent": "dog"})" "\n"
    R"({"sentence": "the cats sat on the mat and they ran", "mention": "they", "antecedent": "cats"})" "\n"
    R"({"sentence": "she read the book and it was red", "mention": "it", "antecedent": "book"})" "\n"
    R"({"sentence": "he sat by the river , then he ran", "mention": "he", "mention_occurrence": 2, "antecedent": "he"})" "\n"
    R"({"sentence": "the cat sat with two dogs and they ran", "mention": "they", "antecedent": "dogs"})" "\n";
