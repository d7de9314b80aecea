// A run-time number inside an expression of constants (1.0_c / 64); following the advice (64_c) folds it into one weak constant, so x keeps its dtype.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: runtime_number_in_graph" in the first lines).
#include <inplace/graph.hpp>

#include <type_traits>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto e = x * (1.0_c / 64);
#else
constexpr auto e = x * (1.0_c / 64_c);
static_assert(std::is_same_v<decltype(e)::dtype, float>);
#endif
int main() {}
