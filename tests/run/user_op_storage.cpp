// User ops whose destroy_map puts outputs over several inputs, called with
// borrowed arguments: what scripts/gen_user_op_graphs.py found (two storage bugs,
// fixed); each case states what a correct call does.
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <string_view>

namespace ip = inplace;
namespace hana = boost::hana;
using namespace ip::literals;

namespace user_op_storage {
// out = a + b in a's storage; b is listed too, so the kernel may overwrite it
// (it zeroes it): a borrowed b must be copied first, as a is.
struct add_consuming_both {
  static constexpr std::string_view name = "add_consuming_both";
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0, 1>));
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 2>& in) { return in[0]; }
  template <class O, class A, class B>
  void kernel(const O& out, const A& a, const B& b) const {
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = a[i] + b[i];
    for (std::size_t i = 0; i < b.size(); ++i) const_cast<float&>(b[i]) = 0;
  }
};
// Three outputs, each over its own input: out0 = a + b over a; out1 (= b) over
// b and out2 (= c) over c, left in place.
struct three {
  static constexpr std::string_view name = "three";
  static constexpr std::size_t num_outputs = 3;
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>),
                                                     hana::make_pair(hana::int_c<1>, hana::tuple_c<int, 1>),
                                                     hana::make_pair(hana::int_c<2>, hana::tuple_c<int, 2>));
  static constexpr ip::shape output_shape(std::size_t, const std::array<ip::shape, 3>& in) { return in[0]; }
  template <class O0, class O1, class O2, class A, class B, class C>
  void kernel(const O0& o0, const O1&, const O2&, const A& a, const B& b, const C&) const {
    for (std::size_t i = 0; i < a.size(); ++i) o0[i] = a[i] + b[i];
  }
};
}  // namespace user_op_storage

TEST_CASE("a destroy_map listing a second input copies that input when it is borrowed", "[run][user_ops]") {
  constexpr auto x = ip::input<"x", float>;
  constexpr auto y = ip::input<"y", float>;
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::apply(user_op_storage::add_consuming_both{}, x, y)));
  ip::tensor<float> a{1, 2, 3}, b{10, 20, 30};
  const auto r = f(a, b);
  CHECK(r[2] == 33);
  CHECK(a[2] == 3);
  CHECK(b[2] == 30);  // was 0: y was not copied (explain: "copies 1", of x only)
}

TEST_CASE("a borrowed input's copy never lands in the buffer of another input of the same node",
          "[run][user_ops]") {
  constexpr auto s = ip::input<"s", float>;
  constexpr auto n0 = ip::tanh(s);
  constexpr auto n1 = n0 + 1.5_c;
  constexpr auto n = ip::apply(user_op_storage::three{}, n1, n0, s);
  constexpr auto f = ip::function(ip::inputs(s), ip::outputs(hana::at_c<0>(n)));
  ip::tensor<float> a{0.5f, -1.0f, 0.25f};
  const auto r = f(a);  // the plan copied s into n0's buffer before the kernel read n0
  for (std::size_t i = 0; i < 3; ++i) CHECK(r[i] == Approx(2 * std::tanh(a[i]) + 1.5f));
  const auto d = f(ip::tensor<float>(a));  // donated: right
  for (std::size_t i = 0; i < 3; ++i) CHECK(d[i] == Approx(2 * std::tanh(a[i]) + 1.5f));
}
