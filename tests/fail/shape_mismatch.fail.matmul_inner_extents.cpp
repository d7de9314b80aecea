// np.matmul of (2, 3) and (4, 5) raises: the inner extents (3 and 4) differ;
// with static extents a graph refuses it when it is built.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: shape_mismatch" in the first lines).
// names: matmul(A, B)
#include <inplace/graph.hpp>

namespace ip = inplace;
constexpr auto A = ip::input<"A", float, ip::extents<2, 3>>;
constexpr auto B = ip::input<"B", float, ip::extents<4, 5>>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(A, B), ip::outputs(ip::matmul(A, B)));
#else
constexpr auto f = ip::function(ip::inputs(A, B), ip::outputs(ip::matmul(ip::transpose(A), ip::view(B, ip::range<0, 2>))));
#endif

int main() {}
