#pragma once
// The {1}…{9} placeholders of a catalogue text, so the catalogue tests can check that the English
// and the Chinese text of an entry take the same arguments.
#include <regex>
#include <set>
#include <string>
#include <string_view>

inline std::set<std::string> placeholders(std::string_view text) {
    std::set<std::string> found;
    const std::string s(text);
    const std::regex brace(R"(\{[1-9]\})");
    for (auto it = std::sregex_iterator(s.begin(), s.end(), brace); it != std::sregex_iterator(); ++it) found.insert(it->str());
    return found;
}
