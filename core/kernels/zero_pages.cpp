#include "core/kernels/zero_pages.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace attnscope {

namespace {

std::uintptr_t pageBytes() {
#ifdef __linux__
    static const auto bytes = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    return bytes;
#else
    return 0;
#endif
}

// MADV_DONTNEED on private anonymous memory: the next read of these pages sees zeros.
bool releasePages(std::uintptr_t first, std::uintptr_t last) {
#ifdef __linux__
    return ::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED) == 0;
#else
    (void)first;
    (void)last;
    return false;
#endif
}

}  // namespace

void zeroReleasingPages(float* begin, std::size_t count) {
    float* const end = begin + count;
    const std::uintptr_t page = pageBytes();
    if (page == 0) return std::fill(begin, end, 0.0f);
    const auto from = reinterpret_cast<std::uintptr_t>(begin), to = reinterpret_cast<std::uintptr_t>(end);
    const std::uintptr_t first = (from + page - 1) / page * page, last = to / page * page;  // whole pages inside
    if (first >= last || !releasePages(first, last))
        return std::fill(begin, end, 0.0f);
    std::fill(begin, reinterpret_cast<float*>(first), 0.0f);
    std::fill(reinterpret_cast<float*>(last), end, 0.0f);
}

std::size_t residentBytesOf(const void* begin, std::size_t bytes) {
    const std::uintptr_t page = pageBytes();
    const auto from = reinterpret_cast<std::uintptr_t>(begin);
    const std::uintptr_t first = (from + page - 1) / page * page, last = (from + bytes) / page * page;
    if (page == 0 || first >= last) return bytes;
#ifdef __linux__
    std::vector<unsigned char> pages((last - first) / page);
    if (::mincore(reinterpret_cast<void*>(first), last - first, pages.data()) != 0) return bytes;
    return page * static_cast<std::size_t>(std::count_if(pages.begin(), pages.end(), [](unsigned char p) { return p & 1; }));
#else
    return bytes;
#endif
}

}  // namespace attnscope
