#include "core/model/sgemm.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <mutex>
#include <thread>
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
// thread started per product would cost more than a 32-token product's share of a core.
class ColumnPool {
public:
    // False (nothing run) when another thread is using the pool: the caller runs alone then.
    bool run(int parts, const std::function<void(int)>& part) {
        std::unique_lock busy(busy_, std::try_to_lock);
        if (!busy.owns_lock()) return false;
        while (static_cast<int>(workers_.size()) < parts - 1) {
            const int index = static_cast<int>(workers_.size()) + 1;
            workers_.emplace_back([this, index, seen = generation_] { work(index, seen); });
        }
        {
            std::lock_guard lock(mutex_);
            job_ = &part;
            parts_ = parts;
            pending_ = parts - 1;
            ++generation_;
        }
        wake_.notify_all();
        part(0);
        std::unique_lock lock(mutex_);
        done_.wait(lock, [this] { return pending_ == 0; });
        job_ = nullptr;
        return true;
    }

private:
    void work(int index, unsigned long seen) {  // seen: the jobs before this worker started
        for (;;) {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return generation_ != seen; });
            seen = generation_;
            if (index >= parts_) continue;  // this job has fewer parts than there are workers
            const std::function<void(int)>* job = job_;
            lock.unlock();
            (*job)(index);
            lock.lock();
            if (--pending_ == 0) done_.notify_one();
        }
    }

    std::mutex busy_, mutex_;
    std::condition_variable wake_, done_;
    std::vector<std::thread> workers_;  // detached by never being joined: see columnPool()
    const std::function<void(int)>* job_ = nullptr;
    int parts_ = 0, pending_ = 0;
    unsigned long generation_ = 0;
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
