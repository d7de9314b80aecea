// ip::inputs(...) lists symbols, not expressions.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: function_arguments" in the first lines).
// expect: ip::inputs(...) takes the symbols
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;

#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(x, x + y), ip::outputs(x * 2.0_c));
#else
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(x * 2.0_c));
#endif

int main() {}
