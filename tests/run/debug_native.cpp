// Debug mode on a build for this machine (-march=native, where the compiler
// may contract a * b + c into one FMA in the fused loop while the pure
// reference rounds the product first): a correct call never raises
// debug_error. tests/run/debug_tolerance.cpp covers the same with an explicit
// std::fma variant on any machine.
#include "values.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <random>
#include <utility>

namespace ip = inplace;
using namespace ip::literals;

namespace {
constexpr auto x = ip::input<"x", float>;
constexpr auto y = ip::input<"y", float>;
constexpr auto xd = ip::input<"xd", double>;

template <class T>
ip::tensor<T> near_minus_one(std::size_t n, T step) {
  ip::tensor<T> a(n);
  for (std::size_t i = 0; i < n; ++i) a(i) = T(-0.99997103) + static_cast<T>(i) * step;
  return a;
}
}  // namespace

TEST_CASE("x * 3 + 3 near x = -1 in the fused loop of a native build", "[run][debug]") {
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(x * 3.0_c + 3.0_c));
  const auto a = near_minus_one<float>(37, 1e-7f);
  const auto want = values(f(a));
  CHECK(values(f.debug(a)) == want);                                // borrowed
  CHECK(values(f.debug(ip::tensor<float>(a.view()))) == want);      // donated: in place
  constexpr auto fd = ip::function(ip::inputs(xd), ip::outputs(xd * 3.0_c + 3.0_c));
  const auto b = near_minus_one<double>(37, 1e-9);
  CHECK(values(fd.debug(b)) == values(fd(b)));
}

TEST_CASE("products summed with cancellation in a native build", "[run][debug]") {
  // a * b - a * b' + c: each product may be contracted with the next term
  constexpr auto f = ip::function(ip::inputs(x, y), ip::outputs(x * y - y * x * 1.0_c + ip::reduce_sum(x * y) * 0.0_c + x,
                                                             ip::reduce_sum(x * y - 1.0_c)));
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  ip::tensor<float> a(1001), b(1001);
  for (std::size_t i = 0; i < a.size(); ++i) a(i) = d(gen), b(i) = 1.0f / a(i);
  auto [r0, r1] = f(a, b);
  auto [d0, d1] = f.debug(a, b);
  CHECK(values(d0) == values(r0));
  CHECK(static_cast<float>(d1) == static_cast<float>(r1));
  auto [m0, m1] = f.debug(ip::tensor<float>(a.view()), ip::tensor<float>(b.view()));
  CHECK(values(m0).size() == 1001);
  (void)m1;
}
