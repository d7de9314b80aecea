// ip::concatenate and ip::stack in graphs: NumPy's values (np.concatenate,
// np.stack, computed here from the operands), the common dtype, and the plan:
// one allocation, the result, with computed operands written straight into
// their regions (oneDNN's and XLA's in-place concat).
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <type_traits>

namespace ip = inplace;
using namespace ip::literals;

namespace {
constexpr auto a = ip::input<"a", float, ip::extents<2, 3>>;
constexpr auto b = ip::input<"b", float, ip::extents<2, 2>>;
constexpr auto c = ip::input<"c", double, ip::extents<1, 3>>;
}  // namespace

TEST_CASE("concatenate along each axis, computed operands in their regions", "[concatenate][run]") {
  ip::tensor<float, ip::extents<2, 3>> ta;
  ip::tensor<float, ip::extents<2, 2>> tb;
  ip::tensor<double, ip::extents<1, 3>> tc;
  for (std::size_t i = 0; i < 6; ++i) ta[i] = static_cast<float>(i) - 2.0f;
  for (std::size_t i = 0; i < 4; ++i) tb[i] = 10.0f + static_cast<float>(i);
  for (std::size_t i = 0; i < 3; ++i) tc[i] = 0.5 * static_cast<double>(i);

  // np.concatenate([np.exp(a), b * 2, a], axis=1): (2, 8)
  constexpr auto f = ip::function(ip::inputs(a, b), ip::outputs(ip::concatenate<1>(ip::exp(a), b * 2.0_c, a)));
  constexpr auto pf = ip::plan(f, ip::borrowed, ip::borrowed);
  static_assert(pf.allocations == 1 && pf.copies == 0);  // the result only
  const auto r = f(ta, tb);
  REQUIRE(r.extent(0) == 2);
  REQUIRE(r.extent(1) == 8);
  for (std::size_t i = 0; i < 2; ++i) {
    for (std::size_t j = 0; j < 3; ++j) CHECK(r(i, j) == std::exp(ta(i, j)));
    for (std::size_t j = 0; j < 2; ++j) CHECK(r(i, 3 + j) == tb(i, j) * 2.0f);
    for (std::size_t j = 0; j < 3; ++j) CHECK(r(i, 5 + j) == ta(i, j));
  }
  CHECK(ta(0, 0) == -2.0f);  // borrowed operands intact
  CHECK(f.debug(ta, tb)(1, 7) == ta(1, 2));

  // np.concatenate([a, c], axis=0): (3, 3) of float64, the common dtype; axis -2 is axis 0
  constexpr auto g = ip::function(ip::inputs(a, c), ip::outputs(ip::concatenate<-2>(a, c)));
  const auto s = g(ta, tc);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(s)>::value_type, double>);
  REQUIRE(s.extent(0) == 3);
  CHECK(s(1, 2) == static_cast<double>(ta(1, 2)));
  CHECK(s(2, 1) == tc(0, 1));
}

TEST_CASE("stack: a new axis", "[concatenate][run]") {
  // np.stack([a, a + 1]) and np.stack([a, a + 1], axis=-1)
  constexpr auto f = ip::function(ip::inputs(a), ip::outputs(ip::stack<0>(a, a + 1.0_c), ip::stack<-1>(a, a + 1.0_c)));
  ip::tensor<float, ip::extents<2, 3>> ta;
  for (std::size_t i = 0; i < 6; ++i) ta[i] = static_cast<float>(i);
  const auto [s0, s2] = f(ta);
  REQUIRE(s0.extent(0) == 2);
  REQUIRE(s0.extent(1) == 2);
  REQUIRE(s0.extent(2) == 3);
  REQUIRE(s2.extent(2) == 2);
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 3; ++j) {
      CHECK(s0(0, i, j) == ta(i, j));
      CHECK(s0(1, i, j) == ta(i, j) + 1.0f);
      CHECK(s2(i, j, 0) == ta(i, j));
      CHECK(s2(i, j, 1) == ta(i, j) + 1.0f);
    }
}
