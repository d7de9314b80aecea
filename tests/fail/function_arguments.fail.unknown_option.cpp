// After inputs(...) and outputs(...) come only options of ip::function.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: function_arguments" in the first lines).
// expect: come only order(...)
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;

#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(x), ip::outputs(x + 1.0_c), 3);
#else
constexpr auto f = ip::function(ip::inputs(x), ip::outputs(x + 1.0_c), ip::no_rewrite);
#endif

int main() {}
