// must_alias puts x + 1 in x's storage, but x is returned too: computing it
// there would destroy a returned value. With may_alias the call accepts it: it
// computes x + 1 elsewhere, copies x out and x + 1 into x's storage.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: alias_conflict" in the first lines).
// names: x | add(x, 1.0) | destroys_output
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(x), ip::outputs(x + 1.0_c, x), ip::io_alias<0, 0>(ip::must_alias));
#else
constexpr auto f = ip::function(ip::inputs(x), ip::outputs(x + 1.0_c, x), ip::io_alias<0, 0>(ip::may_alias));
#endif

int main() {}
