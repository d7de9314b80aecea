// set_inplace(S[0:2], S[1:3]) writes rows 0 and 1 while its value reads rows 1
// and 2: row 1 is both read and written, through another index pattern. (Rows
// 2 and 3, S[2:4], share none: the _ok build compiles.)
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: aliasing_hazard" in the first lines).
// names: set_inplace(S, slice(...), slice(...)) | S | slice(S)
#include <inplace/graph.hpp>

namespace ip = inplace;
constexpr auto S = ip::input<"S", float, ip::extents<4, 6>>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto v = ip::view(S, ip::range<1, 3>);
#else
constexpr auto v = ip::view(S, ip::range<2, 4>);
#endif
constexpr auto f = ip::function(ip::inputs(S), ip::outputs(ip::set_inplace(ip::view(S, ip::range<0, 2>), v)));

int main() {}
