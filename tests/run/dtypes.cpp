// The one element-type rule (ops/detail/dtype_rule.hpp) on graphs and tensors:
// each case a program once computed in a dtype other than NumPy 2's, or that
// lost its in-place plan to a constant's dtype.
#include "../tensor/allocations.hpp"  // (first: it makes the library count allocations)
#include "values.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;

namespace {
template <class T>
std::vector<double> as_doubles(const T& t) {
  std::vector<double> r;
  for (std::size_t i = 0; i < t.size(); ++i) r.push_back(static_cast<double>(t.data()[i]));
  return r;
}
}  // namespace

TEST_CASE("a weak float constant beside an int input is double, on graphs as on tensors", "[dtypes]") {
  constexpr auto i = ip::input<"i", int>;
  constexpr auto f = ip::function(ip::inputs(i), ip::outputs(i * 0.5_c, i + 0.5_c));
  ip::tensor<int> a{1, 2, 3};
  auto [m, s] = f(a);
  STATIC_REQUIRE(std::is_same_v<decltype(m), ip::tensor<double, 1>>);
  CHECK(as_doubles(m) == std::vector<double>{0.5, 1, 1.5});
  CHECK(as_doubles(s) == std::vector<double>{1.5, 2.5, 3.5});
  ip::tensor<double> tm = a * 0.5, ts = a + 0.5;
  STATIC_REQUIRE(std::is_same_v<decltype(a * 0.5)::value_type, double>);
  CHECK(as_doubles(tm) == as_doubles(m));
  CHECK(as_doubles(ts) == as_doubles(s));
  // a weak int keeps the int dtype
  constexpr auto g = ip::function(ip::inputs(i), ip::outputs(i * 3_c));
  STATIC_REQUIRE(std::is_same_v<decltype(g(a)), ip::tensor<int, 1>>);
}

TEST_CASE("expressions of constants fold into weak constants", "[dtypes]") {
  constexpr auto x = ip::input<"x", float>;
  STATIC_REQUIRE(std::is_same_v<decltype(-1.0_c)::dtype, ip::detail::weak_float>);
  STATIC_REQUIRE(decltype(-1.0_c)::value == -1.0L);
  STATIC_REQUIRE(decltype(1.0_c / 64_c)::value == 1.0L / 64);
  STATIC_REQUIRE(std::is_same_v<decltype(1_c + 2_c)::dtype, ip::detail::weak_int>);
  STATIC_REQUIRE(decltype(1_c + 2_c)::value == 3);
  STATIC_REQUIRE(decltype(7_c / 2_c)::value == 3);  // integer division, as on int tensors
  STATIC_REQUIRE(decltype(ip::max(1_c, 2.5_c))::value == 2.5L);

  constexpr auto f1 = ip::function(ip::inputs(x), ip::outputs(x * -1.0_c));
  constexpr auto f2 = ip::function(ip::inputs(x), ip::outputs(x * (1.0_c / 64_c)));
  constexpr auto f3 = ip::function(ip::inputs(x), ip::outputs(1_c + 2_c + x));
  ip::tensor<float> a{1, 2, 64};
  STATIC_REQUIRE(std::is_same_v<decltype(f1(a)), ip::tensor<float, 1>>);
  STATIC_REQUIRE(std::is_same_v<decltype(f2(a)), ip::tensor<float, 1>>);
  STATIC_REQUIRE(std::is_same_v<decltype(f3(a)), ip::tensor<float, 1>>);
  STATIC_REQUIRE(ip::plan(f1, ip::donated).allocations == 0);
  STATIC_REQUIRE(ip::plan(f2, ip::donated).allocations == 0);
  STATIC_REQUIRE(ip::plan(f3, ip::donated).allocations == 0);
  CHECK(as_doubles(f1(a)) == std::vector<double>{-1, -2, -64});
  CHECK(as_doubles(f2(a)) == std::vector<double>{1.0 / 64, 2.0 / 64, 1});
  CHECK(as_doubles(f3(a)) == std::vector<double>{4, 5, 67});
  const int before = allocations::aligned();
  ip::tensor<float> r = f1(std::move(a));
  CHECK(allocations::aligned() == before);
  CHECK(as_doubles(r) == std::vector<double>{-1, -2, -64});
}

TEST_CASE("a folded constant is an output like any constant: int64 or double alone", "[dtypes]") {
  constexpr auto x = ip::input<"x", float>;
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(x + 1_c, -1.5_c, 1_c + 2_c));
  auto [a, b, c] = f(ip::tensor<float>{1.f});
  STATIC_REQUIRE(std::is_same_v<decltype(a)::value_type, float>);
  STATIC_REQUIRE(std::is_same_v<decltype(b)::value_type, double>);
  STATIC_REQUIRE(std::is_same_v<decltype(c)::value_type, std::int64_t>);
  CHECK(a.data()[0] == 2.f);
  CHECK(b.data()[0] == -1.5);
  CHECK(c.data()[0] == 3);
}

TEST_CASE("where's weak constant takes the other branch's dtype, not the condition's", "[dtypes]") {
  constexpr auto c = ip::input<"c", bool>;
  constexpr auto x = ip::input<"x", float>;
  constexpr auto f = ip::function(ip::inputs(c, x), ip::outputs(ip::where(c, x, 1.0_c)));
  ip::tensor<bool> cc{true, false};
  ip::tensor<float> a{0.1f, 0.2f};
  auto r = f(cc, a);
  STATIC_REQUIRE(std::is_same_v<decltype(r), ip::tensor<float, 1>>);
  CHECK(as_doubles(r) == std::vector<double>{0.1f, 1.0});
  STATIC_REQUIRE(std::is_same_v<decltype(ip::where(cc, a, 1.0))::value_type, float>);
  // a double condition does not make it double either
  constexpr auto d = ip::input<"d", double>;
  constexpr auto g = ip::function(ip::inputs(d, x), ip::outputs(ip::where(d, x, 1.0_c)));
  STATIC_REQUIRE(std::is_same_v<decltype(g(ip::tensor<double>{1.0}, a)), ip::tensor<float, 1>>);
}

TEST_CASE("small integers keep their dtype, in place too", "[dtypes]") {
  constexpr auto u = ip::input<"u", std::uint16_t>;
  constexpr auto v = ip::input<"v", std::uint16_t>;
  constexpr auto f = ip::function(ip::inputs(u, v), ip::outputs(ip::add_inplace(u, v)));
  constexpr auto m = ip::function(ip::inputs(u, v), ip::outputs(ip::mul_inplace(u, v)));
  STATIC_REQUIRE(ip::check(ip::inputs(u, v), ip::outputs(ip::add_inplace(u, v))).ok);
  STATIC_REQUIRE(ip::plan(f, ip::donated, ip::borrowed).allocations == 0);
  ip::tensor<std::uint16_t> a{65535, 2, 300}, b{1, 3, 300};
  auto r = f(a, b);
  STATIC_REQUIRE(std::is_same_v<decltype(r), ip::tensor<std::uint16_t, 1>>);
  CHECK(as_doubles(r) == std::vector<double>{0, 5, 600});       // NumPy wraps modulo 2^16
  CHECK(as_doubles(m(a, b)) == std::vector<double>{65535, 6, 24464});  // 90000 % 65536
  // tensors: the same dtype, and in place
  STATIC_REQUIRE(std::is_same_v<decltype(a + b)::value_type, std::uint16_t>);
  ip::tensor<std::uint16_t> t{65535, 65535};
  t *= t;  // 65535 * 65535 does not overflow int: it is computed unsigned
  CHECK(as_doubles(t) == std::vector<double>{1, 1});
  ip::tensor<std::int8_t> s{100, -100};
  ip::add_inplace(s, s);
  CHECK(as_doubles(s) == std::vector<double>{-56, 56});
  constexpr auto i8 = ip::input<"i8", std::int8_t>;
  constexpr auto g = ip::function(ip::inputs(i8), ip::outputs(ip::add_inplace(i8, 1_c)));
  STATIC_REQUIRE(std::is_same_v<decltype(g(s)), ip::tensor<std::int8_t, 1>>);
  STATIC_REQUIRE(ip::plan(g, ip::donated).allocations == 0);
  CHECK(as_doubles(g(ip::tensor<std::int8_t>{127, 3})) == std::vector<double>{-128, 4});
}

TEST_CASE("a double scalar beside a float input computes in double", "[dtypes]") {
  constexpr auto y = ip::input<"y", float>;
  constexpr auto a = ip::scalar<"a", double>;
  constexpr auto f = ip::function(ip::inputs(y, a), ip::outputs(y * a));
  auto r = f(ip::tensor<float>{0.125f}, 1.0 / 3);
  STATIC_REQUIRE(std::is_same_v<decltype(r), ip::tensor<double, 1>>);
  CHECK(r.data()[0] == 0.125 * (1.0 / 3));  // 0.041666666666666664, not float's 0.041666667908430099

  // a chain: where(x, a, y) is double (x's dtype does not count), then tanh of it
  constexpr auto x = ip::input<"x", double>;
  constexpr auto yf = ip::input<"yf", float>;
  constexpr auto g = ip::function(ip::inputs(x, a, yf), ip::outputs(ip::tanh(ip::where(x, a, yf))));
  ip::tensor<double> xs{1.0, 0.0};
  ip::tensor<float> ys{0.3f, 0.3f};
  auto t = g(xs, 1.0 / 3, ys);
  STATIC_REQUIRE(std::is_same_v<decltype(t), ip::tensor<double, 1>>);
  // (tanh may be xsimd's, within an ulp of std::tanh; float would be 1e-8 off)
  CHECK(t.data()[0] == Approx(std::tanh(1.0 / 3)).epsilon(1e-15));
  CHECK(t.data()[1] == Approx(std::tanh(static_cast<double>(0.3f))).epsilon(1e-15));
  auto td = g.debug(xs, 1.0 / 3, ys);  // debug mode's reference agrees with the call
  CHECK(as_doubles(td) == as_doubles(t));
}

TEST_CASE("an opaque op's dtype does not depend on its arguments' order", "[dtypes]") {
  constexpr auto y = ip::input<"y", float>;
  constexpr auto x = ip::input<"x", double>;
  constexpr auto f = ip::function(ip::inputs(y, x), ip::outputs(ip::dot(y, x), ip::dot(x, y)));
  ip::tensor<float> a{0.1f, 0.2f};
  ip::tensor<double> b{1.0 / 3, 3.0};
  auto [p, q] = f(a, b);
  STATIC_REQUIRE(std::is_same_v<decltype(p), ip::tensor<double, 0>>);
  STATIC_REQUIRE(std::is_same_v<decltype(q), ip::tensor<double, 0>>);
  const double want = static_cast<double>(0.1f) / 3 + static_cast<double>(0.2f) * 3;
  CHECK(p.data()[0] == Approx(want).epsilon(1e-15));
  CHECK(q.data()[0] == Approx(want).epsilon(1e-15));
  STATIC_REQUIRE(std::is_same_v<decltype(ip::dot(a, b)), ip::tensor<double, 0>>);
  STATIC_REQUIRE(std::is_same_v<decltype(ip::dot(ip::tensor<int>{1}, ip::tensor<float>{1.f})), ip::tensor<double, 0>>);
}
