// np.int8(1) + 1000 raises OverflowError in NumPy 2 (NEP 50): 1000 does not fit
// int8, the dtype the weak constant takes; a graph does not compile it.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: dtype" in the first lines).
// expect: a weak integer constant does not fit the integer dtype it is converted to
#include <inplace/graph.hpp>

#include <cstdint>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", std::int8_t, 3>;
#ifdef INPLACE_SHOULD_FAIL
[[maybe_unused]] constexpr auto r = x + 1000_c;
#else
[[maybe_unused]] constexpr auto r = ip::cast<std::int16_t>(x) + 1000_c;
#endif

int main() {}
