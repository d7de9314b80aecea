// add_inplace(broadcast_to<3, 6>(row<0>(S)), 1) writes each element of row 0
// three times through a stride-0 view: never legal.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: aliasing_hazard" in the first lines).
// names: S
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto S = ip::input<"S", float, ip::extents<4, 6>>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(S), ip::outputs(ip::add_inplace(ip::broadcast_to<3, 6>(ip::row<0>(S)), 1.0_c)));
#else
constexpr auto f = ip::function(ip::inputs(S), ip::outputs(ip::add(ip::broadcast_to<3, 6>(ip::row<0>(S)), 1.0_c)));
#endif

int main() {}
