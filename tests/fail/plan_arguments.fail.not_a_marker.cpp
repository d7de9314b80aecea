// ip::plan takes markers, not arguments.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: plan_arguments" in the first lines).
// expect: each marker is ip::donated or ip::borrowed
#include <inplace.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;
constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::exp(x)));

#ifdef INPLACE_SHOULD_FAIL
constexpr auto p = ip::plan(f, true);
#else
constexpr auto p = ip::plan(f, ip::donated);
#endif

int main() {}
