#pragma once
// The closed word lists coreference uses, documented in docs/coreference.md: English and Chinese
// pronouns with number and gender, stop-words (never candidate antecedents), and the small noun
// heuristic of the rule baseline (plural "-s", short lists of male / female / person / animal /
// thing nouns). Lists, not a parser: a word is looked up by its lower-cased text.
#include <optional>
#include <string>
#include <string_view>

#include "core/text/language.hpp"

namespace attnscope {

// Grammatical number of a pronoun or a noun; Unknown agrees with anything.
enum class GrammaticalNumber { Singular, Plural, Unknown };

// What a pronoun may refer to (he → Male, it → NonHuman, this → Any).
enum class Referent { Male, Female, Human, NonHuman, Any };

// What the noun lists say a candidate word is.
enum class NounKind { Male, Female, Person, Animal, Thing, Unknown };

enum class PronounKind { Personal, Possessive, Reflexive, Demonstrative, Relative };

struct PronounInfo {
    std::string text;  // as listed, lower-case
    Language language = Language::English;
    PronounKind kind = PronounKind::Personal;
    GrammaticalNumber number = GrammaticalNumber::Unknown;
    Referent referent = Referent::Any;
};

struct NounInfo {
    NounKind kind = NounKind::Unknown;
    GrammaticalNumber number = GrammaticalNumber::Unknown;
    bool listed = false;  // found in one of the noun lists (the rule baseline prefers these)
};

// ASCII letters lower-cased; other bytes unchanged (enough for the lists, which are ASCII or CJK).
std::string lowercaseAscii(std::string_view text);

// The pronoun spelled `text` (any case), if it is on the lists.
std::optional<PronounInfo> pronounOf(std::string_view text);
// The longest pronoun has this many UTF-8 bytes (a search over word spans stops there).
std::size_t longestPronounBytes();

// True for documented stop-words: articles, prepositions, conjunctions, auxiliaries, pronouns,
// negation, contraction fragments ("t", "s", "didn"), Chinese particles and function characters.
bool isStopWord(std::string_view text);

// True when every code point is punctuation (Unicode P*, ASCII symbols) or white space, or the
// text is empty.
bool isPunctuationWord(std::string_view text);

// True when the text contains a CJK ideograph.
bool hasCjk(std::string_view text);

// The rule baseline's view of a candidate word (see docs/coreference.md "Noun heuristic").
NounInfo nounOf(std::string_view text);

// Whether a candidate with `noun` may be what `pronoun` refers to (number and gender).
bool agrees(const PronounInfo& pronoun, const NounInfo& noun);

std::string_view referentName(Referent referent);          // "male", "non-human", …
std::string_view numberName(GrammaticalNumber number);     // "singular", "plural", "unknown"
std::string_view nounKindName(NounKind kind);              // "male", "thing", …

}  // namespace attnscope
