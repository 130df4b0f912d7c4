#include "core/text_file.hpp"

#include <fstream>
#include <sstream>

namespace attnscope {

Result<std::string> readTextFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{path.string(), "cannot be opened"};
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) return Error{path.string(), "could not be read to the end"};
    return text.str();
}

}  // namespace attnscope
