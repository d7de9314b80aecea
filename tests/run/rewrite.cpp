// The automatic in-place rewrite: when a pure node is computed in an input's
// storage, and one test per reason it is not.
#include "values.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <type_traits>
#include <vector>

namespace ip = inplace;
namespace hana = boost::hana;
using namespace ip::literals;
using ip::detail::run::refusal;

namespace {
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto A = ip::input<"A", float, 2>;
constexpr auto k = ip::input<"k", float, 1, ip::indestructible>;

// The plan's verdict on value v's node in f, for a donation mask (bit j: input j donated).
template <std::uint64_t Mask, class F, class V>
constexpr refusal why(F, V) {
  using S = typename F::spec;
  constexpr std::size_t e = S::entry_id(&std::remove_cvref_t<V>::entry::desc);
  return ip::detail::run::plan_for<S, Mask>::value.why[e];
}
template <std::uint64_t Mask, class F, class V>
constexpr int rewritten(F, V) {
  using S = typename F::spec;
  constexpr std::size_t e = S::entry_id(&std::remove_cvref_t<V>::entry::desc);
  return ip::detail::run::plan_for<S, Mask>::value.rewritten[e];
}

}  // namespace

TEST_CASE("a pure node is computed in a donated input with no later reader", "[rewrite]") {
  constexpr auto e = ip::exp(x);
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(e));
  STATIC_REQUIRE(rewritten<1>(f, e) == 0);
  STATIC_REQUIRE(why<1>(f, e) == refusal::none);
  STATIC_REQUIRE(ip::plan(f, ip::donated).allocations == 0);
  STATIC_REQUIRE(ip::plan(f, ip::donated).in_place == 1);
  ip::tensor<float> a{0, 0};
  const float* old = a.data();
  auto r = f(std::move(a));
  CHECK(r.data() == old);
  CHECK(values(r) == std::vector<float>{1, 1});
}

TEST_CASE("the rewrite chains through intermediates and fused loops", "[rewrite]") {
  // four nodes, one loop, all in x's storage
  constexpr auto r = ip::exp(x * 2.0_c + y) - y;
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(r));
  STATIC_REQUIRE(ip::plan(f, ip::donated, ip::borrowed) == ip::plan_result{0, 0, 1, 4, 0});
  STATIC_REQUIRE(ip::plan(f, ip::borrowed, ip::donated) == ip::plan_result{0, 0, 1, 3, 0});
  STATIC_REQUIRE(ip::plan(f, ip::borrowed, ip::borrowed).allocations == 1);
  // an opaque op's registered variant: softmax -> softmax_inplace in an intermediate
  constexpr auto s = ip::softmax(ip::exp(x)) * 2.0_c;
  constexpr auto g = ip::function(ip::inputs(x), ip::outputs(s));
  STATIC_REQUIRE(ip::plan(g, ip::borrowed) == ip::plan_result{1, 0, 3, 2, ip::dynamic});
}

TEST_CASE("refused: ip::no_rewrite", "[rewrite]") {
  constexpr auto e = ip::exp(x);
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(e), ip::no_rewrite);
  STATIC_REQUIRE(why<1>(f, e) == refusal::no_rewrite);
  STATIC_REQUIRE(ip::plan(f, ip::donated).allocations == 1);
}

TEST_CASE("refused: no registered variant", "[rewrite]") {
  constexpr auto d = ip::dot(A, A);
  constexpr auto f = ip::function(ip::inputs(A), ip::outputs(d));
  STATIC_REQUIRE(why<1>(f, d) == refusal::no_variant);
  STATIC_REQUIRE(rewritten<1>(f, d) == -1);
}

TEST_CASE("refused: another dtype", "[rewrite]") {
  constexpr auto h = ip::input<"h", short>;
  constexpr auto s = h + x;  // float; h is int16
  constexpr auto f = ip::function(ip::inputs(h, x), ip::outputs(s));
  STATIC_REQUIRE(why<0b01>(f, s) == refusal::dtype);
  STATIC_REQUIRE(rewritten<0b11>(f, s) == 1);  // x fits
}

TEST_CASE("refused: other extents (the input would be broadcast)", "[rewrite]") {
  constexpr auto s = x + A;  // (m, n)
  constexpr auto f = ip::function(ip::inputs(x, A), ip::outputs(s));
  STATIC_REQUIRE(why<0b01>(f, s) == refusal::extents);
  STATIC_REQUIRE(rewritten<0b11>(f, s) == 1);
}

TEST_CASE("refused: a borrowed input", "[rewrite]") {
  constexpr auto e = ip::exp(x);
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(e));
  STATIC_REQUIRE(why<0>(f, e) == refusal::borrowed);
}

TEST_CASE("refused: an indestructible input or a constant", "[rewrite]") {
  constexpr auto e = ip::exp(k);
  constexpr auto f = ip::function(ip::inputs(k), ip::outputs(e));
  STATIC_REQUIRE(why<1>(f, e) == refusal::protected_input);
  ip::tensor<float> a{0};
  const float* old = a.data();
  auto r = f(std::move(a));
  CHECK(r.data() != old);
  CHECK(a[0] == 0);
}

TEST_CASE("refused: a later reader", "[rewrite]") {
  constexpr auto e = ip::exp(x);
  constexpr auto m = x * 2.0_c;
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(e, m));
  STATIC_REQUIRE(ip::position(f, e) < ip::position(f, m));
  STATIC_REQUIRE(why<1>(f, e) == refusal::later_reader);
  STATIC_REQUIRE(rewritten<1>(f, m) == 0);  // the last reader takes the storage
  ip::tensor<float> a{0, 1};
  auto [re, rm] = f(std::move(a));
  CHECK(values(re) == std::vector<float>{1, std::exp(1.0f)});
  CHECK(values(rm) == std::vector<float>{0, 2});
  // read by the node itself with another index pattern
  constexpr auto t = A + ip::transpose(A);
  constexpr auto g = ip::function(ip::inputs(A), ip::outputs(t));
  STATIC_REQUIRE(why<1>(g, t) == refusal::later_reader);
}

TEST_CASE("refused: the input is an output", "[rewrite]") {
  constexpr auto e = ip::exp(x);
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(x, e));
  STATIC_REQUIRE(why<1>(f, e) == refusal::output);
}

TEST_CASE("refused: the input is reserved for an io_alias output", "[rewrite]") {
  constexpr auto e = ip::exp(x);
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(e, y * 2.0_c), ip::io_alias<1, 0>(ip::must_alias));
  STATIC_REQUIRE(why<0b11>(f, e) == refusal::io_alias);
}

TEST_CASE("refused: a view", "[rewrite]") {
  constexpr auto e = ip::exp(ip::transpose(A));
  constexpr auto f = ip::function(ip::inputs(A), ip::outputs(e));
  STATIC_REQUIRE(why<1>(f, e) == refusal::view);
}

TEST_CASE("refused: a value that lives only inside a fused loop", "[rewrite]") {
  constexpr auto d = ip::exp(x) - y;  // exp(x) is not stored: x is borrowed
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(d));
  STATIC_REQUIRE(why<0>(f, d) == refusal::fused);
}

namespace user_ops {  // (named: clang calls members of unnamed-namespace classes that only the library reads unused)
// A user op with a registered in-place variant: the rewrite uses only the registry.
struct axpy {
  static constexpr std::string_view name = "axpy";
  static constexpr bool elementwise = true;
  constexpr auto operator()(auto a, auto b) const { return 2 * a + b; }
};
struct axpy_inplace : axpy {
  static constexpr std::string_view name = "axpy_inplace";
  static constexpr auto destroy_map = hana::make_map(hana::make_pair(hana::int_c<0>, hana::tuple_c<int, 0>));
};
}  // namespace user_ops
template <>
struct inplace::inplace_variant_traits<user_ops::axpy, 0> {
  using type = user_ops::axpy_inplace;
};
using user_ops::axpy;

TEST_CASE("a user op with a registered variant is rewritten too", "[rewrite]") {
  constexpr auto r = ip::apply(axpy{}, x, y);
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(r));
  STATIC_REQUIRE(rewritten<0b01>(f, r) == 0);
  STATIC_REQUIRE(ip::plan(f, ip::donated, ip::borrowed).allocations == 0);
  ip::tensor<float> a{1, 2}, b{10, 20};
  const float* old = a.data();
  auto out = f(std::move(a), b);
  CHECK(out.data() == old);
  CHECK(values(out) == std::vector<float>{12, 24});
}

TEST_CASE("the rewrite never changes a result", "[rewrite]") {
  constexpr auto r = ip::softmax(ip::tanh(x * y + 1.0_c)) + ip::sigmoid(y);
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(r, ip::reduce_sum(r)));
  constexpr auto g = ip::function(ip::inputs(x, y), ip::outputs(r, ip::reduce_sum(r)), ip::no_rewrite);
  const ip::tensor<float> a{1, -2, 3, 0.5f, 7}, b{0.25f, 1, -1, 2, 0};
  auto [r1, s1] = f(ip::tensor<float>(a), ip::tensor<float>(b));
  auto [r2, s2] = g(a, b);
  CHECK(values(r1) == values(r2));
  CHECK(static_cast<float>(s1) == static_cast<float>(s2));
}
