#include "core/tokenizers/tokenizer_json_bpe.hpp"

#include "core/text/error_messages.hpp"

namespace attnscope {

namespace {

using json::Json;
using json::need;
using Field = json::Field<Json>;

std::string typeOf(const Field& object) {
    need(object.requireObject(ErrorId::ObjectOrNull));
    return need(object.optionalText("type")).value_or("");
}

[[noreturn]] void unsupported(const Field& object, ErrorId expected) {
    json::fail(Error{object.whereOf("type"), errorText(ErrorId::ExpectedFound, expected, errorText(ErrorId::Quoted, typeOf(object)))});
}

std::vector<Field> listOf(const Field& object, const std::string& key) {
    return need(need(object.member(key)).elements(ErrorId::AList));
}

TextPattern readPattern(const Field& owner) {
    const Field pattern = need(owner.member("pattern"));
    need(pattern.requireObject(ErrorId::StringOrRegexPattern));
    TextPattern out;
    if (auto literal = need(pattern.optionalText("String"))) {
        out.literal = *literal;
        return out;
    }
    const auto regex = need(pattern.optionalText("Regex"));
    if (!regex) json::fail(pattern.expected(ErrorId::StringOrRegexPattern));
    out.regex = need(TokenizerRegex::compile(*regex, pattern.whereOf("Regex")));
    return out;
}

void readNormalizer(const Field& n, std::vector<NormalizerStep>& steps) {
    using Kind = NormalizerStep::Kind;
    const std::string type = typeOf(n);
    if (type == "Sequence") {
        for (const Field& inner : listOf(n, "normalizers")) readNormalizer(inner, steps);
        return;
    }
    NormalizerStep step;
    if (type == "NFC" || type == "NFD" || type == "NFKC" || type == "NFKD") {
        step.kind = type == "NFC" ? Kind::Nfc : type == "NFD" ? Kind::Nfd : type == "NFKC" ? Kind::Nfkc : Kind::Nfkd;
    } else if (type == "Lowercase") {
        step.kind = Kind::Lowercase;
    } else if (type == "Prepend") {
        step.kind = Kind::Prepend;
        step.content = need(need(n.member("prepend")).text());
    } else if (type == "Replace") {
        step.kind = Kind::Replace;
        step.pattern = readPattern(n);
        step.content = need(need(n.member("content")).text());
    } else if (type == "Strip") {
        if (need(n.optionalBoolean("left")).value_or(true)) steps.push_back({Kind::StripLeft, {}, {}});
        if (need(n.optionalBoolean("right")).value_or(true)) steps.push_back({Kind::StripRight, {}, {}});
        return;
    } else {
        unsupported(n, ErrorId::NormalizerTypes);
    }
    steps.push_back(std::move(step));
}

SplitBehavior readBehavior(const Field& owner, SplitBehavior fallback) {
    const auto name = need(owner.optionalText("behavior"));
    if (!name) return fallback;
    const std::pair<const char*, SplitBehavior> known[] = {
        {"Removed", SplitBehavior::Removed}, {"Isolated", SplitBehavior::Isolated},
        {"MergedWithPrevious", SplitBehavior::MergedWithPrevious}, {"MergedWithNext", SplitBehavior::MergedWithNext},
        {"Contiguous", SplitBehavior::Contiguous}};
    for (const auto& [text, behavior] : known)
        if (*name == text) return behavior;
    json::fail(need(owner.member("behavior")).expected(ErrorId::SplitBehaviors));
}

PrependScheme readPrependScheme(const Field& p) {
    const auto scheme = need(p.optionalText("prepend_scheme"));
    if (!scheme) return need(p.optionalBoolean("add_prefix_space")).value_or(true) ? PrependScheme::Always : PrependScheme::Never;
    if (*scheme == "always") return PrependScheme::Always;
    if (*scheme == "first") return PrependScheme::First;
    if (*scheme == "never") return PrependScheme::Never;
    json::fail(need(p.member("prepend_scheme")).expected(ErrorId::PrependSchemes));
}

void readPreTokenizer(const Field& p, std::vector<PreTokenizerStep>& steps) {
    using Kind = PreTokenizerStep::Kind;
    const std::string type = typeOf(p);
    if (type == "Sequence") {
        for (const Field& inner : listOf(p, "pretokenizers")) readPreTokenizer(inner, steps);
        return;
    }
    PreTokenizerStep step;
    if (type == "Split") {
        step.kind = Kind::Split;
        step.pattern = readPattern(p);
        step.behavior = readBehavior(p, SplitBehavior::Isolated);
        step.invert = need(p.optionalBoolean("invert")).value_or(false);
    } else if (type == "ByteLevel") {
        step.kind = Kind::ByteLevel;
        step.addPrefixSpace = need(p.optionalBoolean("add_prefix_space")).value_or(true);
        step.useRegex = need(p.optionalBoolean("use_regex")).value_or(true);
    } else if (type == "Metaspace") {
        step.kind = Kind::Metaspace;
        step.replacement = need(p.optionalText("replacement")).value_or(step.replacement);
        step.prependScheme = readPrependScheme(p);
        step.split = need(p.optionalBoolean("split")).value_or(true);
    } else if (type == "Digits") {
        step.kind = Kind::Digits;
        step.individualDigits = need(p.optionalBoolean("individual_digits")).value_or(false);
    } else if (type == "Punctuation") {
        step.kind = Kind::Punctuation;
        step.behavior = readBehavior(p, SplitBehavior::Isolated);
    } else {
        unsupported(p, ErrorId::PreTokenizerTypes);
    }
    steps.push_back(std::move(step));
}

// SentencePiece's "▁" convention needs no check; a byte-level BPE model must not carry affixes
// we do not apply.
BpeModelOptions readModelOptions(const Field& model) {
    for (const char* name : {"continuing_subword_prefix", "end_of_word_suffix"}) {
        const auto affix = need(model.optionalText(name));
        if (!affix.value_or("").empty())
            json::fail(Error{model.whereOf(name), errorText(ErrorId::ExpectedFound, ErrorId::NullOrEmptyForBpe, errorText(ErrorId::Quoted, *affix))});
    }
    if (const auto dropout = need(model.optionalMember("dropout")); dropout && need(dropout->number()) != 0.0)
        json::fail(dropout->expected(ErrorId::NoDropout));
    BpeModelOptions options;
    options.unkToken = need(model.optionalText("unk_token"));
    options.fuseUnk = need(model.optionalBoolean("fuse_unk")).value_or(false);
    options.byteFallback = need(model.optionalBoolean("byte_fallback")).value_or(false);
    options.ignoreMerges = need(model.optionalBoolean("ignore_merges")).value_or(false);
    return options;
}

std::vector<int> specialIds(const Field& specials, const std::string& name, const Tokenizer& tokenizer, const Field& at) {
    if (const auto entry = need(specials.optionalMember(name))) {
        std::vector<int> ids;
        for (const Field& id : listOf(*entry, "ids")) ids.push_back(static_cast<int>(need(id.integer(0, kMaxTokenId))));
        return ids;
    }
    if (const auto id = tokenizer.idOf(name)) return {*id};
    json::fail(at.error(errorText(ErrorId::SpecialTokenUnknown, name)));
}

void readTemplate(const Field& p, const Tokenizer& tokenizer, Wrapping& wrapping) {
    const auto specials = need(p.optionalMember("special_tokens"));
    const Json empty = Json::object();
    const Field specialMap = specials ? *specials : Field(empty, p.file());
    bool sequenceSeen = false;
    for (const Field& item : listOf(p, "single")) {
        need(item.requireObject(ErrorId::TemplateItem));
        if (item.has("Sequence")) {
            sequenceSeen = true;
            continue;
        }
        const Field special = need(item.member("SpecialToken"));
        const std::vector<int> ids = specialIds(specialMap, need(need(special.member("id")).text()), tokenizer, special);
        auto& side = sequenceSeen ? wrapping.after : wrapping.before;
        side.insert(side.end(), ids.begin(), ids.end());
    }
}

int pairId(const Field& p, const std::string& key) {
    const Field pair = need(p.member(key));
    const Json& j = pair.json();
    if (!j.is_array() || j.size() != 2 || !j[1].is_number_integer()) json::fail(pair.expected(ErrorId::TokenIdPair));
    return j[1].get<int>();
}

void readPostProcessor(const Field& p, const Tokenizer& tokenizer, Wrapping& wrapping) {
    const std::string type = typeOf(p);
    if (type == "Sequence") {
        for (const Field& inner : listOf(p, "processors")) readPostProcessor(inner, tokenizer, wrapping);
    } else if (type == "TemplateProcessing") {
        readTemplate(p, tokenizer, wrapping);
    } else if (type == "BertProcessing" || type == "RobertaProcessing") {
        wrapping.before = {pairId(p, "cls")};
        wrapping.after = {pairId(p, "sep")};
    } else if (type != "ByteLevel") {
        unsupported(p, ErrorId::PostProcessorTypes);
    }
}

}  // namespace

Result<BpePipeline> readBpePipeline(const Field& root, const Field& model) {
    return json::catching([&]() -> Result<BpePipeline> {
        BpePipeline pipeline;
        if (const auto n = need(root.optionalMember("normalizer"))) readNormalizer(*n, pipeline.normalizer);
        if (const auto p = need(root.optionalMember("pre_tokenizer"))) readPreTokenizer(*p, pipeline.preTokenizer);
        pipeline.model = readModelOptions(model);
        return pipeline;
    });
}

Result<Wrapping> readWrapping(const Field& root, const Tokenizer& tokenizer) {
    return json::catching([&]() -> Result<Wrapping> {
        Wrapping wrapping;
        if (const auto p = need(root.optionalMember("post_processor"))) readPostProcessor(*p, tokenizer, wrapping);
        return wrapping;
    });
}

}  // namespace attnscope
