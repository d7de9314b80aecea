// ip::plan of a must_alias function with its aliased input borrowed.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: must_alias" in the first lines).
// expect: lives in input I
#include <inplace.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;
constexpr auto f = ip::function(ip::inputs(x), ip::outputs(x + 1.0_c), ip::io_alias<0, 0>(ip::must_alias));

#ifdef INPLACE_SHOULD_FAIL
constexpr auto p = ip::plan(f, ip::borrowed);
#else
constexpr auto p = ip::plan(f, ip::donated);
#endif

int main() {}
