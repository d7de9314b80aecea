// np.concatenate([a, b], axis=0) needs equal extents on axis 1: 3 and 2 differ.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: concat_shapes" in the first lines).
// expect: take operands of one rank and static extents
#include <inplace/graph.hpp>

namespace ip = inplace;
constexpr auto a = ip::input<"a", float, ip::extents<2, 3>>;
constexpr auto b = ip::input<"b", float, ip::extents<2, 2>>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto c = ip::concatenate<0>(a, b);
#else
constexpr auto c = ip::concatenate<1>(a, b);
#endif

int main() {}
