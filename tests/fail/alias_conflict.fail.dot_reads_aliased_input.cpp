// must_alias computes the output in A's storage, but dot(A, A) reads A while
// computing it. (With may_alias the call would compute it elsewhere and copy
// it into A's storage when it returns.)
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: alias_conflict" in the first lines).
// names: dot(A, A) | A | aliasing_hazard
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto A = ip::input<"A", float, 2>;
constexpr auto B = ip::input<"B", float, 2>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(A, B), ip::outputs(ip::dot(A, A)), ip::io_alias<0, 0>(ip::must_alias));
#else
constexpr auto f = ip::function(ip::inputs(A, B), ip::outputs(ip::dot(A, A)), ip::io_alias<0, 1>(ip::must_alias));
#endif

int main() {}
