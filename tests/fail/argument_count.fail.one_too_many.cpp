// f takes one argument per input.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: argument_count" in the first lines).
#include <inplace.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;
constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::exp(x)));

int main() {
  ip::tensor<float> a{1, 2, 3};
#ifdef INPLACE_SHOULD_FAIL
  auto r = f(a, a);
#else
  auto r = f(a);
#endif
  (void)r;
}
