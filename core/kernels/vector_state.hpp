#pragma once

namespace attnscope {

// Marks the vector registers' upper halves clean (VZEROUPPER) where the CPU has AVX; elsewhere
// nothing. Most of core is compiled for SSE2, and SSE code running after other code left the
// upper halves dirty pays on every instruction (figures in bench/README.md). Called
// where a worker thread starts a job (app/source/latest_request_worker.cpp) and before the lab's
// scaling sweep (ui/lab/scaling_panel.cpp).
void clearUpperVectorState();

}  // namespace attnscope
