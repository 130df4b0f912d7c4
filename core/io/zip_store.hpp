#pragma once
// A ZIP archive of stored (uncompressed) entries, written front to back into a byte sink: each
// entry's size and CRC-32 are known before its local header goes out (the caller hands the whole
// entry at once), so no data descriptor is needed and nothing is ever sought back. Offsets past
// 4 GiB get ZIP64 fields (central-directory extra 0x0001, ZIP64 end record and locator), which
// Python's zipfile (numpy.load of a .npz) reads. Names are ASCII; times are 1980-01-01 00:00 so the
// same content gives the same bytes.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace attnscope {

// CRC-32 (ISO 3309, the one ZIP and PNG use) of `bytes`, continuing from `crc` (0 to start).
std::uint32_t crc32(std::string_view bytes, std::uint32_t crc = 0);

class StoredZipWriter {
public:
    using ByteSink = std::function<bool(std::string_view)>;  // false: the write failed
    // `zip64From`: offsets at or above it are written as ZIP64 (tests lower it to exercise that path).
    explicit StoredZipWriter(ByteSink sink, std::uint64_t zip64From = 0xFFFFFFFFu);

    // One entry `name` holding `data`; false once a write failed or `data` is 4 GiB or more.
    bool add(std::string_view name, std::string_view data);
    // The central directory and end records; false once any write failed.
    bool finish();
    bool failed() const { return failed_; }
    std::uint64_t written() const { return offset_; }

private:
    struct Entry {
        std::string name;
        std::uint32_t crc;
        std::uint32_t size;
        std::uint64_t offset;
    };
    void emit(std::string_view bytes);
    std::string centralHeader(const Entry& e) const;

    ByteSink sink_;
    std::uint64_t zip64From_;
    std::uint64_t offset_ = 0;
    std::vector<Entry> entries_;
    bool failed_ = false;
};

}  // namespace attnscope
