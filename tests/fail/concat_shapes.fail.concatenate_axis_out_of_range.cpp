// np.concatenate([a, a], axis=2) of matrices raises (AxisError): the axes of
// a matrix are -2 .. 1.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: concat_shapes" in the first lines).
// expect: Axis in -rank .. rank - 1
#include <inplace/graph.hpp>

namespace ip = inplace;
constexpr auto a = ip::input<"a", float, ip::extents<2, 3>>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto c = ip::concatenate<2>(a, a);
#else
constexpr auto c = ip::concatenate<-2>(a, a);
#endif

int main() {}
