// set_inplace returns all of S with row 0 replaced; add_inplace would then
// overwrite row 1 of the same storage, which the first result holds. (With the
// pure ip::set, which the call computes in place only when it may: the _ok build.)
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: multiple_destroyers" in the first lines).
// names: S | set_inplace(S, b, index(...)) | add_inplace(index(...), b)
#include <inplace/graph.hpp>

namespace ip = inplace;
constexpr auto S = ip::input<"S", float, ip::extents<4, 6>>;
constexpr auto b = ip::input<"b", float, ip::extents<6>>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto y = ip::set_inplace(ip::row<0>(S), b);
#else
constexpr auto y = ip::set(ip::row<0>(S), b);
#endif
constexpr auto f = ip::function(ip::inputs(S, b), ip::outputs(y, ip::add_inplace(ip::row<1>(S), b)));

int main() {}
