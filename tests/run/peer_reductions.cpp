// Reductions: cases ported (as facts, with NumPy 1.24 as the oracle) from the
// peers' test suites where the semantics have traps: JAX's
// tests/lax_numpy_test.py (reducers on bool and small integers, argmax ties and
// NaN, keepdims without an axis) and Eigen's test/redux.cpp (max, min, argmax
// over long runs and through views). Each case runs on tensors and in a graph.
// Then uint16 products (pow, dot, matmul), which C++ computes in int, and abs
// and sigmoid of unsigned integers.
// (tests/run/peer_updates.cpp: the updates, concatenation, where and clip.)
#include <inplace.hpp>

#include "peer_compare.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;


// JAX testReducer / NumPy: a sum of bool counts (int64), a product is 0 or 1
// (int64), the mean is float64; max, min, argmax, argmin of bool work.
TEST_CASE("reductions of bool: NumPy's counts and dtypes, on tensors and in graphs", "[peer][reductions]") {
  constexpr auto B = ip::input<"B", bool, 2>;
  ip::tensor<bool, 2> b{{true, true, false}, {true, true, true}};
  constexpr auto f = ip::function(
      ip::inputs(B), ip::outputs(ip::reduce_sum<1>(B), ip::reduce_sum(B), ip::reduce_sum<0, ip::keepdims>(B),
                                 ip::reduce_prod<1>(B), ip::reduce_mean<0>(B), ip::argmax<1>(B), ip::argmin<1>(B),
                                 ip::reduce_max<0>(B), ip::reduce_min(B)));
  const auto [s1, s, s0k, p1, m0, amax, amin, mx, mn] = f(b);
  static_assert(dtype_is<decltype(s1), std::int64_t> && dtype_is<decltype(s), std::int64_t>);
  static_assert(dtype_is<decltype(p1), std::int64_t> && dtype_is<decltype(m0), double>);
  static_assert(dtype_is<decltype(mx), bool> && dtype_is<decltype(amax), std::int64_t>);
  CHECK(values(s1) == std::vector<double>{2, 3});
  CHECK(values(s) == std::vector<double>{5});
  CHECK(extents(s0k) == std::vector<std::size_t>{1, 3});
  CHECK(values(s0k) == std::vector<double>{2, 2, 1});
  CHECK(values(p1) == std::vector<double>{0, 1});
  CHECK(values(m0) == std::vector<double>{1, 1, 0.5});
  CHECK(values(amax) == std::vector<double>{0, 0});  // the first True
  CHECK(values(amin) == std::vector<double>{2, 0});  // the first False; none: 0
  CHECK(values(mx) == std::vector<double>{1, 1, 1});
  CHECK(values(mn) == std::vector<double>{0});

  const auto t1 = ip::reduce_sum<1>(b);
  static_assert(dtype_is<decltype(t1), std::int64_t>);
  CHECK(values(t1) == values(s1));
  CHECK(values(ip::reduce_sum(b)) == values(s));
  CHECK(values(ip::reduce_sum<0, ip::keepdims>(b)) == values(s0k));
  CHECK(values(ip::reduce_prod<1>(b)) == values(p1));
  CHECK(values(ip::reduce_mean<0>(b)) == values(m0));
  CHECK(values(ip::argmax<1>(b)) == values(amax));
  CHECK(values(ip::argmin<1>(b)) == values(amin));
  CHECK(values(ip::reduce_max<0>(b)) == values(mx));
  CHECK(values(ip::reduce_min(b)) == values(mn));
  CHECK(values(ip::argmax(b)) == std::vector<double>{0});
}

// (x > 0).sum(): the comparison and its count in one pass (the fused
// reductions: every axis, the last axis), and (x > 0).mean().
TEST_CASE("counting with a comparison: reduce_sum(x > 0) is an int64 count", "[peer][reductions]") {
  constexpr auto X = ip::input<"X", float, 2>;
  ip::tensor<float, 2> x(3, 40);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(static_cast<int>(i * 7 % 13) - 6);
  constexpr auto f = ip::function(ip::inputs(X), ip::outputs(ip::reduce_sum(X > 0_c), ip::reduce_sum<-1>(X > 0_c),
                                                             ip::reduce_sum<0>(X > 0_c), ip::reduce_mean(X > 0_c)));
  const auto [all, rows, cols, mean] = f(x);
  static_assert(dtype_is<decltype(all), std::int64_t> && dtype_is<decltype(rows), std::int64_t>);
  CHECK(values(all) == std::vector<double>{55});
  CHECK(values(rows) == std::vector<double>{18, 19, 18});
  CHECK(values(cols) == std::vector<double>{1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 1, 1, 1, 2, 1, 2, 1, 2, 1,
                                            2, 1, 2, 1, 1, 1, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 1, 1, 1});
  CHECK(values(mean)[0] == Approx(55.0 / 120.0));
  CHECK(values(ip::reduce_sum(x > 0.0f)) == values(all));
  CHECK(values(ip::reduce_sum<-1>(x > 0.0f)) == values(rows));
  CHECK(values(std::get<0>(f.debug(x))) == values(all));
}

// NumPy: the mean of int8 is float64 and accumulates without wrapping; the sum
// is int64 and does not wrap either.
TEST_CASE("int8 reductions: the mean does not wrap, argmax over rows longer than a SIMD batch", "[peer][reductions]") {
  constexpr auto I8 = ip::input<"I8", std::int8_t, 2>;
  ip::tensor<std::int8_t, 2> a(3, 50);
  for (std::size_t k = 0; k < a.size(); ++k) a[k] = static_cast<std::int8_t>(static_cast<std::uint8_t>(k * 37 % 256));
  constexpr auto f = ip::function(ip::inputs(I8), ip::outputs(ip::reduce_mean<-1>(I8), ip::reduce_max<-1>(I8 + 0_c),
                                                              ip::argmax<-1>(I8), ip::reduce_mean(I8 + 0_c),
                                                              ip::reduce_sum<-1>(I8)));
  const auto [m, mx, am, mall, s] = f(a);
  static_assert(dtype_is<decltype(m), double> && dtype_is<decltype(s), std::int64_t>);
  CHECK(values(m) == std::vector<double>{5.38, -3.18, -1.5});
  CHECK(values(mx) == std::vector<double>{126, 113, 125});
  CHECK(values(am) == std::vector<double>{38, 43, 21});
  CHECK(values(mall)[0] == Approx(0.23333333333333334));
  CHECK(values(s) == std::vector<double>{269, -159, -75});
  CHECK(values(ip::reduce_mean<-1>(a)) == values(m));
  CHECK(values(ip::argmax<-1>(a)) == values(am));

  ip::tensor<std::int8_t, 2> b{{100, 100, 100}, {-128, -128, 1}};
  CHECK(values(ip::reduce_mean<1>(b)) == std::vector<double>{100, -85});
  ip::tensor<std::uint8_t> u{200, 100, 255, 1};
  CHECK(values(ip::reduce_mean(u)) == std::vector<double>{139});
}

// Eigen's redux.cpp and JAX's testArgMinMax: the first of ties, the first
// NaN (NaN beats everything), all -inf, over long rows and through views
// (transposed, reversed, a negative step).
TEST_CASE("argmax, argmin, max, min: ties, NaN, -inf, long rows and views", "[peer][reductions]") {
  constexpr auto A = ip::input<"A", float, 2>;
  ip::tensor<float, 2> a(4, 37);
  for (std::size_t j = 0; j < 37; ++j) {
    a(0, j) = j % 5 == 3 ? 7.0f : 1.0f;                                       // ties: 7 at 3, 8, 13, ...
    a(1, j) = j == 20 || j == 30 ? NAN : static_cast<float>(j);                // two NaN
    a(2, j) = -INFINITY;                                                       // all -inf
    a(3, j) = j == 35 ? NAN : j == 2 || j == 33 ? 100.0f : -static_cast<float>(j);
  }
  constexpr auto f = ip::function(
      ip::inputs(A), ip::outputs(ip::argmax<1>(A), ip::argmin<1>(A), ip::reduce_max<1>(A), ip::reduce_min<1>(A),
                                 ip::argmax(A), ip::argmax<0>(A),
                                 ip::argmax<1>(ip::view(A, ip::all, ip::range<36, ip::end, -1>)),
                                 ip::reduce_sum<1>(ip::view(A, ip::all, ip::range<36, ip::end, -3>)),
                                 ip::argmax<0>(ip::transpose(A))));
  const auto [amax, amin, mx, mn, flat, amax0, rev, sum_rev, amax_t] = f(a);
  const std::vector<double> want_amax{3, 20, 0, 35}, want_amin{0, 20, 0, 35};
  CHECK(values(amax) == want_amax);
  CHECK(values(amin) == want_amin);
  CHECK(same(values(mx), {7, nan_v, -INFINITY, nan_v}));
  CHECK(same(values(mn), {1, nan_v, -INFINITY, nan_v}));
  CHECK(values(flat) == std::vector<double>{57});  // row 1's first NaN: 37 + 20
  const auto c0 = values(amax0);
  CHECK(c0[0] == 0);   // 1, 0, -inf, -0: the first
  CHECK(c0[2] == 3);   // 100 in row 3
  CHECK(c0[20] == 1);  // NaN in row 1
  CHECK(c0[35] == 3);  // NaN in row 3
  CHECK(values(rev) == std::vector<double>{3, 6, 0, 1});  // a[:, 36::-1].argmax(1)
  CHECK(same(values(sum_rev), {31, nan_v, -INFINITY, -101}));
  CHECK(values(amax_t) == want_amax);

  CHECK(values(ip::argmax<1>(a)) == want_amax);
  CHECK(values(ip::argmin<1>(a)) == want_amin);
  CHECK(values(ip::argmax<0>(ip::transpose(a))) == want_amax);
  CHECK(values(ip::argmax<1>(ip::view(a, ip::all, ip::range<36, ip::end, -1>))) == values(rev));
  CHECK(same(values(ip::reduce_sum<1>(ip::view(a, ip::all, ip::range<36, ip::end, -3>))), values(sum_rev)));
  const auto rt = values(ip::argmax<1>(ip::reverse(ip::transpose(a))));  // a.T[::-1].argmax(1)
  CHECK(rt[0] == 1);
  CHECK(rt[1] == 3);
  CHECK(rt[34] == 3);
  CHECK(rt[35] == 0);  // a tie of 1, 1: the first
  // np.argmax(a, keepdims=True) without an axis: shape (1, 1)
  ip::tensor<float, 2> k{{1, 5, 5}, {5, 0, 2}};
  const auto kk = ip::argmax<ip::keepdims>(k);
  CHECK(extents(kk) == std::vector<std::size_t>{1, 1});
  CHECK(values(kk) == std::vector<double>{1});
}

// A NaN anywhere in a long run makes max and min NaN, fused with the
// expression or not; the reductions of nothing (NumPy: sum 0, prod 1, mean
// NaN, any False, all True; max raises).
TEST_CASE("max and min of a long run with a NaN; reductions of nothing, fused", "[peer][reductions]") {
  constexpr auto X = ip::input<"X", float>;
  ip::tensor<float> x(10000);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 97) - 50.0f;
  x[5003] = NAN;
  constexpr auto f = ip::function(ip::inputs(X), ip::outputs(ip::reduce_max(X * 1.0_c), ip::reduce_min(X + 0.0_c),
                                                             ip::reduce_max(X), ip::argmax(X * 1.0_c)));
  const auto [mx, mn, mx2, am] = f(x);
  CHECK(std::isnan(values(mx)[0]));
  CHECK(std::isnan(values(mn)[0]));
  CHECK(std::isnan(values(mx2)[0]));
  CHECK(values(am) == std::vector<double>{5003});
  CHECK(std::isnan(static_cast<float>(ip::reduce_min(x))));

  ip::tensor<float> none(0);
  constexpr auto g = ip::function(ip::inputs(X), ip::outputs(ip::reduce_prod(X * 2.0_c), ip::reduce_sum(X * 2.0_c),
                                                             ip::reduce_mean(X * 2.0_c), ip::any(X * 2.0_c),
                                                             ip::reduce_all(X < 1.0_c)));
  const auto [p, s, m, an, al] = g(none);
  CHECK(values(p) == std::vector<double>{1});
  CHECK(values(s) == std::vector<double>{0});
  CHECK(std::isnan(values(m)[0]));
  CHECK(values(an) == std::vector<double>{0});
  CHECK(values(al) == std::vector<double>{1});
  constexpr auto h = ip::function(ip::inputs(X), ip::outputs(ip::reduce_max(X * 2.0_c)));
  CHECK_THROWS_AS(h(none), ip::shape_error);
  CHECK_THROWS_AS(ip::reduce_max(none), ip::shape_error);
}


// uint16 products wrap modulo 2^16 as NumPy's (u ** 2, u @ u; u.prod() is
// uint64 and does not): C++ would multiply two uint16 in int, where 65535 *
// 65535 overflows (undefined: UBSan stops the sanitizer build).
TEST_CASE("uint16 products wrap as NumPy's: pow, dot, matmul, prod", "[peer][reductions]") {
  constexpr auto U = ip::input<"U", std::uint16_t, 2>;
  ip::tensor<std::uint16_t, 2> u{{65535, 40000}, {300, 2}};
  constexpr auto f = ip::function(ip::inputs(U), ip::outputs(ip::pow(U, 2_c), ip::pow(U, U), ip::dot(U, U),
                                                             ip::matmul(U, ip::transpose(U)), ip::reduce_prod<1>(U)));
  const auto [sq, pw, d, m, p] = f(u);
  static_assert(dtype_is<decltype(sq), std::uint16_t> && dtype_is<decltype(d), std::uint16_t>);
  CHECK(values(sq) == std::vector<double>{1, 4096, 24464, 4});
  CHECK(values(pw) == std::vector<double>{65535, 0, 0, 4});
  CHECK(values(d) == std::vector<double>{6913, 40000, 300, 6916});
  CHECK(values(m) == std::vector<double>{4097, 14164, 14164, 24468});
  static_assert(dtype_is<decltype(p), std::uint64_t>);
  CHECK(values(p) == std::vector<double>{2621400000, 600});
  CHECK(values(ip::tensor<std::uint16_t, 2>(ip::pow(u, 2))) == values(sq));
  CHECK(values(ip::dot(u, u)) == values(d));
  CHECK(values(ip::matmul(u, ip::transpose(u))) == values(m));
}

// np.abs of uint32 and uint64 is the value itself (std::abs has no unsigned
// overload: it did not compile); scipy's expit of an unsigned integer is
// computed in double (-a wrapped: sigmoid(uint32 1) was 0).
TEST_CASE("abs and sigmoid of unsigned integers", "[peer][elementwise]") {
  constexpr auto U = ip::input<"U", std::uint32_t>;
  ip::tensor<std::uint32_t> u{0, 1, 2, 4294967295u};
  constexpr auto f = ip::function(ip::inputs(U), ip::outputs(ip::abs(U), ip::sigmoid(U)));
  const auto [a, s] = f(u);
  static_assert(dtype_is<decltype(a), std::uint32_t> && dtype_is<decltype(s), double>);
  CHECK(values(a) == values(u));
  CHECK(values(s)[0] == 0.5);
  CHECK(values(s)[1] == Approx(0.7310585786300049));
  CHECK(values(s)[2] == Approx(0.8807970779778823));
  CHECK(values(s)[3] == 1.0);
  CHECK(values(ip::tensor<std::uint32_t>(ip::abs(u))) == values(u));
  ip::tensor<std::uint64_t> v{7, 18446744073709551615ull};
  CHECK(ip::tensor<std::uint64_t>(ip::abs(v))[1] == 18446744073709551615ull);
}

// Reductions of read-only views that repeat elements (stride 0) and of the
// graph's constants (no storage of their own): np.broadcast_to(v, (3, 4)).sum(),
// .sum(0), .argmax(0) (ties: 0), .argmax(); np.ones(1000).sum(); np.full(5, 3).mean().
TEST_CASE("reductions of broadcast views and of constants", "[peer][reductions]") {
  constexpr auto V = ip::input<"V", float, ip::extents<4>>;
  ip::tensor<float, ip::extents<4>> v{1, 5, 2, 5};
  constexpr auto f = ip::function(
      ip::inputs(V), ip::outputs(ip::reduce_sum(ip::broadcast_to<3, 4>(V)), ip::reduce_sum<0>(ip::broadcast_to<3, 4>(V)),
                                 ip::argmax<0>(ip::broadcast_to<3, 4>(V)), ip::argmax(ip::broadcast_to<3, 4>(V)),
                                 ip::reduce_sum(ip::ones<float, 1000>), ip::reduce_mean(ip::full<std::int32_t, 5>(3_c)),
                                 ip::argmax(ip::arange<std::int32_t, 10>)));
  const auto [s, s0, a0, a, ones, mean, ar] = f(v);
  CHECK(values(s) == std::vector<double>{39});
  CHECK(values(s0) == std::vector<double>{3, 15, 6, 15});
  CHECK(values(a0) == std::vector<double>{0, 0, 0, 0});
  CHECK(values(a) == std::vector<double>{1});
  CHECK(values(ones) == std::vector<double>{1000});
  CHECK(values(mean) == std::vector<double>{3});
  CHECK(values(ar) == std::vector<double>{9});
  CHECK(values(ip::reduce_sum(ip::broadcast_to<3, 4>(v))) == values(s));
  CHECK(values(ip::reduce_sum<0>(ip::broadcast_to<3, 4>(v))) == values(s0));
  CHECK(values(ip::argmax<0>(ip::broadcast_to<3, 4>(v))) == values(a0));
  CHECK(values(ip::reduce_max<1>(ip::broadcast_to<3, 4>(v))) == std::vector<double>{5, 5, 5});
}
