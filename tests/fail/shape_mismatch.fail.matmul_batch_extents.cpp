// np.matmul of (2, 3, 4) and (3, 4, 2) raises: the batch extents 2 and 3 do
// not broadcast (only an extent 1 repeats).
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: shape_mismatch" in the first lines).
// names: matmul(C, D)
#include <inplace/graph.hpp>

namespace ip = inplace;
constexpr auto C = ip::input<"C", float, ip::extents<2, 3, 4>>;
constexpr auto D = ip::input<"D", float, ip::extents<3, 4, 2>>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(C, D), ip::outputs(ip::matmul(C, D)));
#else
constexpr auto f = ip::function(ip::inputs(C, D), ip::outputs(ip::matmul(ip::view(C, ip::range<0, 1>), D)));
#endif

int main() {}
