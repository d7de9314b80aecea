// In a graph, matmul of a scalar has no shape (NumPy's matmul refuses a
// scalar operand): multiplying by a scalar is s * A.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: shape_mismatch" in the first lines).
// names: matmul(s, A)
#include <inplace/graph.hpp>

namespace ip = inplace;
constexpr auto A = ip::input<"A", float, 2>;
constexpr auto s = ip::scalar<"s", float>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(A, s), ip::outputs(ip::matmul(s, A)));
#else
constexpr auto f = ip::function(ip::inputs(A, s), ip::outputs(s * A));
#endif

int main() {}
