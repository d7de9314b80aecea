// ip::check takes ip::outputs(...) second.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: function_arguments" in the first lines).
// expect: the second argument of ip::function/ip::check
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;

#ifdef INPLACE_SHOULD_FAIL
constexpr auto c = ip::check(ip::inputs(x), x + 1.0_c);
#else
constexpr auto c = ip::check(ip::inputs(x), ip::outputs(x + 1.0_c));
#endif

int main() {}
