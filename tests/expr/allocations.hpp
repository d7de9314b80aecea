#pragma once
// Counts aligned allocations (ip::tensor storage and the evaluator's
// temporaries) by replacing the aligned forms of operator new/delete. Include
// it in one source file of a test executable only.

#include <cstddef>
#include <cstdlib>
#include <new>

namespace allocations {
inline int aligned = 0;

// Aligned allocations made while running f: the temporaries an assignment made.
template <class F>
int temporaries(F f) {
  const int before = aligned;
  f();
  return aligned - before;
}
}  // namespace allocations

void* operator new(std::size_t n, std::align_val_t a) {
  ++allocations::aligned;
  const auto al = static_cast<std::size_t>(a);
  if (void* p = std::aligned_alloc(al, (n + al - 1) / al * al)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
