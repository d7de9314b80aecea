// Fused loops: elementwise chains run as one loop; a loop stores every value
// read outside it (one loop, several results); views and broadcasting inside loops.
#include "values.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;

namespace {
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto A = ip::input<"A", float, 2>;
constexpr auto B = ip::input<"B", float, 2>;

}  // namespace

TEST_CASE("a chain of elementwise nodes is one loop", "[fusion]") {
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(ip::tanh(ip::exp(x * 0.5_c + y) - y) * 2.0_c));
  STATIC_REQUIRE(ip::plan(f, ip::donated, ip::borrowed).loops == 1);
  STATIC_REQUIRE(ip::plan(f, ip::donated, ip::borrowed).allocations == 0);
  ip::tensor<float> a(37), b(37);
  for (std::size_t i = 0; i < 37; ++i) a[i] = 0.1f * static_cast<float>(i), b[i] = 1.0f - 0.05f * static_cast<float>(i);
  auto r = f(a, b);
  for (std::size_t i = 0; i < 37; ++i) CHECK(r[i] == Approx(2 * std::tanh(std::exp(a[i] * 0.5f + b[i]) - b[i])));
}

TEST_CASE("a loop stores the values read outside it", "[fusion]") {
  // t is returned and read by exp: one loop writes both
  constexpr auto t = x * 2.0_c;
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(t, ip::exp(t)));
  STATIC_REQUIRE(ip::plan(f, ip::borrowed).loops == 1);
  STATIC_REQUIRE(ip::plan(f, ip::borrowed).allocations == 2);
  ip::tensor<float> a{0, 0.5f, 1};
  auto [rt, re] = f(a);
  CHECK(values(rt) == std::vector<float>{0, 1, 2});
  CHECK(re[2] == Approx(std::exp(2.0f)));
  // the analysis's fused-loop rule: mul reads the old x in the loop that overwrites it
  constexpr auto u = ip::add_inplace(x, y);
  constexpr auto g = ip::function(ip::inputs(x, y), ip::outputs(u, ip::mul(u, x)));
  STATIC_REQUIRE(ip::plan(g, ip::donated, ip::borrowed).loops == 1);
  ip::tensor<float> c(19), d(19);
  for (std::size_t i = 0; i < 19; ++i) c[i] = static_cast<float>(i), d[i] = 1;
  const float* old = c.data();
  auto [ru, rm] = g(std::move(c), d);
  CHECK(ru.data() == old);
  for (std::size_t i = 0; i < 19; ++i) {
    CHECK(ru[i] == static_cast<float>(i) + 1);
    CHECK(rm[i] == (static_cast<float>(i) + 1) * static_cast<float>(i));
  }
}

TEST_CASE("several results over strided operands", "[fusion]") {
  // A is overwritten in place while the loop reads it (same pattern) and B transposed
  constexpr auto u = ip::add_inplace(A, ip::transpose(B));
  constexpr auto f = ip::function(ip::inputs(A, B), ip::outputs(u, u * A));
  STATIC_REQUIRE(ip::plan(f, ip::donated, ip::borrowed).loops == 1);
  ip::tensor<float, 2> a(5, 3), b(3, 5);
  for (std::size_t i = 0; i < 5; ++i)
    for (std::size_t j = 0; j < 3; ++j) a(i, j) = static_cast<float>(i * 3 + j), b(j, i) = static_cast<float>(100 * j + i);
  const ip::tensor<float, 2> a0 = a;
  auto [ru, rm] = f(std::move(a), b);
  for (std::size_t i = 0; i < 5; ++i)
    for (std::size_t j = 0; j < 3; ++j) {
      CHECK(ru(i, j) == a0(i, j) + b(j, i));
      CHECK(rm(i, j) == (a0(i, j) + b(j, i)) * a0(i, j));
    }
}

TEST_CASE("broadcasting inside a loop", "[fusion]") {
  constexpr auto f = ip::function(ip::inputs(x, A), ip::outputs(ip::exp(A * 0.0_c) * x + A));
  ip::tensor<float> row{1, 2, 3};
  ip::tensor<float, 2> m{{10, 20, 30}, {40, 50, 60}};
  CHECK(values(f(row, m)) == std::vector<float>{11, 22, 33, 41, 52, 63});
  // a dynamic extent of 1 broadcast where the plan computes in place: the call
  // falls back to fresh buffers (same result)
  constexpr auto g = ip::function(ip::inputs(x, y), ip::outputs(ip::exp(x * 0.0_c) + y));
  STATIC_REQUIRE(ip::plan(g, ip::donated, ip::borrowed).allocations == 0);
  ip::tensor<float> one{5}, three{1, 2, 3};
  const float* old = one.data();
  auto r = g(std::move(one), three);
  CHECK(values(r) == std::vector<float>{2, 3, 4});
  CHECK(r.data() != old);
}
