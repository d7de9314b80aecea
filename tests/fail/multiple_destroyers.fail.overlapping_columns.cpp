// a[:, ::2] += 1 and a[:, 2:5] *= 2: two in-place nodes overwrite column 2
// and column 4 of S. (a[:, 1::2] *= 2 overwrites none of the even columns:
// the _ok variant compiles, the two updates are independent.)
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: multiple_destroyers" in the first lines).
// names: S | add_inplace(slice(...), 1.0) | mul_inplace(slice(...), 2.0)
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto S = ip::input<"S", float, ip::extents<4, 6>>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto other = ip::view(S, ip::all, ip::range<2, 5>);
#else
constexpr auto other = ip::view(S, ip::all, ip::range<1, ip::end, 2>);
#endif
constexpr auto f = ip::function(ip::inputs(S), ip::outputs(ip::add_inplace(ip::view(S, ip::all, ip::range<0, ip::end, 2>), 1.0_c),
                                                           ip::mul_inplace(other, 2.0_c)));

int main() {}
