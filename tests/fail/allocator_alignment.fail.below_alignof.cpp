// An aligned_allocator aligns to at least the element's alignment.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: allocator_alignment" in the first lines).
// expect: Align must be at least alignof(T)
#include <inplace/tensors.hpp>

namespace ip = inplace;
struct alignas(32) block {
  float v[8];
};

int main() {
#ifdef INPLACE_SHOULD_FAIL
  ip::tensor<block, 1, ip::aligned_allocator<block, 16>> x(4);
#else
  ip::tensor<block, 1, ip::aligned_allocator<block, 64>> x(4);
#endif
  (void)x;
}
