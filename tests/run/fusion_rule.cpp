// The fused-loop rule at run time (graph/detail/fusion_rule.hpp): what ip::check
// accepts runs; a loop never stores values of different extents unless the
// analysis needs that loop, and then a call whose extents differ is a
// shape_error naming them; static extent 1 beside a dynamic extent is left to
// the call.
#include "values.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;

namespace {
template <class T>
bool same_values(const T& a, const T& b) {
  return values(a) == values(b);
}
}  // namespace

TEST_CASE("a loop does not store a value broadcast against another of its values", "[run][fusion]") {
  // sub_inplace's result (7x1) is returned and read by add (7x7): one loop storing
  // both threw "cannot assign extents (7, 7) to a destination of extents (7, 7)"
  constexpr auto x = ip::input<"x", float, 1>;
  constexpr auto y = ip::input<"y", double, 2>;
  constexpr auto n0 = ip::apply(ip::ops::inplace_op<ip::ops::sub, 1>{}, 2_c, y);
  constexpr auto n3 = ip::expand_dims<-2>(x) + n0;
  constexpr auto in = ip::inputs(x, y);
  constexpr auto out = ip::outputs(ip::transpose(ip::min(n3, 2_c)), n0);
  STATIC_REQUIRE(ip::check(in, out).ok);
  constexpr auto f = ip::function(in, out);
  constexpr auto pure = ip::function(in, out, ip::no_rewrite);
  // sub_inplace in a loop of its own; add and min in another
  STATIC_REQUIRE(ip::plan(f, ip::donated, ip::donated).loops == 2);
  STATIC_REQUIRE(ip::plan(f, ip::borrowed, ip::borrowed).loops == 2);

  ip::tensor<float> xs(7);
  ip::tensor<double, 2> ys(7, 1);
  for (std::size_t i = 0; i < 7; ++i) xs[i] = 0.5f * static_cast<float>(i) - 1, ys(i, 0) = 0.25 * static_cast<double>(i);
  std::vector<float> want_t, want_n0;  // t(j, i) = min(x[j] + (2 - y[i]), 2)
  for (std::size_t j = 0; j < 7; ++j)
    for (std::size_t i = 0; i < 7; ++i)
      want_t.push_back(static_cast<float>(std::min(static_cast<double>(xs[j]) + (2 - ys(i, 0)), 2.0)));
  for (std::size_t i = 0; i < 7; ++i) want_n0.push_back(static_cast<float>(2 - ys(i, 0)));

  const auto check = [&](auto&& r) {
    auto& [t, n] = r;
    CHECK(values(t) == want_t);
    CHECK(values(n) == want_n0);
  };
  const auto xb = xs;
  const auto yb = ys;
  check(f(xs, ys));
  check(pure(xs, ys));
  CHECK(same_values(xs, xb));
  CHECK(same_values(ys, yb));
  check(f(ip::tensor<float>(xs), ys));
  check(f(xs, ip::tensor<double, 2>(ys)));
  check(f(ip::tensor<float>(xs), ip::tensor<double, 2>(ys)));
  check(pure(ip::tensor<float>(xs), ip::tensor<double, 2>(ys)));
  CHECK(same_values(xs, xb));
  CHECK(same_values(ys, yb));
}

TEST_CASE("a loop the analysis needs, whose values differ in extents in a call, is a shape_error naming them",
          "[run][fusion]") {
  // sub reads y after mul_inplace overwrote it: one loop must run both, and it
  // stores n (extents of y) and the result (broadcast with z)
  constexpr auto y = ip::input<"y", float, 2>;
  constexpr auto z = ip::input<"z", float, 2>;
  constexpr auto n = ip::mul_inplace(y, 2_c);
  constexpr auto f = ip::function(ip::inputs(y, z), ip::outputs(n, ip::sub(ip::add(n, z), y)));
  ip::tensor<float, 2> ys(3, 1), zs(3, 4), z1(3, 1);
  for (std::size_t i = 0; i < 3; ++i) ys(i, 0) = 1.0f + static_cast<float>(i), z1(i, 0) = 10;
  const auto yb = ys;
  CHECK_THROWS_WITH(f(ys, zs), "inplace: shape_error: mul_inplace(y, 2) and sub(add(...), y) run in one fused loop "
                               "but have extents (3, 1) and (3, 4) in this call (one broadcast against the other)");
  CHECK_THROWS_WITH(f(ip::tensor<float, 2>(ys), zs), Catch::Contains("extents (3, 1) and (3, 4)"));
  CHECK_THROWS_AS(f(ys, zs), ip::shape_error);
  CHECK(same_values(ys, yb));  // borrowed: unchanged
  auto [rn, rs] = f(ys, z1);   // the same extents: one loop
  CHECK(values(rn) == std::vector<float>{2, 4, 6});
  CHECK(values(rs) == std::vector<float>{11, 12, 13});  // 2y + 10 - y
  auto [dn, ds] = f(ip::tensor<float, 2>(ys), z1);
  CHECK(values(dn) == std::vector<float>{2, 4, 6});
  CHECK(values(ds) == std::vector<float>{11, 12, 13});
}

TEST_CASE("a static extent 1 beside a dynamic extent is left to the call", "[run][shape]") {
  constexpr auto y = ip::input<"y", float, ip::extents<2, 1>>;
  constexpr auto x = ip::input<"x", float, ip::extents<2, ip::dynamic>>;
  constexpr auto in = ip::inputs(y, x);
  constexpr auto out = ip::outputs(ip::add_inplace(y, x));
  STATIC_REQUIRE(ip::check(in, out).ok);
  constexpr auto f = ip::function(in, out);
  ip::tensor<float, ip::extents<2, 1>> ys;
  ys(0, 0) = 1, ys(1, 0) = 2;
  ip::tensor<float, ip::extents<2, ip::dynamic>> x3(2, 3), x1(2, 1);
  x1(0, 0) = 10, x1(1, 0) = 20;
  const auto yb = ys;
  const auto x3b = x3;
  const char* grow = "inplace: shape_error: add_inplace(y, x): the result would not fit the destroyed input (an "
                     "in-place op cannot grow it) (arguments of extents (2, 1), (2, 3))";
  CHECK_THROWS_WITH(f(ys, x3), grow);
  CHECK(same_values(ys, yb));
  CHECK(same_values(x3, x3b));
  auto donated = ys;
  CHECK_THROWS_WITH(f(std::move(donated), x3), grow);
  // extent 1: correct values, borrowed or donated
  CHECK(values(f(ys, x1)) == std::vector<float>{11, 22});
  CHECK(same_values(ys, yb));
  CHECK(values(f(ip::tensor<float, ip::extents<2, 1>>(ys), x1)) == std::vector<float>{11, 22});
  CHECK(values(ip::function(in, out, ip::no_rewrite)(ys, x1)) == std::vector<float>{11, 22});
}

TEST_CASE("a loop joined to save a pass stores values of one extents class", "[run][fusion]") {
  constexpr auto x = ip::input<"x", float, 2>;
  constexpr auto y = ip::input<"y", float, 2>;
  constexpr auto t = x * 2.0_c;
  // exp(t) * 3 has t's extents in every call: one loop stores both
  constexpr auto same = ip::function(ip::inputs(x), ip::outputs(t, ip::exp(t) * 3.0_c));
  STATIC_REQUIRE(ip::plan(same, ip::borrowed).loops == 1);
  // t + y may broadcast t: t is stored by a loop of its own
  constexpr auto other = ip::function(ip::inputs(x, y), ip::outputs(t, t + y));
  STATIC_REQUIRE(ip::plan(other, ip::borrowed, ip::borrowed).loops == 2);
  ip::tensor<float, 2> a(3, 1), b(3, 2);
  for (std::size_t i = 0; i < 3; ++i) a(i, 0) = static_cast<float>(i), b(i, 0) = 1, b(i, 1) = 2;
  auto [rt, rs] = other(a, b);
  CHECK(values(rt) == std::vector<float>{0, 2, 4});
  CHECK(values(rs) == std::vector<float>{1, 2, 3, 4, 5, 6});
}

TEST_CASE("a node that must run between members of a needed loop joins it when it can", "[run][fusion]") {
  // add(a, b) reads t after add_inplace<1> overwrote it: add_inplace, tanh(n5) and
  // both adds share one loop; tanh_inplace(n3) must run after add_inplace (which
  // reads n3) and before add(n6, ...): it runs inside that loop (before, the
  // runtime could not form it: an internal static_assert)
  constexpr auto a = ip::input<"A", float, 2>;
  constexpr auto n1 = ip::tanh(a);
  constexpr auto n2 = ip::tanh(n1);
  constexpr auto n3 = ip::reverse(n1);
  constexpr auto t = ip::tanh(n2);
  constexpr auto n5 = ip::apply(ip::inplace<1>(ip::ops::add{}), n3, t);
  constexpr auto n6 = ip::tanh_inplace(n3);
  constexpr auto in = ip::inputs(a);
  constexpr auto out = ip::outputs(ip::add(n6, ip::tanh(n5)) + t);
  STATIC_REQUIRE(ip::check(in, out).ok);
  constexpr auto f = ip::function(in, out);
  constexpr auto pure = ip::function(in, out, ip::no_rewrite);

  ip::tensor<float, 2> as(3, 4);
  for (std::size_t i = 0; i < 12; ++i) as[i] = 0.1f * static_cast<float>(i) - 0.5f;
  std::vector<float> want;
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 4; ++j) {
      const float r = std::tanh(as(2 - i, j));  // n3 = reverse(n1)
      const float tt = std::tanh(std::tanh(std::tanh(as(i, j))));
      want.push_back(std::tanh(r) + std::tanh(r + tt) + tt);
    }
  const auto near = [&](const auto& got) {
    const auto v = values(got);
    REQUIRE(v.size() == want.size());
    for (std::size_t k = 0; k < v.size(); ++k) CHECK(v[k] == Approx(want[k]).epsilon(1e-5));
  };
  const auto ab = as;
  near(f(as));
  CHECK(same_values(as, ab));  // borrowed: unchanged
  near(pure(as));
  CHECK(same_values(as, ab));
  near(f(ip::tensor<float, 2>(as)));
  near(pure(ip::tensor<float, 2>(as)));
  near(f.debug(as));
  CHECK(same_values(as, ab));
}

TEST_CASE("the same when the node joining the loop overwrites the input itself", "[run][fusion]") {
  constexpr auto a = ip::input<"A", float, 2>;
  constexpr auto t = ip::tanh(ip::tanh(a));
  constexpr auto n5 = ip::apply(ip::inplace<1>(ip::ops::add{}), ip::reverse(a), t);
  constexpr auto n6 = ip::tanh_inplace(ip::reverse(a));
  constexpr auto in = ip::inputs(a);
  constexpr auto out = ip::outputs(ip::add(n6, ip::tanh(n5)) + t);
  STATIC_REQUIRE(ip::check(in, out).ok);
  constexpr auto f = ip::function(in, out);
  constexpr auto pure = ip::function(in, out, ip::no_rewrite);

  ip::tensor<float, 2> as(3, 4);
  for (std::size_t i = 0; i < 12; ++i) as[i] = 0.1f * static_cast<float>(i) - 0.5f;
  std::vector<float> want;
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 4; ++j) {
      const float r = as(2 - i, j), tt = std::tanh(std::tanh(as(i, j)));
      want.push_back(std::tanh(r) + std::tanh(r + tt) + tt);
    }
  const auto near = [&](const auto& got) {
    const auto v = values(got);
    REQUIRE(v.size() == want.size());
    for (std::size_t k = 0; k < v.size(); ++k) CHECK(v[k] == Approx(want[k]).epsilon(1e-5));
  };
  const auto ab = as;
  near(f(as));
  CHECK(same_values(as, ab));  // borrowed: unchanged
  near(pure(as));
  near(f(ip::tensor<float, 2>(as)));
  near(pure(ip::tensor<float, 2>(as)));
  near(f.debug(as));
  CHECK(same_values(as, ab));
}
