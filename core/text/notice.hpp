#pragma once
// A notice of a run (Trace::notices) as plain, language-free data: a catalogue id and its
// arguments, rendered in the reader's language where it is shown (noticeText, core/text/messages.hpp).
// MessageId is only declared here (core/text/message_id.hpp lists the ids).
#include <string>
#include <vector>

namespace attnscope {

enum class MessageId : int;

// `layer` and `head` (0-based, -1: none) say where the softmax met the row it is about.
struct Notice {
    MessageId id{};
    std::vector<std::string> args;
    int layer = -1;
    int head = -1;
    bool operator==(const Notice&) const = default;
};

}  // namespace attnscope
