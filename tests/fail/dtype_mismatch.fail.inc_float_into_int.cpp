// inc of an int matrix's row by floats: the sum is floating-point, and x's
// dtype is int (NumPy's a[0] += 0.5 refuses it: same-kind casting).
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: dtype_mismatch" in the first lines).
// expect: ip::inc and ip::update<Op> of an integer x with a floating-point value
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto I = ip::input<"I", int, ip::extents<3, 4>>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto y = ip::inc(ip::row<0>(I), 0.5_c);
#else
constexpr auto y = ip::set(ip::row<0>(I), 0.5_c);  // converts, as a[0] = 0.5 does
#endif

int main() {}
