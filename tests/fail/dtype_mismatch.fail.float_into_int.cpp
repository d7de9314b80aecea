// A floating-point result cannot be computed in the storage of an int input.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: dtype_mismatch" in the first lines).
// expect: an in-place output's dtype differs
// names: add_inplace(i, x)
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto i = ip::input<"i", int>;
constexpr auto x = ip::input<"x", double>;  // double: int32 with float would be double (NumPy), not float
#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(i, x), ip::outputs(ip::add_inplace(i, x)));
#else
constexpr auto f = ip::function(ip::inputs(i, x), ip::outputs(ip::add_inplace(x, i)));
#endif

int main() {}
