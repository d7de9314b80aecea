// softmax_inplace(X) * X: the opaque destroyer has no fused loop to share with
// the reader of X, which needs X both before (X) and after (the softmax).
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: ordering_cycle" in the first lines).
// names: mul(softmax_inplace(...), X) | softmax_inplace(X)
#include <inplace/graph.hpp>

namespace ip = inplace;
constexpr auto X = ip::input<"X", float, 2>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(X), ip::outputs(ip::softmax_inplace(X) * X));
#else
constexpr auto f = ip::function(ip::inputs(X), ip::outputs(ip::softmax(X) * X));
#endif

int main() {}
