// ip::reinterpret<double> of float elements halves the last axis, reading
// two neighbouring floats as one double: the transpose of S (static extents)
// has no such neighbours (NumPy's S.T.view(np.float64) raises too). A dense
// view, such as a block of whole rows, may be reinterpreted.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: shape_mismatch" in the first lines).
// expect: reads a view whose static layout is not dense
// names: reinterpret(transpose(...))
#include <inplace/graph.hpp>

namespace ip = inplace;
constexpr auto S = ip::input<"S", float, ip::extents<4, 6>>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(S), ip::outputs(ip::reinterpret<double>(ip::transpose(S))));
#else
constexpr auto f = ip::function(ip::inputs(S), ip::outputs(ip::reinterpret<double>(ip::view(S, ip::range<1, 3>))));
#endif

int main() {}
