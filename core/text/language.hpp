#pragma once
// The two languages core/ writes for a reader (its message catalogue) and reads (coreference's
// word lists).
namespace attnscope {

enum class Language { English, Chinese };

}  // namespace attnscope
