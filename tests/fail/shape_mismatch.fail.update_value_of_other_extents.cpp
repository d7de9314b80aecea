// v must broadcast to the region: a column of 4 elements cannot take 6.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: shape_mismatch" in the first lines).
// names: set(S, b, index(...))
#include <inplace/graph.hpp>

namespace ip = inplace;
constexpr auto S = ip::input<"S", float, ip::extents<4, 6>>;
constexpr auto b = ip::input<"b", float, ip::extents<6>>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(S, b), ip::outputs(ip::set(ip::col<0>(S), b)));
#else
constexpr auto f = ip::function(ip::inputs(S, b), ip::outputs(ip::set(ip::row<0>(S), b)));
#endif

int main() {}
