// ip::noalias(d) = e writes d: d must not be a view of const.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: const_destination" in the first lines).
// expect: ip::noalias needs a destination
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float> x{1, 2}, y{3, 4};
  ip::tensor_view<const float, 1> c = x.view();
  (void)c;
#ifdef INPLACE_SHOULD_FAIL
  ip::noalias(c) = y + y;
#else
  ip::noalias(x) = y + y;
#endif
}
