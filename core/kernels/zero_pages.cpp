#include "core/kernels/zero_pages.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#ifdef __linux__
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
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

// Page ranges [first, last) waiting for releaseQueuedPages on this thread.
struct PageRange {
    std::uintptr_t first = 0, last = 0;
};
thread_local std::vector<PageRange> queued;

// Releases the ranges in as few calls as the kernel takes (IOV_MAX ranges a call); false for the
// ranges it would not release. process_madvise on this process: Linux ≥ 6.13 takes
// MADV_DONTNEED for it, and from 6.16 flushes the TLBs once a call.
bool releaseAll(const PageRange* ranges, std::size_t n) {
#if defined(__linux__) && defined(SYS_process_madvise) && defined(SYS_pidfd_open)
    static const long self = ::syscall(SYS_pidfd_open, ::getpid(), 0);
    if (self < 0) return false;
    thread_local std::vector<iovec> iov;  // a head's ranges, every head of a layer
    iov.resize(n);
    std::size_t bytes = 0;
    for (std::size_t i = 0; i < n; ++i) {
        iov[i] = iovec{reinterpret_cast<void*>(ranges[i].first), ranges[i].last - ranges[i].first};
        bytes += iov[i].iov_len;
    }
    return ::syscall(SYS_process_madvise, self, iov.data(), n, MADV_DONTNEED, 0u) == static_cast<long>(bytes);
#else
    (void)ranges;
    (void)n;
    return false;
#endif
}

// Zeros [begin, end): the partial pages at both ends written; the whole pages inside, if any,
// returned to be released (else written too). A 0 float or double is all zero bytes.
std::optional<PageRange> zeroEnds(void* begin, void* end) {
    const std::uintptr_t page = pageBytes();
    const auto from = reinterpret_cast<std::uintptr_t>(begin), to = reinterpret_cast<std::uintptr_t>(end);
    const std::uintptr_t first = page ? (from + page - 1) / page * page : 0, last = page ? to / page * page : 0;  // whole pages inside
    if (first >= last) {
        std::memset(begin, 0, to - from);
        return std::nullopt;
    }
    std::memset(begin, 0, first - from);
    std::memset(reinterpret_cast<void*>(last), 0, to - last);
    return PageRange{first, last};
}

// The pages of a range the kernel would not release, zeroed by hand.
void release(const PageRange& r) {
    if (!releasePages(r.first, r.last)) std::memset(reinterpret_cast<void*>(r.first), 0, r.last - r.first);
}

}  // namespace

void zeroReleasingPages(float* begin, std::size_t count) {
    zeroQueueingPages(begin, count);
    releaseQueuedPages();
}

void zeroReleasingPages(double* begin, std::size_t count) {
    if (const auto pages = zeroEnds(begin, begin + count)) release(*pages);
}

void zeroQueueingPages(float* begin, std::size_t count) {
    if (const auto pages = zeroEnds(begin, begin + count)) queued.push_back(*pages);
}

void releaseQueuedPages() {
    constexpr std::size_t kRangesPerCall = 1024;  // IOV_MAX
    for (std::size_t i = 0; i < queued.size(); i += kRangesPerCall) {
        const std::size_t n = std::min(kRangesPerCall, queued.size() - i);
        if (releaseAll(queued.data() + i, n)) continue;
        for (std::size_t j = i; j < i + n; ++j) release(queued[j]);  // one by one, or by hand
    }
    queued.clear();
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
