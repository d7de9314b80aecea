// Under ip::strict_donation, donating an argument whose storage the call's
// plan never uses is refused while compiling: reduce_sum(x) has one element,
// so x's storage can hold nothing of this graph (JAX only warns "Some donated
// buffers were not usable"). Donating y, whose storage exp(y) reuses, compiles.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: unused_donation" in the first lines).
// names: x
#include <inplace.hpp>

#include <utility>

namespace ip = inplace;
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::reduce_sum(x), ip::exp(y)), ip::strict_donation);

int main() {
  ip::tensor<float> p{1, 2, 3}, q{0, 0};
#ifdef INPLACE_SHOULD_FAIL
  auto out = f(std::move(p), std::move(q));
  return sizeof(out) == 0;
#else
  auto [s, e] = f(p, std::move(q));
  return static_cast<float>(s) == 6 && e.size() == 2 ? 0 : 1;
#endif
}
