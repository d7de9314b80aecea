// A broadcast view repeats elements and is read-only (as in NumPy): an update
// cannot write through it.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: update_region" in the first lines).
// expect: which is a broadcast view here
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto b = ip::input<"b", float, ip::extents<6>>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto y = ip::set(ip::broadcast_to<4, 6>(b), 1.0_c);
#else
constexpr auto y = ip::set(ip::slice<0, 6, 2>(b), 1.0_c);
#endif

int main() {}
