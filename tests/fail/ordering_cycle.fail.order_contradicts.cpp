// order(...) asks for the destroyer before a reader of x.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: ordering_cycle" in the first lines).
// expect: no legal order
// names: exp(x) | add_inplace(x, y)
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto w = ip::add_inplace(x, y);
constexpr auto r = ip::exp(x);
#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(w, r), ip::order(w, r));
#else
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(w, r), ip::order(r, w));
#endif

int main() {}
