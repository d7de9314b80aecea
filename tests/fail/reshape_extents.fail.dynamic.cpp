// ip::reshape<E...> takes static extents; run-time ones are arguments.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: reshape_extents" in the first lines).
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float> x(12);
#ifdef INPLACE_SHOULD_FAIL
  auto v = ip::reshape<ip::dynamic, 4>(x);
#else
  auto v = ip::reshape(x, 3, 4);
#endif
  (void)v;
}
