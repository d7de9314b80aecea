// Products of transposed operands: the kernels read a transposed view where it
// lives (the gemm packs from any strides, the BLAS takes its trans flags, the
// loops without SIMD walk a column), so dot(transpose(A), B) allocates only
// its result, on tensors and in graphs. And PyTensor's gemm-rewrite cases
// (tests/tensor/test_blas.py: test_inplace0, test_gemm_opt0's transposes,
// test_gemm_opt_double_gemm), their values and the buffers our plans take.
#include "../tensor/allocations.hpp"
#include "../tensor/naive.hpp"

#include <inplace.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>

namespace ip = inplace;

namespace {
// The reference: double loops.
template <class TA, class TB>
ip::tensor<double, 2> product(const TA& a, const TB& b) {
  ip::tensor<double, 2> r(a.extent(0), b.extent(1));
  for (std::size_t i = 0; i < a.extent(0); ++i)
    for (std::size_t j = 0; j < b.extent(1); ++j) {
      double s = 0;
      for (std::size_t p = 0; p < a.extent(1); ++p) s += static_cast<double>(a(i, p)) * static_cast<double>(b(p, j));
      r(i, j) = s;
    }
  return r;
}
template <class R, class E>
void same(const R& r, const E& e) {
  REQUIRE(r.extents() == e.extents());
  for (std::size_t i = 0; i < r.size(); ++i) {
    INFO("element " << i);
    CHECK(naive::close(static_cast<double>(r[i]), static_cast<double>(e[i]), 1e-5));
  }
}
template <class T>
ip::tensor<T, 2> matrix(std::size_t m, std::size_t n, unsigned seed) {
  ip::tensor<T, 2> t(m, n);
  if constexpr (std::is_integral_v<T>) {
    for (std::size_t i = 0; i < t.size(); ++i) t[i] = static_cast<T>((i * 7 + seed) % 11) - 5;
  } else {
    naive::fill(t, -1, 1, seed);
  }
  return t;
}

constexpr auto A = ip::input<"A", float, 2>;
constexpr auto B = ip::input<"B", float, 2>;
constexpr auto X = ip::input<"X", float, 2>;
constexpr auto Y = ip::input<"Y", float, 2>;
constexpr auto Z = ip::input<"Z", float, 2>;
constexpr auto R = ip::input<"R", float, 2>;
constexpr auto S = ip::input<"S", float, 2>;
constexpr auto a = ip::scalar<"a", float>;
constexpr auto b = ip::scalar<"b", float>;
constexpr auto c = ip::scalar<"c", float>;
using ip::borrowed;
using ip::donated;
}  // namespace

TEST_CASE("tensors: a product of transposed operands allocates only its result") {
  auto run = [](auto x, auto y) {
    const auto xt = ip::transpose(x), yt = ip::transpose(y);
    (void)ip::dot(xt, y), (void)ip::dot(x, yt), (void)ip::matmul(yt, x);  // the packing buffer, once per thread (kept for the next call)
    CHECK(allocations::temporaries([&] { same(ip::dot(xt, y), product(xt, y)); }) == 1 + 1);  // + the reference
    CHECK(allocations::temporaries([&] { same(ip::dot(x, yt), product(x, yt)); }) == 1 + 1);
    CHECK(allocations::temporaries([&] { same(ip::matmul(yt, x), product(yt, x)); }) == 1 + 1);
  };
  run(matrix<float>(37, 29, 1), matrix<float>(37, 29, 2));
  run(matrix<double>(37, 29, 1), matrix<double>(37, 29, 2));
  run(matrix<std::int32_t>(37, 29, 1), matrix<std::int32_t>(37, 29, 2));  // the loops without SIMD: copied b before

  // a batch of transposed matrices: the last two axes swapped
  ip::tensor<float, 3> x(3, 29, 37);
  naive::fill(x, -1, 1, 5);
  const auto y = matrix<float>(29, 11, 6);
  const auto xt = ip::swap_axes<1, 2>(x);
  (void)ip::matmul(xt, y);
  ip::tensor<float, 3> r;
  CHECK(allocations::temporaries([&] { r = ip::matmul(xt, y); }) == 1);
  for (std::size_t t = 0; t < 3; ++t) {
    ip::tensor<float, 2> xi(37, 29), ri(37, 11);
    for (std::size_t i = 0; i < 37; ++i)
      for (std::size_t p = 0; p < 29; ++p) xi(i, p) = x(t, p, i);
    for (std::size_t i = 0; i < ri.size(); ++i) ri[i] = r[t * ri.size() + i];
    same(ri, product(xi, y));
  }
}

TEST_CASE("graphs: a product of transposed operands allocates only its result") {
  constexpr auto f = ip::function(ip::inputs(A, B), ip::outputs(ip::dot(ip::transpose(A), B)));
  constexpr auto g = ip::function(ip::inputs(A, B), ip::outputs(ip::matmul(A, ip::transpose(B))));
  constexpr auto h = ip::function(ip::inputs(A, B), ip::outputs(ip::dot(ip::transpose(A), ip::transpose(B))));
  STATIC_REQUIRE(ip::plan(f, borrowed, borrowed).allocations == 1);
  STATIC_REQUIRE(ip::plan(g, borrowed, borrowed).allocations == 1);
  STATIC_REQUIRE(ip::plan(h, borrowed, borrowed).allocations == 1);
  STATIC_REQUIRE(ip::plan(f, borrowed, borrowed).copies == 0);
  const auto x = matrix<float>(37, 29, 1), y = matrix<float>(37, 29, 2), z = matrix<float>(41, 37, 3);
  (void)f(x, y), (void)g(x, y), (void)h(x, z);  // the packing buffer, once per thread
  CHECK(allocations::temporaries([&] { same(f(x, y), product(ip::transpose(x), y)); }) == 1 + 1);
  CHECK(allocations::temporaries([&] { same(g(x, y), product(x, ip::transpose(y))); }) == 1 + 1);
  CHECK(allocations::temporaries([&] { same(h(x, z), product(ip::transpose(x), ip::transpose(z))); }) == 1 + 1);
}

TEST_CASE("graphs: the transpose of a product is the product of the transposed operands") {
  // (R S)^T built as S^T R^T: the kernel writes the layout its consumers read
  constexpr auto t = ip::transpose(ip::dot(R, S));
  STATIC_REQUIRE(std::is_same_v<std::remove_const_t<decltype(t)>, decltype(ip::dot(ip::transpose(S), ip::transpose(R)))>);
  constexpr auto u = ip::transpose(ip::matmul(R, S));
  STATIC_REQUIRE(std::is_same_v<std::remove_const_t<decltype(u)>, decltype(ip::matmul(ip::transpose(S), ip::transpose(R)))>);
  // (a vector operand: its product's transpose stays a transpose)
  constexpr auto v = ip::input<"v", float>;
  constexpr auto w = ip::transpose(ip::dot(R, v));
  STATIC_REQUIRE(!std::is_same_v<std::remove_const_t<decltype(w)>, decltype(ip::dot(v, ip::transpose(R)))>);
}

// PyTensor's cases, with its shapes: X (4, 3), Y (3, 5), Z (4, 5), R (5, 9), S (9, 4).
// PyTensor rewrites each into gemm calls on Z's storage; we compute each dot
// into a buffer, and the elementwise rest in place of one (or in Z when donated).
TEST_CASE("PyTensor's gemm cases: values and buffers") {
  const auto x = matrix<float>(4, 3, 1), y = matrix<float>(3, 5, 2), z = matrix<float>(4, 5, 3);
  const auto r = matrix<float>(5, 9, 4), s = matrix<float>(9, 4, 5);
  const float av = 0.75f, bv = -1.25f, cv = 2.0f;
  const auto xy = product(x, y), rs = product(r, s);
  const ip::tensor<double, 2> zd(z);

  SECTION("test_inplace0: Z * (Z + b * dot(R, S).T)") {
    // PyTensor: one gemm, not in place (in place on Z would read Z after writing it): one buffer.
    // Here: 2 buffers borrowed before the rewrite of transpose(dot), 1 now; Z donated: 1 (the dot's).
    constexpr auto f = ip::function(ip::inputs(Z, b, R, S), ip::outputs(Z * (Z + b * ip::transpose(ip::dot(R, S)))));
    STATIC_REQUIRE(ip::plan(f, borrowed, borrowed, borrowed, borrowed).allocations == 1);
    STATIC_REQUIRE(ip::plan(f, donated, borrowed, borrowed, borrowed).allocations == 1);
    const ip::tensor<double, 2> want = zd * (zd + bv * ip::transpose(rs));
    (void)f(z, bv, r, s);
    CHECK(allocations::temporaries([&] { same(f(z, bv, r, s), want); }) == 1);
    ip::tensor<float, 2> z2 = z;
    const float* storage = z2.data();
    ip::tensor<float, 2> out;
    CHECK(allocations::temporaries([&] { out = f(std::move(z2), bv, r, s); }) == 1);
    CHECK(out.data() == storage);
    same(out, want);
  }
  SECTION("test_inplace0: Z * (c * Z + a * dot(X, Y) + b * dot(R, S).T)") {
    // PyTensor: gemm in place on c * Z, twice. Here: a buffer per dot, the rest in place of the first.
    constexpr auto f = ip::function(ip::inputs(X, Y, Z, a, b, R, S, c),
                                    ip::outputs(Z * (c * Z + a * ip::dot(X, Y) + b * ip::transpose(ip::dot(R, S)))));
    STATIC_REQUIRE(ip::plan(f, borrowed, borrowed, borrowed, borrowed, borrowed, borrowed, borrowed, borrowed).allocations == 2);
    same(f(x, y, z, av, bv, r, s, cv), ip::tensor<double, 2>(zd * (cv * zd + av * xy + bv * ip::transpose(rs))));
  }
  SECTION("test_gemm_opt0: b * Z.T - a * dot(Y.T, X.T)") {
    constexpr auto f = ip::function(ip::inputs(X, Y, Z, a, b),
                                    ip::outputs(b * ip::transpose(Z) - a * ip::dot(ip::transpose(Y), ip::transpose(X))));
    STATIC_REQUIRE(ip::plan(f, borrowed, borrowed, borrowed, borrowed, borrowed).allocations == 1);
    same(f(x, y, z, av, bv), ip::tensor<double, 2>(bv * ip::transpose(zd) - av * ip::transpose(xy)));
  }
  SECTION("test_gemm_opt0: b * Z.T + a * b * dot(X, Y).T") {
    constexpr auto f = ip::function(ip::inputs(X, Y, Z, a, b),
                                    ip::outputs(b * ip::transpose(Z) + a * b * ip::transpose(ip::dot(X, Y))));
    // the dot's buffer, and one for the scalar a * b (computed once, outside the loop)
    STATIC_REQUIRE(ip::plan(f, borrowed, borrowed, borrowed, borrowed, borrowed).allocations == 2);
    same(f(x, y, z, av, bv), ip::tensor<double, 2>(bv * ip::transpose(zd) + av * bv * ip::transpose(xy)));
  }
  SECTION("test_gemm_opt0: b * Z + a * dot(X, Y).T, X (5, 3), Y (3, 4)") {
    constexpr auto f = ip::function(ip::inputs(X, Y, Z, a, b), ip::outputs(b * Z + a * ip::transpose(ip::dot(X, Y))));
    STATIC_REQUIRE(ip::plan(f, borrowed, borrowed, borrowed, borrowed, borrowed).allocations == 1);
    STATIC_REQUIRE(ip::plan(f, borrowed, borrowed, donated, borrowed, borrowed).allocations == 1);
    const auto x5 = matrix<float>(5, 3, 6), y4 = matrix<float>(3, 4, 7);
    const auto xy5 = product(x5, y4);
    same(f(x5, y4, z, av, bv), ip::tensor<double, 2>(bv * zd + av * ip::transpose(xy5)));
  }
  SECTION("test_gemm_opt_double_gemm: Z * c + a * dot(X, Y) + b * dot(R, S).T") {
    // PyTensor: two gemms in place on Z (mutable). Here: a buffer per dot.
    constexpr auto f = ip::function(ip::inputs(X, Y, Z, a, b, R, S, c),
                                    ip::outputs(Z * c + a * ip::dot(X, Y) + b * ip::transpose(ip::dot(R, S))));
    STATIC_REQUIRE(ip::plan(f, borrowed, borrowed, borrowed, borrowed, borrowed, borrowed, borrowed, borrowed).allocations == 2);
    same(f(x, y, z, av, bv, r, s, cv), ip::tensor<double, 2>(zd * cv + av * xy + bv * ip::transpose(rs)));
  }
}
