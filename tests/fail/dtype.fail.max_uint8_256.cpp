// np.maximum(np.uint8(3), 256) raises OverflowError in NumPy 2: 256 does not fit
// uint8 (a comparison u < 256_c compares by value and compiles).
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: dtype" in the first lines).
// expect: a weak integer constant does not fit the integer dtype it is converted to
#include <inplace/graph.hpp>

#include <cstdint>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto u = ip::input<"u", std::uint8_t, 3>;
#ifdef INPLACE_SHOULD_FAIL
[[maybe_unused]] constexpr auto r = ip::max(u, 256_c);
#else
[[maybe_unused]] constexpr auto r = ip::max(u, 255_c) + ip::cast<std::uint8_t>(u < 256_c);
#endif

int main() {}
