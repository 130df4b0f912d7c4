#pragma once
// Internal to core .cpp files (it includes nlohmann): how error messages describe a JSON value
// ("expected a number, found the text "x""), shared by every file format the engine reads.
#include <nlohmann/json.hpp>
#include <string>

namespace attnscope {

template <class JsonT>
std::string describeJson(const JsonT& j) {
    switch (j.type()) {
        case JsonT::value_t::null: return "null";
        case JsonT::value_t::boolean: return "a boolean";
        case JsonT::value_t::string: return "the text \"" + j.template get<std::string>().substr(0, 40) + "\"";
        case JsonT::value_t::array: return "a list of " + std::to_string(j.size());
        case JsonT::value_t::object: return "an object";
        default: return "the number " + j.dump();
    }
}

}  // namespace attnscope
