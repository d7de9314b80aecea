// ip::update<Op> combines each element of the region with one of v: Op must be
// elementwise.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: update_op" in the first lines).
// expect: combines the region with v by an elementwise op
#include <inplace/graph.hpp>

namespace ip = inplace;
constexpr auto S = ip::input<"S", float, ip::extents<4, 6>>;
constexpr auto b = ip::input<"b", float, ip::extents<6>>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto y = ip::update<ip::ops::dot>(ip::row<0>(S), b);
#else
constexpr auto y = ip::update<ip::ops::mul>(ip::row<0>(S), b);
#endif

int main() {}
