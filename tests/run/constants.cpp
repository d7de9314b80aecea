// Arrays a graph makes itself: ip::zeros, ones, full (a read-only broadcast of
// one constant: no storage unless something needs it) and ip::arange (a node
// with no input), with NumPy's values: np.zeros((2, 3), np.float32),
// np.full(3, 2.5), np.arange(5, -1, -2) == [5, 3, 1], np.arange(0) == [].
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace ip = inplace;
using namespace ip::literals;

namespace {
constexpr auto x = ip::input<"x", float, ip::extents<2, 3>>;
}

TEST_CASE("zeros, ones, full: values, dtypes, and no storage of their own", "[constants][run]") {
  static_assert(std::is_same_v<decltype(ip::zeros<double, 2>())::dtype, double>);
  static_assert(std::is_same_v<decltype(ip::full<std::int32_t, 4>(7_c))::dtype, std::int32_t>);
  static_assert(decltype(ip::ones<float, 2, 3>())::value_shape.extent[1] == 3);
  // x + 1, x * 2.5 with x donated: one loop each, in x's storage; the constants are numbers in it
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(x + ip::ones<float, 2, 3>() * ip::full<float, 3>(2.5_c)));
  static_assert(ip::plan(f, ip::donated).allocations == 0 && ip::plan(f, ip::donated).loops == 1);
  ip::tensor<float, ip::extents<2, 3>> t;
  for (std::size_t i = 0; i < 6; ++i) t[i] = static_cast<float>(i);
  const auto r = f(t);
  for (std::size_t i = 0; i < 6; ++i) CHECK(r[i] == static_cast<float>(i) + 2.5f);
  // returned: the call makes the array (one allocation each), as NumPy's np.zeros
  constexpr auto g = ip::function(ip::inputs(x), ip::outputs(ip::zeros<double, 2, 2>(), ip::full<std::int32_t, 3>(7_c), x));
  static_assert(ip::plan(g, ip::borrowed).allocations == 2);
  const auto [z, s, same] = g(t);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(z)>::value_type, double>);
  CHECK(z.extent(0) == 2);
  for (std::size_t i = 0; i < 4; ++i) CHECK(z[i] == 0.0);
  for (std::size_t i = 0; i < 3; ++i) CHECK(s[i] == 7);
  CHECK(same(1, 2) == 5.0f);
  // an opaque op reads it from memory
  constexpr auto h = ip::function(ip::inputs(x), ip::outputs(ip::dot(x, ip::ones<float, 3>())));
  const auto rows = h(t);
  CHECK(rows[0] == 3.0f);
  CHECK(rows[1] == 12.0f);
  // it cannot be overwritten: a constant
  static_assert(ip::check(ip::inputs(x), ip::outputs(ip::add_inplace(ip::zeros<float, 2, 3>(), x))).error ==
                ip::error_kind::destroys_protected);
}

TEST_CASE("zeros, ones and arange are values: with or without the call's parentheses", "[constants][run]") {
  static_assert(std::is_same_v<std::remove_const_t<decltype(ip::zeros<float, 2, 3>)>, decltype(ip::zeros<float, 2, 3>())>);
  static_assert(std::is_same_v<std::remove_const_t<decltype(ip::ones<int, 4>)>, decltype(ip::ones<int, 4>())>);
  static_assert(std::is_same_v<std::remove_const_t<decltype(ip::arange<double, 1, 7, 2>)>, decltype(ip::arange<double, 1, 7, 2>())>);
  // x * 2 + ones, x - arange (broadcast over rows), written without parentheses
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(x * 2.0_c + ip::ones<float, 2, 3>, x - ip::arange<float, 3>,
                                                              ip::zeros<std::int8_t, 3>));
  ip::tensor<float, ip::extents<2, 3>> t;
  for (std::size_t i = 0; i < 6; ++i) t[i] = static_cast<float>(i);
  const auto [a, b, z] = f(t);
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 3; ++j) {
      CHECK(a(i, j) == t(i, j) * 2.0f + 1.0f);
      CHECK(b(i, j) == t(i, j) - static_cast<float>(j));
    }
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(z)>::value_type, std::int8_t>);
  for (std::size_t i = 0; i < 3; ++i) CHECK(z[i] == 0);
}

TEST_CASE("arange: NumPy's integer ranges, counted up and down, empty", "[constants][run]") {
  constexpr auto f = ip::function(ip::inputs(x), ip::outputs(ip::arange<float, 3>(), ip::arange<std::int64_t, 5, -1, -2>(),
                                                              ip::arange<int, 2, 11, 3>(), ip::arange<double, 0>(),
                                                              x * ip::arange<float, 1, 4>()));
  ip::tensor<float, ip::extents<2, 3>> t;
  for (std::size_t i = 0; i < 6; ++i) t[i] = 1.0f + static_cast<float>(i);
  const auto [a, down, step3, empty, scaled] = f(t);
  REQUIRE(a.extent(0) == 3);
  for (std::size_t i = 0; i < 3; ++i) CHECK(a[i] == static_cast<float>(i));
  REQUIRE(down.extent(0) == 3);
  CHECK(down[0] == 5);
  CHECK(down[1] == 3);
  CHECK(down[2] == 1);
  REQUIRE(step3.extent(0) == 3);  // np.arange(2, 11, 3) == [2, 5, 8]
  CHECK(step3[2] == 8);
  CHECK(empty.extent(0) == 0);
  CHECK(scaled(1, 2) == 6.0f * 3.0f);
  CHECK(scaled(0, 0) == 1.0f);
}

TEST_CASE("a weak integer out of range: ip::full converts it, a run-time number on tensors wraps", "[constants][run]") {
  // i8 + 1000_c converts the constant modulo 2^8, as ip::full<std::int8_t>(1000_c), an explicit
  // conversion, does: int8's 1000 mod 256 = -24 (NumPy 2 raises OverflowError); a C++ int beside a
  // tensor converts the same way
  constexpr auto i8 = ip::input<"i8", std::int8_t, ip::extents<2>>;
  constexpr auto f = ip::function(ip::inputs(i8), ip::outputs(i8 + ip::full<std::int8_t, 2>(1000_c),
                                                              i8 * ip::full<std::int8_t, 2>(1000_c)));
  ip::tensor<std::int8_t, ip::extents<2>> t;
  t[0] = 1;
  t[1] = 2;
  const auto [sum, prod] = f(t);
  const ip::tensor<std::int8_t, ip::extents<2>> on_tensor = t + 1000;  // a C++ int is weak on tensors
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(static_cast<int>(sum[i]) == static_cast<int>(t[i]) - 24);
    CHECK(sum[i] == on_tensor[i]);
    CHECK(static_cast<int>(prod[i]) == static_cast<std::int8_t>(static_cast<int>(t[i]) * -24));
  }
}

// Rank-0 constants (np.zeros(()), np.full((), 2.5)): beside a vector, a rank-0
// input and in place on it; the call compiled nowhere before (the view kernel
// broadcast a rank-0 value to rank 0 through the tensor broadcast_to, which
// needs an extent).
TEST_CASE("rank-0 zeros, ones and full in a call", "[constants][run]") {
  constexpr auto v = ip::input<"v", float>;
  constexpr auto s = ip::input<"s", float, 0>;
  constexpr auto f = ip::function(ip::inputs(v, s), ip::outputs(v + ip::zeros<float>, ip::full<double>(2.5_c) * s,
                                                                ip::ones<int>, ip::add_inplace(s, ip::ones<float>)));
  const auto check = [](const auto& r) {
    const auto& [a, b, c, d] = r;
    CHECK((a.size() == 2 && a[0] == 1.0f && a[1] == 2.0f));
    static_assert(std::is_same_v<typename std::remove_cvref_t<decltype(b)>::value_type, double>);
    CHECK(b() == 10.0);
    CHECK(c() == 1);
    CHECK(d() == 5.0f);
  };
  ip::tensor<float> xv{1, 2};
  ip::tensor<float, 0> sv;
  sv() = 4;
  check(f(xv, sv));
  CHECK(sv() == 4.0f);  // borrowed: copy-protected
  check(f.debug(xv, sv));
  check(f(xv, ip::tensor<float, 0>(sv)));
}
