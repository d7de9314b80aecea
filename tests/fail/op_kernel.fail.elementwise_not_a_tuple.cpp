// An elementwise op of several outputs returns them from operator() as one
// tuple, output I being element I; the mistake is to return one scalar.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: op_kernel" in the first lines).
// long: the kernel is looked up where the graph runs, deep in the executor, after its types
// expect: an elementwise op of several outputs returns them
#include <inplace.hpp>

#include <tuple>

namespace ip = inplace;
namespace hana = boost::hana;

struct sum_and_difference {  // (a + b, a - b)
  static constexpr std::string_view name = "sum_and_difference";
  static constexpr std::size_t num_outputs = 2;
  static constexpr bool elementwise = true;
#ifdef INPLACE_SHOULD_FAIL
  constexpr auto operator()(auto a, auto b) const { return a + b; }
#else
  constexpr auto operator()(auto a, auto b) const { return std::tuple{a + b, a - b}; }
#endif
};
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto parts = ip::apply(sum_and_difference{}, x, y);
constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(hana::at_c<1>(parts)));

int main() {
  ip::tensor<float> a{1, 2}, b{3, 4};
  auto r = f(a, b);
  return r[0] == -2 ? 0 : 1;
}
