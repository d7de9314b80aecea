// k is declared ip::indestructible.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: destroys_protected" in the first lines).
// names: k | add_inplace(k, x)
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto k = ip::input<"k", float, 1, ip::indestructible>;
constexpr auto x = ip::input<"x", float>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(k, x), ip::outputs(ip::add_inplace(k, x)));
#else
constexpr auto f = ip::function(ip::inputs(k, x), ip::outputs(ip::add_inplace(x, k)));
#endif

int main() {}
