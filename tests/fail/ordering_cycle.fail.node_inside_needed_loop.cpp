// sub reads y after mul_inplace(y, y) overwrote it, so both share one fused loop
// with mul_inplace(n0, 3); reduce_sum(n0) must run inside that loop's span:
// after n0, before n0 is overwritten.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: ordering_cycle" in the first lines).
// expect: share one fused loop
// names: mul_inplace(mul_inplace(...), 3) | reduce_sum(mul_inplace(...)) | mul_inplace(y, y)
#include <inplace.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto y = ip::input<"y", float>;
constexpr auto n0 = ip::mul_inplace(y, y);
constexpr auto n3 = ip::mul_inplace(n0, 3_c);
#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(y), ip::outputs(ip::sub(n3, y), ip::reduce_sum(n0)));
#else
constexpr auto f = ip::function(ip::inputs(y), ip::outputs(ip::sub(n3, y), ip::reduce_sum(y)));
#endif

int main() {
  ip::tensor<float> t{1, 2, 3};
  auto r = f(t);
  (void)r;
}
