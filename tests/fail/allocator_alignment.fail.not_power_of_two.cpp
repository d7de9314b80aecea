// An aligned_allocator aligns to a power of two.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: allocator_alignment" in the first lines).
// expect: Align must be a power of two
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
#ifdef INPLACE_SHOULD_FAIL
  ip::tensor<float, 1, ip::aligned_allocator<float, 48>> x(16);
#else
  ip::tensor<float, 1, ip::aligned_allocator<float, 32>> x(16);
#endif
  (void)x;
}
