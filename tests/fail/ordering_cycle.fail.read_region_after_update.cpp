// set_inplace writes row 0 of S; the product reads the old row 0 and the
// update's result, so it would have to run both before and after the update.
// (Row 1, which the update does not write, may be read in any order: the _ok build.)
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: ordering_cycle" in the first lines).
// expect: no legal order
// names: mul(index(...), set_inplace(...)) | set_inplace(S, b, index(...))
#include <inplace/graph.hpp>

namespace ip = inplace;
constexpr auto S = ip::input<"S", float, ip::extents<4, 6>>;
constexpr auto b = ip::input<"b", float, ip::extents<6>>;
constexpr auto y = ip::set_inplace(ip::row<0>(S), b);
#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(S, b), ip::outputs(ip::row<0>(S) * y));
#else
constexpr auto f = ip::function(ip::inputs(S, b), ip::outputs(ip::row<1>(S) * y));
#endif

int main() {}
