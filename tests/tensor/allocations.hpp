#pragma once
// Counts the blocks ip::aligned_allocator (ip::tensor storage, the evaluator's
// temporaries, a call's buffers) allocates on this thread: the library counts
// them when INPLACE_COUNT_ALLOCATIONS is defined before its first include
// (a test-only switch: it changes an inline function, so every translation unit
// of a program must agree on it; a test executable has one that includes the
// library).
#if defined(INPLACE_TENSOR_ALIGNED_ALLOCATOR_INCLUDED) && !defined(INPLACE_COUNT_ALLOCATIONS)
#error "include allocations.hpp before the library's headers"
#endif
#define INPLACE_COUNT_ALLOCATIONS 1
#include <inplace/tensor/aligned_allocator.hpp>

namespace allocations {
// Blocks allocated so far on this thread.
inline int aligned() { return static_cast<int>(inplace::detail::aligned_allocations); }

// Aligned allocations made while running f: the temporaries an assignment made.
template <class F>
int temporaries(F f) {
  const int before = aligned();
  f();
  return aligned() - before;
}
}  // namespace allocations
