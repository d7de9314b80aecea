// np.uint8(3) * -1 raises OverflowError in NumPy 2: -1 does not fit uint8.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: dtype" in the first lines).
// expect: a weak integer constant does not fit the integer dtype it is converted to
#include <inplace/graph.hpp>

#include <cstdint>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto u = ip::input<"u", std::uint8_t, 3>;
#ifdef INPLACE_SHOULD_FAIL
[[maybe_unused]] constexpr auto r = u * -1_c;
#else
[[maybe_unused]] constexpr auto r = ip::cast<std::int16_t>(u) * -1_c;
#endif

int main() {}
