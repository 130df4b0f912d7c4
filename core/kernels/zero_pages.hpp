#pragma once
// Zeros that cost no memory: a causal head's weights are 0 past its token, about half of a T×T
// matrix (at 4,096 tokens 32 of a head's 64 MiB). Writing those zeros makes every page of them
// resident; handing the whole pages among them back to the kernel instead (madvise MADV_DONTNEED)
// leaves them unmapped, and a later read of them maps the kernel's shared zero page, which counts
// in no process's memory. Performance machinery, so it lives here (docs/architecture.md).
#include <cstddef>

namespace attnscope {

// Sets begin[0..count) to 0. The whole pages inside the range are released instead of written
// (with any this thread queued: zeroQueueingPages); the partial pages at both ends are written.
// Precondition: the
// memory is this process's own heap (malloc, a MatF's storage: private anonymous pages, which the
// kernel refills with zeros). Elsewhere than Linux, or when the kernel refuses, it writes them all.
void zeroReleasingPages(float* begin, std::size_t count);
void zeroReleasingPages(double* begin, std::size_t count);  // a heat map's cells (ui/common/color_map_plot)

// As zeroReleasingPages, but the whole pages are queued on the calling thread and handed back by
// releaseQueuedPages(), many ranges in one call (process_madvise): each madvise call interrupts
// the other cores running this process to flush their TLBs, and one a row of a head was 17 % of a
// 4,096-token layer switch. The queued pages hold their old values until then: read them only
// after releaseQueuedPages().
void zeroQueueingPages(float* begin, std::size_t count);
void releaseQueuedPages();

// How many bytes of the whole pages inside [begin, begin + bytes) are resident (mincore), or
// bytes itself where that cannot be told: for tests and benchmarks.
std::size_t residentBytesOf(const void* begin, std::size_t bytes);

}  // namespace attnscope
