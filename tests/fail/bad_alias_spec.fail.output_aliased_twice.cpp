// One output aliased to two inputs (XLA's hlo_input_output_alias_config_test
// OutputDoNotAliasTwice): an output lives in one storage only.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: bad_alias_spec" in the first lines).
// names: io_alias<0, 1> | io_alias<0, 0>
#include <inplace/graph.hpp>

namespace ip = inplace;
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(x + y), ip::io_alias<0, 0>(ip::must_alias),
                                ip::io_alias<0, 1>(ip::must_alias));
#else
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(x + y), ip::io_alias<0, 1>(ip::must_alias));
#endif

int main() {}
