// An elementwise op has one output in a graph: its operator() is the kernel and
// returns one scalar. An op of several outputs gives a kernel instead.
// Built twice by CTest: as is (must compile) and with INPLACE_SHOULD_FAIL
// (must fail with "inplace: op_kernel" in the first lines).
// long: the kernel is looked up where the graph runs, deep in the executor, after its types
// expect: an elementwise op runs in a graph with one output
#include <inplace.hpp>

namespace ip = inplace;
namespace hana = boost::hana;

struct sum_and_difference {  // (a + b, a - b)
  static constexpr std::string_view name = "sum_and_difference";
  static constexpr std::size_t num_outputs = 2;
#ifdef INPLACE_SHOULD_FAIL
  static constexpr bool elementwise = true;
  constexpr auto operator()(auto a, auto b) const { return a + b; }
#else
  template <class O0, class O1, class A, class B>
  void kernel(const O0& o0, const O1& o1, const A& a, const B& b) const {
    for (std::size_t i = 0; i < a.extent(0); ++i) o0(i) = a(i) + b(i), o1(i) = a(i) - b(i);
  }
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
