// add_inplace(S[:, 0:4:2], S[:, 2:6:2]) writes columns 0 and 2 while reading
// columns 2 and 4: column 2 is both read and written, through another index
// pattern. (Columns 1 and 3, S[:, 1:5:2], share none: the _ok variant compiles.)
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: aliasing_hazard" in the first lines).
// names: add_inplace(slice(...), slice(...)) | S | slice(S)
#include <inplace/graph.hpp>

namespace ip = inplace;
constexpr auto S = ip::input<"S", float, ip::extents<4, 6>>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto read = ip::view(S, ip::all, ip::range<2, 6, 2>);
#else
constexpr auto read = ip::view(S, ip::all, ip::range<1, 5, 2>);
#endif
constexpr auto f = ip::function(ip::inputs(S), ip::outputs(ip::add_inplace(ip::view(S, ip::all, ip::range<0, 4, 2>), read)));

int main() {}
