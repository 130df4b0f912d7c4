#include "core/io/text_file.hpp"

#include <cstdio>
#include <fstream>
#include <optional>
#include <system_error>

#include "core/io/run_inputs.hpp"
#include "core/text/error_messages.hpp"

namespace attnscope {

ErrorText byteSizeErrorText(std::uint64_t bytes) {
    const auto scaled = [bytes](std::uint64_t unit, const char* name) {
        char text[48];
        if (bytes % unit == 0) std::snprintf(text, sizeof text, "%llu %s", static_cast<unsigned long long>(bytes / unit), name);
        else std::snprintf(text, sizeof text, "%.1f %s", static_cast<double>(bytes) / static_cast<double>(unit), name);
        return ErrorText::verbatim(text);  // the units are symbols, the same in every language
    };
    if (bytes >= 1024 * kMiB) return scaled(1024 * kMiB, "GiB");
    if (bytes >= kMiB) return scaled(kMiB, "MiB");
    if (bytes >= 1024) return scaled(1024, "KiB");
    return errorText(ErrorId::Bytes, bytes);
}

Result<void> checkSentenceLine(std::string_view line, const ErrorText& where) {
    if (line.size() <= kMaxSentenceLineBytes) return {};
    return Error{where, errorText(ErrorId::LineOverBudget, byteSizeErrorText(line.size()), byteSizeErrorText(kMaxSentenceLineBytes))};
}

std::string byteSizeText(std::uint64_t bytes) { return byteSizeErrorText(bytes).in(Language::English); }

Result<void> checkReadableFile(const std::filesystem::path& path, std::uint64_t maxBytes) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);  // follows symbolic links
    if (ec || !std::filesystem::exists(status)) return Error{path.string(), ErrorId::NoSuchFile};
    if (std::filesystem::is_directory(status)) return Error{path.string(), ErrorId::IsFolderNotFile};
    if (!std::filesystem::is_regular_file(status)) return Error{path.string(), ErrorId::NotRegularFile};
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) return Error{path.string(), errorText(ErrorId::CannotReadSize, ec.message())};
    if (size > maxBytes)
        return Error{path.string(), errorText(ErrorId::OverCap, byteSizeErrorText(size), byteSizeErrorText(maxBytes))};
    noteRunInput(path);  // an output of this command must not replace it (core/io/run_inputs.hpp)
    return {};
}

Result<std::string> readTextFile(const std::filesystem::path& path, std::uint64_t maxBytes) {
    if (auto error = checkReadableFile(path, maxBytes); !error.ok()) return error.error();
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{path.string(), ErrorId::CannotBeOpened};
    // Read at most one byte past the cap: a file that grew since the check is still refused.
    std::string text;
    char buffer[65536];
    while (in && text.size() <= maxBytes) {
        in.read(buffer, sizeof buffer);
        text.append(buffer, static_cast<std::size_t>(in.gcount()));
    }
    if (in.bad()) return Error{path.string(), ErrorId::NotReadToEnd};
    if (text.size() > maxBytes) return Error{path.string(), errorText(ErrorId::GrewPastCap, byteSizeErrorText(maxBytes))};
    return text;
}

}  // namespace attnscope
