// Views and products, ported as facts from the peers' suites with NumPy as
// the oracle: PyTorch's test/test_view_ops.py (a write through diagonal,
// select, narrow, transpose/permute/T, squeeze, unsqueeze, view/reshape,
// flatten, basic indexing with None reaches the base's element; a
// transpose made contiguous is a copy; flatten of a transpose is no view) and
// JAX's tests/lax_numpy_test.py testMatmul and testDot shapes (1-D x 1-D, 1-D
// x 2-D, batched and broadcast, plus 0-size extents and transposed operands),
// each as a tensor statement and in a graph (values, and views of a borrowed
// input returned into the caller's storage).
#include <inplace.hpp>

#include "peer_compare.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ip = inplace;
using namespace ip::literals;

namespace {
// seed 0: (i % 7 - 3) / 2, seed 1: i * 3 % 5 - 2, in row-major order (small
// halves: every product below is exact in float).
template <auto E>
ip::tensor<float, E> fill(int seed) {
  ip::tensor<float, E> t;
  for (std::size_t i = 0; i < t.size(); ++i)
    t[i] = seed == 0 ? static_cast<float>(static_cast<int>(i % 7) - 3) * 0.5f : static_cast<float>(static_cast<int>(i * 3 % 5) - 2);
  return t;
}

// fn(a, b) on tensors of extents EA and EB, and in a graph (borrowed, debug).
template <auto EA, auto EB, class F>
void product_gives(F fn, const std::vector<std::size_t>& ext, const std::vector<double>& want) {
  const auto a = fill<EA>(0);
  const auto b = fill<EB>(1);
  const auto r = fn(a, b);
  CHECK(extents(r) == ext);
  CHECK(values(r) == want);
  constexpr auto A = ip::input<"A", float, EA>;
  constexpr auto B = ip::input<"B", float, EB>;
  constexpr auto f = ip::function(ip::inputs(A, B), ip::outputs(fn(A, B)));
  const auto g = f(a, b);
  CHECK(extents(g) == ext);
  CHECK(values(g) == want);
  CHECK(values(f.debug(a, b)) == want);
}
template <std::size_t... E>
constexpr auto ex = ip::extents<E...>;
constexpr auto mm = [](const auto& x, const auto& y) { return ip::matmul(x, y); };
constexpr auto dt = [](const auto& x, const auto& y) { return ip::dot(x, y); };
}  // namespace

TEST_CASE("JAX testMatmul shapes: vectors, matrices, batches, broadcast batches", "[peer][matmul]") {
  product_gives<ex<3>, ex<3>>(mm, {}, {2.5});
  product_gives<ex<3, 3>, ex<3>>(mm, {3}, {2.5, -0.5, -3.5});
  product_gives<ex<3>, ex<3, 3>>(mm, {3}, {0.5, -1, 2.5});
  product_gives<ex<3, 3>, ex<3, 3>>(mm, {3, 3}, {0.5, -1, 2.5, 2, -1, 1, -7, 2.5, -0.5});
  product_gives<ex<3>, ex<5, 3, 2>>(mm, {5, 2}, {4, -2.5, -2.5, 1, 1, -0.5, -0.5, -2, -2, 4});
  product_gives<ex<5, 3, 2>, ex<2>>(mm, {5, 3}, {2, 1, 0, -4.5, 1.5, 0.5, -0.5, 2, 1, 0, -4.5, 1.5, 0.5, -0.5, 2});
  product_gives<ex<5, 2>, ex<3, 2, 4>>(
      mm, {3, 5, 4}, {3,  0.5, 0.5, -2, 1,  -0.5, 0.5, -1,   -1,  -1.5, 0.5, 0,  -3, 4.5, -3,   4.5, 2,  0,  0.5, -1.5,
                      -2, -2,  3,   0.5, -1, 0,    1,   -0.5, 0,   2,    -1,  -1.5, 4.5, -3, -3,  4.5, -1.5, -1, 2,  0,
                      0.5, 0.5, -2, -2, -0.5, 0.5, -1, 0,    -1.5, 0.5,  0,   2,   4.5, -3, 4.5, -3,  0,    0.5, -1.5, -1});
  product_gives<ex<5, 2, 3>, ex<3, 2>>(mm, {5, 2, 2},
                                       {4, -2.5, -0.5, -1, -1.5, 0.5, 1, -1.5, -3.5, 7, 2.5, -2, -2, -0.5, 4, -2.5, -0.5, -1, -1.5, 0.5});
  product_gives<ex<5, 3, 4>, ex<5, 4, 1>>(mm, {5, 3, 1}, {2.5, -4.5, 2.5, -3.5, -0.5, 2.5, -0.5, -2, -3.5, -1, 4, -1.5, 1, 1.5, -1.5});
  product_gives<ex<3, 1, 3, 4>, ex<5, 4, 1>>(
      mm, {3, 5, 3, 1}, {2.5,  -4.5, 2.5,  1.5, 1,    0.5,  -2,   -3.5, -1.5, -0.5, 4.5,  -1,  -1.5, 2.5,  -0.5,
                         -1,   2.5,  -4.5, -3.5, -0.5, 2.5, 4,    -1,   4.5,  4,    -1.5, -3.5, -3.5, 0.5, 1,
                         2.5,  2.5,  -4.5, -1.5, 1.5,  1,   -0.5, -2,   -3.5, -2,   -0.5, 4.5,  1.5,  -1.5, 2.5});
}

TEST_CASE("matmul: 0-size rows, columns, batches; transposed operands", "[peer][matmul]") {
  product_gives<ex<0, 3>, ex<3, 4>>(mm, {0, 4}, {});
  product_gives<ex<2, 3>, ex<3, 0>>(mm, {2, 0}, {});
  product_gives<ex<0, 2, 3>, ex<3, 4>>(mm, {0, 2, 4}, {});
  product_gives<ex<0, 1, 2, 3>, ex<5, 3, 4>>(mm, {0, 5, 2, 4}, {});
  product_gives<ex<0>, ex<0>>(mm, {}, {0});
  // a.swapaxes(-1, -2) @ b, a @ b.T, a.T @ b.T
  product_gives<ex<5, 3, 2>, ex<5, 3, 4>>([](const auto& x, const auto& y) { return ip::matmul(ip::swap_axes<1, 2>(x), y); },
                                          {5, 2, 4},
                                          {4,  -0.5, 0,    -2, 4,    -1,   -1,   -1,   -2.5, 4,  -2,  -3,   0,    -2,
                                           -1.5, 4,  -2.5, -3, 4,    -1.5, -2,   -3,   3.5,  -2.5, -2.5, 3, -1.5, 4,
                                           4,  -1.5, 3,    -2.5, -2.5, 3.5, -3,   -2,   -1.5, 4,    -3, -2.5});
  product_gives<ex<3, 4>, ex<5, 4>>([](const auto& x, const auto& y) { return ip::matmul(x, ip::transpose(y)); }, {3, 5},
                                    {2.5, 1.5, -2, -0.5, -1.5, -4.5, 1, -3.5, 4.5, 2.5, 2.5, 0.5, -1.5, -1, -0.5});
  product_gives<ex<4, 3>, ex<5, 4>>([](const auto& x, const auto& y) { return ip::matmul(ip::transpose(x), ip::transpose(y)); },
                                    {3, 5}, {0.5, 2, -6.5, 2.5, 1.5, 4, -2.5, 1, 2, -4.5, 4, -3.5, 1.5, 1.5, -3.5});
  product_gives<ex<4, 3>, ex<5, 4>>([](const auto& x, const auto& y) { return ip::dot(ip::transpose(x), ip::transpose(y)); },
                                    {3, 5}, {0.5, 2, -6.5, 2.5, 1.5, 4, -2.5, 1, 2, -4.5, 4, -3.5, 1.5, 1.5, -3.5});
}

// testDot's shapes of ranks 1 and 2 (ranks 3 and up are a compile error:
// tests/fail/operand_rank.fail.dot_rank_3.cpp), k = 0 and 0 rows.
TEST_CASE("JAX testDot shapes of ranks 1 and 2, k = 0, 0 rows", "[peer][dot]") {
  product_gives<ex<6>, ex<6, 4>>(dt, {4}, {0.5, 1, 1.5, -0.5});
  product_gives<ex<3, 4>, ex<4, 5>>(dt, {3, 5}, {6, -3, 3, -6, 0, -3, 1.5, -1.5, 3, 0, 2, -1, 1, -2, 0});
  product_gives<ex<4, 5>, ex<5>>(dt, {4}, {2.5, -1, 2.5, 2.5});
  product_gives<ex<3>, ex<3>>(dt, {}, {2.5});
  product_gives<ex<3, 0>, ex<0, 2>>(dt, {3, 2}, {0, 0, 0, 0, 0, 0});
  product_gives<ex<0, 4>, ex<4, 5>>(dt, {0, 5}, {});
}

// Products of views of views: a reversed transpose, a diagonal, a row made a
// matrix by expand_dims, a column of every other row. a = fill (4, 4) seed 0,
// b = fill (4, 4) seed 1.
TEST_CASE("products of views of views", "[peer][matmul][views]") {
  // a.T[::-1] @ b
  product_gives<ex<4, 4>, ex<4, 4>>([](const auto& x, const auto& y) { return ip::matmul(ip::reverse(ip::transpose(x)), y); },
                                    {4, 4}, {2, 1, -2.5, 4, 2.5, -6.5, 2, 0.5, -0.5, 0, 3, -6.5, 0, -0.5, 4, -6.5});
  // np.diagonal(a) @ b, a[None, 1] @ b, b[:, ::2] @ a[::2, 3]
  product_gives<ex<4, 4>, ex<4, 4>>([](const auto& x, const auto& y) { return ip::dot(ip::diagonal(x), y); }, {4},
                                    {4, -5.5, 2.5, -2});
  product_gives<ex<4, 4>, ex<4, 4>>([](const auto& x, const auto& y) { return ip::matmul(ip::expand_dims<0>(ip::row<1>(x)), y); },
                                    {1, 4}, {3.5, -4.5, -2.5, 4.5});
  product_gives<ex<4, 4>, ex<4, 4>>(
      [](const auto& x, const auto& y) {
        return ip::matmul(ip::view(y, ip::all, ip::range<0, ip::end, 2>), ip::col<3>(ip::slice<0, ip::end, 2>(x)));
      },
      {4}, {-0.5, 0.5, -1, 0});
}

// test_view_ops: a write through each view reaches the base's element (the
// view is of the base's storage, NumPy's np.shares_memory): diagonal (v[0] ->
// t[0, 0]), diagonal(offset=1, dim1=1, dim2=2) of (3, 3, 3) (v[0, 0] -> t[0, 0,
// 1]), select(0, 2) (v[0] -> t[2, 0]), narrow(1, 2, 2) (v[0, 0] -> t[0, 2]),
// permute/transpose/T (v[0, 1] -> t[1, 0]), squeeze of (5, 1, 5) (v[0, 1] ->
// t[0, 0, 1]), unsqueeze(1) (v[0, 0, 1] -> t[0, 1]), view(25)/reshape (v[6]
// -> t[1, 1]), flatten of (1, 2, 3, 4) (v[0] -> t[0, 0, 0, 0]), t[:2, :3]
// (v[0, 0] -> t[0, 0]), t[None, :2, 3] (v[0, 0] -> t[0, 3]), unbind (row i's
// v[0] -> t[i, 0]).
TEST_CASE("test_view_ops: writes through views reach the base", "[peer][views]") {
  using T5 = ip::tensor<float, ip::extents<5, 5>>;
  T5 t = fill<ip::extents<5, 5>>(1);
  const auto write0 = [](auto&& v, auto... i) -> auto& { return v(i...) = 0.0f; };
  CHECK(&write0(ip::diagonal(t), 0) == &t(0, 0));
  CHECK(&write0(ip::row<2>(t), 0) == &t(2, 0));
  CHECK(&write0(ip::view(t, ip::all, ip::range<2, 4>), 0, 0) == &t(0, 2));
  CHECK(&write0(ip::transpose(t), 0, 1) == &t(1, 0));
  CHECK(&write0(ip::transpose<1, 0>(t), 0, 1) == &t(1, 0));
  CHECK(&write0(ip::swap_axes<0, 1>(t), 0, 1) == &t(1, 0));
  CHECK(&write0(ip::expand_dims<1>(t), 0, 0, 1) == &t(0, 1));
  CHECK(&write0(ip::reshape<25>(t), 6) == &t(1, 1));
  CHECK(&write0(ip::flatten(t), 6) == &t(1, 1));
  CHECK(&write0(ip::view(t, ip::range<0, 2>, ip::range<0, 3>), 0, 0) == &t(0, 0));
  CHECK(&write0(ip::view(t, ip::new_axis, ip::range<0, 2>, ip::at<3>), 0, 0) == &t(0, 3));
  for (std::ptrdiff_t i = 0; i < 5; ++i) {
    ip::row(t, i)(0) = static_cast<float>(i + 1);
    CHECK(t(static_cast<std::size_t>(i), 0) == static_cast<float>(i + 1));
  }
  ip::tensor<float, ip::extents<3, 3, 3>> c = fill<ip::extents<3, 3, 3>>(0);
  auto d = ip::diagonal<1>(ip::transpose<1, 2, 0>(c));  // np.diagonal(c, 1, 1, 2): d[i, k] = c[i, k, k + 1]
  CHECK(extents(d) == std::vector<std::size_t>{3, 2});
  CHECK(values(d) == std::vector<double>{-1, 1, 0, -1.5, 1, -0.5});
  CHECK(&write0(d, 0, 0) == &c(0, 0, 1));
  ip::tensor<float, ip::extents<5, 1, 5>> s = fill<ip::extents<5, 1, 5>>(1);
  CHECK(&write0(ip::squeeze<1>(s), 0, 1) == &s(0, 0, 1));
  ip::tensor<float, ip::extents<1, 2, 3, 4>> q = fill<ip::extents<1, 2, 3, 4>>(1);
  CHECK(&write0(ip::flatten(q), 0) == &q(0, 0, 0, 0));
  CHECK(&write0(ip::flatten(q), 23) == &q(0, 1, 2, 3));
  ip::tensor<float, 0> zero_dim;
  CHECK(ip::flatten(zero_dim).extent(0) == 1);  // a 0-d tensor flattens to (1,)
  CHECK(ip::flatten(zero_dim).data() == zero_dim.data());

  // t.t().contiguous() is a copy; reshape / flatten of a transpose is no view:
  // on tensors a shape_error (copy it first), t unchanged
  t = fill<ip::extents<5, 5>>(1);
  T5 nv(ip::transpose(t));
  nv(0, 1) = 100.0f;
  CHECK(t(1, 0) != 100.0f);
  CHECK(same(values(nv), values(ip::transpose(t))) == false);
  CHECK_THROWS_AS(ip::flatten(ip::transpose(t)), ip::shape_error);
  CHECK_THROWS_AS(ip::reshape<25>(ip::transpose(t)), ip::shape_error);
  ip::tensor<float, ip::extents<2, 2>> sq;
  CHECK_THROWS_AS(ip::flatten(ip::transpose(sq)), ip::shape_error);
}

// The same views in a graph: of a borrowed input, each is returned into the
// caller's storage; a region update through the view writes the base's
// elements (the value of the update is the whole base).
TEST_CASE("test_view_ops in graphs: views of a borrowed input, updates through them", "[peer][views]") {
  constexpr auto X = ip::input<"X", float, ip::extents<5, 5>>;
  constexpr auto C = ip::input<"C", float, ip::extents<3, 3, 3>>;
  constexpr auto f = ip::function(
      ip::inputs(X, C),
      ip::outputs(ip::diagonal(X), ip::row<2>(X), ip::view(X, ip::all, ip::range<2, 4>), ip::transpose(X), ip::expand_dims<1>(X),
                  ip::view(X, ip::new_axis, ip::range<0, 2>, ip::at<3>), ip::diagonal<1>(ip::transpose<1, 2, 0>(C)),
                  ip::reverse(ip::transpose(X))));
  const auto x = fill<ip::extents<5, 5>>(1);
  const auto c = fill<ip::extents<3, 3, 3>>(0);
  const auto [d, r, n, tr, u, b, dc, rt] = f(x, c);
  CHECK(&d(1) == &x(1, 1));
  CHECK(&r(0) == &x(2, 0));
  CHECK(&n(0, 0) == &x(0, 2));
  CHECK(&tr(0, 1) == &x(1, 0));
  CHECK(&u(0, 0, 1) == &x(0, 1));
  CHECK(&b(0, 1) == &x(1, 3));
  CHECK(&dc(0, 0) == &c(0, 0, 1));
  CHECK(values(dc) == std::vector<double>{-1, 1, 0, -1.5, 1, -0.5});
  CHECK(&rt(0, 0) == &x(0, 4));  // x.T[::-1][0, 0] is x[0, 4]
  CHECK(values(rt) == values(ip::reverse(ip::transpose(x))));

  // view(25), flatten and view(dtype) of the contiguous input: into the caller's storage too
  constexpr auto h = ip::function(ip::inputs(X), ip::outputs(ip::reshape<25>(X), ip::flatten(X), ip::reinterpret<std::int32_t>(X),
                                                             ip::flatten(ip::expand_dims<0>(X))));
  const auto [r25, fl, bits, fe] = h(x);
  CHECK(&r25(6) == &x(1, 1));
  CHECK(&fl(6) == &x(1, 1));
  CHECK(static_cast<const void*>(&bits(1, 1)) == static_cast<const void*>(&x(1, 1)));
  CHECK(&fe(24) == &x(4, 4));
  CHECK(values(fl) == values(x));

  // v[0] = 0 through the view, as a graph's update: t with the element zeroed
  const auto zeroed = [&](std::size_t i, std::size_t j) {
    std::vector<double> w = values(x);
    w[i * 5 + j] = 0;
    return w;
  };
  constexpr auto g = ip::function(
      ip::inputs(X), ip::outputs(ip::set(ip::view(ip::diagonal(X), ip::range<0, 1>), 0.0_c),
                                 ip::set(ip::view(ip::transpose(X), ip::at<0>, ip::range<1, 2>), 0.0_c),
                                 ip::set(ip::view(ip::expand_dims<1>(X), ip::at<0>, ip::at<0>, ip::range<1, 2>), 0.0_c),
                                 ip::set(ip::view(X, ip::new_axis, ip::range<0, 2>, ip::at<3>), 0.0_c)));
  const auto [z0, z1, z2, z3] = g(x);
  CHECK(values(z0) == zeroed(0, 0));
  CHECK(values(z1) == zeroed(1, 0));
  CHECK(values(z2) == zeroed(0, 1));
  std::vector<double> w3 = zeroed(0, 3);
  w3[8] = 0;  // x[1, 3] too
  CHECK(values(z3) == w3);
  constexpr auto one = ip::function(ip::inputs(X), ip::outputs(ip::set(ip::diagonal(X), ip::reverse(ip::diagonal(X)) * 2.0_c)));
  std::vector<double> wd = values(x);
  for (std::size_t i = 0; i < 5; ++i) wd[i * 6] = 2 * values(x)[(4 - i) * 6];
  CHECK(values(one(x)) == wd);
  CHECK(values(one(ip::tensor<float, ip::extents<5, 5>>(x))) == wd);
  CHECK(values(one.debug(x)) == wd);
}

// TVM's buffer aliases (the DeclBuffer RFC): T.decl_buffer([4], "float32x4",
// data=A.data) over A of (16,) float32 reads A's lanes; A_flattened =
// T.decl_buffer(A.data, (256,)) over (16, 16) addresses A[i * 16 + j]; a write
// through an alias is a write to A. Assignments between a buffer and its alias
// of another dtype or shape are checked for overlap as any other read: a
// shifted copy through the flattened alias, and the bits of a reversed
// float vector written through its uint32 alias, give NumPy's copy semantics.
TEST_CASE("TVM DeclBuffer: lane and flattened aliases of a buffer, overlapping assignments through them", "[peer][alias]") {
  struct alignas(16) f32x4 {
    float lane[4];
  };
  ip::tensor<float, ip::extents<16>> a = fill<ip::extents<16>>(1);
  auto vec = ip::alias<f32x4, ip::extents<4>>(a);
  CHECK(vec(1).lane[2] == a(6));
  CHECK(vec(3).lane[3] == a(15));
  vec(2).lane[1] = 42.0f;
  CHECK(a(9) == 42.0f);

  using M16 = ip::tensor<float, ip::extents<16, 16>>;
  M16 m = fill<ip::extents<16, 16>>(0);
  const M16 m0 = m;
  auto flat = ip::alias<float, ip::extents<256>>(m);
  CHECK(&flat(5 * 16 + 7) == &m(5, 7));
  // b.reshape(256)[1:] = b.reshape(256)[:-1]: the flattened alias and the buffer's own flatten view
  ip::slice<1>(flat) = ip::slice<0, -1>(ip::flatten(m));
  std::vector<double> shifted = values(m0);
  shifted.insert(shifted.begin(), shifted.front());
  shifted.pop_back();
  CHECK(values(m) == shifted);
  m = m0;
  ip::row<0>(m) = ip::slice<8, 24>(flat);  // m[0] = m.ravel()[8:24], overlapping m[0][8:]
  std::vector<double> row0 = values(m0);
  for (std::size_t j = 0; j < 16; ++j) row0[j] = values(m0)[8 + j];
  CHECK(values(m) == row0);

  // x.view(np.uint32)[:] = x[::-1].view(np.uint32): x reversed, bit for bit
  ip::tensor<float> x{1.5f, -2.0f, 0.25f, 8.0f, -0.0f};
  const ip::tensor<float> x0 = x;
  ip::alias<std::uint32_t>(x, 5) = ip::reinterpret<std::uint32_t>(ip::reverse(x));
  CHECK(values(x) == values(ip::reverse(x0)));
  CHECK(std::signbit(x(0)));
  CHECK_THROWS_AS((ip::noalias(ip::alias<std::uint32_t>(x, 5)) = ip::reinterpret<std::uint32_t>(ip::reverse(x))),
                  ip::aliasing_error);
  // an alias of a buffer that is not dense: alias_error
  CHECK_THROWS_AS(ip::alias<float>(ip::view(m, ip::all, ip::range<0, ip::end, 2>), 128), ip::alias_error);
}

// Eigen's v.segment(s, 4) = v.segment(t, 4) with run-time starts (JAX's
// dynamic_update_slice of a dynamic_slice of the same array): whether the
// segments overlap is known only when the graph runs. NumPy: x[s:s+4] =
// x[t:t+4]; x[s:s+4] += x[t:t+4][::-1], x = arange(8).
TEST_CASE("segments at run-time starts copied within one vector", "[peer][aliasing][dynamic_slice]") {
  constexpr auto X = ip::input<"X", float, ip::extents<8>>;
  constexpr auto s = ip::scalar<"s", std::int64_t>;
  constexpr auto t = ip::scalar<"t", std::int64_t>;
  using V8 = ip::tensor<float, ip::extents<8>>;
  const V8 x{0, 1, 2, 3, 4, 5, 6, 7};
  constexpr auto f = ip::function(ip::inputs(X, s, t), ip::outputs(ip::set(ip::dynamic_slice<0, 4>(X, s), ip::dynamic_slice<0, 4>(X, t))));
  constexpr auto g = ip::function(
      ip::inputs(X, s, t), ip::outputs(ip::inc(ip::dynamic_slice<0, 4>(X, s), ip::reverse(ip::dynamic_slice<0, 4>(X, t)))));
  struct row {
    std::int64_t s, t;
    std::vector<double> set, inc;
  };
  const row rows[] = {{1, 0, {0, 0, 1, 2, 3, 5, 6, 7}, {0, 4, 4, 4, 4, 5, 6, 7}},
                      {0, 1, {1, 2, 3, 4, 4, 5, 6, 7}, {4, 4, 4, 4, 4, 5, 6, 7}},
                      {2, 2, {0, 1, 2, 3, 4, 5, 6, 7}, {0, 1, 7, 7, 7, 7, 6, 7}},
                      {4, 0, {0, 1, 2, 3, 0, 1, 2, 3}, {0, 1, 2, 3, 7, 7, 7, 7}},
                      {3, 1, {0, 1, 2, 1, 2, 3, 4, 7}, {0, 1, 2, 7, 7, 7, 7, 7}},
                      {1, 3, {0, 3, 4, 5, 6, 5, 6, 7}, {0, 7, 7, 7, 7, 5, 6, 7}}};
  for (const row& r : rows) {
    INFO("s = " << r.s << ", t = " << r.t);
    CHECK(values(f(x, r.s, r.t)) == r.set);
    CHECK(values(f(V8(x), r.s, r.t)) == r.set);
    CHECK(values(f.debug(x, r.s, r.t)) == r.set);
    CHECK(values(g(V8(x), r.s, r.t)) == r.inc);
    CHECK(values(g.debug(x, r.s, r.t)) == r.inc);
    V8 y = x;
    ip::view(y, ip::runtime_range{r.s, r.s + 4, 1}) = ip::view(y, ip::runtime_range{r.t, r.t + 4, 1});
    CHECK(values(y) == r.set);
    y = x;
    ip::view(y, ip::runtime_range{r.s, r.s + 4, 1}) += ip::reverse(ip::view(y, ip::runtime_range{r.t, r.t + 4, 1}));
    CHECK(values(y) == r.inc);
  }
}
