#pragma once
// Reads a whole file as bytes; the error names the file.
#include <filesystem>
#include <string>

#include "core/result.hpp"

namespace attnscope {

Result<std::string> readTextFile(const std::filesystem::path& path);

}  // namespace attnscope
