// add_inplace(v, M): v (extents 4) would have to grow to M's (3, 4).
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: shape_mismatch" in the first lines).
// expect: static extents do not fit
// names: add_inplace(v, M)
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto v = ip::input<"v", float, ip::extents<4>>;
constexpr auto M = ip::input<"M", float, ip::extents<3, 4>>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(v, M), ip::outputs(ip::add_inplace(v, M)));
#else
constexpr auto f = ip::function(ip::inputs(v, M), ip::outputs(ip::add_inplace(M, v)));
#endif

int main() {}
