// A rank-1 tensor passed for the rank-2 input A: a compile error naming A.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: argument_mismatch" in the first lines).
// names: A
#include <inplace.hpp>

namespace ip = inplace;
constexpr auto A = ip::input<"A", float, 2>;
constexpr auto f = ip::function(ip::inputs(A), ip::outputs(ip::transpose(A)));

int main() {
#ifdef INPLACE_SHOULD_FAIL
  ip::tensor<float> a{1, 2, 3};
#else
  ip::tensor<float, 2> a{{1, 2, 3}};
#endif
  auto t = f(a);
  return t.size() == 3 ? 0 : 1;
}
