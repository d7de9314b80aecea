// Eigen's aliasing cases, ported as facts (statement, NumPy's value): the
// "Aliasing" page of Eigen's documentation (overlapping corner blocks, `mat =
// mat.transpose()`, `mat = mat * mat`, coefficient-wise statements), its
// test/adjoint.cpp (adjoint_extra: `a = a.transpose() + b`, `a.transpose() +=
// a.transpose() + b`, the regression of bug 1646 `c.col(j).head(j) =
// c.row(j).head(j)`, `c.col(j) = c.row(j)`, 1x1 and 0x0 `a = a.transpose()`,
// the block transposeInPlace), test/block.cpp (`m.row(r1).row(0) += s *
// m.row(r2)`) and the shifted `v.tail(n) = v.head(n)` and `diagonal() += ...`
// statements. Eigen leaves these to the user (`.eval()`); here each must give
// NumPy's value (copy semantics), as a tensor statement and in a graph
// (borrowed, donated, and in debug mode, which compares with the pure
// reference). The expected values are NumPy's (1.24/2.x), for the statement
// written in each comment, with a = arange(16).reshape(4, 4) float32 and b =
// a + 100 unless the case says otherwise.
#include <inplace.hpp>

#include "peer_compare.hpp"

#include <catch2/catch.hpp>

#include <cstddef>
#include <utility>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;

namespace {
using M4 = ip::tensor<float, ip::extents<4, 4>>;
using V10 = ip::tensor<float, ip::extents<10>>;
constexpr auto X = ip::input<"X", float, ip::extents<4, 4>>;
constexpr auto Y = ip::input<"Y", float, ip::extents<4, 4>>;
constexpr auto V = ip::input<"V", float, ip::extents<10>>;

template <class T>
T iota(float first = 0) {
  T t;
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = first + static_cast<float>(i);
  return t;
}
const M4 a0 = iota<M4>();
const M4 b0 = iota<M4>(100);
const V10 v0 = iota<V10>();

// A one-input graph's value: borrowed (the caller's tensor unchanged), donated
// (in the donated storage where legal), and in debug mode.
template <class F, class T>
void graph_gives(const F& f, const T& x, const std::vector<double>& want) {
  T keep = x;
  CHECK(values(f(x)) == want);
  CHECK(values(x) == values(keep));
  CHECK(values(f(T(x))) == want);
  CHECK(values(f.debug(x)) == want);
}
// The same with a second, borrowed input.
template <class F, class T>
void graph_gives(const F& f, const T& x, const T& y, const std::vector<double>& want) {
  CHECK(values(f(x, y)) == want);
  CHECK(values(f(T(x), y)) == want);
  CHECK(values(f.debug(x, y)) == want);
}
}  // namespace

// adjoint_extra: Eigen asserts on `a = a.transpose()` and its sums (the
// destination is read transposed); the transposed destination assigned its
// own transpose is the same pattern and asserts nothing.
TEST_CASE("Eigen adjoint_extra: a = a.T, a = a.T + b, a = b + a.T, a.T = a.T, a.T += a.T (+ b)", "[peer][aliasing]") {
  const std::vector<double> t{0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15};
  const std::vector<double> tb{100, 105, 110, 115, 105, 110, 115, 120, 110, 115, 120, 125, 115, 120, 125, 130};
  const std::vector<double> twice{0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30};
  // a.T[...] += a.T + b: a[j, i] = 2 a[j, i] + b[i, j]
  const std::vector<double> twice_b{100, 106, 112, 118, 109, 115, 121, 127, 118, 124, 130, 136, 127, 133, 139, 145};
  {
    M4 a = a0;
    a = ip::transpose(a);
    CHECK(values(a) == t);
    a = a0;
    a = ip::transpose(a) + b0;
    CHECK(values(a) == tb);
    a = a0;
    a = b0 + ip::transpose(a);
    CHECK(values(a) == tb);
    a = a0;
    ip::transpose(a) = ip::transpose(a);
    CHECK(values(a) == values(a0));
    ip::transpose(a) += ip::transpose(a);
    CHECK(values(a) == twice);
    a = a0;
    ip::transpose(a) += ip::transpose(a) + b0;
    CHECK(values(a) == twice_b);
    a = a0;
    ip::noalias(ip::transpose(a)) += ip::transpose(a);  // the same pattern: no temporary needed, none refused
    CHECK(values(a) == twice);
    a = a0;
    CHECK_THROWS_AS(ip::noalias(a) = ip::transpose(a) + b0, ip::aliasing_error);
    CHECK(values(a) == values(a0));
  }
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::set(X, ip::transpose(X)))), a0, t);
  graph_gives(ip::function(ip::inputs(X, Y), ip::outputs(ip::set(X, ip::transpose(X) + Y))), a0, b0, tb);
  graph_gives(ip::function(ip::inputs(X, Y), ip::outputs(ip::set(X, Y + ip::transpose(X)))), a0, b0, tb);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::set(ip::transpose(X), ip::transpose(X)))), a0, values(a0));
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::inc(ip::transpose(X), ip::transpose(X)))), a0, twice);
  graph_gives(ip::function(ip::inputs(X, Y), ip::outputs(ip::inc(ip::transpose(X), ip::transpose(X) + Y))), a0, b0, twice_b);
  // the value of the update, then the input read again: b is a.T, the input still a
  constexpr auto both = ip::function(ip::inputs(X), ip::outputs(ip::set(X, ip::transpose(X)), X + 0.0_c));
  const auto [tr, same_x] = both(M4(a0));
  CHECK(values(tr) == t);
  CHECK(values(same_x) == values(a0));
}

// adjoint_extra's last statements: a = a.transpose() of a 1x1 and a 0x0
// matrix (run-time extents); a 1x3 row into its 3x1 transpose is a shape error.
TEST_CASE("Eigen adjoint_extra: a = a.T for 1x1 and 0x0", "[peer][aliasing]") {
  ip::tensor<float, 2> one{{7}};
  one = ip::transpose(one);
  CHECK(same(values(one), {7}));
  ip::tensor<float, 2> none(0, 0);
  none = ip::transpose(none);
  CHECK(extents(none) == std::vector<std::size_t>{0, 0});
  ip::tensor<float, 2> row{{1, 2, 3}};
  CHECK_THROWS_AS(row = ip::transpose(row), ip::shape_error);
  CHECK(values(row) == std::vector<double>{1, 2, 3});
  constexpr auto D = ip::input<"D", float, 2>;
  constexpr auto f = ip::function(ip::inputs(D), ip::outputs(ip::set(D, ip::transpose(D))));
  CHECK(values(f(ip::tensor<float, 2>{{7}})) == std::vector<double>{7});
  CHECK(extents(f(ip::tensor<float, 2>(0, 0))) == std::vector<std::size_t>{0, 0});
  CHECK(values(f.debug(ip::tensor<float, 2>{{7}})) == std::vector<double>{7});
}

// Bug 1646: for j in range(10): c[:j, j] = c[j, :j] (a column's head from a
// row's head: disjoint elements); then c[:, j] = c[j, :] (one shared element,
// (j, j)). c = arange(100).reshape(10, 10).
TEST_CASE("Eigen bug 1646: c.col(j).head(j) = c.row(j).head(j); c.col(j) = c.row(j)", "[peer][aliasing]") {
  using C10 = ip::tensor<float, ip::extents<10, 10>>;
  const C10 c0 = iota<C10>();
  std::vector<double> sym(100), col_row(100);
  for (std::size_t i = 0; i < 10; ++i)
    for (std::size_t j = 0; j < 10; ++j) {
      sym[i * 10 + j] = static_cast<double>(i <= j ? 10 * j + i : 10 * i + j);  // the upper triangle from the lower
      col_row[i * 10 + j] = static_cast<double>(i <= j ? 10 * i + j : 10 * j + i);  // the lower from the upper
    }
  C10 c = c0;
  for (std::ptrdiff_t j = 0; j < 10; ++j) ip::view(c, ip::runtime_range{0, j, 1}, j) = ip::view(c, j, ip::runtime_range{0, j, 1});
  CHECK(values(c) == sym);
  c = c0;
  for (std::ptrdiff_t j = 0; j < 10; ++j) ip::col(c, j) = ip::row(c, j);
  CHECK(values(c) == col_row);

  // In a graph: c[:3, 3] = c[3, :3], then c[:5, 5] = c[5, :5] of the result; and c[:, 2] = c[2, :].
  constexpr auto C = ip::input<"C", float, ip::extents<10, 10>>;
  constexpr auto u3 = ip::set(ip::view(C, ip::range<0, 3>, ip::at<3>), ip::view(C, ip::at<3>, ip::range<0, 3>));
  constexpr auto u5 = ip::set(ip::view(u3, ip::range<0, 5>, ip::at<5>), ip::view(u3, ip::at<5>, ip::range<0, 5>));
  std::vector<double> want35 = values(c0);
  for (std::size_t i = 0; i < 3; ++i) want35[i * 10 + 3] = static_cast<double>(30 + i);
  for (std::size_t i = 0; i < 5; ++i) want35[i * 10 + 5] = static_cast<double>(50 + i);
  graph_gives(ip::function(ip::inputs(C), ip::outputs(u5)), c0, want35);
  std::vector<double> want2 = values(c0);
  for (std::size_t i = 0; i < 10; ++i) want2[i * 10 + 2] = static_cast<double>(20 + i);
  graph_gives(ip::function(ip::inputs(C), ip::outputs(ip::set(ip::col<2>(C), ip::row<2>(C)))), c0, want2);
}

// adjoint(): m3.block<P, P>(i, j).transposeInPlace(), twice: the block of an
// 8x8 m = arange(64).reshape(8, 8) at (1, 3) of 4x4: m[1:5, 3:7] = m[1:5, 3:7].T.
TEST_CASE("Eigen adjoint: a block transposed in place, twice", "[peer][aliasing]") {
  using M8 = ip::tensor<float, ip::extents<8, 8>>;
  const M8 m0 = iota<M8>();
  const std::vector<double> want{0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 19, 27, 35, 15, 16, 17, 18, 12, 20, 28,
                                 36, 23, 24, 25, 26, 13, 21, 29, 37, 31, 32, 33, 34, 14, 22, 30, 38, 39, 40, 41, 42, 43,
                                 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63};
  M8 m = m0;
  ip::block<1, 3, 4, 4>(m) = ip::transpose(ip::block<1, 3, 4, 4>(m));
  CHECK(values(m) == want);
  ip::block(m, 1, 3, 4, 4) = ip::transpose(ip::block(m, 1, 3, 4, 4));
  CHECK(values(m) == values(m0));
  constexpr auto Q = ip::input<"Q", float, ip::extents<8, 8>>;
  constexpr auto once = ip::set(ip::block<1, 3, 4, 4>(Q), ip::transpose(ip::block<1, 3, 4, 4>(Q)));
  graph_gives(ip::function(ip::inputs(Q), ip::outputs(once)), m0, want);
  constexpr auto twice = ip::set(ip::block<1, 3, 4, 4>(once), ip::transpose(ip::block<1, 3, 4, 4>(once)));
  graph_gives(ip::function(ip::inputs(Q), ip::outputs(twice)), m0, values(m0));
}

// The aliasing page: mat.bottomRightCorner(2, 2) = mat.topLeftCorner(2, 2)
// on [[1..9]] (Eigen's wrong answer [[1,2,3],[4,1,2],[7,4,1]]), the 4x4
// corners of 3x3 both ways, and the coefficient-wise statements that are
// safe: mat = (2 * mat - I).square().
TEST_CASE("Eigen's aliasing page: overlapping corner blocks, coefficient-wise statements", "[peer][aliasing]") {
  using M3 = ip::tensor<float, ip::extents<3, 3>>;
  const M3 m30 = iota<M3>(1);
  const std::vector<double> corner{1, 2, 3, 4, 1, 2, 7, 4, 5};
  M3 m = m30;
  ip::view(m, ip::range<-2>, ip::range<-2>) = ip::block<0, 0, 2, 2>(m);
  CHECK(values(m) == corner);
  constexpr auto T3 = ip::input<"T3", float, ip::extents<3, 3>>;
  graph_gives(ip::function(ip::inputs(T3), ip::outputs(ip::set(ip::block<1, 1, 2, 2>(T3), ip::block<0, 0, 2, 2>(T3)))), m30,
              corner);

  const std::vector<double> down{0, 1, 2, 3, 4, 0, 1, 2, 8, 4, 5, 6, 12, 8, 9, 10};   // a[1:, 1:] = a[:-1, :-1]
  const std::vector<double> up{5, 6, 7, 3, 9, 10, 11, 7, 13, 14, 15, 11, 12, 13, 14, 15};  // a[:-1, :-1] = a[1:, 1:]
  M4 a = a0;
  ip::block<1, 1, 3, 3>(a) = ip::block<0, 0, 3, 3>(a);
  CHECK(values(a) == down);
  a = a0;
  ip::block<0, 0, 3, 3>(a) = ip::block<1, 1, 3, 3>(a);
  CHECK(values(a) == up);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::set(ip::block<1, 1, 3, 3>(X), ip::block<0, 0, 3, 3>(X)))), a0, down);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::set(ip::block<0, 0, 3, 3>(X), ip::block<1, 1, 3, 3>(X)))), a0, up);

  const std::vector<double> sq{1, 4, 16, 36, 64, 81, 144, 196, 256, 324, 361, 484, 576, 676, 784, 841};
  const M4 eye{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
  a = a0;
  a = 2.0f * a - eye;
  a = ip::square(a);
  CHECK(values(a) == sq);
  graph_gives(ip::function(ip::inputs(X, Y), ip::outputs(ip::square(2.0_c * X - Y))), a0, eye, sq);
  graph_gives(ip::function(ip::inputs(X, Y), ip::outputs(ip::set(X, ip::square(2.0_c * X - Y)))), a0, eye, sq);
}

// The aliasing page's `matA = matA * matA` (Eigen adds a temporary; with
// noalias() it is wrong) and products written into a part of an operand:
// a = a @ a, a = a.T @ a, a = a @ a + a, a[:2] = a[:2] @ a, a.T += a @ a,
// a[:, 1] = a @ a[:, 1], a[2] = a[:, 2] @ a.
TEST_CASE("Eigen's aliasing page: products assigned to an operand or a part of it", "[peer][aliasing][dot]") {
  const std::vector<double> aa{56, 62, 68, 74, 152, 174, 196, 218, 248, 286, 324, 362, 344, 398, 452, 506};
  const std::vector<double> ta{224, 248, 272, 296, 248, 276, 304, 332, 272, 304, 336, 368, 296, 332, 368, 404};
  const std::vector<double> aa_a{56, 63, 70, 77, 156, 179, 202, 225, 256, 295, 334, 373, 356, 411, 466, 521};
  const std::vector<double> top{56, 62, 68, 74, 152, 174, 196, 218, 8, 9, 10, 11, 12, 13, 14, 15};
  const std::vector<double> t_inc{56, 153, 250, 347, 66, 179, 292, 405, 76, 205, 334, 463, 86, 231, 376, 521};
  const std::vector<double> col1{0, 62, 2, 3, 4, 174, 6, 7, 8, 286, 10, 11, 12, 398, 14, 15};
  const std::vector<double> row2{0, 1, 2, 3, 4, 5, 6, 7, 272, 304, 336, 368, 12, 13, 14, 15};
  M4 a = a0;
  a = ip::dot(a, a);
  CHECK(values(a) == aa);
  a = a0;
  a = ip::matmul(a, a);
  CHECK(values(a) == aa);
  a = a0;
  ip::noalias(a) = ip::dot(a, a);  // Eigen's wrong case: here dot has run into its own result first
  CHECK(values(a) == aa);
  a = a0;
  a = ip::dot(ip::transpose(a), a);
  CHECK(values(a) == ta);
  a = a0;
  a = ip::dot(a, a) + a;
  CHECK(values(a) == aa_a);
  a = a0;
  ip::slice<0, 2>(a) = ip::dot(ip::slice<0, 2>(a), a);
  CHECK(values(a) == top);
  a = a0;
  ip::transpose(a) += ip::matmul(a, a);
  CHECK(values(a) == t_inc);
  a = a0;
  ip::col<1>(a) = ip::dot(a, ip::col<1>(a));
  CHECK(values(a) == col1);
  a = a0;
  ip::row<2>(a) = ip::matmul(ip::col<2>(a), a);
  CHECK(values(a) == row2);

  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::set(X, ip::dot(X, X)))), a0, aa);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::set(X, ip::matmul(X, X)))), a0, aa);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::set(X, ip::dot(ip::transpose(X), X)))), a0, ta);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::set(X, ip::dot(X, X) + X))), a0, aa_a);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::inc(X, ip::dot(X, X)))), a0, aa_a);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::set(ip::slice<0, 2>(X), ip::dot(ip::slice<0, 2>(X), X)))), a0, top);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::inc(ip::transpose(X), ip::matmul(X, X)))), a0, t_inc);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::set(ip::col<1>(X), ip::dot(X, ip::col<1>(X))))), a0, col1);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::set(ip::row<2>(X), ip::matmul(ip::col<2>(X), X)))), a0, row2);
  // the product of the input, then the input: dot reads X before the update writes it
  constexpr auto f = ip::function(ip::inputs(X), ip::outputs(ip::set(X, ip::dot(X, X)), X * 1.0_c));
  const auto [p, x] = f(M4(a0));
  CHECK(values(p) == aa);
  CHECK(values(x) == values(a0));
}

// v.tail(n) = v.head(n) and the other shifts of one vector v = arange(10):
// v[3:] = v[:7], v[:7] = v[3:], v[2:] += v[:-2], v[1:6] = v[3:8], the
// disjoint v[::2] = v[1::2], and reversed reads of the same elements
// v[1::2] = v[::-2], v[:5] = v[::-2].
TEST_CASE("shifted and reversed copies within one vector", "[peer][aliasing]") {
  const std::vector<double> tail{0, 1, 2, 0, 1, 2, 3, 4, 5, 6};
  const std::vector<double> head{3, 4, 5, 6, 7, 8, 9, 7, 8, 9};
  const std::vector<double> add{0, 1, 2, 4, 6, 8, 10, 12, 14, 16};
  const std::vector<double> seg{0, 3, 4, 5, 6, 7, 6, 7, 8, 9};
  const std::vector<double> odd{1, 1, 3, 3, 5, 5, 7, 7, 9, 9};
  const std::vector<double> rev_odd{0, 9, 2, 7, 4, 5, 6, 3, 8, 1};
  const std::vector<double> rev_head{9, 7, 5, 3, 1, 5, 6, 7, 8, 9};
  constexpr auto every2 = [](auto&& x) { return ip::slice<0, ip::end, 2>(x); };
  constexpr auto odd2 = [](auto&& x) { return ip::slice<1, ip::end, 2>(x); };
  V10 v = v0;
  ip::slice<3>(v) = ip::slice<0, 7>(v);
  CHECK(values(v) == tail);
  v = v0;
  ip::slice<0, 7>(v) = ip::slice<3>(v);
  CHECK(values(v) == head);
  v = v0;
  ip::slice<2>(v) += ip::slice<0, -2>(v);
  CHECK(values(v) == add);
  v = v0;
  ip::slice<1, 6>(v) = ip::slice<3, 8>(v);
  CHECK(values(v) == seg);
  v = v0;
  ip::noalias(every2(v)) = odd2(v);  // disjoint: noalias agrees
  CHECK(values(v) == odd);
  v = v0;
  odd2(v) = ip::slice<-1, ip::end, -2>(v);
  CHECK(values(v) == rev_odd);
  v = v0;
  ip::slice<0, 5>(v) = ip::slice<-1, ip::end, -2>(v);
  CHECK(values(v) == rev_head);
  v = v0;
  CHECK_THROWS_AS((ip::noalias(odd2(v)) = ip::slice<-1, ip::end, -2>(v)), ip::aliasing_error);
  CHECK(values(v) == values(v0));

  graph_gives(ip::function(ip::inputs(V), ip::outputs(ip::set(ip::slice<3>(V), ip::slice<0, 7>(V)))), v0, tail);
  graph_gives(ip::function(ip::inputs(V), ip::outputs(ip::set(ip::slice<0, 7>(V), ip::slice<3>(V)))), v0, head);
  graph_gives(ip::function(ip::inputs(V), ip::outputs(ip::inc(ip::slice<2>(V), ip::slice<0, -2>(V)))), v0, add);
  graph_gives(ip::function(ip::inputs(V), ip::outputs(ip::set(ip::slice<1, 6>(V), ip::slice<3, 8>(V)))), v0, seg);
  graph_gives(ip::function(ip::inputs(V), ip::outputs(ip::set(ip::slice<0, ip::end, 2>(V), ip::slice<1, ip::end, 2>(V)))), v0,
              odd);
  graph_gives(ip::function(ip::inputs(V), ip::outputs(ip::set(ip::slice<1, ip::end, 2>(V), ip::slice<-1, ip::end, -2>(V)))),
              v0, rev_odd);
  graph_gives(ip::function(ip::inputs(V), ip::outputs(ip::set(ip::slice<0, 5>(V), ip::slice<-1, ip::end, -2>(V)))), v0,
              rev_head);
}

// diagonal() += ...: np.einsum('ii->i', a) is a writable view of the diagonal.
// d += a[0] (shares a[0, 0]), d[:] = d[::-1], a's first superdiagonal +=
// its first subdiagonal, d *= 2, a[1] = d (shares a[1, 1]), d += a[:, 3]
// (shares a[3, 3]); and block.cpp's nested row on the left, twice:
// m[1:2][0] += 2 * m[3].
TEST_CASE("updates of the diagonal from rows, columns, its reverse, another diagonal", "[peer][aliasing]") {
  const std::vector<double> row0{0, 1, 2, 3, 4, 6, 6, 7, 8, 9, 12, 11, 12, 13, 14, 18};
  const std::vector<double> rev{15, 1, 2, 3, 4, 10, 6, 7, 8, 9, 5, 11, 12, 13, 14, 0};
  const std::vector<double> off{0, 5, 2, 3, 4, 5, 15, 7, 8, 9, 10, 25, 12, 13, 14, 15};
  const std::vector<double> dbl{0, 1, 2, 3, 4, 10, 6, 7, 8, 9, 20, 11, 12, 13, 14, 30};
  const std::vector<double> r1{0, 1, 2, 3, 0, 5, 10, 15, 8, 9, 10, 11, 12, 13, 14, 15};
  const std::vector<double> c3{3, 1, 2, 3, 4, 12, 6, 7, 8, 9, 21, 11, 12, 13, 14, 30};
  const std::vector<double> nested{0, 1, 2, 3, 52, 57, 62, 67, 8, 9, 10, 11, 12, 13, 14, 15};
  M4 a = a0;
  ip::diagonal(a) += ip::row<0>(a);
  CHECK(values(a) == row0);
  a = a0;
  ip::diagonal(a) = ip::reverse(ip::diagonal(a));
  CHECK(values(a) == rev);
  a = a0;
  ip::diagonal<1>(a) += ip::diagonal<-1>(a);
  CHECK(values(a) == off);
  a = a0;
  ip::diagonal(a) *= 2.0f;
  CHECK(values(a) == dbl);
  a = a0;
  ip::row<1>(a) = ip::diagonal(a);
  CHECK(values(a) == r1);
  a = a0;
  ip::diagonal(a) += ip::col<3>(a);
  CHECK(values(a) == c3);
  a = a0;
  for (int k = 0; k < 2; ++k) ip::row<0>(ip::slice<1, 2>(a)) += 2.0f * ip::row<3>(a);
  CHECK(values(a) == nested);

  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::inc(ip::diagonal(X), ip::row<0>(X)))), a0, row0);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::set(ip::diagonal(X), ip::reverse(ip::diagonal(X))))), a0, rev);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::inc(ip::diagonal<1>(X), ip::diagonal<-1>(X)))), a0, off);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::update<ip::ops::mul>(ip::diagonal(X), 2.0_c))), a0, dbl);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::set(ip::row<1>(X), ip::diagonal(X)))), a0, r1);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::inc(ip::diagonal(X), ip::col<3>(X)))), a0, c3);
  constexpr auto once = ip::inc(ip::row<0>(ip::slice<1, 2>(X)), 2.0_c * ip::row<3>(X));
  constexpr auto twice = ip::inc(ip::row<0>(ip::slice<1, 2>(once)), 2.0_c * ip::row<3>(once));
  graph_gives(ip::function(ip::inputs(X), ip::outputs(twice)), a0, nested);
  // in-place ops on tensors never copy: the same reads refused, the same pattern run
  a = a0;
  CHECK_THROWS_AS(ip::add_inplace(ip::diagonal(a), ip::row<0>(a)), ip::aliasing_error);
  CHECK(values(a) == values(a0));
  ip::mul_inplace(ip::diagonal(a), ip::diagonal(a));
  CHECK(values(a) == std::vector<double>{0, 1, 2, 3, 4, 25, 6, 7, 8, 9, 100, 11, 12, 13, 14, 225});
}

// Regions of a view of the destination (Eigen's a.transpose().row(0) = a.row(0),
// nested blocks), written from reads of another pattern: the graph's update
// peels the views (its value is the whole a), the tensor statement writes
// through them. NumPy: a.T[0] = a[0]; a[::-1][0:2] = a[2:4]; a[1:][0] += a[3];
// a[::2][:, 1] = a[:, 2][1::2]; a[:, ::-1][1] = a.T[1]; a.T[...] = a @ a[::-1];
// np.einsum('ii->i', a[::-1])[...] = a[0] @ a; a[::-1] *= a; a.T[...] =
// np.maximum(a.T, a[::-1]); a.T[1:3] -= a[0:2]; a[None, 2] = a[:, 2][None].
TEST_CASE("regions of views of the destination, written from other patterns and products", "[peer][aliasing]") {
  using V4 = std::vector<double>;
  const V4 t_row{0, 1, 2, 3, 1, 5, 6, 7, 2, 9, 10, 11, 3, 13, 14, 15};
  const V4 rev{0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 8, 9, 10, 11};
  const V4 nested{0, 1, 2, 3, 16, 18, 20, 22, 8, 9, 10, 11, 12, 13, 14, 15};
  const V4 steps{0, 6, 2, 3, 4, 5, 6, 7, 8, 14, 10, 11, 12, 13, 14, 15};
  const V4 flipped{0, 1, 2, 3, 13, 9, 5, 1, 8, 9, 10, 11, 12, 13, 14, 15};
  const V4 prod_t{16, 112, 208, 304, 22, 134, 246, 358, 28, 156, 284, 412, 34, 178, 322, 466};
  const V4 anti{0, 1, 2, 74, 4, 5, 68, 7, 8, 62, 10, 11, 56, 13, 14, 15};
  const V4 mul_rev{0, 13, 28, 45, 32, 45, 60, 77, 32, 45, 60, 77, 0, 13, 28, 45};
  const V4 max_t{12, 8, 4, 3, 13, 9, 6, 7, 14, 10, 10, 11, 15, 13, 14, 15};
  const V4 sub_t{0, 1, -2, 3, 4, 4, 1, 7, 8, 7, 4, 11, 12, 10, 7, 15};
  const V4 row2{0, 1, 2, 3, 4, 5, 6, 7, 2, 6, 10, 14, 12, 13, 14, 15};
  M4 a = a0;
  ip::row<0>(ip::transpose(a)) = ip::row<0>(a);
  CHECK(values(a) == t_row);
  a = a0;
  ip::slice<0, 2>(ip::reverse(a)) = ip::slice<2, 4>(a);
  CHECK(values(a) == rev);
  a = a0;
  ip::row<0>(ip::slice<1>(a)) += ip::row<3>(a);
  CHECK(values(a) == nested);
  a = a0;
  ip::col<1>(ip::slice<0, ip::end, 2>(a)) = ip::slice<1, ip::end, 2>(ip::col<2>(a));
  CHECK(values(a) == steps);
  a = a0;
  ip::row<1>(ip::view(a, ip::all, ip::range<-1, ip::end, -1>)) = ip::row<1>(ip::transpose(a));
  CHECK(values(a) == flipped);
  a = a0;
  ip::transpose(a) = ip::dot(a, ip::reverse(a));
  CHECK(values(a) == prod_t);
  a = a0;
  ip::diagonal(ip::reverse(a)) = ip::dot(ip::row<0>(a), a);
  CHECK(values(a) == anti);
  a = a0;
  ip::reverse(a) *= a;
  CHECK(values(a) == mul_rev);
  a = a0;
  ip::transpose(a) = ip::max(ip::transpose(a), ip::reverse(a));
  CHECK(values(a) == max_t);
  a = a0;
  ip::slice<1, 3>(ip::transpose(a)) -= ip::slice<0, 2>(a);
  CHECK(values(a) == sub_t);
  a = a0;
  ip::expand_dims<0>(ip::row<2>(a)) = ip::expand_dims<0>(ip::col<2>(a));
  CHECK(values(a) == row2);

  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::set(ip::row<0>(ip::transpose(X)), ip::row<0>(X)))), a0, t_row);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::set(ip::slice<0, 2>(ip::reverse(X)), ip::slice<2, 4>(X)))), a0, rev);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::inc(ip::row<0>(ip::slice<1>(X)), ip::row<3>(X)))), a0, nested);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::set(ip::col<1>(ip::slice<0, ip::end, 2>(X)),
                                                              ip::slice<1, ip::end, 2>(ip::col<2>(X))))),
              a0, steps);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::set(ip::row<1>(ip::view(X, ip::all, ip::range<-1, ip::end, -1>)),
                                                              ip::row<1>(ip::transpose(X))))),
              a0, flipped);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::set(ip::transpose(X), ip::dot(X, ip::reverse(X))))), a0, prod_t);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::set(ip::diagonal(ip::reverse(X)), ip::dot(ip::row<0>(X), X)))), a0,
              anti);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::update<ip::ops::mul>(ip::reverse(X), X))), a0, mul_rev);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::update<ip::ops::max>(ip::transpose(X), ip::reverse(X)))), a0, max_t);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::update<ip::ops::sub>(ip::slice<1, 3>(ip::transpose(X)), ip::slice<0, 2>(X)))),
              a0, sub_t);
  graph_gives(ip::function(ip::inputs(X), ip::outputs(ip::set(ip::expand_dims<0>(ip::row<2>(X)), ip::expand_dims<0>(ip::col<2>(X))))),
              a0, row2);
}

// `mat = mat * mat` as XLA-style io_alias (may_alias): the product, and an
// expression of its transpose and the input, returned in the donated storage
// with NumPy's values; a @ v + v[::-1] into v's storage likewise (under
// must_alias that is alias_conflict: the reversed read of v).
TEST_CASE("products returned in a donated operand's storage (io_alias may_alias)", "[peer][aliasing][dot]") {
  const std::vector<double> aa{56, 62, 68, 74, 152, 174, 196, 218, 248, 286, 324, 362, 344, 398, 452, 506};
  const std::vector<double> aat{56, 153, 250, 347, 66, 179, 292, 405, 76, 205, 334, 463, 86, 231, 376, 521};
  constexpr auto f = ip::function(ip::inputs(X), ip::outputs(ip::dot(X, X)), ip::io_alias<0, 0>(ip::may_alias));
  constexpr auto g = ip::function(ip::inputs(X), ip::outputs(ip::transpose(ip::dot(X, X)) + X), ip::io_alias<0, 0>(ip::may_alias));
  M4 a = a0;
  const float* p = a.data();
  const auto r = f(std::move(a));
  CHECK(r.data() == p);
  CHECK(values(r) == aa);
  a = a0;
  p = a.data();
  const auto s = g(std::move(a));
  CHECK(s.data() == p);
  CHECK(values(s) == aat);
  CHECK(values(f(a0)) == aa);  // borrowed: computed elsewhere, a0 untouched
  CHECK(values(a0) == values(iota<M4>()));

  constexpr auto W = ip::input<"W", float, ip::extents<4>>;
  constexpr auto k = ip::function(ip::inputs(X, W), ip::outputs(ip::matmul(X, W) + ip::reverse(W)), ip::io_alias<0, 1>(ip::may_alias));
  ip::tensor<float, ip::extents<4>> w{1, 2, 3, 4};
  const float* pw = w.data();
  const auto mv = k(a0, std::move(w));
  CHECK(mv.data() == pw);
  CHECK(values(mv) == std::vector<double>{24, 63, 102, 141});  // a @ [1, 2, 3, 4] + [4, 3, 2, 1]
}
