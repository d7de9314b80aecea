// ip::inputs(...) lists x twice.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: function_arguments" in the first lines).
// expect: lists a symbol twice
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;

#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(x, x), ip::outputs(x * 2.0_c));
#else
constexpr auto f = ip::function(ip::inputs(x), ip::outputs(x * 2.0_c));
#endif

int main() {}
