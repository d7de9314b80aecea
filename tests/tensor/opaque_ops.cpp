// Opaque ops on tensors (include/inplace/tensor/tensor_opaque.hpp): dot, reduce_sum,
// softmax and softmax_inplace run at once, against naive loops, on tensors,
// strided views and expressions; their errors; and a rank-0 tensor read as its
// element without disturbing the expression operators.
#include "naive.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

namespace ip = inplace;
using ip::detail::texpr::node_like;

namespace {
constexpr std::size_t m = 5, k = 7, n = 37;  // n: a SIMD remainder on every width

template <class Tn>
std::vector<double> elements(const Tn& t) {
  return {t.begin(), t.end()};
}

// The product of a (rows x depth, read through a(i, p)) and b (depth x cols), row-major.
template <class FA, class FB>
std::vector<double> naive_dot(std::size_t rows, std::size_t depth, std::size_t cols, FA a, FB b) {
  std::vector<double> c(rows * cols, 0.0);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j)
      for (std::size_t p = 0; p < depth; ++p) c[i * cols + j] += double(a(i, p)) * double(b(p, j));
  return c;
}

template <class Tn>
bool all_close(const Tn& r, const std::vector<double>& want, double tol = 2e-6) {
  if (r.size() != want.size()) return false;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!naive::close(double(r.begin()[i]), want[i], tol)) return false;
  return true;
}

// NumPy's softmax of one row, in double.
std::vector<double> naive_softmax(const std::vector<double>& x) {
  double mx = -std::numeric_limits<double>::infinity();
  for (double v : x) mx = std::max(mx, v);
  std::vector<double> e;
  double s = 0;
  for (double v : x) s += e.emplace_back(std::exp(v - mx));
  for (double& v : e) v /= s;
  return e;
}
}  // namespace

TEMPLATE_TEST_CASE("dot follows NumPy's four rank rules", "[opaque][dot]", float, double, int) {
  using T = TestType;
  ip::tensor<T, 2> A(m, k), B(k, n);
  ip::tensor<T> u(k), w(k);
  naive::fill(A, -5, 5, 1);
  naive::fill(B, -5, 5, 2);
  naive::fill(u, -5, 5, 3);
  naive::fill(w, -5, 5, 4);
  auto a = [&](std::size_t i, std::size_t p) { return A(i, p); };
  auto b = [&](std::size_t p, std::size_t j) { return B(p, j); };
  auto uv = [&](std::size_t, std::size_t p) { return u(p); };
  auto wv = [&](std::size_t p, std::size_t) { return w(p); };

  auto mm = ip::dot(A, B);
  STATIC_REQUIRE(std::is_same_v<decltype(mm), ip::tensor<T, 2>>);
  CHECK(mm.extents() == std::array<std::size_t, 2>{m, n});
  CHECK(all_close(mm, naive_dot(m, k, n, a, b)));

  auto vm = ip::dot(u, B);
  STATIC_REQUIRE(std::is_same_v<decltype(vm), ip::tensor<T, 1>>);
  CHECK(vm.extent(0) == n);
  CHECK(all_close(vm, naive_dot(1, k, n, uv, b)));

  auto mv = ip::dot(A, w);
  STATIC_REQUIRE(std::is_same_v<decltype(mv), ip::tensor<T, 1>>);
  CHECK(mv.extent(0) == m);
  CHECK(all_close(mv, naive_dot(m, k, 1, a, wv)));

  auto vv = ip::dot(u, w);
  STATIC_REQUIRE(std::is_same_v<decltype(vv), ip::tensor<T, 0>>);
  CHECK(vv.size() == 1);
  CHECK(naive::close(vv(), naive_dot(1, k, 1, uv, wv)[0]));
}

TEST_CASE("dot of strided views, expressions and mixed dtypes", "[opaque][dot]") {
  ip::tensor<double, 2> A(m, k), Bt(n, k), big(2 * k, n);
  naive::fill(A, -1, 1, 5);
  naive::fill(Bt, -1, 1, 6);
  naive::fill(big, -1, 1, 7);
  auto a = [&](std::size_t i, std::size_t p) { return A(i, p); };
  // B = transpose(Bt): B's rows have stride k.
  CHECK(all_close(ip::dot(A, ip::transpose(Bt)), naive_dot(m, k, n, a, [&](auto p, auto j) { return Bt(j, p); })));
  // Every other row of big, read backwards: negative stride on the first axis.
  auto odd = ip::reverse(ip::slice<1, ip::end, 2>(big));
  CHECK(all_close(ip::dot(A, odd), naive_dot(m, k, n, a, [&](auto p, auto j) { return big(2 * (k - 1 - p) + 1, j); })));
  // A transposed matrix on the left, a strided vector on the right.
  ip::tensor<double> v(2 * m);
  naive::fill(v, -1, 1, 8);
  CHECK(all_close(ip::dot(ip::transpose(A), ip::slice<0, ip::end, 2>(v)),
                  naive_dot(k, m, 1, [&](auto i, auto p) { return A(p, i); }, [&](auto p, auto) { return v(2 * p); })));
  // Expressions are evaluated first: dot(A + A, 2 * B) and with a moved-in tensor.
  const auto twice = naive_dot(m, k, n, a, [&](auto p, auto j) { return Bt(j, p); });
  auto r = ip::dot(A + A, 2.0 * ip::transpose(Bt));
  STATIC_REQUIRE(std::is_same_v<decltype(r), ip::tensor<double, 2>>);
  for (std::size_t i = 0; i < r.size(); ++i) CHECK(naive::close(r[i], 4 * twice[i]));
  ip::tensor<double> w(k);
  naive::fill(w, -1, 1, 9);
  auto e = ip::dot(ip::exp(w), ip::tensor<double>(w));  // rank 0, an rvalue tensor operand
  double want = 0;
  for (std::size_t p = 0; p < k; ++p) want += std::exp(w(p)) * w(p);
  CHECK(naive::close(e(), want));
  // The common element type of both operands, by NumPy's rule: int32 with float is double.
  ip::tensor<int> iv{1, 2, 3};
  ip::tensor<float, 2> fm{{0.5f, 1}, {0.5f, 2}, {0.5f, 3}};
  auto mixed = ip::dot(iv, fm);
  STATIC_REQUIRE(std::is_same_v<decltype(mixed), ip::tensor<double, 1>>);
  CHECK(elements(mixed) == std::vector<double>{3, 14});
  // Static extents on the way in give a rank-only tensor out.
  ip::tensor<float, ip::extents<2, 3>> S{{1, 2, 3}, {4, 5, 6}};
  auto sv = ip::dot(S, ip::tensor<float>{1, 1, 1});
  STATIC_REQUIRE(std::is_same_v<decltype(sv), ip::tensor<float, 1>>);
  CHECK(elements(sv) == std::vector<double>{6, 15});
  // Empty inner extent: zeros; empty outer extent: an empty result.
  ip::tensor<float, 2> z0(3, 0), z1(0, 4);
  CHECK(elements(ip::dot(z0, z1)) == std::vector<double>(12, 0.0));
  CHECK(ip::dot(z1, ip::tensor<float, 2>(4, 2)).extents() == std::array<std::size_t, 2>{0, 2});
}

TEST_CASE("dot with extents that do not match throws shape_error, nothing written", "[opaque][dot][error]") {
  ip::tensor<float, 2> A{{1, 2, 3}, {4, 5, 6}}, B{{1, 2}, {3, 4}};
  ip::tensor<float> x{1, 2}, y{1, 2, 3};
  const std::vector<double> a0 = elements(A), b0 = elements(B);
  CHECK_THROWS_MATCHES(ip::dot(A, B), ip::shape_error,
                       Catch::Matchers::Message("inplace: shape_error: dot: operands with extents (2, 3) and (2, 2) "
                                                "are not aligned: 3 (axis 1) != 2 (axis 0)"));
  CHECK_THROWS_MATCHES(ip::dot(x, y), ip::shape_error,
                       Catch::Matchers::Message("inplace: shape_error: dot: operands with extents (2) and (3) are not "
                                                "aligned: 2 (axis 0) != 3 (axis 0)"));
  CHECK_THROWS_WITH(ip::dot(y, A), Catch::Matchers::StartsWith("inplace: shape_error: dot: operands with extents (3) and (2, 3)"));
  CHECK_THROWS_WITH(ip::dot(A, x + y), Catch::Matchers::StartsWith("inplace: shape_error: add: "));  // x + y does not broadcast
  // An expression operand: the extents are checked before it is evaluated.
  CHECK_THROWS_MATCHES(ip::dot(A * 2.0f, ip::exp(A)), ip::shape_error,
                       Catch::Matchers::Message("inplace: shape_error: dot: operands with extents (2, 3) and (2, 3) "
                                                "are not aligned: 3 (axis 1) != 2 (axis 0)"));
  CHECK(elements(A) == a0);
  CHECK(elements(B) == b0);
  CHECK(elements(x) == std::vector<double>{1, 2});
  CHECK(elements(y) == std::vector<double>{1, 2, 3});
}

TEMPLATE_TEST_CASE("reduce_sum over everything and over each axis", "[opaque][reduce_sum]", float, double, int) {
  using T = TestType;
  ip::tensor<T, 2> A(m, n);
  naive::fill(A, -10, 10, 10);
  double all = 0;
  std::vector<double> rows(m, 0.0), cols(n, 0.0);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      all += A(i, j);
      cols[j] += A(i, j);
      rows[i] += A(i, j);
    }
  using R = ip::ops::sum_dtype<T>;  // int: int64, as NumPy's
  auto s = ip::reduce_sum(A);
  STATIC_REQUIRE(std::is_same_v<decltype(s), ip::tensor<R, 0>>);
  CHECK(naive::close(s(), all, 1e-5));
  auto s0 = ip::reduce_sum<0>(A);
  STATIC_REQUIRE(std::is_same_v<decltype(s0), ip::tensor<R, 1>>);
  CHECK(all_close(s0, cols));
  auto s1 = ip::reduce_sum<1>(A);
  STATIC_REQUIRE(std::is_same_v<decltype(s1), ip::tensor<R, 1>>);
  CHECK(all_close(s1, rows, 1e-5));
  // A transposed view swaps the two axis sums.
  CHECK(all_close(ip::reduce_sum<0>(ip::transpose(A)), rows, 1e-5));
  CHECK(all_close(ip::reduce_sum<1>(ip::transpose(A)), cols));
  // Rank 1 over axis 0 is the sum of everything, rank 0.
  ip::tensor<T> x{1, 2, 3, 4};
  STATIC_REQUIRE(std::is_same_v<decltype(ip::reduce_sum<0>(x)), ip::tensor<R, 0>>);
  CHECK(ip::reduce_sum<0>(x)() == 10);
  CHECK(ip::reduce_sum(ip::reverse(x))() == 10);
}

TEST_CASE("reduce_sum on rank 3, strided views and expressions", "[opaque][reduce_sum]") {
  constexpr std::size_t P = 3, Q = 4, R = 5;
  ip::tensor<double, 3> t(P, Q, R);
  naive::fill(t, -1, 1, 11);
  std::vector<double> s0(Q * R, 0.0), s1(P * R, 0.0), s2(P * Q, 0.0);
  double all = 0;
  for (std::size_t i = 0; i < P; ++i)
    for (std::size_t j = 0; j < Q; ++j)
      for (std::size_t l = 0; l < R; ++l) {
        const double v = t(i, j, l);
        s0[j * R + l] += v;
        s1[i * R + l] += v;
        s2[i * Q + j] += v;
        all += v;
      }
  auto r0 = ip::reduce_sum<0>(t);
  STATIC_REQUIRE(std::is_same_v<decltype(r0), ip::tensor<double, 2>>);
  CHECK(r0.extents() == std::array<std::size_t, 2>{Q, R});
  CHECK(all_close(r0, s0));
  auto r1 = ip::reduce_sum<1>(t);
  CHECK(r1.extents() == std::array<std::size_t, 2>{P, R});
  CHECK(all_close(r1, s1));
  auto r2 = ip::reduce_sum<2>(t);
  CHECK(r2.extents() == std::array<std::size_t, 2>{P, Q});
  CHECK(all_close(r2, s2));
  // Negative axes count from the end, as NumPy's: -1 is the last, -3 the first.
  CHECK(all_close(ip::reduce_sum<-1>(t), s2));
  CHECK(all_close(ip::reduce_sum<-2>(t), s1));
  CHECK(all_close(ip::reduce_sum<-3>(t), s0));
  STATIC_REQUIRE(std::is_same_v<decltype(ip::reduce_sum<-1>(t)), ip::tensor<double, 2>>);
  CHECK(naive::close(ip::reduce_sum(t)(), all));
  CHECK(naive::close(ip::reduce_sum<ip::ops::all_axes>(t)(), all));
  // The transpose of a rank-3 tensor reverses its axes: axis 2 of it is axis 0 of t.
  auto tr = ip::reduce_sum<2>(ip::transpose(t));
  CHECK(tr.extents() == std::array<std::size_t, 2>{R, Q});
  for (std::size_t l = 0; l < R; ++l)
    for (std::size_t j = 0; j < Q; ++j) CHECK(naive::close(tr(l, j), s0[j * R + l]));
  // Every other slice on the first axis, and an expression (evaluated first).
  auto ends = ip::reduce_sum<1>(ip::slice<0, ip::end, 2>(t));
  for (std::size_t l = 0; l < R; ++l) {
    CHECK(naive::close(ends(0, l), s1[0 * R + l]));
    CHECK(naive::close(ends(1, l), s1[2 * R + l]));
  }
  CHECK(all_close(ip::reduce_sum<0>(t * 3.0), [&] {
    auto v = s0;
    for (double& x : v) x *= 3;
    return v;
  }()));
  // Static extents in, rank-only out; an empty axis sums to zero.
  ip::tensor<int, ip::extents<2, 3>> S{{1, 2, 3}, {4, 5, 6}};
  auto ss = ip::reduce_sum<1>(S);
  STATIC_REQUIRE(std::is_same_v<decltype(ss), ip::tensor<std::int64_t, 1>>);
  CHECK(elements(ss) == std::vector<double>{6, 15});
  ip::tensor<float, 2> empty(3, 0);
  CHECK(elements(ip::reduce_sum<1>(empty)) == std::vector<double>{0, 0, 0});
  CHECK(ip::reduce_sum<0>(empty).size() == 0);
  CHECK(ip::reduce_sum(empty)() == 0);
}

TEST_CASE("reduce_sum of a million floats keeps float precision", "[opaque][reduce_sum]") {
  constexpr std::size_t big = 1'000'000;
  auto accurate = [](long double got, long double exact) { return std::abs(got - exact) <= 1e-6L * exact; };
  ip::tensor<float> x(big);
  naive::fill(x, 0, 1, 12);
  long double exact = 0;
  for (float v : x) exact += v;
  const float s = ip::reduce_sum(x);
  CHECK(accurate(s, exact));
  // A million times 0.1f: a float accumulator drifts by about 1%.
  ip::tensor<float> tenth(big);
  for (float& v : tenth) v = 0.1f;
  float in_float = 0;
  for (float v : tenth) in_float += v;
  const long double tenths = 1e6L * 0.1f;
  CHECK(!accurate(in_float, tenths));
  CHECK(accurate(ip::reduce_sum(tenth), tenths));
  // One axis of a (2, big) tensor and of its transpose: each sum as accurate.
  ip::tensor<float, 2> two(2, big);
  for (std::size_t j = 0; j < big; ++j) {
    two(0, j) = x(j);
    two(1, j) = tenth(j);
  }
  auto rows = ip::reduce_sum<1>(two);
  CHECK(accurate(rows(0), exact));
  CHECK(accurate(rows(1), tenths));
  auto cols = ip::reduce_sum<0>(ip::transpose(two));
  CHECK(accurate(cols(0), exact));
  CHECK(accurate(cols(1), tenths));
}

TEMPLATE_TEST_CASE("softmax over the last axis matches NumPy's formula", "[opaque][softmax]", float, double) {
  using T = TestType;
  ip::tensor<T, 2> A(m, n);
  naive::fill(A, -8, 8, 13);
  auto r = ip::softmax(A);
  STATIC_REQUIRE(std::is_same_v<decltype(r), ip::tensor<T, 2>>);
  CHECK(r.extents() == A.extents());
  for (std::size_t i = 0; i < m; ++i) {
    std::vector<double> row(n);
    for (std::size_t j = 0; j < n; ++j) row[j] = A(i, j);
    const auto want = naive_softmax(row);
    double total = 0;
    for (std::size_t j = 0; j < n; ++j) {
      CHECK(naive::close(r(i, j), want[j]));
      total += r(i, j);
    }
    CHECK(naive::close(total, 1.0, 1e-5));
  }
  // Over the last axis of a transposed view: each column of A.
  auto c = ip::softmax(ip::transpose(A));
  CHECK(c.extents() == std::array<std::size_t, 2>{n, m});
  for (std::size_t j = 0; j < n; ++j) {
    std::vector<double> col(m);
    for (std::size_t i = 0; i < m; ++i) col[i] = A(i, j);
    const auto want = naive_softmax(col);
    for (std::size_t i = 0; i < m; ++i) CHECK(naive::close(c(j, i), want[i]));
  }
  // Rank 1, rank 3, an expression; static extents are kept.
  ip::tensor<T> v{1, 2, 3};
  const auto w = naive_softmax({1, 2, 3});
  CHECK(all_close(ip::softmax(v), w));
  CHECK(all_close(ip::softmax(v * T(2) - T(4)), naive_softmax({-2, 0, 2})));
  ip::tensor<T, 3> t(2, 2, 3);
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = T(i % 3 + 1);
  CHECK(all_close(ip::softmax(t), [&] {
    std::vector<double> all;
    for (int q = 0; q < 4; ++q) all.insert(all.end(), w.begin(), w.end());
    return all;
  }()));
  ip::tensor<T, ip::extents<2, 3>> S{{1, 2, 3}, {1, 2, 3}};
  auto ss = ip::softmax(S);
  STATIC_REQUIRE(std::is_same_v<decltype(ss), ip::tensor<T, ip::extents<2, 3>>>);
  CHECK(naive::close(ss(1, 2), w[2]));
}

TEST_CASE("softmax is stable for large inputs and propagates NaN", "[opaque][softmax]") {
  ip::tensor<float> x{1000, 1001, 1002};
  auto r = ip::softmax(x);
  const auto want = naive_softmax({0, 1, 2});
  for (std::size_t j = 0; j < 3; ++j) {
    CHECK(std::isfinite(r(j)));
    CHECK(naive::close(r(j), want[j]));
  }
  ip::tensor<double, 2> big{{1000, 1000}, {-1000, -1000}};
  CHECK(elements(ip::softmax(big)) == std::vector<double>{0.5, 0.5, 0.5, 0.5});
  ip::tensor<float> nan{1, std::numeric_limits<float>::quiet_NaN(), 2};
  for (float v : ip::softmax(nan)) CHECK(std::isnan(v));
  ip::tensor<float> nan_first{std::numeric_limits<float>::quiet_NaN(), 1, 2};
  for (float v : ip::softmax(nan_first)) CHECK(std::isnan(v));
}

TEST_CASE("softmax_inplace computes in its operand's storage", "[opaque][softmax][inplace]") {
  ip::tensor<double, 2> A{{1, 2, 3}, {0, 0, 0}, {3, 2, 1}};
  const ip::tensor<double, 2> A0 = A;
  const auto want = ip::softmax(A0);
  const double* storage = A.data();
  auto r = ip::softmax_inplace(A);
  STATIC_REQUIRE(std::is_same_v<decltype(r), ip::tensor_view<double, 2>>);
  CHECK(r.data() == storage);
  CHECK(A.data() == storage);
  CHECK(elements(A) == elements(want));
  // A donated tensor comes back as itself, with the same storage.
  ip::tensor<double, 2> d = A0;
  const double* dstorage = d.data();
  ip::tensor<double, 2> out = ip::softmax_inplace(std::move(d));
  CHECK(out.data() == dstorage);
  CHECK(d.size() == 0);  // NOLINT(bugprone-use-after-move)
  CHECK(d.data() == nullptr);
  CHECK(elements(out) == elements(want));
  // A view: only the viewed rows change (rows 0 and 2 here), the others keep their values.
  ip::tensor<double, 2> B = A0;
  auto v = ip::softmax_inplace(ip::slice<0, ip::end, 2>(B));
  STATIC_REQUIRE(std::is_same_v<decltype(v), ip::tensor_view<double, 2>>);
  CHECK(v.data() == B.data());
  for (std::size_t j = 0; j < 3; ++j) {
    CHECK(B(0, j) == want(0, j));
    CHECK(B(1, j) == A0(1, j));
    CHECK(B(2, j) == want(2, j));
  }
  // Over the last axis of a transposed view: the columns of C sum to 1.
  ip::tensor<float, 2> C{{1, 5}, {2, 6}, {3, 7}};
  ip::softmax_inplace(ip::transpose(C));
  for (std::size_t j = 0; j < 2; ++j) CHECK(naive::close(C(0, j) + C(1, j) + C(2, j), 1.0, 1e-6));
  CHECK(naive::close(C(2, 0), naive_softmax({1, 2, 3})[2]));
  // Static extents are kept in the returned view.
  ip::tensor<float, ip::extents<1, 3>> S{{1000, 1000, 1000}};
  auto sv = ip::softmax_inplace(S);
  STATIC_REQUIRE(std::is_same_v<decltype(sv), ip::tensor_view<float, ip::extents<1, 3>>>);
  CHECK(naive::close(S(0, 1), 1.0 / 3));
  // A broadcast view (stride 0) would have rows sharing elements: refused, nothing written.
  ip::tensor<float> row{1, 2, 3};
  ip::tensor_view<float, 2> bcast(row.data(), {4, 3}, {0, 1});
  CHECK_THROWS_MATCHES(ip::softmax_inplace(bcast), ip::aliasing_error,
                       Catch::Matchers::Message("inplace: aliasing_error: the destination (extents (4, 3), strides "
                                                "(0, 1)) has internal overlap and cannot be written"));
  CHECK(elements(row) == std::vector<double>{1, 2, 3});
}

TEST_CASE("a rank-0 tensor reads as its element; the operators still build expressions", "[opaque][rank0]") {
  ip::tensor<float> x{1, 2, 3}, y{4, 5, 6};
  const float s = ip::reduce_sum(x);
  CHECK(s == 6);
  CHECK(ip::dot(x, y) == 32);
  CHECK(ip::dot(x, y) == Approx(32.0));
  const double d = ip::reduce_sum(ip::tensor<int>{1, 2, 3});  // int -> double, as any int
  CHECK(d == 6);
  STATIC_REQUIRE(std::is_convertible_v<ip::tensor<float, 0>, float>);
  STATIC_REQUIRE(std::is_convertible_v<const ip::tensor<int, 0>&, int>);
  STATIC_REQUIRE(!std::is_convertible_v<ip::tensor<float, 1>, float>);
  STATIC_REQUIRE(!std::is_convertible_v<ip::tensor<float, 2>, float>);

  auto t = ip::reduce_sum(x);  // a rank-0 tensor, 6
  auto e1 = t + 1.0f;
  STATIC_REQUIRE(node_like<decltype(e1)>);
  auto e2 = x * t;
  STATIC_REQUIRE(node_like<decltype(e2)>);
  auto e3 = 2.0f * t;
  STATIC_REQUIRE(node_like<decltype(e3)>);
  auto e4 = t * t;
  STATIC_REQUIRE(node_like<decltype(e4)>);
  auto e5 = -t;
  STATIC_REQUIRE(node_like<decltype(e5)>);
  STATIC_REQUIRE(node_like<decltype(ip::exp(t))>);
  ip::tensor<float> r(3);
  r = x * t;  // t broadcast over x
  CHECK(elements(r) == std::vector<double>{6, 12, 18});
  ip::tensor<float, 0> u;
  u = t + 1.0f;
  CHECK(u == 7);
  u += t;
  CHECK(float(u) == 13);
  CHECK(float(t) + 1.0f == 7);  // an explicit read gives plain arithmetic
  t = 2.5f;
  CHECK(t() == 2.5f);
  r = x + ip::dot(x, y);  // a rank-0 result is an operand like any other
  CHECK(elements(r) == std::vector<double>{33, 34, 35});
  // A rank-0 operand: its sum is itself.
  ip::tensor<double, 0> z;
  z = 4.5;
  CHECK(ip::reduce_sum(z) == 4.5);
  CHECK(ip::reduce_sum(z * 2.0) == 9);
  // A rank-0 view reads as its element too.
  const ip::tensor_view<double, 0> zv = z.view();
  const double zd = zv;
  CHECK(zd == 4.5);
  STATIC_REQUIRE(std::is_convertible_v<ip::tensor_view<const float, 0>, float>);
  STATIC_REQUIRE(!std::is_convertible_v<ip::tensor_view<float, 1>, float>);
  STATIC_REQUIRE(node_like<decltype(zv * 2.0)>);
}

TEST_CASE("A = dot(A, A) is safe: dot is never in place", "[opaque][dot][alias]") {
  ip::tensor<double, 2> A{{1, 2}, {3, 4}};
  A = ip::dot(A, A);  // NumPy: [[7, 10], [15, 22]]
  CHECK(std::vector<double>(A.begin(), A.end()) == std::vector<double>{7, 10, 15, 22});
  ip::tensor<double, ip::extents<2, 2>> S{{1, 2}, {3, 4}};
  const double* storage = S.data();
  S = ip::dot(ip::transpose(S), S);  // another tensor type: evaluated into S's storage
  CHECK(S.data() == storage);
  CHECK(std::vector<double>(S.begin(), S.end()) == std::vector<double>{10, 14, 14, 20});
}
