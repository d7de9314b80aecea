// dot needs x before add_inplace overwrites it, and add_inplace's result after.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: ordering_cycle" in the first lines).
// expect: no legal order
// names: dot(x, add_inplace(...)) | add_inplace(x, y)
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::dot(x, ip::add_inplace(x, y))));
#else
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::mul(x, ip::add_inplace(x, y))));
#endif

int main() {}
