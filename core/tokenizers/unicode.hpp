#pragma once
// Unicode character classes and mappings for the real tokenizers, answered from the generated
// tables (unicode_tables.cpp). Names follow the definitions the reference tokenizers use.
#include <string>

namespace attnscope::unicode {

bool isLetter(char32_t cp);           // \p{L}
bool isNumber(char32_t cp);           // \p{N}
bool isWhiteSpace(char32_t cp);       // \s of the GPT-2 regex: the Unicode White_Space property
bool isNonspacingMark(char32_t cp);   // Mn: what BERT's accent stripping drops

// BERT (Hugging Face BasicTokenizer) definitions.
bool isBertWhitespace(char32_t cp);   // space, \t, \n, \r or Zs
bool isBertControl(char32_t cp);      // C* except \t, \n, \r
bool isBertPunctuation(char32_t cp);  // ASCII 33-47, 58-64, 91-96, 123-126, or P*
bool isBertChineseChar(char32_t cp);  // the CJK ideograph blocks of _is_chinese_char

// Appends the full lower-case form of cp (one to three code points).
void appendLowercase(char32_t cp, std::u32string& out);
// Appends the canonical decomposition (NFD) of cp, Hangul syllables included.
void appendDecomposition(char32_t cp, std::u32string& out);

}  // namespace attnscope::unicode
