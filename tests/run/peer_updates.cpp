// Updates, concatenation, where and clip: cases ported (as facts, with NumPy
// 1.24 as the oracle) from the peers' test suites where the semantics have
// traps: PyTorch's scatter cases (slice_scatter of a region read shifted),
// PyTensor's tests/tensor/test_subtensor.py (set_subtensor / inc_subtensor
// through negative steps), JAX's tests/lax_numpy_indexing_test.py (.at[].max
// and .min) and tests/lax_numpy_test.py (where and clip broadcasting,
// concatenate and stack dtype promotion), and ip::full of values out of its
// dtype's range. Each case runs in a graph (borrowed and donated) and as the
// tensor statement. (tests/run/peer_reductions.cpp:
// the reductions.)
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


// PyTorch's slice_scatter / NumPy's x[1:] = x[:-1]: the value is read before
// the region is written, whatever the overlap (a shift either way, a
// reversal, a transpose), in place (donated) or not, and as tensor statements.
TEST_CASE("updates of a region from an overlapping read of the same storage", "[peer][update]") {
  constexpr auto X = ip::input<"X", float>;
  ip::tensor<float> x(20);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  std::vector<double> right{0}, left, inc{0}, fib{0, 1}, rev;
  for (int i = 0; i < 19; ++i) right.push_back(i), left.push_back(i + 1), inc.push_back(2 * i + 1);
  left.push_back(19);
  for (int i = 2; i < 20; ++i) fib.push_back(2 * i - 3);  // x[2:] = x[:-2] + x[1:-1]
  for (int i = 19; i >= 0; --i) rev.push_back(i);

  constexpr auto shift = ip::function(ip::inputs(X), ip::outputs(ip::set(ip::slice<1>(X), ip::slice<0, -1>(X))));
  constexpr auto shift_left = ip::function(ip::inputs(X), ip::outputs(ip::set(ip::slice<0, -1>(X), ip::slice<1>(X))));
  constexpr auto add = ip::function(ip::inputs(X), ip::outputs(ip::inc(ip::slice<1>(X), ip::slice<0, -1>(X))));
  constexpr auto sums = ip::function(
      ip::inputs(X), ip::outputs(ip::set(ip::slice<2>(X), ip::slice<0, -2>(X) + ip::slice<1, -1>(X))));
  constexpr auto reversed = ip::function(ip::inputs(X), ip::outputs(ip::set(ip::reverse(X), X)));
  CHECK(values(shift(x)) == right);
  CHECK(values(shift(ip::tensor<float>(x))) == right);
  CHECK(values(shift.debug(x)) == right);
  CHECK(values(shift_left(ip::tensor<float>(x))) == left);
  CHECK(values(add(ip::tensor<float>(x))) == inc);
  CHECK(values(sums(ip::tensor<float>(x))) == fib);
  CHECK(values(sums(x)) == fib);
  CHECK(values(reversed(ip::tensor<float>(x))) == rev);
  {
    auto t = x;
    ip::slice<1>(t) = ip::slice<0, -1>(t);
    CHECK(values(t) == right);
  }
  {
    auto t = x;
    ip::slice<1>(t) += ip::slice<0, -1>(t);
    CHECK(values(t) == inc);
  }
  {
    auto t = x;
    ip::reverse(t) = t;
    CHECK(values(t) == rev);
  }

  // a.T = a and a.T += a on a square matrix
  constexpr auto S = ip::input<"S", float, ip::extents<4, 4>>;
  ip::tensor<float, ip::extents<4, 4>> s;
  for (std::size_t i = 0; i < 16; ++i) s[i] = static_cast<float>(i);
  constexpr auto tr = ip::function(ip::inputs(S), ip::outputs(ip::set(ip::transpose(S), S)));
  constexpr auto sym = ip::function(ip::inputs(S), ip::outputs(ip::inc(ip::transpose(S), S)));
  const auto want_t = values(ip::tensor<float, ip::extents<4, 4>>(ip::transpose(s)));
  const auto want_sym = values(ip::tensor<float, ip::extents<4, 4>>(s + ip::transpose(s)));
  CHECK(values(tr(ip::tensor<float, ip::extents<4, 4>>(s))) == want_t);
  CHECK(values(sym(ip::tensor<float, ip::extents<4, 4>>(s))) == want_sym);
  auto t = s;
  ip::transpose(t) += t;
  CHECK(values(t) == want_sym);
}

// PyTensor's test_subtensor: inc_subtensor / set_subtensor through negative
// steps, the value read from the rows being updated; JAX's .at[].max/.min
// with NaN; x[r] = v of doubles into int32 truncates.
TEST_CASE("updates through negative steps, update<max/min> with NaN, set converting", "[peer][update]") {
  constexpr auto S = ip::input<"S", float, ip::extents<4, 4>>;
  ip::tensor<float, ip::extents<4, 4>> s;
  for (std::size_t i = 0; i < 16; ++i) s[i] = static_cast<float>(i);
  // s[3::-2, :0:-1] *= s[:, :0:-1][1]: rows 3 and 1, columns 3, 2, 1, times row 1's 7, 6, 5
  constexpr auto f = ip::function(
      ip::inputs(S), ip::outputs(ip::update<ip::ops::mul>(ip::view(S, ip::range<3, ip::end, -2>, ip::range<-1, 0, -1>),
                                                          ip::row<1>(ip::view(S, ip::all, ip::range<-1, 0, -1>)))));
  const std::vector<double> want{0, 1, 2, 3, 4, 25, 36, 49, 8, 9, 10, 11, 12, 65, 84, 105};
  CHECK(values(f(s)) == want);
  CHECK(values(f(ip::tensor<float, ip::extents<4, 4>>(s))) == want);
  auto t = s;
  ip::view(t, ip::range<3, ip::end, -2>, ip::range<-1, 0, -1>) *= ip::row<1>(ip::view(t, ip::all, ip::range<-1, 0, -1>));
  CHECK(values(t) == want);

  constexpr auto A = ip::input<"A", float, 2>;
  constexpr auto V = ip::input<"V", float, 1>;
  ip::tensor<float, 2> a{{1, NAN, 3}, {4, 5, NAN}};
  ip::tensor<float> v{NAN, 2, 9};
  constexpr auto g = ip::function(ip::inputs(A, V), ip::outputs(ip::update<ip::ops::max>(A, V),
                                                                ip::update<ip::ops::min>(ip::col<1>(A), ip::slice<0, 2>(V))));
  const auto [mx, mn] = g(a, v);
  CHECK(same(values(mx), {nan_v, nan_v, 9, nan_v, 5, nan_v}));
  CHECK(same(values(mn), {1, nan_v, 3, 4, 2, nan_v}));

  constexpr auto I = ip::input<"I", std::int32_t, 2>;
  constexpr auto W = ip::input<"W", double, 1>;
  ip::tensor<std::int32_t, 2> i{{1, 2, 3}, {4, 5, 6}};
  ip::tensor<double> w{2.7, -2.7, 0.5};
  constexpr auto h = ip::function(ip::inputs(I, W), ip::outputs(ip::set(ip::row<0>(I), W)));
  CHECK(values(h(i, w)) == std::vector<double>{2, -2, 0, 4, 5, 6});
  auto j = i;
  ip::row<0>(j) = w;
  CHECK(values(j) == std::vector<double>{2, -2, 0, 4, 5, 6});
}

// JAX's testConcatenate / testStack over mixed dtypes: NumPy's promotion.
TEST_CASE("concatenate and stack promote as NumPy: bool, int8, uint8, int32 with float", "[peer][concatenate]") {
  constexpr auto I8 = ip::input<"I8", std::int8_t, ip::extents<2>>;
  constexpr auto U8 = ip::input<"U8", std::uint8_t, ip::extents<3>>;
  constexpr auto B = ip::input<"B", bool, ip::extents<2>>;
  constexpr auto I32 = ip::input<"I32", std::int32_t, ip::extents<1>>;
  constexpr auto F = ip::input<"F", float, ip::extents<2>>;
  ip::tensor<std::int8_t, ip::extents<2>> i8{-1, 2};
  ip::tensor<std::uint8_t, ip::extents<3>> u8{255, 0, 7};
  ip::tensor<bool, ip::extents<2>> b{true, false};
  ip::tensor<std::int32_t, ip::extents<1>> i32{-5};
  ip::tensor<float, ip::extents<2>> fl{0.5f, 1.5f};
  constexpr auto f = ip::function(ip::inputs(I8, U8, B, I32, F),
                                  ip::outputs(ip::concatenate<0>(I8, U8), ip::concatenate<0>(B, I8),
                                              ip::concatenate<0>(I32, F), ip::concatenate<0>(B, B), ip::stack<-1>(I8, B)));
  const auto [iu, bi, fi, bb, st] = f(i8, u8, b, i32, fl);
  static_assert(dtype_is<decltype(iu), std::int16_t> && dtype_is<decltype(bi), std::int8_t>);
  static_assert(dtype_is<decltype(fi), double> && dtype_is<decltype(bb), bool> && dtype_is<decltype(st), std::int8_t>);
  CHECK(values(iu) == std::vector<double>{-1, 2, 255, 0, 7});
  CHECK(values(bi) == std::vector<double>{1, 0, -1, 2});
  CHECK(values(fi) == std::vector<double>{-5, 0.5, 1.5});
  CHECK(values(bb) == std::vector<double>{1, 0, 1, 0});
  CHECK(values(st) == std::vector<double>{-1, 1, 2, 0});
  const auto t = ip::concatenate<0>(i8, u8);
  static_assert(dtype_is<decltype(t), std::int16_t>);
  CHECK(values(t) == values(iu));
  CHECK(values(ip::stack<-1>(i8, b)) == values(st));
  CHECK(values(ip::concatenate<0>(i32, fl)) == values(fi));
}

// JAX's testWhere / testClip: a float or int condition is true where nonzero
// (NaN too); the three operands broadcast; clip's bounds broadcast and a NaN
// bound gives NaN; clip with lo > hi gives hi everywhere.
TEST_CASE("where with non-bool conditions and clip with array bounds, broadcast", "[peer][elementwise]") {
  constexpr auto C = ip::input<"C", float, ip::extents<3, 1>>;
  constexpr auto R = ip::input<"R", float, ip::extents<1, 4>>;
  ip::tensor<float, ip::extents<3, 1>> c{{0.0f}, {NAN}, {-2.0f}};
  ip::tensor<float, ip::extents<1, 4>> r{{1, 2, 3, 4}};
  constexpr auto f = ip::function(ip::inputs(C, R), ip::outputs(ip::where(C, R, -1.0_c), ip::where(C > R, C, R),
                                                                ip::clip(R, C, 2.5_c), ip::clip(R, 3.0_c, 1.0_c)));
  const auto [w, gt, cl, inverted] = f(c, r);
  CHECK(extents(w) == std::vector<std::size_t>{3, 4});
  CHECK(values(w) == std::vector<double>{-1, -1, -1, -1, 1, 2, 3, 4, 1, 2, 3, 4});
  CHECK(values(gt) == std::vector<double>{1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4});
  CHECK(same(values(cl), {1, 2, 2.5, 2.5, nan_v, nan_v, nan_v, nan_v, 1, 2, 2.5, 2.5}));
  CHECK(values(inverted) == std::vector<double>{1, 1, 1, 1});
  CHECK(values(ip::tensor<float, 2>(ip::where(c, r, -1.0f))) == values(w));
  CHECK(same(values(ip::tensor<float, 2>(ip::clip(r, c, 2.5f))), values(cl)));

  constexpr auto I = ip::input<"I", std::int32_t, ip::extents<4>>;
  constexpr auto X = ip::input<"X", float, ip::extents<4>>;
  ip::tensor<std::int32_t, ip::extents<4>> i{0, 2, -3, 0};
  ip::tensor<float, ip::extents<4>> x{2.0f, 2.0f, 2.0f, 0.0f};
  constexpr auto g = ip::function(ip::inputs(I, X), ip::outputs(ip::pow(X, I), ip::logical_or(I, 0_c), ip::where(I, I, 9_c)));
  const auto [p, o, wi] = g(i, x);
  static_assert(dtype_is<decltype(p), double> && dtype_is<decltype(wi), std::int32_t>);  // float32 ** int32: float64
  CHECK(values(p) == std::vector<double>{1, 4, 0.125, 1});
  CHECK(values(o) == std::vector<double>{0, 1, 1, 0});
  CHECK(values(wi) == std::vector<double>{9, 2, -3, 9});
}

// np.full(2, -1, np.uint8) (NumPy 1: 255), np.full(3, 300, np.int8) (44),
// np.full(2, -2.7, np.int32) (-2): the constant converted as a C++ number is,
// not by the undefined conversion of its long double (clang refused to compile
// it, g++ gave anything).
TEST_CASE("full converts its constant to the dtype: toward zero, integers modulo 2^n", "[peer][constants]") {
  constexpr auto I8 = ip::input<"I8", std::int8_t, ip::extents<3>>;
  constexpr auto f = ip::function(ip::inputs(I8), ip::outputs(ip::full<std::uint8_t, 2>(-1_c), I8 + ip::full<std::int8_t, 3>(300_c),
                                                              ip::full<std::int32_t, 2>(-2.7_c), ip::full<bool, 2>(0.5_c)));
  const auto [u, i, t, b] = f(ip::tensor<std::int8_t, ip::extents<3>>{1, 2, -128});
  CHECK(values(u) == std::vector<double>{255, 255});
  CHECK(values(i) == std::vector<double>{45, 46, -84});
  CHECK(values(t) == std::vector<double>{-2, -2});
  CHECK(values(b) == std::vector<double>{1, 1});
}

// JAX's chained x.at[1:4].add(1).at[0:3].add(2).at[0:2].set(y[3:5] * 10)
// (each update reads the previous one's result), two updates of one donated x
// (one runs in place, the other in a copy, both see the original), and an
// update<min> then update<max> through a stride.
TEST_CASE("chained and parallel updates of one value", "[peer][update]") {
  constexpr auto X = ip::input<"X", float, ip::extents<6>>;
  using T = ip::tensor<float, ip::extents<6>>;
  const T x{0, 1, 2, 3, 4, 5};
  constexpr auto y1 = ip::inc(ip::slice<1, 4>(X), 1.0_c);
  constexpr auto y2 = ip::inc(ip::slice<0, 3>(y1), 2.0_c);
  constexpr auto chain = ip::function(ip::inputs(X), ip::outputs(ip::set(ip::slice<0, 2>(y2), ip::slice<3, 5>(y2) * 10.0_c)));
  const std::vector<double> want{40, 40, 5, 4, 4, 5};
  CHECK(values(chain(x)) == want);
  CHECK(values(chain(T(x))) == want);
  CHECK(values(chain.debug(x)) == want);

  constexpr auto both = ip::function(ip::inputs(X), ip::outputs(ip::set(ip::slice<0, 1>(X), 100.0_c),
                                                                ip::set(ip::slice<1, 2>(X), ip::slice<0, 1>(X) - 1.0_c), X * 2.0_c));
  const auto [a, b, c] = both(T(x));
  CHECK(values(a) == std::vector<double>{100, 1, 2, 3, 4, 5});
  CHECK(values(b) == std::vector<double>{0, -1, 2, 3, 4, 5});
  CHECK(values(c) == std::vector<double>{0, 2, 4, 6, 8, 10});

  // m = minimum(x, 3); m[0::2] = maximum(m[0::2], x[1::2])
  constexpr auto mm = ip::function(ip::inputs(X), ip::outputs(ip::update<ip::ops::max>(
                                                      ip::slice<0, ip::end, 2>(ip::update<ip::ops::min>(X, 3.0_c)),
                                                      ip::slice<1, ip::end, 2>(X))));
  CHECK(values(mm(T(x))) == std::vector<double>{1, 1, 3, 3, 5, 3});
}
