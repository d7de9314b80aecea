// ip::order(...) orders two values or more.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: function_arguments" in the first lines).
// expect: ip::order(...) takes at least two values
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto r1 = ip::exp(x);
constexpr auto r2 = ip::log(y);

#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(r1, r2), ip::order(r2));
#else
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(r1, r2), ip::order(r2, r1));
#endif

int main() {}
