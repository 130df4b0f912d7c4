#!/usr/bin/env bash
# Runs core_tests' model checks (every runModel vs the PyTorch fixtures at 1e-5: "[models]", without
# the slow bert-base-shape case) on one family of OpenBLAS kernels: CORE_TESTS FAMILY, FAMILY one of
# Prescott, Haswell, SkylakeX (OPENBLAS_CORETYPE, read by OpenBLAS when it loads), sse3, avx2,
# avx512 (ATTNSCOPE_KERNELS: core/kernels/startup.cpp switches OpenBLAS after it loaded) or auto (the
# start-up decision of core/kernels/startup.cpp). Exit 77 (skipped) when this CPU cannot run FAMILY,
# decided from /proc/cpuinfo here, independently of core/model/blas_kernels.cpp.
set -uo pipefail
core_tests="$1"; family="$2"
flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
need() { for f in "$@"; do [[ "$flags" == *" $f "* ]] || { echo "skipped: this CPU has no $f for $family" >&2; exit 77; }; done; }
unset ATTNSCOPE_KERNELS OPENBLAS_CORETYPE ATTNSCOPE_EXPECT_BLAS_CORE
case "$family" in
  Prescott) need pni; export OPENBLAS_CORETYPE=Prescott ;;
  Haswell) need avx2 fma; export OPENBLAS_CORETYPE=Haswell ;;
  SkylakeX) need avx512f avx512bw avx512dq avx512vl; export OPENBLAS_CORETYPE=SkylakeX ;;
  sse3) need pni; export ATTNSCOPE_KERNELS=sse3 ATTNSCOPE_EXPECT_BLAS_CORE=Prescott ;;
  avx2) need avx2 fma; export ATTNSCOPE_KERNELS=avx2 ATTNSCOPE_EXPECT_BLAS_CORE=Haswell ;;
  avx512) need avx512f avx512bw avx512dq avx512vl; export ATTNSCOPE_KERNELS=avx512 ATTNSCOPE_EXPECT_BLAS_CORE=SkylakeX ;;
  auto) ;;
  *) echo "unknown family $family" >&2; exit 1 ;;
esac
export ATTNSCOPE_EXPECT_BLAS_CORE="${ATTNSCOPE_EXPECT_BLAS_CORE:-${OPENBLAS_CORETYPE:-auto}}"
"$core_tests" "[models]~[large],[kernels-active]"
