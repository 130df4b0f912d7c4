#pragma once
// The one lab-panel contract: LabWindow hands every panel the same LabInput (the session's
// lesson, sentence, Trace and display options) and each panel takes what it needs from it.
#include <QString>
#include <string>

#include "core/lesson/lesson.hpp"
#include "core/trace/trace.hpp"

namespace attnscope {

struct LabInput {
    const Lesson& lesson;
    const std::string& sentence;
    const Trace& trace;  // the lesson's run on the sentence
    int decimals = 3;
};

class LabPanel {
public:
    virtual ~LabPanel() = default;
    virtual void setInput(const LabInput& input) = 0;
};

}  // namespace attnscope
