// An op takes at most 32 inputs: ip::sum of 33 values.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: op_arity" in the first lines).
// long: g++ prints the node type of the 33 arguments first
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;
#define X4 x, x, x, x
#define X32 X4, X4, X4, X4, X4, X4, X4, X4

#ifdef INPLACE_SHOULD_FAIL
constexpr auto r = ip::sum(X32, x);
#else
constexpr auto r = ip::sum(ip::sum(X32), x);
#endif

int main() {}
