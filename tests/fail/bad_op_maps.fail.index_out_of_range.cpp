// destroy_map names input 2 of a binary op.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: bad_op_maps" in the first lines).
// expect: an op's view_map/destroy_map is malformed:
// names: scribble<2>(x, y)
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
namespace hana = boost::hana;
template <int I>
struct scribble {
  static constexpr bool elementwise = true;
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, I>));
  constexpr auto operator()(float a, float b) const { return a * b; }
};
#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::apply(scribble<2>{}, x, y)));
#else
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::apply(scribble<1>{}, x, y)));
#endif

int main() {}
