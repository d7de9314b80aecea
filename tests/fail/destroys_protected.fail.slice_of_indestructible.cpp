// An in-place node writes x[1:] of an indestructible x (PyTensor's
// test_indestructible, through a view).
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: destroys_protected" in the first lines).
// names: x | neg_inplace(slice(...))
#include <inplace/graph.hpp>

namespace ip = inplace;
constexpr auto x = ip::input<"x", float, 1, ip::indestructible>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::neg_inplace(ip::slice<1>(x))));
#else
constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::neg(ip::slice<1>(x))));
#endif

int main() {}
