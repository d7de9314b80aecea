// np.where(c, np.uint8(3), 300) raises OverflowError in NumPy 2: where's value operands
// take their common dtype, uint8, which does not hold 300 (its condition is not one of them).
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: dtype" in the first lines).
// expect: a weak integer constant does not fit the integer dtype it is converted to
#include <inplace/graph.hpp>

#include <cstdint>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto u = ip::input<"u", std::uint8_t, 3>;
#ifdef INPLACE_SHOULD_FAIL
[[maybe_unused]] constexpr auto r = ip::where(u > 1_c, u, 300_c);
#else
[[maybe_unused]] constexpr auto r = ip::where(u > 1_c, u, 255_c);
#endif

int main() {}
