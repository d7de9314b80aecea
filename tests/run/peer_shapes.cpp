// Shapes and dtypes of the vocabulary: cases ported (as facts; the values are
// NumPy 1.24's, computed with /usr/bin/python3 and written here as literals)
// from the peers' test suites: JAX's tests/lax_numpy_test.py
// (testConcatenate, testStack with negative axes and many parts, testMatmul
// over int8/bool dtypes, testWhereThreeArgument broadcasting all three
// operands, testArange / testFull over dtypes) and lax_test.py
// (testDynamicSlice), PyTensor's tests/tensor/test_basic.py (join and stack of
// views, a zero-size part) and test_math.py (dot of int8 and bool), Eigen's
// test/array_cwise.cpp. Each case runs in a graph and, where the op exists
// there, on tensors. (peer_elementwise.cpp: the elementwise values;
// peer_reductions.cpp, peer_updates.cpp: the reductions and updates.)
#include <inplace.hpp>

#include "peer_compare.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;

namespace {
// 0, 1, 2, ... in row-major order
template <class Tensor>
Tensor iota() {
  Tensor t;
  for (std::size_t i = 0; i < t.size(); ++i) t.data()[i] = static_cast<typename Tensor::value_type>(i);
  return t;
}
}  // namespace

// np.concatenate over negative axes, of transposed, reversed and stepped
// views, of nine parts (one input nine times), of computed parts, of a
// concatenation; np.stack over axis -1 and of views.
TEST_CASE("concatenate and stack: negative axes, views, many parts, nested", "[peer][concatenate]") {
  constexpr auto A = ip::input<"A", float, ip::extents<2, 3>>;
  constexpr auto B = ip::input<"B", float, ip::extents<2, 2>>;
  constexpr auto C = ip::input<"C", float, ip::extents<3, 2>>;
  constexpr auto X = ip::input<"X", float, ip::extents<3>>;
  ip::tensor<float, ip::extents<2, 3>> a{{0, 1, 2}, {3, 4, 5}};
  ip::tensor<float, ip::extents<2, 2>> b{{10, 11}, {12, 13}};
  ip::tensor<float, ip::extents<3, 2>> c{{-0.0f, -1}, {-2, -3}, {-4, -5}};
  ip::tensor<float, ip::extents<3>> x{1, 2, 3};
  constexpr auto f = ip::function(
      ip::inputs(A, B, C, X),
      ip::outputs(ip::concatenate<-1>(A, B), ip::concatenate<-2>(ip::transpose(A), ip::reverse(C)),
                  ip::concatenate<1>(ip::view(A, ip::all, ip::range<0, ip::end, 2>), ip::view(B, ip::all, ip::range<-1, ip::end, -1>)),
                  ip::concatenate<0>(X, X, X, X, X, X, X, X, X), ip::concatenate<0>(X, X * 2.0_c, ip::exp(X)),
                  ip::stack<-1>(A, A * 10.0_c, -A), ip::stack<1>(ip::transpose(A), C),
                  ip::concatenate<1>(ip::concatenate<1>(A, B), ip::full<float, 2, 1>(7.0_c))));
  const auto [c1, c2, c3, c9, cx, s1, s2, nested] = f(a, b, c, x);
  CHECK(extents(c1) == std::vector<std::size_t>{2, 5});
  CHECK(values(c1) == std::vector<double>{0, 1, 2, 10, 11, 3, 4, 5, 12, 13});
  CHECK(extents(c2) == std::vector<std::size_t>{6, 2});
  CHECK(same(values(c2), {0, 3, 1, 4, 2, 5, -4, -5, -2, -3, -0.0, -1}));
  CHECK(values(c3) == std::vector<double>{0, 2, 11, 10, 3, 5, 13, 12});
  CHECK(extents(c9) == std::vector<std::size_t>{27});
  for (std::size_t i = 0; i < 27; ++i) CHECK(values(c9)[i] == static_cast<double>(i % 3 + 1));
  const auto vx = values(cx);
  CHECK(std::vector<double>(vx.begin(), vx.begin() + 6) == std::vector<double>{1, 2, 3, 2, 4, 6});
  CHECK(vx[6] == Approx(2.7182819843292236));
  CHECK(vx[8] == Approx(20.08553695678711));
  CHECK(extents(s1) == std::vector<std::size_t>{2, 3, 3});
  CHECK(values(s1) == std::vector<double>{0, 0, -0.0, 1, 10, -1, 2, 20, -2, 3, 30, -3, 4, 40, -4, 5, 50, -5});
  CHECK(extents(s2) == std::vector<std::size_t>{3, 2, 2});
  CHECK(values(s2) == std::vector<double>{0, 3, -0.0, -1, 1, 4, -2, -3, 2, 5, -4, -5});
  CHECK(values(nested) == std::vector<double>{0, 1, 2, 10, 11, 7, 3, 4, 5, 12, 13, 7});
  // donated: the same values
  const auto [d1, d2, d3, d9, dx, t1, t2, dn] = f(ip::tensor<float, ip::extents<2, 3>>(a), b, c, ip::tensor<float, ip::extents<3>>(x));
  CHECK(values(d2) == values(c2));
  CHECK(values(dx) == values(cx));
  CHECK(values(t1) == values(s1));
  CHECK(values(dn) == values(nested));

  // tensors
  CHECK(values(ip::concatenate<-1>(a, b)) == values(c1));
  CHECK(values(ip::concatenate<-2>(ip::transpose(a), ip::reverse(c))) == values(c2));
  CHECK(values(ip::concatenate<0>(x, x, x, x, x, x, x, x, x)) == values(c9));
  CHECK(values(ip::stack<-1>(a, a * 10.0f, -a)) == values(s1));
  CHECK(values(ip::stack<1>(ip::transpose(a), c)) == values(s2));
}

// A zero-size part is nothing (np.concatenate([a, np.zeros((2, 0))], 1) is a);
// np.stack of rank-0 parts is a vector; NumPy's promotion of int32 with uint32
// (int64), int64 with uint64 (float64), float with double, uint8 with float
// (float32), and np.stack of uint8 with int16 (int16).
TEST_CASE("concatenate: zero-size parts, rank-0 stacks, promotion", "[peer][concatenate]") {
  constexpr auto A = ip::input<"A", float, ip::extents<2, 3>>;
  constexpr auto E = ip::input<"E", float, ip::extents<2, 0>>;
  constexpr auto Z = ip::input<"Z", float, ip::extents<0, 3>>;
  ip::tensor<float, ip::extents<2, 3>> a{{0, 1, 2}, {3, 4, 5}};
  ip::tensor<float, ip::extents<2, 0>> e;
  ip::tensor<float, ip::extents<0, 3>> z;
  constexpr auto f = ip::function(ip::inputs(A, E, Z), ip::outputs(ip::concatenate<1>(E, A, E), ip::concatenate<0>(Z, A, Z),
                                                                   ip::concatenate<1>(E, E), ip::stack<0>(Z, Z)));
  const auto [ea, za, ee, zz] = f(a, e, z);
  CHECK(extents(ea) == std::vector<std::size_t>{2, 3});
  CHECK(values(ea) == values(a));
  CHECK(values(za) == values(a));
  CHECK(extents(ee) == std::vector<std::size_t>{2, 0});
  CHECK(extents(zz) == std::vector<std::size_t>{2, 0, 3});
  CHECK(values(ip::concatenate<1>(e, a, e)) == values(a));
  CHECK(extents(ip::stack<0>(z, z)) == std::vector<std::size_t>{2, 0, 3});

  constexpr auto S = ip::input<"S", float, ip::extents<>>;
  constexpr auto g = ip::function(ip::inputs(S), ip::outputs(ip::stack<0>(S, S * 2.0_c, -S)));
  ip::tensor<float, ip::extents<>> one;
  one.data()[0] = 1.5f;
  const auto st = g(one);
  CHECK(extents(st) == std::vector<std::size_t>{3});
  CHECK(values(st) == std::vector<double>{1.5, 3, -1.5});

  constexpr auto I32 = ip::input<"I32", std::int32_t, ip::extents<2>>;
  constexpr auto U32 = ip::input<"U32", std::uint32_t, ip::extents<1>>;
  constexpr auto I64 = ip::input<"I64", std::int64_t, ip::extents<1>>;
  constexpr auto U64 = ip::input<"U64", std::uint64_t, ip::extents<1>>;
  constexpr auto F = ip::input<"F", float, ip::extents<1>>;
  constexpr auto D = ip::input<"D", double, ip::extents<1>>;
  constexpr auto U8 = ip::input<"U8", std::uint8_t, ip::extents<1>>;
  constexpr auto I16 = ip::input<"I16", std::int16_t, ip::extents<1>>;
  ip::tensor<std::int32_t, ip::extents<2>> i32{-1, 2};
  ip::tensor<std::uint32_t, ip::extents<1>> u32{4294967295u};
  ip::tensor<std::int64_t, ip::extents<1>> i64{-1};
  ip::tensor<std::uint64_t, ip::extents<1>> u64{18446744073709551615ull};
  ip::tensor<float, ip::extents<1>> fl{0.1f};
  ip::tensor<double, ip::extents<1>> db{0.1};
  ip::tensor<std::uint8_t, ip::extents<1>> u8{255};
  ip::tensor<std::int16_t, ip::extents<1>> i16{-300};
  constexpr auto h = ip::function(ip::inputs(I32, U32, I64, U64, F, D, U8, I16),
                                  ip::outputs(ip::concatenate<0>(I32, U32), ip::concatenate<0>(I64, U64), ip::concatenate<0>(F, D),
                                              ip::concatenate<0>(U8, F), ip::stack<0>(U8, I16)));
  const auto [iu, iu64, fd, uf, st16] = h(i32, u32, i64, u64, fl, db, u8, i16);
  static_assert(dtype_is<decltype(iu), std::int64_t> && dtype_is<decltype(iu64), double>);
  static_assert(dtype_is<decltype(fd), double> && dtype_is<decltype(uf), float> && dtype_is<decltype(st16), std::int16_t>);
  CHECK(values(iu) == std::vector<double>{-1, 2, 4294967295.0});
  CHECK(values(iu64) == std::vector<double>{-1, 18446744073709551615.0});
  CHECK(values(fd) == std::vector<double>{0.10000000149011612, 0.1});
  CHECK(values(uf) == std::vector<double>{255, 0.10000000149011612});
  CHECK(extents(st16) == std::vector<std::size_t>{2, 1});
  CHECK(values(st16) == std::vector<double>{255, -300});
  CHECK(values(ip::concatenate<0>(i32, u32)) == values(iu));
  CHECK(values(ip::concatenate<0>(i64, u64)) == values(iu64));
  CHECK(values(ip::stack<0>(u8, i16)) == values(st16));
}

// np.matmul keeps small integer dtypes and wraps (int8 @ int8 is int8), a
// bool product is bool (any of the ands), int8 @ uint8 is int16, bool @
// float32 float32; (1, k) @ (k, 1); k = 0 of integers gives zeros; an operand
// that is a broadcast view (stride 0) or the same input twice.
TEST_CASE("matmul of small integers and bool, k = 0, broadcast operands", "[peer][matmul]") {
  constexpr auto A8 = ip::input<"A8", std::int8_t, ip::extents<2, 3>>;
  constexpr auto B8 = ip::input<"B8", std::int8_t, ip::extents<3, 2>>;
  constexpr auto U = ip::input<"U", std::uint8_t, ip::extents<2, 2>>;
  constexpr auto UC = ip::input<"UC", std::uint8_t, ip::extents<3, 1>>;
  constexpr auto BB = ip::input<"BB", bool, ip::extents<2, 2>>;
  constexpr auto BC = ip::input<"BC", bool, ip::extents<2, 2>>;
  constexpr auto FC = ip::input<"FC", float, ip::extents<2, 1>>;
  ip::tensor<std::int8_t, ip::extents<2, 3>> a8{{100, -100, 7}, {127, -128, 1}};
  ip::tensor<std::int8_t, ip::extents<3, 2>> b8{{2, 1}, {3, -1}, {4, 5}};
  ip::tensor<std::uint8_t, ip::extents<2, 2>> u{{200, 100}, {255, 1}};
  ip::tensor<std::uint8_t, ip::extents<3, 1>> uc{{200}, {255}, {1}};
  ip::tensor<bool, ip::extents<2, 2>> bb{{true, false}, {false, false}}, bc{{false, true}, {true, false}};
  ip::tensor<float, ip::extents<2, 1>> fc{{0.5f}, {2.0f}};
  constexpr auto f = ip::function(ip::inputs(A8, B8, U, UC, BB, BC, FC),
                                  ip::outputs(ip::matmul(A8, B8), ip::matmul(U, U), ip::matmul(A8, UC), ip::matmul(BB, BC),
                                              ip::matmul(BC, FC), ip::dot(A8, B8)));
  const auto [i8, u8, i16, bl, bf, d8] = f(a8, b8, u, uc, bb, bc, fc);
  static_assert(dtype_is<decltype(i8), std::int8_t> && dtype_is<decltype(u8), std::uint8_t>);
  static_assert(dtype_is<decltype(i16), std::int16_t> && dtype_is<decltype(bl), bool> && dtype_is<decltype(bf), float>);
  CHECK(values(i8) == std::vector<double>{-72, -21, -126, 4});
  CHECK(values(u8) == std::vector<double>{220, 132, 55, 157});
  CHECK(values(i16) == std::vector<double>{-5493, -7239});
  CHECK(values(bl) == std::vector<double>{0, 1, 0, 0});
  CHECK(values(bf) == std::vector<double>{2, 0.5});
  CHECK(values(d8) == values(i8));
  CHECK(values(ip::matmul(a8, b8)) == values(i8));
  CHECK(values(ip::matmul(u, u)) == values(u8));
  CHECK(values(ip::matmul(a8, uc)) == values(i16));
  CHECK(values(ip::matmul(bb, bc)) == values(bl));
  CHECK(values(ip::matmul(bc, fc)) == values(bf));

  // (1, 3) @ (3, 1); k = 0; a broadcast operand: np.broadcast_to(v, (4, 3)) @ v
  constexpr auto R = ip::input<"R", std::int64_t, ip::extents<1, 3>>;
  constexpr auto K = ip::input<"K", std::int32_t, ip::extents<3, 1>>;
  constexpr auto E0 = ip::input<"E0", std::int32_t, ip::extents<2, 0>>;
  constexpr auto E1 = ip::input<"E1", std::int32_t, ip::extents<0, 3>>;
  constexpr auto V = ip::input<"V", float, ip::extents<3>>;
  ip::tensor<std::int64_t, ip::extents<1, 3>> r{{1, 2, 3}};
  ip::tensor<std::int32_t, ip::extents<3, 1>> k{{4}, {5}, {6}};
  ip::tensor<std::int32_t, ip::extents<2, 0>> e0;
  ip::tensor<std::int32_t, ip::extents<0, 3>> e1;
  ip::tensor<float, ip::extents<3>> v{1, -2, 0.5f};
  constexpr auto g = ip::function(ip::inputs(R, K, E0, E1, V),
                                  ip::outputs(ip::matmul(R, K), ip::matmul(E0, E1), ip::matmul(ip::broadcast_to<4, 3>(V), V),
                                              ip::matmul(V, ip::broadcast_to<3, 2>(ip::expand_dims<1>(V))), ip::matmul(V, V)));
  const auto [rk, zero, bv, vb, vv] = g(r, k, e0, e1, v);
  static_assert(dtype_is<decltype(rk), std::int64_t>);
  CHECK(extents(rk) == std::vector<std::size_t>{1, 1});
  CHECK(values(rk) == std::vector<double>{32});
  CHECK(extents(zero) == std::vector<std::size_t>{2, 3});
  CHECK(values(zero) == std::vector<double>{0, 0, 0, 0, 0, 0});
  CHECK(values(bv) == std::vector<double>{5.25, 5.25, 5.25, 5.25});
  CHECK(values(vb) == std::vector<double>{5.25, 5.25});
  CHECK(values(vv) == std::vector<double>{5.25});
  CHECK(values(ip::matmul(e0, e1)) == values(zero));
  CHECK(values(ip::matmul(ip::broadcast_to<4, 3>(v), v)) == values(bv));
}

// jnp.where(c, a, b) with all three operands broadcast (3, 1, 1), (1, 4, 1),
// (1, 1, 2) and of three dtypes: bool, int8, uint8 give int16; a float
// condition (2, 1) with an int32 row and a weak float: float64.
TEST_CASE("where: three operands broadcast, mixed dtypes", "[peer][elementwise]") {
  constexpr auto C = ip::input<"C", bool, ip::extents<3, 1, 1>>;
  constexpr auto A = ip::input<"A", std::int8_t, ip::extents<1, 4, 1>>;
  constexpr auto B = ip::input<"B", std::uint8_t, ip::extents<1, 1, 2>>;
  constexpr auto CF = ip::input<"CF", float, ip::extents<2, 1>>;
  constexpr auto R = ip::input<"R", std::int32_t, ip::extents<1, 3>>;
  ip::tensor<bool, ip::extents<3, 1, 1>> c{{{true}}, {{false}}, {{true}}};
  ip::tensor<std::int8_t, ip::extents<1, 4, 1>> a{{{-128}, {-1}, {0}, {127}}};
  ip::tensor<std::uint8_t, ip::extents<1, 1, 2>> b{{{255, 7}}};
  ip::tensor<float, ip::extents<2, 1>> cf{{NAN}, {-0.0f}};
  ip::tensor<std::int32_t, ip::extents<1, 3>> r{{-5, 0, 2147483647}};
  constexpr auto f = ip::function(ip::inputs(C, A, B, CF, R), ip::outputs(ip::where(C, A, B), ip::where(CF, R, 0.5_c)));
  const auto [w, wf] = f(c, a, b, cf, r);
  static_assert(dtype_is<decltype(w), std::int16_t> && dtype_is<decltype(wf), double>);
  CHECK(extents(w) == std::vector<std::size_t>{3, 4, 2});
  const std::vector<double> t{-128, -128, -1, -1, 0, 0, 127, 127}, e{255, 7, 255, 7, 255, 7, 255, 7};
  std::vector<double> want = t;
  want.insert(want.end(), e.begin(), e.end());
  want.insert(want.end(), t.begin(), t.end());
  CHECK(values(w) == want);
  CHECK(values(wf) == std::vector<double>{-5, 0, 2147483647, 0.5, 0.5, 0.5});
  const auto tw = ip::tensor<std::int16_t, 3>(ip::where(c, a, b));
  CHECK(values(tw) == want);
  CHECK(values(ip::tensor<double, 2>(ip::where(cf, r, 0.5))) == values(wf));
}

// np.zeros, np.ones, np.full and np.arange in every dtype, inside a graph:
// np.full(2, 2, bool) is True, np.full(2, 0.1, np.float32), np.full(2, 2.9,
// np.int64) is 2, np.arange(250, 256, dtype=np.uint8), np.arange(5, -5, -3,
// np.int8), np.arange(0, 10, 3, np.float64), np.arange(-3, 3, 2, np.float32),
// np.arange(2, dtype=bool) == [False, True] (np.arange(3, dtype=bool) raises:
// tests/fail/dtype.fail.arange_of_bool.cpp).
TEST_CASE("zeros, ones, full, arange of every dtype in a graph", "[peer][constants]") {
  constexpr auto X = ip::input<"X", float, ip::extents<2>>;
  constexpr auto f = ip::function(
      ip::inputs(X),
      ip::outputs(ip::zeros<bool, 2>, ip::ones<bool, 2>, ip::full<bool, 2>(2_c), ip::ones<std::int8_t, 2>, ip::ones<std::uint16_t, 2>,
                  ip::zeros<std::uint64_t, 2>, ip::full<float, 2>(0.1_c), ip::full<std::int64_t, 2>(2.9_c),
                  ip::full<std::uint32_t, 2>(4294967295_c), ip::full<double, 2>(-0.0_c),
                  ip::arange<std::uint8_t, 250, 256>, ip::arange<std::int8_t, 5, -5, -3>, ip::arange<double, 0, 10, 3>,
                  ip::arange<float, -3, 3, 2>, ip::arange<bool, 2>, ip::arange<std::uint64_t, 3>, ip::arange<std::int16_t, 0>,
                  X + ip::arange<std::int32_t, 2>, ip::ones<std::uint8_t, 2> + X));
  const auto [z_b, o_b, f_b, o_i8, o_u16, z_u64, f_f, f_i64, f_u32, f_d, a_u8, a_i8, a_d, a_f, a_b, a_u64, a_empty, x_i32, u8_x] =
      f(ip::tensor<float, ip::extents<2>>{0.5f, -1});
  static_assert(dtype_is<decltype(z_b), bool> && dtype_is<decltype(o_i8), std::int8_t> && dtype_is<decltype(o_u16), std::uint16_t>);
  static_assert(dtype_is<decltype(z_u64), std::uint64_t> && dtype_is<decltype(f_f), float> && dtype_is<decltype(f_i64), std::int64_t>);
  static_assert(dtype_is<decltype(a_u8), std::uint8_t> && dtype_is<decltype(a_b), bool> && dtype_is<decltype(a_u64), std::uint64_t>);
  static_assert(dtype_is<decltype(x_i32), double> && dtype_is<decltype(u8_x), float>);
  CHECK(values(z_b) == std::vector<double>{0, 0});
  CHECK(values(o_b) == std::vector<double>{1, 1});
  CHECK(values(f_b) == std::vector<double>{1, 1});
  CHECK(values(o_i8) == std::vector<double>{1, 1});
  CHECK(values(o_u16) == std::vector<double>{1, 1});
  CHECK(values(z_u64) == std::vector<double>{0, 0});
  CHECK(values(f_f) == std::vector<double>{0.10000000149011612, 0.10000000149011612});
  CHECK(values(f_i64) == std::vector<double>{2, 2});
  CHECK(values(f_u32) == std::vector<double>{4294967295.0, 4294967295.0});
  CHECK(std::signbit(values(f_d)[1]));
  CHECK(values(a_u8) == std::vector<double>{250, 251, 252, 253, 254, 255});
  CHECK(values(a_i8) == std::vector<double>{5, 2, -1, -4});
  CHECK(values(a_d) == std::vector<double>{0, 3, 6, 9});
  CHECK(values(a_f) == std::vector<double>{-3, -1, 1});
  CHECK(values(a_b) == std::vector<double>{0, 1});
  CHECK(values(a_u64) == std::vector<double>{0, 1, 2});
  CHECK(extents(a_empty) == std::vector<std::size_t>{0});
  CHECK(values(x_i32) == std::vector<double>{0.5, 0});
  CHECK(values(u8_x) == std::vector<double>{1.5, 0});

  // np.arange(3, 3) and np.arange(-2, -2) are empty (arange<T, 3, 3> was arange<T, 3>: 0, 1, 2)
  constexpr auto g = ip::function(ip::inputs(X), ip::outputs(ip::arange<std::int32_t, 3, 3>, ip::arange<float, -2, -2>,
                                                             ip::arange<std::int64_t, 3, 4>));
  const auto [e1, e2, one] = g(ip::tensor<float, ip::extents<2>>{0, 0});
  CHECK(extents(e1) == std::vector<std::size_t>{0});
  CHECK(extents(e2) == std::vector<std::size_t>{0});
  CHECK(values(one) == std::vector<double>{3});
}

// lax.dynamic_slice clamps its start so that the slice fits (JAX); here a
// start outside 0 .. extent - Size is ip::shape_error before anything runs
// (docs/reference.md); in range, the values are x[t:t + Size] at every t,
// the first and the last included, through a transposed and a reversed view.
TEST_CASE("dynamic_slice: every start in range, the ends refused", "[peer][dynamic_slice]") {
  constexpr auto M = ip::input<"M", float, ip::extents<3, 5>>;
  constexpr auto t = ip::scalar<"t", std::int64_t>;
  const auto m = iota<ip::tensor<float, ip::extents<3, 5>>>();
  constexpr auto f = ip::function(ip::inputs(M, t), ip::outputs(ip::dynamic_slice<1, 2>(M, t), ip::dynamic_slice<0, 3>(ip::transpose(M), t),
                                                                ip::dynamic_slice<-1, 4>(ip::reverse(M), t)));
  for (std::int64_t s = 0; s <= 1; ++s) {
    const auto [a, b, c] = f(m, s);
    const double d = static_cast<double>(s);
    CHECK(values(a) == std::vector<double>{d, d + 1, d + 5, d + 6, d + 10, d + 11});
    CHECK(values(b) == std::vector<double>{d, d + 5, d + 10, d + 1, d + 6, d + 11, d + 2, d + 7, d + 12});
    CHECK(values(c) == std::vector<double>{d + 10, d + 11, d + 12, d + 13, d + 5, d + 6, d + 7, d + 8, d, d + 1, d + 2, d + 3});
  }
  CHECK_THROWS_AS(f(m, std::int64_t{2}), ip::shape_error);  // 2 > 5 - 4: JAX clamps to 1
  constexpr auto g = ip::function(ip::inputs(M, t), ip::outputs(ip::dynamic_slice<1, 2>(M, t)));
  CHECK(values(g(m, std::int64_t{3})) == std::vector<double>{3, 4, 8, 9, 13, 14});
  CHECK_THROWS_AS(g(m, std::int64_t{4}), ip::shape_error);   // JAX: clamped to 3
  CHECK_THROWS_AS(g(m, std::int64_t{-1}), ip::shape_error);  // JAX: clamped to 0
  CHECK(values(ip::dynamic_slice<1, 2>(m, 3)) == std::vector<double>{3, 4, 8, 9, 13, 14});
  CHECK_THROWS_AS((ip::dynamic_slice<1, 2>(m, 4)), ip::shape_error);
}

// NumPy's m[:, 0] = m[0, :] and np.fill_diagonal-like d += m[0] on a square
// matrix: the value is read before the region is written (the element they
// share, (0, 0), read first), in graphs (borrowed, donated) and as tensor statements.
TEST_CASE("updates of a column from the row it crosses, of a diagonal from a row", "[peer][update]") {
  constexpr auto S = ip::input<"S", float, ip::extents<3, 3>>;
  using T = ip::tensor<float, ip::extents<3, 3>>;
  const auto s = iota<T>();
  const std::vector<double> col{0, 1, 2, 1, 4, 5, 2, 7, 8}, diag{0, 1, 2, 3, 5, 5, 6, 7, 10};
  const std::vector<double> stepped{8, 1, 6, 3, 4, 5, 2, 7, 0};  // m[::2, ::2] = m[::-2, ::-2]
  constexpr auto f = ip::function(ip::inputs(S), ip::outputs(ip::set(ip::col<0>(S), ip::row<0>(S))));
  constexpr auto g = ip::function(ip::inputs(S), ip::outputs(ip::inc(ip::diagonal(S), ip::row<0>(S))));
  constexpr auto h = ip::function(ip::inputs(S), ip::outputs(ip::set(ip::view(S, ip::range<0, ip::end, 2>, ip::range<0, ip::end, 2>),
                                                                     ip::view(S, ip::range<-1, ip::end, -2>, ip::range<-1, ip::end, -2>))));
  CHECK(values(f(s)) == col);
  CHECK(values(f(T(s))) == col);
  CHECK(values(g(s)) == diag);
  CHECK(values(g(T(s))) == diag);
  CHECK(values(h(s)) == stepped);
  CHECK(values(h(T(s))) == stepped);
  T t = s;
  ip::col<0>(t) = ip::row<0>(t);
  CHECK(values(t) == col);
  t = s;
  ip::diagonal(t) += ip::row<0>(t);
  CHECK(values(t) == diag);
  t = s;
  ip::view(t, ip::range<0, ip::end, 2>, ip::range<0, ip::end, 2>) = ip::view(t, ip::range<-1, ip::end, -2>, ip::range<-1, ip::end, -2>);
  CHECK(values(t) == stepped);
}

// NumPy reduces an empty array along an axis that is not empty:
// np.zeros((3, 0)).max(0) and .argmax(0) are empty (shape (0,)),
// np.zeros((0, 3)).max(1) too (keepdims: (0, 1)); only an empty reduced axis
// raises. np.mean of int64 near 2^63 and of uint64 accumulates in float64.
TEST_CASE("reductions of empty arrays along non-empty axes; means of int64 and uint64", "[peer][reductions]") {
  constexpr auto E = ip::input<"E", float, 2>;
  const ip::tensor<float, 2> e30(3, 0), e03(0, 3);
  constexpr auto f = ip::function(ip::inputs(E), ip::outputs(ip::reduce_max<0>(E), ip::argmax<0>(E), ip::reduce_sum<-1, ip::keepdims>(E),
                                                             ip::argmin<0>(E * 2.0_c)));
  const auto [mx0, am0, s1, am1] = f(e30);
  CHECK(extents(mx0) == std::vector<std::size_t>{0});
  CHECK(extents(am0) == std::vector<std::size_t>{0});
  CHECK(extents(s1) == std::vector<std::size_t>{3, 1});  // a sum of nothing: 0
  CHECK(values(s1) == std::vector<double>{0, 0, 0});
  CHECK(extents(am1) == std::vector<std::size_t>{0});
  CHECK_THROWS_AS(f(e03), ip::shape_error);  // max of axis 0, empty: raises
  CHECK_THROWS_AS(ip::function(ip::inputs(E), ip::outputs(ip::reduce_min<-1, ip::keepdims>(E)))(e30), ip::shape_error);
  constexpr auto g = ip::function(ip::inputs(E), ip::outputs(ip::reduce_max<1>(E), ip::reduce_min<1, ip::keepdims>(E), ip::argmin<-1>(E)));
  const auto [m1, k1, a1] = g(e03);
  CHECK(extents(m1) == std::vector<std::size_t>{0});
  CHECK(extents(k1) == std::vector<std::size_t>{0, 1});
  CHECK(extents(a1) == std::vector<std::size_t>{0});
  CHECK(extents(ip::reduce_max<0>(e30)) == std::vector<std::size_t>{0});
  CHECK(extents(ip::argmax<0>(e30)) == std::vector<std::size_t>{0});
  CHECK(extents(ip::reduce_max<1>(e03)) == std::vector<std::size_t>{0});
  CHECK_THROWS_AS(ip::reduce_max<1>(e30), ip::shape_error);

  constexpr auto I = ip::input<"I", std::int64_t>;
  constexpr auto U = ip::input<"U", std::uint64_t>;
  const ip::tensor<std::int64_t> i{9223372036854775807ll, 9223372036854775807ll, 3};
  const ip::tensor<std::uint64_t> u{18446744073709551615ull, 1};
  constexpr auto h = ip::function(ip::inputs(I, U), ip::outputs(ip::reduce_mean(I), ip::reduce_mean(U), ip::reduce_mean(I * 1_c)));
  const auto [mi, mu, mf] = h(i, u);
  static_assert(dtype_is<decltype(mi), double> && dtype_is<decltype(mu), double>);
  CHECK(values(mi) == std::vector<double>{6.148914691236517e+18});
  CHECK(values(mu) == std::vector<double>{9.223372036854776e+18});
  CHECK(values(mf) == values(mi));
  CHECK(values(ip::reduce_mean(i)) == values(mi));
  CHECK(values(ip::reduce_mean(u)) == values(mu));
}

// XLA's and oneDNN's in-place concat: an opaque producer (matmul, dot, a
// reduction, softmax) whose result is a part writes its region of the result,
// a strided one along axis 1 or -1; nested concatenations; borrowed and
// donated. np.concatenate([a @ b, a], 1), np.stack([a.sum(1), a.max(1),
// b.sum(0)], 1), np.stack([softmax(a), a], -1), ...
TEST_CASE("concatenate and stack of opaque results, written into strided regions", "[peer][concatenate]") {
  constexpr auto A = ip::input<"A", float, ip::extents<2, 3>>;
  constexpr auto B = ip::input<"B", float, ip::extents<3, 2>>;
  using M23 = ip::tensor<float, ip::extents<2, 3>>;
  using M32 = ip::tensor<float, ip::extents<3, 2>>;
  const M23 a{{-1, 0, 1}, {2, 3, 4}};
  const M32 b{{1, -1}, {2, -3}, {4, -5}};
  constexpr auto f = ip::function(
      ip::inputs(A, B),
      ip::outputs(ip::concatenate<1>(ip::matmul(A, B), A), ip::concatenate<1>(ip::dot(A, B), ip::transpose(B)),
                  ip::stack<1>(ip::reduce_sum<1>(A), ip::reduce_max<1>(A), ip::reduce_sum<0>(B)), ip::stack<-1>(ip::softmax(A), A),
                  ip::concatenate<0>(ip::concatenate<1>(ip::transpose(B), ip::matmul(A, B)),
                                     ip::concatenate<1>(A * 3.0_c, ip::reverse(ip::transpose(ip::matmul(A, B)))))));
  const std::vector<double> c1{3, -4, -1, 0, 1, 24, -31, 2, 3, 4}, c2{3, -4, 1, 2, 4, 24, -31, -1, -3, -5}, st{0, 1, 7, 9, 4, -9};
  const std::vector<double> nested{1, 2, 4, 3, -4, -1, -3, -5, 24, -31, -3, 0, 3, -4, -31, 6, 9, 12, 3, 24};
  const std::vector<double> sm{0.09003055840730667, 0.2447284460067749, 0.6652409434318542};
  for (const bool donated : {false, true}) {
    INFO("donated: " << donated);
    const auto [r1, r2, rs, rsm, rn] = donated ? f(M23(a), M32(b)) : f(a, b);
    CHECK(values(r1) == c1);
    CHECK(values(r2) == c2);
    CHECK(values(rs) == st);
    CHECK(values(rn) == nested);
    const auto v = values(rsm);
    REQUIRE(v.size() == 12);
    for (std::size_t i = 0; i < 6; ++i) {
      CHECK(v[2 * i] == Approx(sm[i % 3]));
      CHECK(v[2 * i + 1] == values(a)[i]);
    }
  }
  CHECK(values(ip::concatenate<1>(ip::matmul(a, b), a)) == c1);
  // on tensors, stacks of temporaries and of expressions owning one (a view
  // of each was refused: view_of_temporary)
  CHECK(values(ip::stack<1>(ip::reduce_sum<1>(a), ip::reduce_max<1>(a), ip::reduce_sum<0>(b))) == st);
  CHECK(values(ip::stack<0>(ip::matmul(a, b) * 2.0f, ip::matmul(a, b))) == std::vector<double>{6, -8, 48, -62, 3, -4, 24, -31});
  CHECK(values(ip::stack<0>(ip::reduce_sum(a), ip::reduce_max(b))) == std::vector<double>{9, 4});
}
