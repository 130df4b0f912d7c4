#pragma once
// The languages core/ writes in: its message catalogues (core/text/messages.hpp,
// core/text/error_messages.hpp) and the coreference word lists (core/analysis/coref_lexicon.hpp).

namespace attnscope {

enum class Language { English, Chinese };

}  // namespace attnscope
