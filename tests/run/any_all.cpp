// NumPy's any and all under their own names: ip::any<Axes...>(x) (reduce_any),
// and ip::all(x), the reduction over every axis (ip::all is also the view's x[:];
// over some axes, ip::reduce_all<Axes...>). Graphs and tensors; the values are
// NumPy's for the same arrays (np.any(x), np.all(x), np.any(x, axis=0), ...).
#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <type_traits>

namespace ip = inplace;
using namespace ip::literals;

namespace {
constexpr auto x = ip::input<"x", float, ip::extents<2, 3>>;
constexpr auto i = ip::input<"i", std::int32_t, ip::extents<2, 2>>;
}  // namespace

TEST_CASE("any and all in graphs", "[reductions][run]") {
  // np.any(x), np.all(x), np.any(x, axis=0), np.any(x == 0, axis=1, keepdims=True),
  // np.all(x > -2), np.reduce_all along axis 1, np.any(i, axis=0), np.all(i)
  constexpr auto f = ip::function(
      ip::inputs(x, i),
      ip::outputs(ip::any(x), ip::all(x), ip::any<0>(x), ip::any<1, ip::keepdims>(ip::equal(x, 0.0_c)),
                  ip::all(x > -2.0_c), ip::reduce_all<1>(x), ip::any<0>(i), ip::all(i), ip::view(x, ip::all, ip::at<1>)));
  static_assert(std::is_same_v<decltype(ip::all(x))::dtype, bool>);
  static_assert(decltype(ip::all(x))::value_shape.rank == 0);
  ip::tensor<float, ip::extents<2, 3>> tx{{1, 0, 2}, {3, 4, -1}};
  ip::tensor<std::int32_t, ip::extents<2, 2>> ti{{0, 0}, {0, 5}};
  const auto [any_x, all_x, any0, zero_rows, above, all1, any_i, all_i, column] = f(tx, ti);
  CHECK(any_x() == true);
  CHECK(all_x() == false);
  for (std::size_t j = 0; j < 3; ++j) CHECK(any0(j) == true);
  REQUIRE(zero_rows.extent(1) == 1);
  CHECK(zero_rows(0, 0) == true);
  CHECK(zero_rows(1, 0) == false);
  CHECK(above() == true);
  CHECK(all1(0) == false);
  CHECK(all1(1) == true);
  CHECK(any_i(0) == false);
  CHECK(any_i(1) == true);
  CHECK(all_i() == false);
  CHECK(column(0) == 0.0f);  // ip::all as the view's x[:, 1]
  CHECK(column(1) == 4.0f);
}

TEST_CASE("any and all on tensors", "[reductions][tensor]") {
  const ip::tensor<float, 2> tx{{1, 0, 2}, {3, 4, -1}};
  CHECK(bool(ip::any(tx)) == true);
  CHECK(bool(ip::all(tx)) == false);
  CHECK(bool(ip::all(tx > -2.0f)) == true);
  const auto a0 = ip::any<0>(tx);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(a0)>::value_type, bool>);
  for (std::size_t j = 0; j < 3; ++j) CHECK(a0(j) == true);
  const auto rows = ip::any<-1, ip::keepdims>(tx == 0.0f);
  REQUIRE(rows.extent(1) == 1);
  CHECK(rows(0, 0) == true);
  CHECK(rows(1, 0) == false);
  CHECK(bool(ip::all(ip::view(tx, ip::all, ip::range<0, 1>))) == true);   // column 0: 1, 3
  CHECK(bool(ip::all(ip::view(tx, ip::all, ip::range<1, 2>))) == false);  // column 1: 0, 4
}
