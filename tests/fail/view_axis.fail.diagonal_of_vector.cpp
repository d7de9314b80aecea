// ip::diagonal(x) of a vector: a diagonal needs two axes.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: view_axis" in the first lines).
// expect: ip::diagonal: the view has fewer than two axes
#include <inplace.hpp>

namespace ip = inplace;

int main() {
  ip::tensor<float> x(4);
  ip::tensor<float, 2> a(4, 4);
#ifdef INPLACE_SHOULD_FAIL
  auto v = ip::diagonal(x);
#else
  auto v = ip::diagonal(a);
#endif
  return v.extent(0) == 4 && x.size() == 4 ? 0 : 1;
}
