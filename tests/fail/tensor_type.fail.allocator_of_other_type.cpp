// A tensor's allocator allocates its element type.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: tensor_type" in the first lines).
// expect: Alloc must allocate T
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
#ifdef INPLACE_SHOULD_FAIL
  ip::tensor<float, 1, ip::aligned_allocator<double>> t(4);
#else
  ip::tensor<float, 1, ip::aligned_allocator<float>> t(4);
#endif
  (void)t;
}
