// y is used but not declared in inputs(...).
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: undeclared_input" in the first lines).
// names: y
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(x), ip::outputs(x + y));
#else
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(x + y));
#endif

int main() {}
