#include "core/model/sgemm.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <new>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace attnscope {

bool sgemmOnLevel(SimdLevel level, const SgemmArgs& args) {
    switch (level) {
        case SimdLevel::Avx512: sgemmAvx512(args); return true;
        case SimdLevel::Avx2: sgemmAvx2(args); return true;
        case SimdLevel::Sse2: return false;
    }
    return false;
}

float* sgemmWorkspace(long floats) {
    struct Aligned {
        void operator()(float* p) const { std::free(p); }
    };
    thread_local std::unique_ptr<float, Aligned> buffer;
    thread_local long capacity = 0;
    if (floats > capacity) {
        const std::size_t bytes = (static_cast<std::size_t>(floats) * sizeof(float) + 63) / 64 * 64;
        buffer.reset(static_cast<float*>(std::aligned_alloc(64, bytes)));
        if (!buffer) throw std::bad_alloc();
        capacity = floats;
    }
    return buffer.get();
}

namespace {

// Workers that each run one part of a job while the calling thread runs part 0. Persistent: a
// thread started per product would cost more than a 32-token product's share of a core. Both
// sides spin a little before sleeping: a forward pass hands out a job every fraction of a
// millisecond, and a condition variable's wake-up in a VM took about as long as a 32-token
// product's half (gpt2-small's output projection was no faster at 2 threads than at 1).
class ColumnPool {
public:
    // False (nothing run) when another thread is using the pool: the caller runs alone then.
    bool run(int parts, const std::function<void(int)>& part) {
        std::unique_lock busy(busy_, std::try_to_lock);
        if (!busy.owns_lock()) return false;
        while (static_cast<int>(workers_.size()) < parts - 1) {
            const int index = static_cast<int>(workers_.size()) + 1;
            workers_.emplace_back([this, index, seen = generation_.load()] { work(index, seen); });
        }
        {
            std::lock_guard lock(mutex_);
            job_.store(&part, std::memory_order_relaxed);
            parts_.store(parts, std::memory_order_relaxed);
            pending_.store(parts - 1, std::memory_order_relaxed);
            generation_.fetch_add(1, std::memory_order_release);
        }
        wake_.notify_all();
        std::exception_ptr failure;
        try {
            part(0);
        } catch (...) {  // the workers still run their parts: wait for them before leaving
            failure = std::current_exception();
        }
        if (!spinUntil([this] { return pending_.load(std::memory_order_acquire) == 0; })) {
            std::unique_lock lock(mutex_);
            done_.wait(lock, [this] { return pending_.load(std::memory_order_acquire) == 0; });
        }
        job_.store(nullptr, std::memory_order_relaxed);
        {
            std::lock_guard lock(mutex_);
            std::exception_ptr inWorker = std::exchange(workerFailure_, nullptr);
            if (!failure) failure = inWorker;
        }
        if (failure) std::rethrow_exception(failure);  // e.g. a part's work space not allocated
        return true;
    }

private:
    // A few tens of µs of pauses (a pause is 10–140 cycles by CPU): true once `ready` holds.
    template <class Ready>
    static bool spinUntil(Ready ready) {
        for (int i = 0; i < 2000; ++i) {
            if (ready()) return true;
            pause();
        }
        return ready();
    }
    static void pause() {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }

    void work(int index, unsigned long seen) {  // seen: the jobs before this worker started
        for (;;) {
            if (!spinUntil([&] { return generation_.load(std::memory_order_acquire) != seen; })) {
                std::unique_lock lock(mutex_);
                wake_.wait(lock, [&] { return generation_.load(std::memory_order_acquire) != seen; });
            }
            seen = generation_.load(std::memory_order_acquire);
            if (index >= parts_.load(std::memory_order_relaxed)) continue;  // fewer parts than workers
            try {
                (*job_.load(std::memory_order_relaxed))(index);
            } catch (...) {  // handed to the caller: a worker that threw would end the process
                std::lock_guard lock(mutex_);
                if (!workerFailure_) workerFailure_ = std::current_exception();
            }
            if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
                std::lock_guard lock(mutex_);  // the caller may be about to sleep on done_
                done_.notify_one();
            }
        }
    }

    std::mutex busy_, mutex_;
    std::condition_variable wake_, done_;
    std::vector<std::thread> workers_;  // detached by never being joined: see columnPool()
    // Written before generation_ is raised (release), read after it is seen (acquire).
    std::atomic<const std::function<void(int)>*> job_{nullptr};
    std::atomic<int> parts_{0};
    std::exception_ptr workerFailure_;  // the first part a worker could not run, under mutex_
    std::atomic<int> pending_{0};
    std::atomic<unsigned long> generation_{0};
};

ColumnPool& columnPool() {
    // Never destroyed: its workers wait on it until the process ends (joining them from a static
    // destructor would race with whatever else exit() tears down).
    static ColumnPool* pool = new ColumnPool;
    return *pool;
}

// Column ranges in multiples of 48 (a whole number of every kernel's panels), so each part
// runs full tiles and the parts write disjoint columns of C.
constexpr long kColumnQuantum = 48;

SgemmArgs columnPart(const SgemmArgs& g, long n0, long n1) {
    SgemmArgs part = g;
    part.n = n1 - n0;
    part.b = g.transB ? g.b + n0 * g.ldb : g.b + n0;
    part.c = g.c + n0;
    return part;
}

}  // namespace

bool runOnColumnPool(int parts, const std::function<void(int)>& part) { return columnPool().run(parts, part); }

void runInSlices(std::size_t n, std::size_t grain, int threads,
                 const std::function<void(std::size_t, std::size_t)>& slice) {
    const std::size_t grains = n / std::max<std::size_t>(grain, 1);
    const int parts = static_cast<int>(std::clamp<std::size_t>(grains, 1, static_cast<std::size_t>(std::max(threads, 1))));
    const std::function<void(int)> part = [&](int index) {
        const std::size_t begin = grains * static_cast<std::size_t>(index) / static_cast<std::size_t>(parts) * grain;
        const std::size_t end = index + 1 == parts ? n : grains * static_cast<std::size_t>(index + 1) / static_cast<std::size_t>(parts) * grain;
        if (end > begin) slice(begin, end);
    };
    if (parts > 1 && columnPool().run(parts, part)) return;
    slice(0, n);
}

bool ownSgemm(const SgemmArgs& args, int threads) {
    const SimdLevel level = activeSimdLevel();
    if (level == SimdLevel::Sse2) return false;
    const long quanta = (args.n + kColumnQuantum - 1) / kColumnQuantum;
    const int parts = static_cast<int>(std::clamp<long>(threads, 1, quanta));
    if (parts <= 1) return sgemmOnLevel(level, args);
    const std::function<void(int)> part = [&](int index) {
        const long n0 = std::min(args.n, quanta * index / parts * kColumnQuantum);
        const long n1 = std::min(args.n, quanta * (index + 1) / parts * kColumnQuantum);
        if (n1 > n0) sgemmOnLevel(level, columnPart(args, n0, n1));
    };
    if (!columnPool().run(parts, part)) sgemmOnLevel(level, args);
    return true;
}

bool ownSgemmWins(long m, long /*n*/, long /*k*/, bool transB, int threads) {
    // ATTNSCOPE_SGEMM=openblas | own: one side for every product (paired benchmarks), else the rule.
    static const int forced = [] {
        const char* choice = std::getenv("ATTNSCOPE_SGEMM");
        if (choice && std::strcmp(choice, "openblas") == 0) return 0;
        return choice && std::strcmp(choice, "own") == 0 ? 1 : -1;
    }();
    if (forced >= 0) return forced == 1;
    if (m <= 64) return true;  // forward pass, 1 thread: ours 1.2–1.5× at 32 and 48 tokens, 1.02–1.14× at 64 (README)
    // Past 64 the packed kernels, for nn.Linear's A·Bᵀ on AVX-512 up to 128 tokens (bert-base's
    // products in the forward pass 1.04–1.46× at 128, level at 256, 0.83–0.90× at 512); A·B
    // (Conv1D) and the AVX2 level stay with OpenBLAS: they lost or won too little (README).
    (void)threads;  // 2 threads, loaded machine: 1.2× at 128, behind at 512; the same bound for now
    return transB && m <= 128 && activeSimdLevel() == SimdLevel::Avx512;
}

}  // namespace attnscope
