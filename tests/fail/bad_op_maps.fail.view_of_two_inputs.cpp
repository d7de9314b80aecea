// A view_map output may view one input only: {0: [0, 1]}.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: bad_op_maps" in the first lines).
// expect: an op's view_map/destroy_map is malformed:
// names: two_view(x, y)
#include <inplace/graph.hpp>

namespace ip = inplace;
using namespace ip::literals;
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
namespace hana = boost::hana;
struct two_view {
  static constexpr auto view_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0, 1>));
};
struct one_view {
  static constexpr auto view_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>));
};
#ifdef INPLACE_SHOULD_FAIL
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::apply(two_view{}, x, y)));
#else
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::apply(one_view{}, x, y)));
#endif

int main() {}
