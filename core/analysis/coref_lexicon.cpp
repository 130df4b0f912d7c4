#include "core/analysis/coref_lexicon.hpp"

#include <algorithm>
#include <array>
#include <unordered_map>
#include <unordered_set>

#include "core/lesson/lesson_tokenizer.hpp"
#include "core/tokenizers/unicode.hpp"
#include "core/text/utf8.hpp"

namespace attnscope {

namespace {

using N = GrammaticalNumber;
using R = Referent;
using P = PronounKind;
using Lang = Language;

// Every list below is copied into docs/coreference.md; change both together.
const std::vector<PronounInfo>& pronounList() {
    static const std::vector<PronounInfo> list = {
        {"he", Lang::English, P::Personal, N::Singular, R::Male},
        {"him", Lang::English, P::Personal, N::Singular, R::Male},
        {"his", Lang::English, P::Possessive, N::Singular, R::Male},
        {"himself", Lang::English, P::Reflexive, N::Singular, R::Male},
        {"she", Lang::English, P::Personal, N::Singular, R::Female},
        {"her", Lang::English, P::Personal, N::Singular, R::Female},
        {"hers", Lang::English, P::Possessive, N::Singular, R::Female},
        {"herself", Lang::English, P::Reflexive, N::Singular, R::Female},
        {"it", Lang::English, P::Personal, N::Singular, R::NonHuman},
        {"its", Lang::English, P::Possessive, N::Singular, R::NonHuman},
        {"itself", Lang::English, P::Reflexive, N::Singular, R::NonHuman},
        {"they", Lang::English, P::Personal, N::Plural, R::Any},
        {"them", Lang::English, P::Personal, N::Plural, R::Any},
        {"their", Lang::English, P::Possessive, N::Plural, R::Any},
        {"theirs", Lang::English, P::Possessive, N::Plural, R::Any},
        {"themselves", Lang::English, P::Reflexive, N::Plural, R::Any},
        {"this", Lang::English, P::Demonstrative, N::Singular, R::Any},
        {"that", Lang::English, P::Demonstrative, N::Singular, R::Any},
        {"these", Lang::English, P::Demonstrative, N::Plural, R::Any},
        {"those", Lang::English, P::Demonstrative, N::Plural, R::Any},
        {"who", Lang::English, P::Relative, N::Unknown, R::Human},
        {"whom", Lang::English, P::Relative, N::Unknown, R::Human},
        {"whose", Lang::English, P::Relative, N::Unknown, R::Any},
        {"which", Lang::English, P::Relative, N::Unknown, R::NonHuman},
        {"他", Lang::Chinese, P::Personal, N::Singular, R::Male},
        {"她", Lang::Chinese, P::Personal, N::Singular, R::Female},
        {"它", Lang::Chinese, P::Personal, N::Singular, R::NonHuman},
        {"牠", Lang::Chinese, P::Personal, N::Singular, R::NonHuman},
        {"他们", Lang::Chinese, P::Personal, N::Plural, R::Human},
        {"她们", Lang::Chinese, P::Personal, N::Plural, R::Female},
        {"它们", Lang::Chinese, P::Personal, N::Plural, R::NonHuman},
        {"这", Lang::Chinese, P::Demonstrative, N::Unknown, R::Any},
        {"那", Lang::Chinese, P::Demonstrative, N::Unknown, R::Any},
        {"这个", Lang::Chinese, P::Demonstrative, N::Singular, R::Any},
        {"那个", Lang::Chinese, P::Demonstrative, N::Singular, R::Any},
        {"这些", Lang::Chinese, P::Demonstrative, N::Plural, R::Any},
        {"那些", Lang::Chinese, P::Demonstrative, N::Plural, R::Any},
        {"其", Lang::Chinese, P::Possessive, N::Unknown, R::Any},
        {"自己", Lang::Chinese, P::Reflexive, N::Unknown, R::Any},
    };
    return list;
}

const std::unordered_set<std::string_view>& stopWords() {
    static const std::unordered_set<std::string_view> set = {
        // English: articles, determiners, quantifiers
        "a", "an", "the", "some", "any", "each", "every", "all", "both", "either", "neither", "no",
        "more", "most", "much", "many", "such", "own", "same", "other", "another", "one",
        // prepositions and particles
        "of", "in", "on", "at", "by", "to", "from", "with", "without", "into", "onto", "over", "under",
        "about", "after", "before", "for", "up", "down", "out", "off", "away", "back", "through",
        "across", "behind", "between", "around", "near", "inside", "outside",
        // conjunctions and subordinators
        "and", "or", "but", "nor", "so", "yet", "because", "since", "while", "when", "if", "then",
        "than", "as", "though", "although", "until", "unless", "whether", "where", "how", "what", "why",
        // auxiliaries, copulas, modals and their negated forms
        "is", "am", "are", "was", "were", "be", "been", "being", "do", "does", "did", "have", "has",
        "had", "having", "will", "would", "shall", "should", "can", "could", "may", "might", "must",
        "cannot", "didn't", "doesn't", "don't", "wasn't", "weren't", "isn't", "aren't", "hasn't",
        "haven't", "hadn't", "won't", "wouldn't", "couldn't", "shouldn't", "can't",
        // contraction fragments as WordPiece / BPE split them ("didn" "'" "t", "didn" "'t")
        "didn", "doesn", "don", "wasn", "weren", "isn", "aren", "hasn", "haven", "hadn", "won",
        "wouldn", "couldn", "shouldn", "ca", "t", "s", "ll", "re", "ve", "d", "m", "'s", "'t", "n't",
        "'ll", "'re", "'ve", "'d", "'m",
        // adverbs that never refer
        "not", "never", "very", "too", "also", "just", "only", "even", "still", "again", "already",
        "there", "here", "now",
        // pronouns not on the referring list (first and second person)
        "i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves", "you", "your",
        "yours", "yourself", "yourselves",
        // Chinese function words (whole words, for tokenizers that keep them together)
        "因为", "所以", "但是", "而且", "可是", "虽然", "如果", "因此", "已经", "还是", "或者",
        "非常", "没有", "不是", "一个", "一只", "一位", "一条", "一本", "一辆", "一张",
        // Chinese function characters (BERT and the lessons read Chinese one character at a time)
        "的", "了", "是", "在", "和", "与", "也", "都", "就", "很", "太", "把", "被", "给", "对",
        "因", "为", "所", "以", "但", "而", "却", "又", "不", "没", "吗", "呢", "吧", "啊", "着",
        "过", "有", "们", "一", "个", "只", "位", "条", "本", "辆", "张", "件", "得", "地", "还", "要",
        "会", "能", "从", "到", "向", "里", "上", "下", "比", "更", "最", "已", "经", "如", "果",
        "虽", "然", "可",
    };
    return set;
}

// Noun lists of the rule baseline's heuristic (see docs/coreference.md).
const std::unordered_map<std::string_view, NounKind>& englishNouns() {
    static const std::unordered_map<std::string_view, NounKind> map = [] {
        std::unordered_map<std::string_view, NounKind> m;
        for (std::string_view w :
             {"man", "boy", "father", "dad", "son", "brother", "husband", "king", "prince", "uncle",
              "grandfather", "nephew", "gentleman", "monk", "actor", "emperor", "john", "tom", "james",
              "bob", "paul", "mark", "peter", "david", "michael", "george", "jim", "frank", "bill", "joe",
              "jack", "fred", "adam", "kevin", "eric", "luke", "sam"})
            m[w] = NounKind::Male;
        for (std::string_view w :
             {"woman", "girl", "mother", "mom", "mum", "daughter", "sister", "wife", "queen", "princess",
              "aunt", "grandmother", "niece", "lady", "actress", "nun", "waitress", "mary", "anna", "susan",
              "jane", "lucy", "emma", "sarah", "kate", "alice", "linda", "julia", "amy", "beth", "joan",
              "ann", "lily", "sue"})
            m[w] = NounKind::Female;
        for (std::string_view w :
             {"person", "child", "kid", "baby", "friend", "teacher", "student", "doctor", "nurse", "lawyer",
              "driver", "farmer", "worker", "customer", "player", "parent", "neighbor", "neighbour",
              "manager", "boss", "officer", "guard", "chef", "cook", "scientist", "engineer", "artist",
              "writer", "author", "pilot", "soldier", "judge", "clerk", "guest", "visitor", "stranger",
              "passenger", "patient", "client", "singer", "dancer", "coach", "captain", "dentist",
              "mechanic", "plumber", "journalist", "reporter", "politician", "president", "mayor",
              "thief", "owner", "tourist", "waiter"})
            m[w] = NounKind::Person;
        for (std::string_view w :
             {"animal", "dog", "cat", "bird", "fish", "horse", "cow", "pig", "sheep", "mouse", "rat",
              "lion", "tiger", "bear", "wolf", "fox", "rabbit", "duck", "chicken", "hen", "snake", "frog",
              "monkey", "elephant", "deer", "goat", "bee", "ant", "spider", "puppy", "kitten", "owl",
              "whale", "shark", "dolphin", "squirrel", "turtle", "parrot", "insect"})
            m[w] = NounKind::Animal;
        for (std::string_view w :
             {"street", "road", "car", "bus", "train", "house", "table", "chair", "box", "bag", "suitcase",
              "trophy", "ball", "bottle", "cup", "glass", "book", "letter", "phone", "computer", "window",
              "door", "river", "bridge", "tree", "rock", "stone", "key", "shelf", "bed", "wall", "floor",
              "room", "city", "town", "country", "park", "garden", "hole", "pipe", "rope", "boat", "ship",
              "plane", "bike", "bicycle", "machine", "engine", "tool", "hammer", "knife", "plate", "bowl",
              "pot", "pan", "cake", "bread", "apple", "food", "water", "coat", "shirt", "hat", "shoe",
              "sofa", "couch", "desk", "lamp", "clock", "watch", "map", "paper", "pen", "pencil", "jar",
              "lid", "fence", "gate", "sign", "toy", "drawer", "fridge", "oven", "vase", "painting",
              "picture", "photo", "rug", "carpet", "pool", "lake", "hill", "mountain", "ice", "candle",
              "ladder", "truck", "wheel", "tire", "battery", "screen", "file", "message", "report", "plan",
              "song", "movie", "game", "project", "package", "gift", "ring", "wallet", "umbrella", "tent",
              "bench", "statue", "tower", "building", "store", "shop", "restaurant", "hotel", "school",
              "hospital", "office", "bank", "library", "museum", "kitchen", "roof", "yard", "field", "farm",
              "forest", "mat", "sun", "moon"})
            m[w] = NounKind::Thing;
        return m;
    }();
    return map;
}

const std::unordered_map<std::string_view, std::pair<std::string_view, NounKind>>& irregularPlurals() {
    static const std::unordered_map<std::string_view, std::pair<std::string_view, NounKind>> map = {
        {"men", {"man", NounKind::Male}},          {"women", {"woman", NounKind::Female}},
        {"children", {"child", NounKind::Person}}, {"people", {"person", NounKind::Person}},
        {"mice", {"mouse", NounKind::Animal}},     {"geese", {"goose", NounKind::Animal}},
        {"feet", {"foot", NounKind::Thing}},       {"teeth", {"tooth", NounKind::Thing}},
        {"wolves", {"wolf", NounKind::Animal}},    {"knives", {"knife", NounKind::Thing}},
        {"shelves", {"shelf", NounKind::Thing}},   {"police", {"police", NounKind::Person}},
    };
    return map;
}

// Chinese: a word's kind is that of the first listed character it contains.
struct CharClass {
    std::string_view chars;
    NounKind kind;
};
const std::array<CharClass, 5>& chineseCharClasses() {
    static const std::array<CharClass, 5> classes = {{
        {"男爸父哥弟爷叔伯舅夫", NounKind::Male},
        {"女妈母姐妹奶姨婆妻娘姑嫂", NounKind::Female},
        {"人孩师员客友者民医士警生", NounKind::Person},
        {"猫狗鸟鱼马牛羊猪鼠虎狮熊兔鸡鸭猴象蛇狼虫蜂蚁", NounKind::Animal},
        {"车桌椅门窗书箱包杯瓶球房屋路街河桥树石墙床刀碗盘机电脑笔纸"
         "衣帽鞋钥锁灯钟表画花山湖海船楼城店馆园盒柜蛋糕饭水茶信票药伞",
         NounKind::Thing},
    }};
    return classes;
}

bool endsWith(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool isAsciiWord(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || c == '\'' || c == '-';
    });
}

// "-s" plural: at least four letters, not "-ss", "-us", "-is" (glass, bus, this).
std::optional<std::string> singularOfRegularPlural(const std::string& word) {
    if (word.size() < 4 || !endsWith(word, "s")) return std::nullopt;
    if (endsWith(word, "ss") || endsWith(word, "us") || endsWith(word, "is")) return std::nullopt;
    if (endsWith(word, "ies")) return word.substr(0, word.size() - 3) + "y";
    for (std::string_view es : {"ches", "shes", "xes", "sses"})
        if (endsWith(word, es)) return word.substr(0, word.size() - 2);
    return word.substr(0, word.size() - 1);
}

NounKind englishKind(std::string_view singular) {
    const auto it = englishNouns().find(singular);
    return it == englishNouns().end() ? NounKind::Unknown : it->second;
}

NounInfo englishNoun(const std::string& word) {
    if (const auto it = irregularPlurals().find(word); it != irregularPlurals().end())
        return {it->second.second, N::Plural, true};
    if (const NounKind kind = englishKind(word); kind != NounKind::Unknown) {
        // "sheep" and "fish" are their own plural.
        const bool either = word == "sheep" || word == "fish" || word == "deer";
        return {kind, either ? N::Unknown : N::Singular, true};
    }
    if (const auto singular = singularOfRegularPlural(word)) {
        const NounKind kind = englishKind(*singular);
        return {kind, N::Plural, kind != NounKind::Unknown};
    }
    return {NounKind::Unknown, N::Singular, false};
}

NounInfo chineseNoun(std::string_view word) {
    NounInfo info;
    if (endsWith(word, "们")) info.number = N::Plural;
    for (const utf8::CodePoint& point : utf8::decode(word).points) {
        const std::string ch = utf8::encode(point.value);
        for (const CharClass& c : chineseCharClasses()) {
            if (c.chars.find(ch) == std::string_view::npos) continue;
            info.kind = c.kind;
            info.listed = true;
            return info;
        }
    }
    return info;
}

}  // namespace

std::string lowercaseAscii(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

std::optional<PronounInfo> pronounOf(std::string_view text) {
    const std::string lower = lowercaseAscii(text);
    for (const PronounInfo& p : pronounList())
        if (p.text == lower) return p;
    return std::nullopt;
}

std::size_t longestPronounBytes() {
    std::size_t longest = 0;
    for (const PronounInfo& p : pronounList()) longest = std::max(longest, p.text.size());
    return longest;
}

bool isStopWord(std::string_view text) {
    const std::string lower = lowercaseAscii(text);
    return stopWords().count(lower) > 0 || pronounOf(lower).has_value();
}

bool isPunctuationWord(std::string_view text) {
    const utf8::Decoded decoded = utf8::decode(text);
    return std::all_of(decoded.points.begin(), decoded.points.end(), [](const utf8::CodePoint& p) {
        return unicode::isBertPunctuation(p.value) || unicode::isWhiteSpace(p.value) || isPunctuation(p.value);
    });
}

bool hasCjk(std::string_view text) {
    const utf8::Decoded decoded = utf8::decode(text);
    return std::any_of(decoded.points.begin(), decoded.points.end(),
                       [](const utf8::CodePoint& p) { return isCjk(p.value); });
}

NounInfo nounOf(std::string_view text) {
    const std::string lower = lowercaseAscii(text);
    if (hasCjk(lower)) return chineseNoun(lower);
    if (isAsciiWord(lower)) return englishNoun(lower);
    return {};
}

bool agrees(const PronounInfo& pronoun, const NounInfo& noun) {
    const bool numberClash = pronoun.number != N::Unknown && noun.number != N::Unknown &&
                             pronoun.number != noun.number;
    if (numberClash) return false;
    const NounKind k = noun.kind;
    if (k == NounKind::Unknown) return true;
    switch (pronoun.referent) {
        case R::Male: return k == NounKind::Male || k == NounKind::Person;
        case R::Female: return k == NounKind::Female || k == NounKind::Person;
        case R::Human: return k == NounKind::Male || k == NounKind::Female || k == NounKind::Person;
        case R::NonHuman: return k == NounKind::Animal || k == NounKind::Thing;
        case R::Any: return true;
    }
    return true;
}

// One switch per enum (referentName, numberName, nounKindName): alike by shape, kept apart so the
// compiler checks each enum's cases.
std::string_view referentName(Referent referent) {
    switch (referent) {
        case R::Male: return "male";
        case R::Female: return "female";
        case R::Human: return "human";
        case R::NonHuman: return "non-human";
        case R::Any: return "any";
    }
    return "any";
}

std::string_view numberName(GrammaticalNumber number) {
    switch (number) {
        case N::Singular: return "singular";
        case N::Plural: return "plural";
        case N::Unknown: return "unknown";
    }
    return "unknown";
}

std::string_view nounKindName(NounKind kind) {
    switch (kind) {
        case NounKind::Male: return "male";
        case NounKind::Female: return "female";
        case NounKind::Person: return "person";
        case NounKind::Animal: return "animal";
        case NounKind::Thing: return "thing";
        case NounKind::Unknown: return "unknown";
    }
    return "unknown";
}

}  // namespace attnscope
