// Folded constants in a running graph: a folded comparison, cast or math
// function is a constant operand like 2.0_c, with NumPy's values and dtypes.
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace ip = inplace;
using namespace ip::literals;

TEST_CASE("folded constants run as constants", "[constant_fold][run]") {
  constexpr auto x = ip::input<"x", float, ip::extents<4>>;
  constexpr auto i = ip::input<"i", std::int8_t, ip::extents<4>>;
  // x * (1 < 2) + exp(1) * clip(5, 0, 3) - cast<float>(0.1); i + (2 > 1): int8
  constexpr auto f = ip::function(
      ip::inputs(x, i),
      ip::outputs(x * (1_c < 2_c) + ip::exp(1_c) * ip::clip(5_c, 0_c, 3_c) - ip::cast<float>(0.1_c),
                  i + (2_c > 1_c), ip::where(x > ip::floor(1.5_c), x, ip::pow(2_c, 3_c)), ip::sign(-2_c) < 0_c));
  ip::tensor<float, ip::extents<4>> a{-1.f, 0.5f, 1.5f, 3.f};
  ip::tensor<std::int8_t, ip::extents<4>> b{-128, 0, 1, 126};
  auto [r, s, w, t] = f(a, b);
  STATIC_REQUIRE(std::is_same_v<decltype(r)::value_type, float>);
  STATIC_REQUIRE(std::is_same_v<decltype(s)::value_type, std::int8_t>);
  STATIC_REQUIRE(std::is_same_v<decltype(w)::value_type, float>);
  STATIC_REQUIRE(std::is_same_v<decltype(t)::value_type, bool>);
  // NumPy: x * True + np.e * 3 - np.float32(0.1) in float32 (weak e and 3)
  for (std::size_t k = 0; k < 4; ++k) {
    CHECK(r[k] == Approx(a[k] + std::exp(1.0f) * 3.f - 0.1f));
    CHECK(w[k] == (a[k] > 1.f ? a[k] : 8.f));
  }
  CHECK(s[0] == -127);
  CHECK(s[3] == 127);
  CHECK(t.data()[0]);
}
