// Two in-place nodes overwrite x, and the program goes on using f: its call,
// the result, ip::plan, ip::explain, ip::to_dot, ip::position. The rule's
// message stays the only error (f holds the rule's type, which takes these
// uses; std::get and structured bindings of the call's result are not taken).
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: multiple_destroyers" in the first lines).
// names: x | add_inplace(x, y) | mul_inplace(x, y)
#include <inplace.hpp>

#include <string>

namespace ip = inplace;
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto r1 = ip::add_inplace(x, y);
#ifdef INPLACE_SHOULD_FAIL
constexpr auto r2 = ip::mul_inplace(x, y);
#else
constexpr auto r2 = ip::mul(x, y);
#endif
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::add(r1, r2)));

int main() {
  ip::tensor<float> a(4), b(4);
  auto r = f(a, b);
  const float first = r(0);
  (void)first;
  constexpr auto p = ip::plan(f, ip::borrowed, ip::borrowed);
  static_assert(p.allocations >= 0);
  const std::string text = ip::explain(f, ip::borrowed, ip::borrowed) + ip::to_dot(f);
  return ip::position(f, r1) + static_cast<int>(text.size());
}
