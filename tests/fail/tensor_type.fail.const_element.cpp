// A tensor owns mutable elements; const belongs on a view.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: tensor_type" in the first lines).
// expect: tensor<T>: T must be a trivially copyable
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
#ifdef INPLACE_SHOULD_FAIL
  ip::tensor<const float> t(4);
#else
  ip::tensor<float> t(4);
#endif
  (void)t;
}
