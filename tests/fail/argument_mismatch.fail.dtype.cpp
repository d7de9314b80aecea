// A tensor of doubles passed for the float input x: a compile error naming x.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: argument_mismatch" in the first lines).
// names: x
#include <inplace.hpp>

namespace ip = inplace;
constexpr auto x = ip::input<"x", float>;
constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::exp(x)));

int main() {
#ifdef INPLACE_SHOULD_FAIL
  ip::tensor<double> a{1, 2, 3};
#else
  ip::tensor<float> a{1, 2, 3};
#endif
  auto r = f(a);
  return r.size() == 3 ? 0 : 1;
}
