// A comparison gives bool: it has no in-place form over its float operand.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: no_inplace_form" in the first lines).
#include <inplace/graph.hpp>

namespace ip = inplace;

constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto l = ip::less_inplace(x, y);
#else
constexpr auto l = ip::less(x, y);
#endif

int main() { (void)l; }
