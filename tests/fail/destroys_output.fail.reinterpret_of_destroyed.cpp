// x is overwritten in place and its bytes are also returned as int32
// (a view of a destroyed root, through TVM's buffer alias).
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: destroys_output" in the first lines).
// names: reinterpret(x) | neg_inplace(x)
#include <inplace/graph.hpp>

#include <cstdint>

namespace ip = inplace;
constexpr auto x = ip::input<"x", float>;
#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::neg_inplace(x), ip::reinterpret<std::int32_t>(x)));
#else
constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::neg(x), ip::reinterpret<std::int32_t>(x)));
#endif

int main() {}
