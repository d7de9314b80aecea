// A plain run-time number inside a graph: use 2.0_c or an ip::scalar.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: runtime_number_in_graph" in the first lines).
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto e = x * 2.0f;
#else
constexpr auto e = x * 2.0_c;
#endif

int main() {}
