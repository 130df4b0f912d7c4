// ZIP layout: PKWARE APPNOTE.TXT 6.3 (sections 4.3.7 local header, 4.3.12 central directory,
// 4.3.14–4.3.16 ZIP64 end record, locator and end of central directory, 4.5.3 ZIP64 extra field).
#include "core/io/zip_store.hpp"

#include <array>
#include <limits>

namespace attnscope {

namespace {

constexpr std::uint32_t kMax32 = 0xFFFFFFFFu;
constexpr std::uint16_t kVersion = 20;    // 2.0: stored entries, folders in names
constexpr std::uint16_t kVersion64 = 45;  // 4.5: ZIP64
constexpr std::uint16_t kDate1980 = (0 << 9) | (1 << 5) | 1;  // 1980-01-01 (DOS date), time 00:00

// Slice-by-8 tables of the reflected polynomial 0xEDB88320: 8 bytes a step, ~1–2 GB/s.
using CrcTables = std::array<std::array<std::uint32_t, 256>, 8>;
const CrcTables& crcTables() {
    static const CrcTables tables = [] {
        CrcTables t{};
        for (std::uint32_t i = 0; i < 256; ++i) {
            std::uint32_t c = i;
            for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[0][i] = c;
        }
        for (std::uint32_t i = 0; i < 256; ++i)
            for (std::size_t s = 1; s < 8; ++s) t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xFF];
        return t;
    }();
    return tables;
}

void put16(std::string& out, std::uint16_t v) {
    out += static_cast<char>(v & 0xFF);
    out += static_cast<char>(v >> 8);
}
void put32(std::string& out, std::uint32_t v) {
    put16(out, static_cast<std::uint16_t>(v & 0xFFFF));
    put16(out, static_cast<std::uint16_t>(v >> 16));
}
void put64(std::string& out, std::uint64_t v) {
    put32(out, static_cast<std::uint32_t>(v & kMax32));
    put32(out, static_cast<std::uint32_t>(v >> 32));
}

}  // namespace

std::uint32_t crc32(std::string_view bytes, std::uint32_t crc) {
    const CrcTables& t = crcTables();
    crc = ~crc;
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    std::size_t n = bytes.size();
    for (; n >= 8; n -= 8, p += 8) {
        const std::uint32_t lo = crc ^ (p[0] | p[1] << 8 | p[2] << 16 | static_cast<std::uint32_t>(p[3]) << 24);
        crc = t[7][lo & 0xFF] ^ t[6][(lo >> 8) & 0xFF] ^ t[5][(lo >> 16) & 0xFF] ^ t[4][lo >> 24] ^ t[3][p[4]] ^
              t[2][p[5]] ^ t[1][p[6]] ^ t[0][p[7]];
    }
    for (; n > 0; --n, ++p) crc = t[0][(crc ^ *p) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

StoredZipWriter::StoredZipWriter(ByteSink sink, std::uint64_t zip64From)
    : sink_(std::move(sink)), zip64From_(std::min<std::uint64_t>(zip64From, kMax32)) {}

void StoredZipWriter::emit(std::string_view bytes) {
    if (!failed_ && !sink_(bytes)) failed_ = true;
    offset_ += bytes.size();
}

bool StoredZipWriter::add(std::string_view name, std::string_view data) {
    if (failed_ || data.size() >= kMax32) return failed_ = true, false;
    const Entry entry{std::string(name), crc32(data), static_cast<std::uint32_t>(data.size()), offset_};
    std::string header;
    put32(header, 0x04034b50);
    put16(header, kVersion);
    put16(header, 0);  // flags: sizes and CRC are in this header
    put16(header, 0);  // method: stored
    put16(header, 0);  // time 00:00
    put16(header, kDate1980);
    put32(header, entry.crc);
    put32(header, entry.size);  // compressed = uncompressed
    put32(header, entry.size);
    put16(header, static_cast<std::uint16_t>(name.size()));
    put16(header, 0);  // no extra field: the local offset only matters in the central directory
    header.append(name);
    emit(header);
    emit(data);
    entries_.push_back(entry);
    return !failed_;
}

std::string StoredZipWriter::centralHeader(const Entry& e) const {
    const bool far = e.offset >= zip64From_;
    std::string out;
    put32(out, 0x02014b50);
    put16(out, far ? kVersion64 : kVersion);  // made by (MS-DOS attributes)
    put16(out, far ? kVersion64 : kVersion);  // needed
    put16(out, 0);
    put16(out, 0);
    put16(out, 0);
    put16(out, kDate1980);
    put32(out, e.crc);
    put32(out, e.size);
    put32(out, e.size);
    put16(out, static_cast<std::uint16_t>(e.name.size()));
    put16(out, far ? 12 : 0);  // extra: ZIP64 block of the local header's offset
    put16(out, 0);             // comment
    put16(out, 0);             // disk
    put16(out, 0);             // internal attributes
    put32(out, 0);             // external attributes
    put32(out, far ? kMax32 : static_cast<std::uint32_t>(e.offset));
    out.append(e.name);
    if (far) {
        put16(out, 0x0001);
        put16(out, 8);
        put64(out, e.offset);
    }
    return out;
}

bool StoredZipWriter::finish() {
    const std::uint64_t start = offset_;
    std::string directory;
    for (const Entry& e : entries_) {
        directory += centralHeader(e);
        if (directory.size() >= (1u << 20)) emit(directory), directory.clear();
    }
    emit(directory);
    const std::uint64_t size = offset_ - start;
    const std::uint64_t count = entries_.size();
    const bool zip64 = start >= zip64From_ || size >= zip64From_ || count >= 0xFFFF;
    std::string end;
    if (zip64) {
        const std::uint64_t record = offset_;
        put32(end, 0x06064b50);
        put64(end, 44);  // the record's size after this field
        put16(end, kVersion64);
        put16(end, kVersion64);
        put32(end, 0);
        put32(end, 0);
        put64(end, count);
        put64(end, count);
        put64(end, size);
        put64(end, start);
        put32(end, 0x07064b50);  // locator
        put32(end, 0);
        put64(end, record);
        put32(end, 1);
    }
    put32(end, 0x06054b50);
    put16(end, 0);
    put16(end, 0);
    const auto count16 = static_cast<std::uint16_t>(zip64 ? 0xFFFF : count);
    put16(end, count16);
    put16(end, count16);
    put32(end, zip64 ? kMax32 : static_cast<std::uint32_t>(size));
    put32(end, zip64 ? kMax32 : static_cast<std::uint32_t>(start));
    put16(end, 0);
    emit(end);
    return !failed_;
}

}  // namespace attnscope
