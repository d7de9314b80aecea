#pragma once
// Splitting an opaque kernel's work over OpenMP threads (CMake option
// INPLACE_OPENMP, which defines INPLACE_OPENMP=1 and links OpenMP). Without it,
// or below a kernel's threshold, or inside a running team, the work runs on the
// calling thread: nested teams on this library's loops would only oversubscribe.
//
// The thresholds are work sizes (elements touched, or multiply-adds for dot)
// under which a second thread did not pay on the machine of docs/performance.md
// ("OpenMP"), where they were measured; a build may set its own with the macros
// INPLACE_PARALLEL_{ELEMENTWISE,REDUCE,SOFTMAX,DOT}_THRESHOLD
// (bench/runtime/openmp_bench sets them to 1 to measure every size). Like
// INPLACE_OPENMP itself, they must be the same in every translation unit of a
// program (they change inline definitions).

#include <algorithm>
#include <cstddef>
#include <exception>

#if defined(INPLACE_OPENMP) && defined(_OPENMP)
#include <omp.h>
#endif

namespace inplace::detail::texpr {

#if !defined(INPLACE_PARALLEL_ELEMENTWISE_THRESHOLD)
#define INPLACE_PARALLEL_ELEMENTWISE_THRESHOLD (std::size_t{1} << 16)
#endif
#if !defined(INPLACE_PARALLEL_REDUCE_THRESHOLD)
#define INPLACE_PARALLEL_REDUCE_THRESHOLD (std::size_t{1} << 17)
#endif
#if !defined(INPLACE_PARALLEL_SOFTMAX_THRESHOLD)
#define INPLACE_PARALLEL_SOFTMAX_THRESHOLD (std::size_t{1} << 13)
#endif
#if !defined(INPLACE_PARALLEL_DOT_THRESHOLD)
#define INPLACE_PARALLEL_DOT_THRESHOLD (std::size_t{1} << 18)
#endif
// Elementwise loops (texpr_loop.hpp): elements written.
inline constexpr std::size_t parallel_threshold = INPLACE_PARALLEL_ELEMENTWISE_THRESHOLD;
// reduce_sum: elements read.
inline constexpr std::size_t parallel_reduce_threshold = INPLACE_PARALLEL_REDUCE_THRESHOLD;
// softmax: elements of the operand.
inline constexpr std::size_t parallel_softmax_threshold = INPLACE_PARALLEL_SOFTMAX_THRESHOLD;
// dot: multiply-adds (m k n).
inline constexpr std::size_t parallel_dot_threshold = INPLACE_PARALLEL_DOT_THRESHOLD;

// The number of threads f would be split over for `work` units (1: serial).
inline std::size_t parallel_threads([[maybe_unused]] std::size_t work, [[maybe_unused]] std::size_t threshold) {
#if defined(INPLACE_OPENMP) && defined(_OPENMP)
  if (work >= threshold && !omp_in_parallel()) return static_cast<std::size_t>(std::max(1, omp_get_max_threads()));
#endif
  return 1;
}

// f(t, i0, i1) for the t-th of `parts` ranges of [0, n), each a whole number of
// `grain`s but the last, run by `parts` threads (parts <= 1: f(0, 0, n) here).
// An exception cannot leave an OpenMP region: the first one a thread throws
// (a packing buffer's std::bad_alloc) is rethrown here once every thread is done.
template <class F>
void parallel_ranges(std::size_t parts, std::size_t n, std::size_t grain, F&& f) {
  const std::size_t chunks = (n + grain - 1) / grain;
  if (parts > chunks) parts = chunks;
#if defined(INPLACE_OPENMP) && defined(_OPENMP)
  if (parts > 1) {
    std::exception_ptr failed;
#pragma omp parallel num_threads(static_cast<int>(parts))
    {
      const auto t = static_cast<std::size_t>(omp_get_thread_num());
      const auto nt = static_cast<std::size_t>(omp_get_num_threads());
      const std::size_t i0 = std::min(n, chunks * t / nt * grain), i1 = std::min(n, chunks * (t + 1) / nt * grain);
      try {
        if (i0 < i1) f(t, i0, i1);
      } catch (...) {
#pragma omp critical(inplace_parallel_ranges)
        if (!failed) failed = std::current_exception();
      }
    }
    if (failed) std::rethrow_exception(failed);
    return;
  }
#endif
  f(std::size_t{0}, std::size_t{0}, n);
}

}  // namespace inplace::detail::texpr
