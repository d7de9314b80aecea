// ip::position(f, v) of a node that f does not compute.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: foreign_value" in the first lines).
// names: log(...)
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto r = ip::exp(x);
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(r));

#ifdef INPLACE_SHOULD_FAIL
constexpr int p = ip::position(f, ip::log(y));
#else
constexpr int p = ip::position(f, r);
#endif

int main() {}
