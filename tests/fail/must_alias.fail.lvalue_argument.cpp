// io_alias<0, 0>(must_alias) returns output 0 in input 0's storage, so the
// argument for input 0 must be donated (an rvalue); an lvalue is refused while
// compiling (XLA finds this only at run time).
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: must_alias" in the first lines).
// expect: is returned in input I's
// names: x
#include <inplace.hpp>

#include <utility>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;
constexpr auto f = ip::function(ip::inputs(x), ip::outputs(x + 1.0_c), ip::io_alias<0, 0>(ip::must_alias));

int main() {
  ip::tensor<float> p{1, 2, 3};
#ifdef INPLACE_SHOULD_FAIL
  auto out = f(p);
#else
  auto out = f(std::move(p));
#endif
  return out.size() == 3 ? 0 : 1;
}
