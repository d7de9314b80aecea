// ip::plan takes one marker per tensor input.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: plan_arguments" in the first lines).
// expect: the number of markers is not
#include <inplace.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;
constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::exp(x)));

#ifdef INPLACE_SHOULD_FAIL
constexpr auto p = ip::plan(f, ip::donated, ip::borrowed);
#else
constexpr auto p = ip::plan(f, ip::donated);
#endif

int main() {}
