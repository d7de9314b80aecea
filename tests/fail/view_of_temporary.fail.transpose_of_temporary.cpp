// A view of a temporary tensor would dangle.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: view_of_temporary" in the first lines).
// expect: a view of a temporary tensor would dangle
#include <inplace/tensors.hpp>

namespace ip = inplace;

int main() {
#ifdef INPLACE_SHOULD_FAIL
  auto v = ip::transpose(ip::tensor<float, 2>(2, 3));
#else
  ip::tensor<float, 2> t(2, 3);
  auto v = ip::transpose(t);
#endif
  (void)v;
}
