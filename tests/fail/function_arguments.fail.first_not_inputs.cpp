// ip::function takes ip::inputs(...) first.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: function_arguments" in the first lines).
// expect: the first argument of ip::function/ip::check
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;

#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::outputs(x + 1.0_c), ip::inputs(x));
#else
constexpr auto f = ip::function(ip::inputs(x), ip::outputs(x + 1.0_c));
#endif

int main() {}
