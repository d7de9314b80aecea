// io_alias names input 2 of a two-input function.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: bad_alias_spec" in the first lines).
// names: io_alias<0, 2>
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(x + y), ip::io_alias<0, 2>(ip::must_alias));
#else
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(x + y), ip::io_alias<0, 1>(ip::must_alias));
#endif

int main() {}
