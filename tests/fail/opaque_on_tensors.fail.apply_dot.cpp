// ip::apply on tensors runs elementwise ops; dot has its own function.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: opaque_on_tensors" in the first lines).
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float, 2> a(2, 2), b(2, 2);
#ifdef INPLACE_SHOULD_FAIL
  ip::apply(ip::ops::dot{}, a, b);
#else
  ip::dot(a, b);
#endif
}
