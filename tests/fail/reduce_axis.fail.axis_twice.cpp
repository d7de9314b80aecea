// reduce_max<1, -2> names axis 1 of a matrix twice.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: reduce_axis" in the first lines).
// expect: a reduction's axes must be axes of the operand
#include <inplace/graph.hpp>

namespace ip = inplace;
constexpr auto A = ip::input<"A", float, ip::extents<3, 4>>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto m = ip::reduce_max<1, -1>(A);
#else
constexpr auto m = ip::reduce_max<1, -2>(A);
#endif

int main() {}
