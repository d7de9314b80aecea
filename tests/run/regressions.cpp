// Graphs that once ran wrong or did not compile (found by the random graph tests).
#include "values.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;

namespace {
constexpr auto x = ip::input<"x", float>;
const ip::tensor<float> a{0.5f, -1, 0.25f, 1, -0.5f, 0.75f, 0};
}  // namespace

TEST_CASE("an in-place op on a slice computes in the slice's elements", "[run][regression]") {
  // the result lived at the start of exp(x)'s buffer, which was reallocated while read
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::neg_inplace(ip::slice<1>(ip::exp(x)))));
  std::vector<float> want;
  for (std::size_t i = 1; i < 7; ++i) want.push_back(-std::exp(a[i]));
  auto r = f(a);
  STATIC_REQUIRE(std::is_same_v<decltype(r), ip::kept_view<float, 1>>);
  CHECK(values(r) == want);
  CHECK(values(f(ip::tensor<float>(a))) == want);
  // in place on a slice of a donated input: a view of its storage, kept alive
  constexpr auto g = ip::function(ip::inputs(x), ip::outputs(ip::neg_inplace(ip::slice<1>(x))));
  ip::tensor<float> d = a;
  const float* old = d.data();
  auto s = g(std::move(d));
  CHECK(s.data() == old + 1);
  CHECK(values(s) == std::vector<float>{1, -0.25f, -1, 0.5f, -0.75f, -0.0f});
}

TEST_CASE("a sub-in-place of a slice of an intermediate read twice", "[run][regression]") {
  constexpr auto n0 = ip::reverse(x);
  constexpr auto n1 = ip::add_inplace(n0, n0);
  constexpr auto n2 = n0 * x;
  constexpr auto n3 = ip::slice<0, 7, 1>(n1);
  constexpr auto n5 = ip::slice<-3>(ip::relu(n2));
  constexpr auto n6 = ip::add_inplace(n3, n2);
  constexpr auto n7 = ip::apply(ip::ops::inplace_op<ip::ops::sub, 1>{}, n5, n5);
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(n7, n6));
  auto [r7, r6] = f(a);
  CHECK(values(r7) == std::vector<float>{0, 0, 0});
  std::vector<float> want;
  for (std::size_t i = 0; i < 7; ++i) want.push_back(2 * a[6 - i] + a[6 - i] * a[i]);
  CHECK(values(r6) == want);
}

TEST_CASE("a loop need not be contiguous in the analysis's schedule", "[run][regression]") {
  // n0 destroys x, neg(n0) and mul read it in n0's loop; exp_inplace(n0) must run after that loop
  constexpr auto n0 = ip::neg_inplace(x);
  constexpr auto n3 = ip::mul(x, ip::neg(n0));
  constexpr auto n4 = ip::exp_inplace(n0);
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(n4, n3));
  auto [r4, r3] = f(a);
  for (std::size_t i = 0; i < 7; ++i) {
    CHECK(r4[i] == Approx(std::exp(-a[i])));
    CHECK(r3[i] == Approx(a[i] * a[i]));
  }
}
