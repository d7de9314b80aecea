// Two in-place nodes overwrite x.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: multiple_destroyers" in the first lines).
// names: x | add_inplace(x, y) | mul_inplace(x, y)
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, y), ip::mul_inplace(x, y)));
#else
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::add_inplace(x, y), ip::mul(x, y)));
#endif

int main() {}
